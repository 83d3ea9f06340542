import Foundation

/// Runs the built `seedgen` binary as a user would, and captures what it prints.
struct SeedGenProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The repository root, found from this file.
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    /// The `seedgen` executable next to the test bundle (`.build/debug`).
    static let executable: String = {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("seedgen").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("seedgen").path,
            repositoryRoot + "/.build/debug/seedgen",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }()

    /// Runs `seedgen arguments...` in `directory` (default: the repository root) and waits.
    static func run(_ arguments: [String], in directory: String? = nil) throws -> Result {
        try runProgram(executable, arguments, in: directory)
    }

    /// Runs any program (gzip, swiftc, script, a generator) the same way and waits.
    static func runProgram(_ path: String, _ arguments: [String], in directory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? repositoryRoot)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// A temporary folder for one test; removed on deinit.
final class Scratch {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "seedgen-e2e-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let file = self.file(name)
        try! FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! text.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? [] }
}
