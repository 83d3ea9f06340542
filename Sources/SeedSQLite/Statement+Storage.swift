import CSQLite3

extension Statement {
    /// SQLite's storage class of a result value: what it stores, which `Value` flattens for text
    /// (a C string stops at the first NUL) and does not say for real numbers.
    public enum StorageClass: Sendable {
        case integer, real, text, blob, null
    }

    /// The storage class of result column `index` of the current row.
    public func storageClass(at index: Int) -> StorageClass {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    /// Result column `index` as a real number.
    public func double(at index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// The exact bytes of a text or blob result (text as stored, NULs included).
    public func bytes(at index: Int) -> [UInt8] {
        // Asking for the blob first and the size second is SQLite's documented safe order; a
        // text value is returned as its bytes, unconverted.
        let base = sqlite3_column_blob(handle, Int32(index))
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        guard let base, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Binds a blob (SQLite copies it).
    public func bindBlob(_ bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let rc = bytes.withUnsafeBytes { buffer in
            // A zero-length blob needs a non-NULL pointer, or SQLite binds NULL.
            sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), csqlite3_transient())
        }
        if rc != SQLITE_OK { throw connection.error(rc, sql: sql) }
    }

    /// The number of rows the last INSERT, UPDATE or DELETE of this statement's connection changed.
    public var changes: Int { connection.changes }
}
