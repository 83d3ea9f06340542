import SeedSQLite

/// Why a build failed: what kind of failure it is, a sentence, the file concerned and the
/// error underneath (SQLite's, the schema's, the input's), so that a caller can tell a full
/// disk from a bad input or a bug. Nothing was written: an existing output is untouched.
public struct BuildError: Error, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. `invalid-input`.
        public let name: String
        /// The code's `name`.
        public var description: String { name }

        /// The schema is not usable (`cause` is the `SchemaError`).
        public static let schema = Code(name: "schema")
        /// An input cannot be read (`cause` is the `InputError`).
        public static let input = Code(name: "input")
        /// The input has errors; `issueLog` has every one, grouped.
        public static let invalidInput = Code(name: "invalid-input")
        /// The output cannot be written (`cause`, when there is one, says why).
        public static let output = Code(name: "output")
        /// The disk, or the file-size limit, is full (`cause` is the `SQLiteError`).
        public static let diskFull = Code(name: "disk-full")
        /// SQLite refused a statement of seedgen's own: a bug; `path` names the input being
        /// stored, `cause` is the `SQLiteError`.
        public static let internalFailure = Code(name: "internal")
    }

    /// What kind of failure this is.
    public let code: Code
    /// A sentence saying what is wrong.
    public let message: String
    /// The file concerned (with its line and column for a schema error); nil for invalid
    /// input, whose issues name their own.
    public let path: String?
    /// The error underneath: a `SQLiteError`, `SchemaError`, `InputError`, ...
    public let cause: (any Error)?
    /// Every issue of the input, for `invalidInput`.
    public let issueLog: IssueLog?

    /// An error of kind `code` about `path`, saying `message`, over `cause`, with the issues of the build.
    public init(code: Code, message: String, path: String?, cause: (any Error)? = nil, issueLog: IssueLog? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
        self.issueLog = issueLog
    }

    /// The schema is not usable.
    public static func schema(_ error: SchemaError) -> BuildError {
        var place = error.file
        if let line = error.line { place += ":\(line)" }
        if let column = error.column { place += ":\(column)" }
        return BuildError(code: .schema, message: error.message, path: place, cause: error)
    }

    /// An input cannot be read.
    public static func input(_ error: InputError) -> BuildError {
        BuildError(code: .input, message: error.message, path: error.path, cause: error)
    }

    /// The input has errors; the log has every one, grouped.
    public static func invalidInput(_ log: IssueLog) -> BuildError {
        BuildError(code: .invalidInput, message: "the input has errors", path: nil, issueLog: log)
    }

    /// The output at `path` cannot be written: `message` says why, `cause` is the error
    /// underneath. A `SQLiteError` saying the disk is full makes it `diskFull`.
    public static func output(path: String, message: String, cause: (any Error)? = nil) -> BuildError {
        let full = (cause as? SQLiteError)?.isDiskFull == true
        return BuildError(code: full ? .diskFull : .output, message: message, path: path, cause: cause)
    }

    /// The seed being built cannot be written because of `error` (the writer's failure).
    static func seed(_ error: any Error) -> BuildError {
        output(path: "the seed", message: "\(error)", cause: error)
    }

    /// What to print: the place and the message, or every issue of a failed build.
    public var description: String {
        switch code {
        case .schema:
            return "\(path ?? ""): schema error: \(message)"
        case .invalidInput:
            guard let issueLog else { return "error: \(message)" }
            let count = issueLog.errorCount
            return issueLog.report(errors: true) + "\n\(count) error\(count == 1 ? "" : "s"); no seed was written."
                + "\n" + issueLog.countsByCode()
        default:
            return "error: \(path ?? "the output"): \(message)"
        }
    }
}
