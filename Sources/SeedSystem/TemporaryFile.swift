/// A file written under a temporary name: removed when released unless it was renamed into
/// place, so a failed install or build leaves nothing behind. (A crash leaves it: the installer
/// removes its leftovers at the next install, the builder those of a killed build.)
public final class TemporaryFile {
    /// The temporary name.
    public let path: String
    private var isDone = false

    /// Takes charge of `path`; the file itself is created by whoever writes it.
    public init(path: String) {
        self.path = path
    }

    deinit { remove() }

    /// Atomically renames the file to `destination`; it is no longer removed when released.
    public func rename(to destination: String) throws(SystemCallError) {
        try FileSystem.rename(path, to: destination)
        isDone = true
    }

    /// Removes the file now, if it exists; calling it again, or after the rename, does nothing.
    public func remove() {
        guard !isDone else { return }
        isDone = true
        _ = try? FileSystem.remove(path)
    }
}
