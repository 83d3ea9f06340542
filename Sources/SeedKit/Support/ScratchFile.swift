import Foundation
import SeedSystem

/// A `TemporaryFile` of the tool's, beside the output it replaces once complete, and listed in
/// `TemporaryFiles` meanwhile so that Ctrl-C removes it too.
///
/// Its name is `.<name>.seedgen-<kind>-<pid>-<random>`, which
/// `SeedDatabase.removeAbandonedScratchFiles` recognises after a killed build.
package final class ScratchFile {
    private let file: TemporaryFile
    /// Where the file is written.
    package var path: String { file.path }

    /// A scratch file in the folder of `destination`, so that the rename stays on one file system.
    package convenience init(beside destination: String, kind: String) {
        let url = URL(fileURLWithPath: destination)
        self.init(folder: url.deletingLastPathComponent().path, name: url.lastPathComponent, kind: kind)
    }

    /// A scratch file for `name` in `folder`.
    package init(folder: String, name: String, kind: String) {
        let folder = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        file = TemporaryFile(
            path: "\(folder)/.\(name).seedgen-\(kind)-\(CurrentProcess.id)-\(UInt32.random(in: 0...UInt32.max))")
        TemporaryFiles.register(file.path)
    }

    /// Renames the file over `destination`, replacing it atomically.
    package func moveIntoPlace(at destination: String) throws(SystemCallError) {
        try file.rename(to: destination)
        TemporaryFiles.unregister(path)
    }

    /// Removes the file, if it was created; calling it again does nothing.
    func remove() {
        file.remove()
        TemporaryFiles.unregister(path)
    }

    deinit { remove() }
}
