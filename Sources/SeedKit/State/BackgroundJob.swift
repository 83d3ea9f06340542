import Foundation
import SeedSQLite
import SeedSystem

/// Work that runs on a thread of its own while the caller does something else, and whose
/// result the caller waits for: the build's second core. What the work uses it creates itself
/// (a connection of its own), so only its result crosses threads.
final class BackgroundJob<Output: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is written by the job's thread before `done` is signalled, read after `wait`.
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Output, SQLiteError>?

    /// Starts `work` on another thread.
    init(_ work: @escaping @Sendable () throws(SQLiteError) -> Output) {
        let thread = Thread { [self] in
            result = Result { () throws(SQLiteError) in try work() }
            done.signal()
        }
        thread.name = "seedgen background job"
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// Waits for the work to end; its value, or the error it threw.
    func wait() throws(SQLiteError) -> Output {
        done.wait()
        guard let result else { preconditionFailure("the job signalled without a result") }
        return try result.get()
    }
}
