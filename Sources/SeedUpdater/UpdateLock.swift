import SeedSystem

/// The updaters' exclusive lock on `<dest>.seedgen-update-lock`, held for a whole update (index,
/// download, install): several updaters at once take turns, and the ones that waited find the
/// seed the first one installed. SeedSystem's lock file and `flock` (the installers' own), polled
/// so that the waiting task can be cancelled and the deadline holds; the kernel releases it when
/// the holder dies.
enum UpdateLock {
    /// Waits for the lock until `deadline`. Hold the returned descriptor for the update.
    static func acquire(
        path: String, deadline: ContinuousClock.Instant?
    ) async throws(SeedUpdaterError) -> FileDescriptor {
        let lock: FileDescriptor
        do {
            lock = try FileSystem.openLockFile(path)
            while try !lock.tryLockExclusively() {
                if let deadline, ContinuousClock.now >= deadline {
                    throw SeedUpdaterError(
                        code: .deadline,
                        message:
                            """
                            another update of this seed held the updaters' lock until the deadline; nothing was \
                            downloaded
                            """,
                        location: path)
                }
                do { try await Task.sleep(nanoseconds: 20_000_000) } catch {
                    throw SeedUpdaterError(
                        code: .cancelled, message: "cancelled while waiting for another updater", location: path)
                }
            }
        } catch let error as SystemCallError {
            throw SeedUpdaterError(
                code: .fileSystem, message: "cannot create or lock the updaters' lock file: \(error.text)",
                location: path, cause: error)
        } catch let error as SeedUpdaterError {
            throw error
        } catch {
            throw SeedUpdaterError(
                code: .fileSystem, message: "cannot lock the updaters' lock file: \(error)", location: path)
        }
        return lock
    }
}
