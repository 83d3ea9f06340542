import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedSystem
import Testing
@testable import SeedKit

@Suite("The write queue: one thread owns the build's connection; every use of it is a job there")
struct WriteQueueTests {
    private func makeQueue() throws -> WriteQueue {
        let connection = try Connection(path: ":memory:", mode: .create)
        try connection.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        return WriteQueue(connection: connection)
    }

    @Test("jobs run on the writer thread, in submission order; sync returns its job's result")
    func jobsRunInOrderOnTheWriterThread() throws {
        let queue = try makeQueue()
        defer { queue.stop() }
        let seen = Seen<pthread_t>() // appended to by the jobs, read after `sync`
        for k in 1...50 {
            try queue.submit { connection throws(SQLiteError) in
                seen.append(pthread_self())
                try connection.execute("INSERT INTO t VALUES (\(k), 'v')")
            }
        }
        let rows = try queue.sync { connection throws(SQLiteError) in try connection.rows("SELECT k FROM t ORDER BY rowid") }
        seen.append(try queue.sync { _ in pthread_self() })
        let threads = seen.all
        #expect(rows == (1...50).map { [Value.integer(Int64($0))] })
        #expect(threads.count == 51 && threads.allSatisfy { pthread_equal($0, threads[0]) != 0 }, "one thread")
        #expect(pthread_equal(threads[0], pthread_self()) == 0, "not the caller's")
    }

    @Test("a sync job's error goes to its caller only; a submitted job's failure stops the queue")
    func failures() throws {
        let queue = try makeQueue()
        defer { queue.stop() }
        let refused = #expect(throws: SQLiteError.self) { try queue.execute("INSERT INTO t VALUES (1, NULL)") }
        #expect(refused?.isConstraintViolation == true && refused?.isUniqueViolation == false)
        try queue.execute("INSERT INTO t VALUES (1, 'one')") // the queue goes on

        try queue.submit { connection throws(SQLiteError) in try connection.execute("INSERT INTO t VALUES (1, 'again')") }
        let failed = #expect(throws: SQLiteError.self) { try queue.drain() }
        #expect(failed?.isUniqueViolation == true, "the original error, with its code: \(String(describing: failed))")
        let ran = Seen<Bool>()
        let later = #expect(throws: SQLiteError.self) { try queue.sync { _ in ran.append(true) } }
        #expect(later?.code == failed?.code && ran.all.isEmpty, "jobs after a failure are not run; the failure is thrown instead")
    }

    @Test("stop ends the thread and hands the connection back")
    func stopHandsTheConnectionBack() throws {
        let queue = try makeQueue()
        try queue.submit { connection throws(SQLiteError) in try connection.execute("INSERT INTO t VALUES (7, 'seven')") }
        let connection = try #require(queue.stop(), "the queued job has run before the thread ended")
        #expect(try connection.scalar("SELECT v FROM t WHERE k = 7") == .text("seven"))
        #expect(queue.stop() == nil, "handed back once")
    }
}

/// What jobs on the writer thread saw, read by the test afterwards.
private final class Seen<Element>: @unchecked Sendable {
    // @unchecked: `items` is behind `lock`.
    private let lock = Lock()
    private var items: [Element] = []

    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }
}

@Suite("SQLite result codes have names")
struct SQLiteResultCodeTests {
    @Test("a repeated UNIQUE or PRIMARY KEY value is a unique violation; NOT NULL is another constraint")
    func uniqueViolations() throws {
        let database = try Connection(path: ":memory:", mode: .create)
        try database.execute("""
            CREATE TABLE u (k TEXT UNIQUE, v TEXT NOT NULL);
            CREATE TABLE p (a INTEGER, b INTEGER, PRIMARY KEY (a, b)) WITHOUT ROWID;
            INSERT INTO u VALUES ('x', 'v');
            INSERT INTO p VALUES (1, 2);
            """)
        func failure(_ sql: String) -> SQLiteError? { #expect(throws: SQLiteError.self) { try database.execute(sql) } }
        let unique = failure("INSERT INTO u VALUES ('x', 'w')")
        let primaryKey = failure("INSERT INTO p VALUES (1, 2)")
        let notNull = failure("INSERT INTO u VALUES ('y', NULL)")
        #expect(unique?.resultCode == .constraintUnique && unique?.isUniqueViolation == true)
        #expect(primaryKey?.resultCode == .constraintPrimaryKey && primaryKey?.isUniqueViolation == true)
        #expect(notNull?.isConstraintViolation == true && notNull?.isUniqueViolation == false)
    }
}

@Suite("The issue log is read and written under one lock")
struct IssueLogThreadTests {
    @Test("issues recorded on several threads while another reads are all counted")
    func concurrentRecordsAndReads() {
        let log = IssueLog()
        let writers = DispatchGroup()
        for thread in 0..<4 {
            writers.enter()
            Thread {
                for line in 1...500 {
                    log.record(BuildIssue(kind: thread.isMultiple(of: 2) ? .invalidValue : .unknownColumn, file: "f\(thread)", line: line, message: "m"))
                }
                writers.leave()
            }.start()
        }
        // Reads until every issue is in, so that reads and records overlap.
        while log.errorCount + log.warningCount < 2000 { _ = (log.hasErrors, log.report(errors: true).count, log.groups.count) }
        writers.wait()
        #expect(log.errorCount == 1000 && log.warningCount == 1000)
        #expect(log.groups.count == 4 && log.groups.allSatisfy { $0.count == 500 && $0.examples.count == 5 })
    }
}
