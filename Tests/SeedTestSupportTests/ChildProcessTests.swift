import Foundation
import SeedTestSupport
import Testing

/// The process runner every suite uses: both pipes read while the child runs, a time limit
/// that kills it, and its exit told apart from a signal.
@Suite struct ChildProcessTests {
    @Test("a child writing 4 MB to stderr before 4 MB to stdout finishes, every byte read")
    func bothPipesFull() throws {
        // Far more than a pipe holds (64 KiB): a runner that read stdout to its end before
        // stderr would wait forever for a child blocked on a full stderr.
        let size = 4 << 20
        let output = try ChildProcess.shell("yes e | head -c \(size) >&2; yes o | head -c \(size)", timeout: .seconds(120))
        #expect(!output.timedOut && output.status == 0, "\(output.status)")
        #expect(output.stdoutBytes.count == size && output.stderrBytes.count == size)
        #expect(output.stdoutBytes == Data(String(repeating: "o\n", count: size / 2).utf8))
        #expect(output.stderrBytes == Data(String(repeating: "e\n", count: size / 2).utf8))
    }

    @Test("the exit status, and a signal told apart from it")
    func status() throws {
        let exited = try ChildProcess.shell("printf out; printf err >&2; exit 3")
        #expect(exited.status == 3 && !exited.signalled && !exited.timedOut)
        #expect(exited.stdout == "out" && exited.stderr == "err")
        let killed = try ChildProcess("/bin/sleep", ["30"])
        killed.send(SIGKILL)
        let output = killed.wait()
        #expect(output.signalled && output.status == SIGKILL && !output.timedOut, "\(output)")
        #expect(!killed.isRunning)
    }

    @Test("past its time limit the child is killed, with the commands it started")
    func timeout() throws {
        let clock = ContinuousClock()
        var output: ChildProcess.Output?
        // `cat` holds the pipe too: killing the shell alone would leave the test waiting for it.
        let elapsed = try clock.measure {
            output = try ChildProcess.shell("printf started; sleep 60 | cat", timeout: .milliseconds(500))
        }
        #expect(output?.timedOut == true && output?.status == SIGKILL, "\(String(describing: output))")
        #expect(output?.stdout == "started", "what it wrote before is kept")
        #expect(elapsed < .seconds(30), "\(elapsed)")
    }

    @Test("runs in the repository root unless told otherwise")
    func directory() throws {
        #expect(try ChildProcess.run("/bin/pwd").stdout == Repository.root + "\n")
        let folder = TemporaryFolder()
        #expect(try ChildProcess.run("/bin/pwd", in: folder.path).stdout == folder.path + "\n")
    }

    @Test("a program that does not exist is an error, not a hang")
    func missingProgram() {
        #expect(throws: (any Error).self) { try ChildProcess.run("/no/such/program") }
    }
}
