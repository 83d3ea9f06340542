import SeedArchive
import SeedSystem

/// A stream of bytes read in chunks: a file, or an entry of a zip archive.
public protocol ByteSource: AnyObject {
    /// Fills up to `buffer.count` bytes; returns how many were read, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
}

/// A file read from start to end, chunk by chunk.
final class FileByteSource: ByteSource {
    private let file: FileDescriptor

    init(path: String) throws(InputError) {
        do { file = try FileSystem.openForReading(path) } catch {
            throw InputError(path: path, message: "cannot open: \(error.reason)")
        }
        file.adviseSequentialReading()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        do { return try file.read(into: buffer) } catch {
            throw InputError(path: file.path, message: "read failed: \(error.reason)")
        }
    }
}

/// Wraps a source, hashing and counting every byte that passes through, so an input's
/// checksum costs no second read.
final class MeasuredByteSource: ByteSource {
    private let base: ByteSource
    private var hasher = SHA256()
    private(set) var bytesRead: Int64 = 0

    init(_ base: ByteSource) { self.base = base }

    /// The SHA-256 of the bytes read so far, in hexadecimal.
    var sha256: String { hasher.hexDigest() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = try base.read(into: buffer)
        if count > 0 {
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            bytesRead += Int64(count)
        }
        return count
    }
}

/// An input that cannot be read: a missing file, a broken archive, an I/O error.
public struct InputError: Error, CustomStringConvertible, Sendable {
    /// The file (or `archive.zip:entry`).
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
