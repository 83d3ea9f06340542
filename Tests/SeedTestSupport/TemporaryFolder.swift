import Foundation

/// A fresh, uniquely named folder under the system's temporary folder for one test; removed,
/// with everything in it, when the last reference goes.
public final class TemporaryFolder: Sendable {
    /// The folder's absolute path.
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "seedgen-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` (which may hold `/`) inside the folder; nothing is created.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` as UTF-8, exactly, to `name` inside the folder, creating the folders on the
    /// way; returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        write(name, bytes: Array(text.utf8))
    }

    /// Writes `bytes` to `name` inside the folder, creating the folders on the way; returns its path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) -> String {
        let file = self.file(name)
        try! FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        precondition(FileManager.default.createFile(atPath: file, contents: Data(bytes)), "cannot write \(file)")
        return file
    }

    /// The names in the folder (hidden ones included), sorted.
    public var contents: [String] { contents(of: path) }

    /// The names in the folder at `path` (any folder, such as a mount point inside this one),
    /// sorted; empty when it cannot be listed.
    public func contents(of path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
