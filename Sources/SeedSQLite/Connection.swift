import CSQLite3

/// One open SQLite database: owns the `sqlite3*` handle and closes it on `deinit`.
///
/// Not thread-safe: it is opened with `SQLITE_OPEN_NOMUTEX` (SQLite takes no lock on each
/// call), so a connection and its statements are used by one thread at a time; the owner
/// makes sure of it (the builder hands its connection to one writer thread).
public final class Connection {
    /// How to open the file.
    public enum Mode: Sendable {
        /// Read only; the file must exist.
        case readOnly
        /// Read and write; the file must exist.
        case readWrite
        /// Read and write; the file is created when missing.
        case create
    }

    let handle: OpaquePointer
    /// The path the connection was opened with.
    public let path: String

    /// Opens `path`.
    /// - Parameters:
    ///   - path: the database file.
    ///   - mode: read-only, read-write, or create when missing.
    public init(path: String, mode: Mode = .create) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: "\(message): \(path)")
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            var error = SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
            error.systemErrno = sqlite3_system_errno(handle)
            throw error
        }
    }

    /// Compiles `sql` into a statement that can be run many times.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// Runs a query and returns the first column of the first row, if any.
    public func scalar(_ sql: String, _ arguments: [Value] = []) throws(SQLiteError) -> Value? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return statement.value(at: 0)
    }

    /// Runs a query and returns every row as an array of values.
    public func rows(_ sql: String, _ arguments: [Value] = []) throws(SQLiteError) -> [[Value]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var result: [[Value]] = []
        while try statement.step() {
            result.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return result
    }

    /// The rowid of the last row inserted through this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ rc: Int32, sql: String?) -> SQLiteError {
        var error = SQLiteError(
            code: sqlite3_extended_errcode(handle) != 0 ? sqlite3_extended_errcode(handle) : rc,
            message: lastErrorMessage, sql: sql)
        error.systemErrno = sqlite3_system_errno(handle)
        return error
    }

    /// The version of the SQLite library in use, e.g. `3.40.1`.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

extension Connection {
    /// Stops SQLite from keeping memory statistics, which costs a global mutex on every
    /// allocation. Call once, before the first connection is opened; later calls do nothing.
    public static func disableMemoryStatistics() {
        _ = csqlite3_disable_memory_statistics()
    }
}
