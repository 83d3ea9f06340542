/// A manifest that cannot be read, parsed or written.
///
/// Compare ``code`` to react to a kind of failure; ``description`` is the line to log.
public struct SeedManifestError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. `invalid-manifest`.
        public let name: String
        /// The code's ``name``.
        public var description: String { name }

        /// The manifest is not valid JSON or lacks a field.
        public static let invalidManifest = Code(name: "invalid-manifest")
        /// The manifest cannot be read or written (``cause`` says why).
        public static let fileSystem = Code(name: "file-system")
    }

    /// What kind of failure this is.
    public let code: Code
    /// The manifest file.
    public let path: String
    /// What is wrong.
    public let message: String
    /// The error underneath (the file system's), when there is one. Not compared by `==`.
    public let cause: (any Error & Sendable)?

    /// An error about the manifest at `path`.
    /// - Parameters:
    ///   - code: what kind of failure this is.
    ///   - path: the manifest file.
    ///   - message: what is wrong, as a sentence.
    ///   - cause: the error underneath, if any.
    public init(code: Code, path: String, message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.cause = cause
    }

    /// `<path>: <message>`.
    public var description: String { "\(path): \(message)" }

    /// Equal when code, path and message are (the cause is not compared).
    public static func == (a: SeedManifestError, b: SeedManifestError) -> Bool {
        a.code == b.code && a.path == b.path && a.message == b.message
    }
}
