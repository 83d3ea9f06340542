import CSQLite3

/// A SQLite result code by name (as GRDB's `ResultCode`): a primary code (`SQLITE_CONSTRAINT`)
/// or an extended one (`SQLITE_CONSTRAINT_UNIQUE`, whose low byte is its primary code).
///
/// ``SQLiteError/code`` holds the raw number; ``SQLiteError/resultCode`` is this type.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// SQLite's number for the code.
    public let rawValue: Int32

    /// The code numbered `rawValue`.
    /// - Parameter rawValue: a primary or extended result code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low byte (`SQLITE_CONSTRAINT` for `SQLITE_CONSTRAINT_UNIQUE`).
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// SQLite's words for the code (`constraint failed`).
    public var description: String { String(cString: sqlite3_errstr(rawValue)) }

    /// `SQLITE_OK`: success.
    public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    /// `SQLITE_ERROR`: a generic error (bad SQL, a missing table, a refusal of ours).
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_IOERR`: the operating system reported an I/O error (``SQLiteError/systemErrno`` says which).
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the database file is damaged.
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL`: the disk, the file-size limit or `max_page_count` is reached.
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: the file cannot be opened.
    public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_CONSTRAINT`: a constraint refused a row.
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_AUTH`: the authorizer refused a statement.
    public static let auth = SQLiteResultCode(rawValue: SQLITE_AUTH)
    /// `SQLITE_NOTADB`: the file is not a SQLite database.
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)

    // Extended result codes are C macros Swift cannot import (`(SQLITE_CONSTRAINT | (8<<8))`).

    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: the PRIMARY KEY (of a WITHOUT ROWID table) refused a row.
    public static let constraintPrimaryKey = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    /// `SQLITE_CONSTRAINT_UNIQUE`: a UNIQUE index refused a row.
    public static let constraintUnique = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
}
