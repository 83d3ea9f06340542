import Foundation
import SeedSystem

/// A `TemporaryFile` of the tool's, beside the output it replaces once complete, and listed in
/// `TemporaryFiles` meanwhile so that Ctrl-C removes it too.
///
/// Its name is `.<name>.seedgen-<kind>-<pid>-<random>`, which ``removeAbandoned(beside:kinds:)``
/// recognises after a killed process: creating one removes those of its kind and name that a
/// killed process left (SIGKILL cannot be caught).
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
        Self.removeAbandoned(folder: folder, output: name, kinds: [kind])
        file = TemporaryFile(
            path: "\(folder)/.\(name).seedgen-\(kind)-\(CurrentProcess.id)-\(UInt32.random(in: 0...UInt32.max))")
        TemporaryFiles.register(file.path)
    }

    /// Removes the scratch files of `destination` of `kinds` that a process left behind when it
    /// was killed (SIGKILL cannot be caught): `.<name>.seedgen-<kind>-<pid>-<n>` whose process is
    /// gone. Nothing else in the folder is touched.
    package static func removeAbandoned(beside destination: String, kinds: [String]) {
        let url = URL(fileURLWithPath: destination)
        removeAbandoned(folder: url.deletingLastPathComponent().path, output: url.lastPathComponent, kinds: kinds)
    }

    private static func removeAbandoned(folder: String, output: String, kinds: [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names {
            guard let rest = kinds.lazy.compactMap({ name.stripping(prefix: ".\(output).seedgen-\($0)-") }).first
            else { continue }
            let parts = rest.split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil, pid != CurrentProcess.id else {
                continue
            }
            if !CurrentProcess.processExists(pid) { _ = try? FileSystem.remove("\(folder)/\(name)") }
        }
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

extension String {
    /// The rest of the string after `prefix`, or nil when it does not start with it.
    func stripping(prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
