import CSQLite3

/// One compiled statement: owns the `sqlite3_stmt*` and finalizes it on `deinit`.
///
/// Bind with 1-based parameter indexes (SQLite's convention); read columns 0-based.
public final class Statement {
    let handle: OpaquePointer
    /// The connection the statement belongs to; kept alive as long as the statement.
    public let connection: Connection
    /// The SQL the statement was compiled from.
    public let sql: String

    /// False when `sql` holds more than this one statement (SQLite compiles the first only).
    public let isSingleStatement: Bool

    init(connection: Connection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        var single = true
        let rc = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(
                connection.handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            var rest = tail
            while let next = rest, next.pointee != 0 {
                guard [32, 9, 10, 13, 59].contains(next.pointee) else { single = false; break } // space, tab, LF, CR, ';'
                rest = next + 1
            }
            return rc
        }
        guard rc == SQLITE_OK, let statement else {
            throw connection.error(rc, sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
        self.isSingleStatement = single
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Steps once. Returns true when a row is available, false when the statement is done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(rc, sql: sql)
        }
    }

    /// Resets the statement so it can run again; bindings are kept until rebound or cleared.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Sets every parameter to NULL.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// Runs the statement to completion with the given arguments, then resets it.
    public func run(_ arguments: [Value] = []) throws(SQLiteError) {
        try bind(arguments)
        defer { reset() }
        while try step() {}
    }

    /// Binds `arguments` to parameters 1, 2, ...
    public func bind(_ arguments: [Value]) throws(SQLiteError) {
        for (offset, value) in arguments.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    public func bind(_ value: Value, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try check(sqlite3_bind_null(handle, index))
        case .integer(let v): try bind(v, at: index)
        case .real(let v): try bind(v, at: index)
        case .text(let v): try bind(v, at: index)
        case .blob(let v):
            let rc = v.withUnsafeBytes {
                sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), csqlite3_transient())
            }
            try check(rc)
        }
    }

    @inline(__always)
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    @inline(__always)
    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    @inline(__always)
    public func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        var value = value
        let rc = value.withUTF8 {
            sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), csqlite3_transient())
        }
        try check(rc)
    }

    /// Binds UTF-8 text from a buffer; SQLite copies it, so the buffer may be reused at once.
    @inline(__always)
    public func bindText(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) ?? UnsafePointer(bitPattern: 1)
        try check(sqlite3_bind_text(handle, index, base, Int32(bytes.count), csqlite3_transient()))
    }

    @inline(__always)
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    @inline(__always)
    private func check(_ rc: Int32) throws(SQLiteError) {
        if rc != SQLITE_OK { throw connection.error(rc, sql: sql) }
    }

    /// The number of columns in a result row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The names of the statement's parameters, in order, with their prefix (`:stop`); a
    /// parameter without a name (`?`) is left out.
    public var parameterNames: [String] {
        (1...max(1, Int(sqlite3_bind_parameter_count(handle)))).compactMap { index in
            sqlite3_bind_parameter_name(handle, Int32(index)).map { String(cString: $0) }
        }
    }

    /// The name of result column `index`.
    public func columnName(at index: Int) -> String {
        String(cString: sqlite3_column_name(handle, Int32(index)))
    }

    /// Reads result column `index` of the current row.
    public func value(at index: Int) -> Value {
        let i = Int32(index)
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, i))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(handle, i)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, i))
            guard count > 0, let base = sqlite3_column_blob(handle, i) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default: return .null
        }
    }

    /// Reads result column `index` as an integer (0 when NULL).
    public func int64(at index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }
}
