import Foundation
import SeedSQLite
import SeedSystem

/// The one thread that writes to the seed while the readers parse on the calling thread.
/// It owns the build's `Connection` (opened without SQLite's own locking) until `stop()`:
/// every use of the database is a job handed the connection, run on this thread, one after
/// another in submission order, so the output stays deterministic. The queue holds few
/// jobs; a reader that gets ahead waits, so memory stays bounded.
final class WriteQueue: @unchecked Sendable {
    // @unchecked: the job list and flags are behind `condition`; the connection is used on the writer thread only.
    /// A piece of work on the database, run on the writer thread.
    typealias Job = @Sendable (Connection) throws(SQLiteError) -> Void

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var busy = false
    private var stopped = false
    private var ended = false
    private var failure: SQLiteError?
    private var connection: Connection?
    private let limit: Int

    /// Starts the thread; from now on `connection` is used through the queue only.
    init(connection: Connection, limit: Int = 2) {
        self.connection = connection
        self.limit = limit
        // The thread holds the queue until `stop()` lets it return.
        let thread = Thread { [self] in self.run() }
        thread.name = "seedgen writer"
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// Queues `job`; waits while the queue is full. Throws the failure of an earlier job
    /// (once a job has failed, the jobs after it are dropped).
    func submit(_ job: @escaping Job) throws(SQLiteError) {
        condition.lock()
        defer { condition.unlock() }
        precondition(!stopped, "a job was submitted after the writer stopped")
        while jobs.count >= limit && failure == nil { condition.wait() }
        if let failure { throw failure }
        jobs.append(job)
        condition.broadcast()
    }

    /// Runs `job` on the writer thread after the queued jobs and returns its result. Its
    /// error is thrown to the caller only (later jobs still run); the failure of an earlier
    /// job is thrown instead of running it.
    func sync<Output>(
        _ job: @escaping @Sendable (Connection) throws(SQLiteError) -> sending Output
    ) throws(SQLiteError) -> sending Output {
        let outcome = JobOutcome<Output>()
        try submit { connection in
            do throws(SQLiteError) { outcome.store(.success(try job(connection))) } catch {
                outcome.store(.failure(error))
            }
        }
        try drain()
        return try outcome.take().get()
    }

    /// Runs `sql` (statements that return no rows) on the writer thread, as `sync` does.
    func execute(_ sql: String) throws(SQLiteError) {
        try sync { connection throws(SQLiteError) in try connection.execute(sql) }
    }

    /// Waits until every queued job has run. Throws the first failure.
    func drain() throws(SQLiteError) {
        condition.lock()
        defer { condition.unlock() }
        while (!jobs.isEmpty || busy) && failure == nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Ends the thread once the queued jobs have run, waits for it, and hands the
    /// connection back: the caller is then its only user.
    @discardableResult
    func stop() -> Connection? {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        condition.broadcast()
        while !ended { condition.wait() }
        let connection = self.connection
        self.connection = nil
        return connection
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                ended = true
                condition.broadcast()
                condition.unlock()
                return
            }
            var job: Job? = jobs.removeFirst()
            let connection = self.connection!
            busy = true
            condition.unlock()
            var error: SQLiteError?
            do { try job!(connection) } catch let failed { error = failed }
            // What the job holds (a batch, a row writer and its statements) is released on
            // this thread, before the queue reports it idle.
            job = nil
            condition.lock()
            busy = false
            if let error, failure == nil { failure = error }
            if failure != nil { jobs.removeAll() }
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// What a `WriteQueue.sync` job returns, handed from the writer thread to the caller.
private final class JobOutcome<Output>: @unchecked Sendable {
    // @unchecked: stored once by the job, taken by the caller after `drain()`; `lock` orders the two.
    private let lock = Lock()
    private var result: Result<Output, SQLiteError>?

    func store(_ result: sending Result<Output, SQLiteError>) {
        lock.withLock { self.result = result }
    }

    func take() -> sending Result<Output, SQLiteError> {
        lock.withLock {
            // The caller takes it after `drain()` saw the job run, so it is there.
            guard let result = self.result.take() else { preconditionFailure("a sync job left no result") }
            return result
        }
    }
}
