import Foundation
import Synchronization
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

#if canImport(Glibc)
import Glibc
#endif

/// The GTFS checks read beside the content digest at the lowest priority: the digest and
/// `VACUUM INTO` are the build's critical path, the checks take the cores they leave idle.
@Suite("A reading job beside the digest")
struct ReadingJobTests {
    #if canImport(Glibc)
    @Test("runs at the lowest priority (nice 19) on its own thread; the thread that started it keeps its own")
    func lowestPriority() throws {
        let folder = TemporaryFolder()
        let path = folder.file("seed.sqlite")
        try Connection(path: path).execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let seen = Mutex<(nice: Int32, rows: Int64)?>(nil)
        let running = ReadingJob.Running(
            ReadingJob(name: "checks") { connection in
                let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                let rows = try connection.rows("SELECT count(*) FROM t")
                guard case .integer(let count) = rows.first?.first else { return }
                seen.withLock { $0 = (nice, count) }
            }, path: path)
        let (timing, outcome) = try running.wait()
        try outcome.get()
        #expect(timing.stage == "checks")
        #expect(seen.withLock { $0?.nice } == 19, "the job's thread")
        #expect(seen.withLock { $0?.rows } == 1, "it read the file read-only")
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before, "the caller's thread")
    }
    #endif
}
