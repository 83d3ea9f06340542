import Foundation
import SeedSystem

/// A file the tool writes under a hidden name and, for an output, renames over its destination
/// only once it is complete, so the destination is never half-written.
///
/// Until then `TemporaryFiles` lists it (Ctrl-C removes it); dropped without
/// ``moveIntoPlace(at:)``, it is removed. Its name is `.<name>.seedgen-<kind>-<pid>-<random>`,
/// which `SeedDatabase.removeAbandonedScratchFiles` recognises after a killed build.
final class ScratchFile {
    /// Where the file is written.
    let path: String
    private var isDone = false

    /// A scratch file in the folder of `destination`, so that the rename stays on one file system.
    convenience init(beside destination: String, kind: String) {
        let url = URL(fileURLWithPath: destination)
        self.init(folder: url.deletingLastPathComponent().path, name: url.lastPathComponent, kind: kind)
    }

    /// A scratch file for `name` in `folder`.
    init(folder: String, name: String, kind: String) {
        let folder = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        path = "\(folder)/.\(name).seedgen-\(kind)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        TemporaryFiles.register(path)
    }

    /// Renames the file over `destination`, replacing it atomically.
    func moveIntoPlace(at destination: String) throws(SystemCallError) {
        try FileSystem.rename(path, to: destination)
        isDone = true
        TemporaryFiles.unregister(path)
    }

    /// Removes the file, if it was created; calling it again does nothing.
    func remove() {
        guard !isDone else { return }
        isDone = true
        _ = try? FileSystem.remove(path)
        TemporaryFiles.unregister(path)
    }

    deinit { remove() }
}
