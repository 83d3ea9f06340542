import SeedArchive
import SeedSystem

/// A seed delta that cannot be read or written: what is wrong, in which file, and where.
///
/// `offset` is a byte position in the delta file (its header) or in its decompressed body,
/// as the message says.
public struct DeltaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. `not-a-delta`.
        public let name: String
        /// The code's `name`.
        public var description: String { name }

        /// The file does not start with the delta magic (`seedgen-delta `).
        public static let notADelta = Code(name: "not-a-delta")
        /// The delta was written in a format version this reader does not know.
        public static let unsupportedVersion = Code(name: "unsupported-version")
        /// The header is malformed: a line, a key, a value or a size is wrong or missing.
        public static let invalidHeader = Code(name: "invalid-header")
        /// The file ends before the delta does (a cut-off download or copy).
        public static let truncated = Code(name: "truncated")
        /// The compressed body is damaged (invalid deflate data, CRC-32 or size mismatch).
        public static let corrupt = Code(name: "corrupt")
        /// The decompressed body breaks the format: an unknown record or value tag, a record
        /// out of place, a count or length beyond its limit.
        public static let invalidBody = Code(name: "invalid-body")
        /// Reading or writing the file failed (see `cause`).
        public static let io = Code(name: "io")
    }

    /// What kind of failure this is.
    public let code: Code
    /// A sentence saying what is wrong.
    public let message: String
    /// The delta file.
    public let path: String
    /// The system call that failed, for `.io`.
    public let cause: SystemCallError?

    /// An error of kind `code` about `path`, saying `message`, over `cause`.
    public init(code: Code, message: String, path: String, cause: SystemCallError? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// The delta error for a failure of the gzip stream that holds the body.
    init(_ error: GzipError, path: String) {
        let code: Code
        switch error.code {
        case .truncated: code = .truncated
        case .io: code = .io
        default: code = .corrupt
        }
        var message = "the body: " + error.message
        if let offset = error.offset { message += " (at byte \(offset) of the file)" }
        self.init(code: code, message: message, path: path, cause: error.cause)
    }

    /// `<path>: <message>`.
    public var description: String {
        var text = "\(path): \(message)"
        if let cause { text += ": \(cause.text)" }
        return text
    }
}
