import Foundation

/// The built `seedgen` executable (`swift build` or `swift build --build-tests` puts it beside
/// the test bundle), run as a user or a deploy script runs it.
public enum SeedgenTool {
    /// The executable's path.
    public static let path: String = {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("seedgen").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("seedgen").path,
            Repository.path(".build/debug/seedgen"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }()

    /// Whether the executable was built.
    public static var exists: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs `seedgen arguments...` in `directory` (default: the repository root) to its end.
    public static func run(_ arguments: [String], in directory: String? = nil,
                           timeout: Duration = ChildProcess.defaultTimeout) throws -> ChildProcess.Output {
        try ChildProcess.run(path, arguments, in: directory, timeout: timeout)
    }

    /// Starts `seedgen arguments...` and returns at once; ``ChildProcess/wait(timeout:)`` collects it.
    public static func start(_ arguments: [String], in directory: String? = nil) throws -> ChildProcess {
        try ChildProcess(path, arguments, in: directory)
    }
}
