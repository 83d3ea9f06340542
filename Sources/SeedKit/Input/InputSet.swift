import SeedSystem
import Foundation

/// The files named by `seedgen build INPUT...`: folders, zip archives and single files,
/// flattened into one list keyed by file name.
public struct InputSet: Sendable {
    public private(set) var files: [InputFile] = []
    /// The paths the files came from, as given.
    public private(set) var paths: [String] = []

    /// The paths, for messages.
    var sources: String { paths.joined(separator: ", ") }

    /// Collects the files of every input. A folder contributes the files directly inside it
    /// (not hidden ones, not subfolders); a `.zip` its entries (folders inside flattened);
    /// any other path the file itself.
    public init(paths: [String]) throws(InputError) {
        self.paths = paths
        var seen: [String: String] = [:]
        for path in paths {
            for file in try Self.files(at: path) {
                if let other = seen[file.name] {
                    throw InputError(
                        path: file.displayPath, message: "the file name '\(file.name)' is also given by \(other)")
                }
                seen[file.name] = file.displayPath
                files.append(file)
            }
        }
        files.sort { $0.name < $1.name }
    }

    /// The files of several feeds together (names may repeat).
    init(files: [InputFile], paths: [String]) {
        self.files = files
        self.paths = paths
    }

    /// The set without `removed` (compared by path).
    func removing(_ removed: [InputFile]) -> InputSet {
        let paths = Set(removed.map(\.displayPath))
        var copy = self
        copy.files.removeAll { paths.contains($0.displayPath) }
        return copy
    }

    /// The file named `name` (exact match first, then ignoring case).
    public func file(named name: String) -> InputFile? {
        files.first { $0.name == name } ?? files.first { $0.name.lowercased() == name.lowercased() }
    }

    private static func files(at path: String) throws(InputError) -> [InputFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(path: path, message: "no such file or folder")
        }
        if isDirectory.boolValue {
            // Listed as bytes: a name that is not UTF-8 is refused by its real bytes, not
            // decoded into another name that does not exist.
            var names: [String] = []
            let entries: [[UInt8]]
            do { entries = try FileSystem.directoryEntryNames(path) } catch {
                throw InputError(path: path, message: "cannot list the folder: \(error.reason)")
            }
            // Hidden names (`.DS_Store`, `.git`) are left out.
            for raw in entries where raw.first != UInt8(ascii: ".") {
                guard let name = raw.withUnsafeBufferPointer(FileName.utf8) else {
                    let shown = raw.withUnsafeBufferPointer(FileName.display)
                    throw InputError(path: (path as NSString).appendingPathComponent(shown), message: FileName.notUTF8)
                }
                names.append(name)
            }
            var result: [InputFile] = []
            for name in names.sorted() where !name.hasPrefix(".") {
                let full = (path as NSString).appendingPathComponent(name)
                var sub: ObjCBool = false
                guard FileManager.default.fileExists(atPath: full, isDirectory: &sub), !sub.boolValue else { continue }
                result.append(try plainFile(full, name: name))
            }
            return result
        }
        if path.lowercased().hasSuffix(".zip") {
            return try ZipArchive(path: path).inputFiles()
        }
        return [try plainFile(path, name: (path as NSString).lastPathComponent)]
    }

    private static func plainFile(_ path: String, name: String) throws(InputError) -> InputFile {
        let status: FileStatus
        do throws(SystemCallError) {
            guard let found = try FileSystem.status(path) else {
                throw SystemCallError(call: "stat", path: path, errno: ENOENT)
            }
            status = found
        } catch { throw InputError(path: path, message: "cannot read: \(error.reason)") }
        return InputFile(name: name, displayPath: path, size: status.size) { () throws(InputError) -> ByteSource in
            try FileByteSource(path: path)
        }
    }
}
