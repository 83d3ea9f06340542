/// A channel file that cannot be used: an `index.json` that cannot be parsed or is not one this
/// code reads, a key file or public key that is not an Ed25519 key of `seedgen keygen`.
///
/// Compare ``code`` to react to a kind of failure; ``description`` is the line to log.
public struct ChannelError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. `invalid-index`.
        public let name: String
        /// The code's ``name``.
        public var description: String { name }

        /// `index.json` cannot be parsed, is too large, or breaks a rule of the format.
        public static let invalidIndex = Code(name: "invalid-index")
        /// `index.json` is in a format this code does not read.
        public static let unsupportedFormat = Code(name: "unsupported-format")
        /// A key file or public key is not an Ed25519 key as `seedgen keygen` writes it.
        public static let invalidKey = Code(name: "invalid-key")
        /// A key file cannot be read or written (``cause`` says why).
        public static let fileSystem = Code(name: "file-system")
    }

    /// What kind of failure this is.
    public let code: Code
    /// The file, URL or option the failure is about.
    public let source: String
    /// What is wrong.
    public let message: String
    /// The error underneath (the JSON decoder's, the file system's), when there is one. Not
    /// compared by `==`.
    public let cause: (any Error & Sendable)?

    /// An error about `source`.
    /// - Parameters:
    ///   - code: what kind of failure this is.
    ///   - source: the file, URL or option the failure is about.
    ///   - message: what is wrong, as a sentence.
    ///   - cause: the error underneath, if any.
    public init(code: Code, source: String, message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.source = source
        self.message = message
        self.cause = cause
    }

    /// `<source>: <message>`.
    public var description: String { "\(source): \(message)" }

    /// Equal when code, source and message are (the cause is not compared).
    public static func == (a: ChannelError, b: ChannelError) -> Bool {
        a.code == b.code && a.source == b.source && a.message == b.message
    }
}
