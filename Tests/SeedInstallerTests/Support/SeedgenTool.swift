import Foundation

/// Runs the built `seedgen` executable (`.build/debug/seedgen`, built by `swift build` or
/// `swift build --build-tests`) as a real process.
enum SeedgenTool {
    /// The executable's path.
    static let path: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("seedgen").path,
            Bundle.main.bundleURL.appendingPathComponent("seedgen").path,
            root.appendingPathComponent(".build/debug/seedgen").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }()

    static var exists: Bool { FileManager.default.isExecutableFile(atPath: path) }

    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Starts `seedgen` with `arguments`, not waiting for it.
    static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        if let environment { process.environment = environment }
        try process.run()
        return process
    }

    /// Waits for a started process and collects its output.
    static func finish(_ process: Process) -> Output {
        let out = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
        let err = (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs `seedgen` to completion.
    static func run(_ arguments: [String]) throws -> Output {
        finish(try start(arguments))
    }

    /// Runs a shell command line to completion.
    static func shell(_ command: String) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return finish(process)
    }
}
