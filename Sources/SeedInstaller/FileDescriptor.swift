#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One open file descriptor; closes it on `deinit` (which also releases a `flock` held on it).
final class FileDescriptor {
    let path: String
    private var fd: Int32

    init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit {
        if fd >= 0 { _ = close(fd) }
    }

    /// Reads up to `buffer.count` bytes; 0 at end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        while true {
            let n = systemRead(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw SystemCallError(call: "read", path: path, errno: errno) }
        }
    }

    /// Reads up to `count` bytes from the start of the file.
    func readPrefix(_ count: Int) throws(SystemCallError) -> [UInt8] {
        try readBytes(count, at: 0)
    }

    /// Reads up to `count` bytes from `offset` (fewer at the end of the file).
    func readBytes(_ count: Int, at offset: Int64) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + total, count - total, off_t(offset) + off_t(total)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "pread", path: path, errno: errno)
            }
            if n == 0 { break }
            total += n
        }
        if total < count { bytes.removeLast(count - total) }
        return bytes
    }

    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
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
    func sync() throws(SystemCallError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        if fsync(fd) != 0 { throw SystemCallError(call: "fsync", path: path, errno: errno) }
    }

    /// Takes an exclusive `flock`, waiting for other holders. The kernel releases it when the
    /// descriptor closes, including when the process dies.
    func lockExclusively() throws(SystemCallError) {
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw SystemCallError(call: "flock", path: path, errno: errno) }
        }
    }

    /// The file's identity and size.
    func status() throws(SystemCallError) -> FileStatus {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SystemCallError(call: "fstat", path: path, errno: errno) }
        return FileStatus(st)
    }

    /// Closes now, reporting a deferred write error if any.
    func closeNow() throws(SystemCallError) {
        guard fd >= 0 else { return }
        let descriptor = fd
        fd = -1
        if close(descriptor) != 0 { throw SystemCallError(call: "close", path: path, errno: errno) }
    }
}

// The methods above are named `read` and `write`; these reach the C functions.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
