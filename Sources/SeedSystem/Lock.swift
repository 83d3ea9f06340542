#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock of seedgen's modules: a mutual-exclusion lock over a `pthread_mutex_t` it
/// allocates and owns (a mutex must not move, so it lives on the heap, not in the class's
/// storage). Not recursive. Each type that shares state between threads guards it with one of
/// these, held only around that state.
public final class Lock: @unchecked Sendable { // the mutex is the synchronisation itself
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// An unlocked lock.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Waits for the lock and takes it; `unlock()` gives it back.
    public func lock() {
        let result = pthread_mutex_lock(mutex)
        precondition(result == 0, "pthread_mutex_lock failed: \(result)")
    }

    /// Gives back the lock this thread took with `lock()`.
    public func unlock() {
        let result = pthread_mutex_unlock(mutex)
        precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
    }

    /// Runs `body` holding the lock and returns what it returns (or throws what it throws).
    @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
