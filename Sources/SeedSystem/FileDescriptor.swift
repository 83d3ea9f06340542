#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One open file descriptor: the only owner of it, closed on `deinit` (which also releases a
/// `flock` held on it). ``FileSystem`` opens them.
///
/// Every call retries on `EINTR` and throws a ``SystemCallError`` naming the call and the path,
/// so no caller sees `errno`. Not thread-safe.
public final class FileDescriptor {
    /// The path it was opened with, for errors.
    public let path: String
    private var fd: Int32

    init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit {
        if fd >= 0 { _ = close(fd) }
    }

    /// Reads up to `buffer.count` bytes from the current position.
    /// - Returns: the number of bytes read; 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        while true {
            let n = systemRead(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw SystemCallError(call: "read", path: path, errno: errno) }
        }
    }

    /// Fills `buffer` from `offset` (`pread`), without moving the current position.
    /// - Returns: the number of bytes read: `buffer.count`, or fewer at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var total = 0
        while total < buffer.count {
            let n = pread(fd, base + total, buffer.count - total, off_t(offset) + off_t(total))
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "pread", path: path, errno: errno)
            }
            if n == 0 { break }
            total += n
        }
        return total
    }

    /// Reads up to `count` bytes from `offset` (fewer at the end of the file).
    public func readBytes(_ count: Int, at offset: Int64) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let total = try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemCallError) in try read(into: buffer, at: offset) }
        }.get()
        if total < count { bytes.removeLast(count - total) }
        return bytes
    }

    /// Writes all of `bytes` at the current position.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let n = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "write", path: path, errno: errno)
            }
            offset += n
        }
    }

    /// Flushes the file (or directory) to the storage device.
    ///
    /// On Apple platforms `fsync` only hands the data to the drive, whose cache may lose it on
    /// power loss; `F_FULLFSYNC` asks the drive to write its cache out. Some file systems
    /// (network, FAT) refuse `F_FULLFSYNC`; then `fsync` is the best there is.
    public func sync() throws(SystemCallError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        if fsync(fd) != 0 { throw SystemCallError(call: "fsync", path: path, errno: errno) }
    }

    /// Takes an exclusive `flock`, waiting for other holders. The kernel releases it when the
    /// descriptor closes, including when the process dies.
    public func lockExclusively() throws(SystemCallError) {
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw SystemCallError(call: "flock", path: path, errno: errno) }
        }
    }

    /// Takes an exclusive `flock` if no one else holds it: false when another holder does.
    /// For a waiter that must stay cancellable (it polls instead of blocking a thread).
    public func tryLockExclusively() throws(SystemCallError) -> Bool {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { return false }
            if errno != EINTR { throw SystemCallError(call: "flock", path: path, errno: errno) }
        }
        return true
    }

    /// The file's identity and size (`fstat`).
    public func status() throws(SystemCallError) -> FileStatus {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SystemCallError(call: "fstat", path: path, errno: errno) }
        return FileStatus(st)
    }

    /// Tells the kernel the file will be read from start to end (more read-ahead on Linux; a
    /// hint only, so nothing is reported).
    public func adviseSequentialReading() {
        #if os(Linux)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        #endif
    }

    /// Closes now, reporting a deferred write error if any.
    public func closeNow() throws(SystemCallError) {
        guard fd >= 0 else { return }
        let descriptor = fd
        fd = -1
        if close(descriptor) != 0 { throw SystemCallError(call: "close", path: path, errno: errno) }
    }
}

// The methods above are named `read` and `write`; these reach the C functions.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
