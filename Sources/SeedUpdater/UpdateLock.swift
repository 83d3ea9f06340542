#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The updaters' exclusive lock on `<dest>.seedgen-update-lock`, held for a whole update (index,
/// download, install): several updaters at once take turns, and the ones that waited find the
/// seed the first one installed. The kernel releases it when the holder dies (`flock`).
final class UpdateLock {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Waits for the lock, polling, so that the waiting task can be cancelled.
    static func acquire(path: String) async throws(SeedUpdaterError) -> UpdateLock {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SeedUpdaterError(code: .fileSystem, message: "cannot create the updaters' lock file: \(String(cString: strerror(errno)))", location: path)
        }
        let lock = UpdateLock(descriptor: descriptor)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw SeedUpdaterError(code: .fileSystem, message: "cannot lock the updaters' lock file: \(String(cString: strerror(errno)))", location: path)
            }
            do { try await Task.sleep(nanoseconds: 20_000_000) } catch {
                throw SeedUpdaterError(code: .cancelled, message: "cancelled while waiting for another updater", location: path)
            }
        }
        return lock
    }
}
