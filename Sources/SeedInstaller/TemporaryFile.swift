import SeedSystem

/// A temporary file in the destination's folder: removed on `deinit` unless it was renamed into
/// place, so a failed install leaves nothing behind (a crash leaves it for the next install
/// to remove, see ``SeedFiles/removeLeftoverTemporaryFiles()``).
final class TemporaryFile {
    let path: String
    private var isRenamed = false

    init(path: String) {
        self.path = path
    }

    deinit {
        if !isRenamed { _ = try? FileSystem.remove(path) }
    }

    /// Atomically renames the file to `destination`; it is no longer removed on `deinit`.
    func rename(to destination: String) throws(SystemCallError) {
        try FileSystem.rename(path, to: destination)
        isRenamed = true
    }
}
