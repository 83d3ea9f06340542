import SeedSQLite
import SeedSystem

/// Why a seed cannot be packed, inspected, verified, compared, turned into a delta or published:
/// what kind of failure it is (``code``), the file, a sentence, and the error underneath
/// (``cause``: a `SystemCallError`, a `SQLiteError`, a `GzipError`, ...), so that a caller can
/// tell a full disk from a file that is not a seed without reading the text, as with `BuildError`.
public struct ShipError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. `not-a-seed`.
        public let name: String
        public var description: String { name }

        /// The file is not a seed seedgen built (not SQLite, no `seedgen_metadata`, WAL mode, a
        /// manifest where a seed was asked for).
        public static let notASeed = Code(name: "not-a-seed")
        /// The seed is damaged, or was changed after it was built (`quick_check`, content digest).
        public static let damaged = Code(name: "damaged")
        /// A manifest or gzip file cannot be parsed (`cause` says where).
        public static let invalidFile = Code(name: "invalid-file")
        /// The seed version cannot be stamped (printable ASCII without spaces).
        public static let invalidSeedVersion = Code(name: "invalid-seed-version")
        /// The two seeds give no delta (another schema, a pragma that differs, a delta that does
        /// not give the new seed): ship the full seed.
        public static let noDelta = Code(name: "no-delta")
        /// The channel refuses the seed (a sequence not above its own, a seed version it
        /// serves with other content).
        public static let channel = Code(name: "channel")
        /// SQLite cannot read the seed (`cause` is the `SQLiteError`).
        public static let sqlite = Code(name: "sqlite")
        /// A file cannot be read, written, renamed or removed (`cause`, when there is one).
        public static let fileSystem = Code(name: "file-system")
        /// The disk, or the file-size limit, is full (`cause` says which call).
        public static let diskFull = Code(name: "disk-full")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The file the failure is about.
    public var path: String
    /// What is wrong, as a sentence.
    public var message: String
    /// The error underneath, when there is one.
    public var cause: (any Error)?

    public init(code: Code, path: String, message: String, cause: (any Error)? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.cause = cause
    }

    /// A file operation on `path` failed with `cause`: `.diskFull` when the disk or the
    /// file-size limit is full, `.fileSystem` otherwise.
    public static func io(path: String, message: String, cause: any Error) -> ShipError {
        let full = (cause as? SystemCallError)?.isOutOfSpace == true || (cause as? SQLiteError)?.isDiskFull == true
        return ShipError(code: full ? .diskFull : .fileSystem, path: path, message: message, cause: cause)
    }

    public var description: String { "error: \(path): \(message)" }

    /// Equal when code, path and message are (the cause is not compared).
    public static func == (a: ShipError, b: ShipError) -> Bool {
        a.code == b.code && a.path == b.path && a.message == b.message
    }
}
