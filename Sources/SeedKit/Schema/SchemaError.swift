/// A schema file that cannot be used, with the place in it and what is wrong.
///
/// Compare ``code`` to react to a kind of failure; ``description`` is the line to log.
public struct SchemaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. `invalid-schema`.
        public let name: String
        /// The code's ``name``.
        public var description: String { name }

        /// A declaration that cannot be used: a missing key, a wrong type, a name that is not declared.
        public static let invalidSchema = Code(name: "invalid-schema")
        /// The file is not UTF-8 YAML, or holds no document.
        public static let invalidYAML = Code(name: "invalid-yaml")
        /// The schema file cannot be read.
        public static let fileSystem = Code(name: "file-system")
        /// No schema was given and none is recognised for the inputs.
        public static let noSchema = Code(name: "no-schema")
        /// SQLite refused what the schema declares (``cause`` says why).
        public static let sqlite = Code(name: "sqlite")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The schema file (or `<built-in transit>` for an embedded one).
    public var file: String
    /// 1-based line in the file, when known.
    public var line: Int?
    /// 1-based column in the file, when known.
    public var column: Int?
    /// What is wrong.
    public var message: String
    /// The error underneath, when there is one. Not compared by `==`.
    public var cause: (any Error & Sendable)?

    /// An error of kind `code` at a place of `file`, saying `message`, over `cause`.
    public init(
        code: Code = .invalidSchema, file: String, line: Int? = nil, column: Int? = nil, message: String,
        cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.cause = cause
    }

    /// `<file>:<line>:<column>: schema error: <message>`.
    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return "\(place): schema error: \(message)"
    }

    /// Equal when code, place and message are (the cause is not compared).
    public static func == (a: SchemaError, b: SchemaError) -> Bool {
        a.code == b.code && a.file == b.file && a.line == b.line && a.column == b.column && a.message == b.message
    }
}
