import CSQLite3

/// A failure reported by SQLite: the result code, SQLite's own message, and the SQL that
/// was running, so that a failure can be understood from the log alone.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_FULL`, ...).
    public let code: Int32
    /// SQLite's message for the failure.
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?
    /// The operating system's `errno` behind an I/O failure (`sqlite3_system_errno`), else 0:
    /// tells a full disk (`ENOSPC`) or file-size limit (`EFBIG`) from other write errors.
    public var systemErrno: Int32 = 0

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of `code`).
    public var primaryCode: Int32 { code & 0xFF }

    /// True when the failure is a constraint violation (unique, foreign key, not null, ...).
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// True when a row repeats the key of another: a UNIQUE index or the PRIMARY KEY refused it.
    public var isUniqueViolation: Bool { code == Self.constraintUnique || code == Self.constraintPrimaryKey }

    /// True when the disk or the file-size limit is full.
    public var isDiskFull: Bool { primaryCode == SQLITE_FULL }

    /// SQLite's words for the result code (`constraint failed`), without its message.
    public var codeDescription: String { String(cString: sqlite3_errstr(code)) }

    public var description: String {
        var text = "SQLite error \(code) (\(codeDescription)): \(message)"
        if let sql { text += " while running: \(sql)" }
        return text
    }
}

extension SQLiteError {
    // Extended result codes are C macros Swift cannot import (`(SQLITE_CONSTRAINT | (8<<8))`).

    /// `SQLITE_CONSTRAINT_UNIQUE`: a UNIQUE index refused a row.
    public static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: the PRIMARY KEY (of a WITHOUT ROWID table) refused a row.
    public static let constraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)
}
