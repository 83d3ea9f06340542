import SeedSystem
import Foundation

/// Scratch files to remove if the process is interrupted (Ctrl-C, SIGTERM).
public enum TemporaryFiles {
    nonisolated(unsafe) private static var paths: Set<String> = []
    private static let lock = Lock()

    static func register(_ path: String) { lock.withLock { _ = paths.insert(path) } }
    static func unregister(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    /// Removes every registered scratch file; safe to call from a signal handler's exit path.
    public static func removeAll() {
        lock.withLock { for path in paths { _ = try? FileSystem.remove(path) } }
    }
}
