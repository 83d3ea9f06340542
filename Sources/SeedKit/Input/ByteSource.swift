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
            throw InputError(code: .fileSystem, path: path, message: "cannot open: \(error.reason)", cause: error)
        }
        file.adviseSequentialReading()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        do { return try file.read(into: buffer) } catch {
            throw InputError(code: .fileSystem, path: file.path, message: "read failed: \(error.reason)", cause: error)
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
///
/// Compare ``code`` to react to a kind of failure; ``description`` is the line to log.
public struct InputError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. `invalid-archive`.
        public let name: String
        /// The code's ``name``.
        public var description: String { name }

        /// No file or folder at the path.
        public static let notFound = Code(name: "not-found")
        /// The file system refused to open, list or read it (``cause`` says why).
        public static let fileSystem = Code(name: "file-system")
        /// A zip archive or an OSM PBF file whose structure or data is broken.
        public static let invalidArchive = Code(name: "invalid-archive")
        /// A form the format allows that seedgen does not read (an encrypted zip entry, an LZMA blob).
        public static let unsupported = Code(name: "unsupported")
        /// Inputs that cannot be told apart or assigned: the same file name twice, a feed named twice,
        /// a file given beside several feeds, a name that is not UTF-8.
        public static let ambiguous = Code(name: "ambiguous-input")
        /// A command-line value in the wrong form (`--feed NAME=PATH`).
        public static let usage = Code(name: "usage")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The file (or `archive.zip:entry`).
    public var path: String
    /// What is wrong, as a sentence.
    public var message: String
    /// The error underneath (the system call's), when there is one.
    public var cause: (any Error & Sendable)?

    /// An error of kind `code` about `path`, saying `message`, over `cause`.
    public init(code: Code, path: String, message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.cause = cause
    }

    /// `<path>: <message>`.
    public var description: String { "\(path): \(message)" }
}
