import SeedSystem

/// A gzip stream that cannot be read or written: what went wrong, in which file, and where.
///
/// `offset` is the position in the compressed file (for reading) where the problem was seen.
public struct GzipError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The code's `name`.
        public var description: String { name }

        /// The file does not start with the gzip magic bytes, or uses an unknown method.
        public static let notGzip = Code(name: "not-gzip")
        /// The file ends before the stream does (a cut-off download or copy).
        public static let truncated = Code(name: "truncated")
        /// The deflate data is invalid.
        public static let corrupt = Code(name: "corrupt")
        /// The CRC-32 in the trailer does not match the decompressed data.
        public static let crcMismatch = Code(name: "crc-mismatch")
        /// The size in the trailer (ISIZE) does not match the decompressed data.
        public static let sizeMismatch = Code(name: "size-mismatch")
        /// Bytes follow the end of the stream that are not another gzip member.
        public static let trailingGarbage = Code(name: "trailing-garbage")
        /// Reading or writing the file failed (see `cause`).
        public static let io = Code(name: "io")
        /// The header is invalid (bad flags, or a header field that cannot be written).
        public static let invalidHeader = Code(name: "invalid-header")
        /// The writer or reader was used after it finished or failed.
        public static let misuse = Code(name: "misuse")
    }

    /// What kind of failure this is.
    public let code: Code
    /// A sentence saying what is wrong.
    public let message: String
    /// The gzip file.
    public let path: String
    /// The byte offset in the compressed file, when known.
    public let offset: Int64?
    /// The system call that failed, for `.io` (its `errno` is `ENOSPC` when the disk is full).
    public let cause: SystemCallError?

    /// An error of kind `code` in `path` (at byte `offset`, when known), saying `message`, over `cause`.
    public init(code: Code, message: String, path: String, offset: Int64? = nil, cause: SystemCallError? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.offset = offset
        self.cause = cause
    }

    /// `<path>: <message>`, with the offset when known.
    public var description: String {
        var text = "\(path): \(message)"
        if let offset { text += " (at byte \(offset))" }
        if let cause { text += ": \(cause.text)" }
        return text
    }
}
