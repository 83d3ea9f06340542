import Foundation

/// The few system calls the builder makes on its output, in one place.
enum FileSystem {
    /// Flushes a file's data to disk.
    static func syncFile(_ path: String, for output: String) throws(BuildError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw BuildError.output(path: output, message: "cannot flush \(path) to disk: \(reason)")
        }
        close(fd)
    }

    /// Flushes a folder, so a rename inside it is on disk.
    static func syncFolder(of path: String) throws(BuildError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// Scratch files to remove if the process is interrupted (Ctrl-C, SIGTERM).
public enum TemporaryFiles {
    nonisolated(unsafe) private static var paths: Set<String> = []
    private static let lock = NSLock()

    static func register(_ path: String) { lock.withLock { _ = paths.insert(path) } }
    static func unregister(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    /// Removes every registered scratch file; safe to call from a signal handler's exit path.
    public static func removeAll() {
        lock.withLock { for path in paths { unlink(path) } }
    }
}
