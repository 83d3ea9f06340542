import Dispatch

/// Work run on another thread while the caller goes on (reading a database with a connection
/// of its own, deflating a file); ``wait()`` gives its result.
// @unchecked Sendable: `result` is written by the one thread that runs the work, and read only
// after the group's wait; what the work touches (its connection) is used by that thread alone
// until then.
package final class BackgroundWork<Value, Failure: Error>: @unchecked Sendable {
    private let group = DispatchGroup()
    private let work: () throws(Failure) -> Value
    private var result: Result<Value, Failure>?

    package init(_ work: @escaping () throws(Failure) -> Value) {
        self.work = work
        DispatchQueue.global().async(group: group) { self.run() }
    }

    private func run() {
        do throws(Failure) { result = .success(try work()) } catch { result = .failure(error) }
    }

    /// Waits for the work to finish; what it returned or threw.
    package func wait() -> Result<Value, Failure> {
        group.wait()
        return result!
    }
}
