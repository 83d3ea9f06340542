import Foundation

/// The one thread that writes to the seed while the readers parse on the calling thread:
/// jobs run one after another, in submission order, so the output stays deterministic. The
/// queue holds few jobs; a reader that gets ahead waits, so memory stays bounded.
final class WriteQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() throws -> Void] = []
    private var busy = false
    private var stopped = false
    private var failure: (any Error)?
    private let limit: Int

    init(limit: Int = 2) {
        self.limit = limit
        // The thread holds the queue until `stop()` lets it return.
        let thread = Thread { [self] in self.run() }
        thread.name = "seedgen writer"
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// Queues `job`; waits while the queue is full. Throws the failure of an earlier job.
    func submit(_ job: @escaping () throws -> Void) throws {
        condition.lock()
        defer { condition.unlock() }
        while jobs.count >= limit && failure == nil { condition.wait() }
        if let failure { throw failure }
        jobs.append(job)
        condition.broadcast()
    }

    /// Waits until every queued job has run. Throws the first failure.
    func drain() throws {
        condition.lock()
        defer { condition.unlock() }
        while (!jobs.isEmpty || busy) && failure == nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Ends the thread once the queued jobs have run.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty { condition.unlock(); return }
            let job = jobs.removeFirst()
            busy = true
            condition.unlock()
            var error: (any Error)?
            do { try job() } catch let failed { error = failed }
            condition.lock()
            busy = false
            if let error, failure == nil { failure = error }
            if failure != nil { jobs.removeAll() }
            condition.broadcast()
            condition.unlock()
        }
    }
}
