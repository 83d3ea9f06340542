#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One open file descriptor used by the gzip reader and writer; closes it on `deinit`.
///
/// The only place in SeedArchive that calls the operating system, so the rest never sees `errno`.
final class ArchiveFile {
    /// A failed system call: which one and the `errno` it set.
    struct Failure: Error {
        let call: String
        let errno: Int32
        var text: String { "\(call) failed: \(String(cString: strerror(errno)))" }
    }

    let path: String
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { _ = close(descriptor) }
    }

    /// Opens an existing file for reading.
    static func openForReading(_ path: String) throws(Failure) -> ArchiveFile {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(call: "open", errno: errno) }
        return ArchiveFile(path: path, descriptor: fd)
    }

    /// Creates (or truncates) a file for writing.
    static func create(_ path: String, mode: mode_t = 0o644) throws(Failure) -> ArchiveFile {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(call: "open", errno: errno) }
        return ArchiveFile(path: path, descriptor: fd)
    }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        while true {
            let n = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw Failure(call: "read", errno: errno) }
        }
    }

    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(call: "write", errno: errno)
            }
            offset += n
        }
    }

    /// Flushes the file's data to the storage device (`F_FULLFSYNC` on Apple platforms, where
    /// `fsync` stops at the drive's cache; `fsync` where the file system refuses it).
    func sync() throws(Failure) {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        if fsync(descriptor) != 0 { throw Failure(call: "fsync", errno: errno) }
    }

    /// Reads up to `count` bytes at `offset` (fewer at the end of the file).
    func read(count: Int, at offset: Int64) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + total, count - total, off_t(offset) + off_t(total)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(call: "pread", errno: errno)
            }
            if n == 0 { break }
            total += n
        }
        return Array(bytes[0..<total])
    }

    /// The file's size in bytes.
    func size() throws(Failure) -> Int64 {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { throw Failure(call: "fstat", errno: errno) }
        return Int64(st.st_size)
    }

    /// Closes the descriptor now, reporting a failure (a deferred write error) if any.
    func closeNow() throws(Failure) {
        guard descriptor >= 0 else { return }
        let fd = descriptor
        descriptor = -1
        if close(fd) != 0 { throw Failure(call: "close", errno: errno) }
    }
}

// The methods above are named `read` and `write`; these reach the C functions.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
