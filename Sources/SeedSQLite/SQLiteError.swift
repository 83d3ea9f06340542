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

    /// A failure with SQLite's raw result code.
    /// - Parameters:
    ///   - code: the (extended) result code.
    ///   - message: what went wrong.
    ///   - sql: the statement that failed, if any.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// A failure of ours reported as SQLite's (a refused recipe, a file that is not there).
    /// - Parameters:
    ///   - code: the result code, e.g. ``SQLiteResultCode/error``.
    ///   - message: what went wrong.
    ///   - sql: the statement that failed, if any.
    public init(_ code: SQLiteResultCode, message: String, sql: String? = nil) {
        self.init(code: code.rawValue, message: message, sql: sql)
    }

    /// The result code by name (extended when SQLite gave one).
    public var resultCode: SQLiteResultCode { SQLiteResultCode(rawValue: code) }

    /// True when the failure is a constraint violation (unique, foreign key, not null, ...).
    public var isConstraintViolation: Bool { resultCode.primary == .constraint }

    /// True when a row repeats the key of another: a UNIQUE index or the PRIMARY KEY refused it.
    public var isUniqueViolation: Bool { resultCode == .constraintUnique || resultCode == .constraintPrimaryKey }

    /// True when the disk or the file-size limit is full.
    public var isDiskFull: Bool { resultCode.primary == .full }

    /// SQLite's words for the result code (`constraint failed`), without its message.
    public var codeDescription: String { resultCode.description }

    /// `SQLite error <code> (<name>): <message>`, and the statement when known.
    public var description: String {
        var text = "SQLite error \(code) (\(codeDescription)): \(message)"
        if let sql { text += " while running: \(sql)" }
        return text
    }
}
