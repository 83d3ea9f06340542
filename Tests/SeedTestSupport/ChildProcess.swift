import Foundation

/// A program a test runs, with its standard output and standard error read at the same time
/// (one thread each) while it runs, so a child that fills one pipe while the test reads the
/// other cannot deadlock; and a time limit after which the child is killed.
///
/// ```swift
/// let result = try ChildProcess.run("/usr/bin/gzip", ["-t", path])
/// #expect(result.status == 0, "\(result.stderr)")
/// ```
///
/// Standard input is inherited. The child runs in `directory`, by default the repository root.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: `output`/`errors` are written by one reader thread each before it leaves
    // `finished`, and read only after `finished` was waited for.

    /// What a finished child printed and how it ended.
    public struct Output: Sendable, CustomStringConvertible {
        /// The exit status, or the signal number when a signal ended it (`SIGKILL` after a timeout).
        public var status: Int32
        /// Whether a signal ended it.
        public var signalled: Bool
        /// Whether it outlived its time limit and was killed.
        public var timedOut: Bool
        /// Everything written to standard output.
        public var stdoutBytes: Data
        /// Everything written to standard error.
        public var stderrBytes: Data

        /// Standard output as UTF-8 (invalid bytes replaced).
        public var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
        /// Standard error as UTF-8 (invalid bytes replaced).
        public var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }

        public var description: String {
            let ending = timedOut ? "killed after its time limit" : signalled ? "killed by signal \(status)" : "exit status \(status)"
            return "\(ending); stdout: \(stdout.debugDescription); stderr: \(stderr.debugDescription)"
        }
    }

    /// The time limit of ``run(_:_:in:environment:timeout:)`` and ``wait(timeout:)`` when none
    /// is given: longer than any command of the suite takes, short enough that a hang ends.
    public static let defaultTimeout: Duration = .seconds(600)

    private let process = Process()
    /// Left once by each reader at the end of its pipe and once when the child exits.
    private let finished = DispatchGroup()
    private var output = Data()
    private var errors = Data()

    /// Starts `executable` with `arguments` and returns at once.
    /// - Parameters:
    ///   - directory: the working directory (default: the repository root).
    ///   - environment: the whole environment (default: the test's).
    public init(_ executable: String, _ arguments: [String] = [], in directory: String? = nil,
                environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? Repository.root)
        if let environment { process.environment = environment }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        finished.enter()
        process.terminationHandler = { [finished] _ in finished.leave() }
        do { try process.run() } catch {
            finished.leave()
            throw error
        }
        drain(stdout.fileHandleForReading) { self.output = $0 }
        drain(stderr.fileHandleForReading) { self.errors = $0 }
    }

    /// Reads `handle` to its end on a thread of its own, then hands over what it read.
    private func drain(_ handle: FileHandle, into store: @escaping @Sendable (Data) -> Void) {
        finished.enter()
        let thread = Thread { [finished] in
            store((try? handle.readToEnd()) ?? Data())
            try? handle.close()
            finished.leave()
        }
        thread.start()
    }

    /// The child's process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the child (and its own process group, when it leads one: the commands
    /// a shell started).
    public func send(_ signal: Int32) {
        let pid = process.processIdentifier
        if getpgid(pid) == pid { kill(-pid, signal) } else { kill(pid, signal) }
    }

    /// Waits until the child has exited and both pipes are read to their end; kills it (with
    /// `SIGKILL`) when that takes longer than `timeout`.
    public func wait(timeout: Duration = ChildProcess.defaultTimeout) -> Output {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        var timedOut = false
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            timedOut = true
            send(SIGKILL)
            finished.wait()
        }
        // Foundation's Process on Linux keeps itself (and its pipes) alive until this is
        // called, even after the child has exited: without it every child leaks (LeakSanitizer).
        process.waitUntilExit()
        return Output(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                      timedOut: timedOut, stdoutBytes: output, stderrBytes: errors)
    }

    /// Runs `executable` to its end (see ``init(_:_:in:environment:)`` and ``wait(timeout:)``).
    public static func run(_ executable: String, _ arguments: [String] = [], in directory: String? = nil,
                           environment: [String: String]? = nil, timeout: Duration = defaultTimeout) throws -> Output {
        try ChildProcess(executable, arguments, in: directory, environment: environment).wait(timeout: timeout)
    }

    /// Runs a `/bin/sh -c` command line to its end.
    public static func shell(_ command: String, in directory: String? = nil, timeout: Duration = defaultTimeout) throws -> Output {
        try run("/bin/sh", ["-c", command], in: directory, timeout: timeout)
    }
}
