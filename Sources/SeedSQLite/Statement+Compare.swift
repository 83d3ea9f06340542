import CSQLite3
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Statement {
    /// True when result column `index` of this statement's row and column `otherIndex` of
    /// `other`'s row hold the same stored value: the same storage class and the same content
    /// (integers by value, reals by their bits, so 0.0 and -0.0 differ, as they do in a content
    /// digest; text and blobs byte for byte, whatever the column's collation).
    package func hasSameValue(at index: Int, as other: Statement, at otherIndex: Int) -> Bool {
        let value = sqlite3_column_value(handle, Int32(index))
        let otherValue = sqlite3_column_value(other.handle, Int32(otherIndex))
        let type = sqlite3_value_type(value)
        guard type == sqlite3_value_type(otherValue) else { return false }
        switch type {
        case SQLITE_INTEGER: return sqlite3_value_int64(value) == sqlite3_value_int64(otherValue)
        case SQLITE_FLOAT:
            return sqlite3_value_double(value).bitPattern == sqlite3_value_double(otherValue).bitPattern
        case SQLITE_TEXT, SQLITE_BLOB: return Self.compareBytes(value, otherValue) == 0
        default: return true
        }
    }

    /// How result columns `0..<count` of this statement's row order against those of `other`'s
    /// row, column by column, as SQLite's `ORDER BY` orders them with the BINARY collation:
    /// NULL first, then numbers by value (an integer and a real compared exactly), then text,
    /// then blobs (both by their bytes, a prefix first).
    /// - Returns: a negative number, zero or a positive number: before, equal, after.
    package func compareColumns(_ count: Int, with other: Statement) -> Int {
        for index in 0..<Int32(count) {
            let order = Self.compare(sqlite3_column_value(handle, index), sqlite3_column_value(other.handle, index))
            if order != 0 { return order }
        }
        return 0
    }

    private static func compare(_ a: OpaquePointer?, _ b: OpaquePointer?) -> Int {
        let typeA = sqlite3_value_type(a), typeB = sqlite3_value_type(b)
        let rankA = rank(typeA), rankB = rank(typeB)
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (typeA, typeB) {
        case (SQLITE_NULL, _): return 0
        case (SQLITE_INTEGER, SQLITE_INTEGER):
            let x = sqlite3_value_int64(a), y = sqlite3_value_int64(b)
            return x == y ? 0 : (x < y ? -1 : 1)
        case (SQLITE_FLOAT, SQLITE_FLOAT):
            let x = sqlite3_value_double(a), y = sqlite3_value_double(b)
            return x == y ? 0 : (x < y ? -1 : 1)
        case (SQLITE_INTEGER, SQLITE_FLOAT): return compare(sqlite3_value_int64(a), sqlite3_value_double(b))
        case (SQLITE_FLOAT, SQLITE_INTEGER): return -compare(sqlite3_value_int64(b), sqlite3_value_double(a))
        default: return compareBytes(a, b)
        }
    }

    /// NULL, numbers, text, blobs: SQLite's order of storage classes.
    private static func rank(_ type: Int32) -> Int {
        switch type {
        case SQLITE_NULL: return 0
        case SQLITE_INTEGER, SQLITE_FLOAT: return 1
        case SQLITE_TEXT: return 2
        default: return 3
        }
    }

    /// An integer against a real, exactly (as SQLite's `sqlite3IntFloatCompare`): no rounding of
    /// the integer to a double.
    private static func compare(_ integer: Int64, _ real: Double) -> Int {
        if real.isNaN { return 1 }
        if real < -9_223_372_036_854_775_808.0 { return 1 }
        if real >= 9_223_372_036_854_775_808.0 { return -1 }
        let whole = Int64(real) // toward zero: within range, checked above
        if integer != whole { return integer < whole ? -1 : 1 }
        let fraction = real - Double(whole)
        return fraction == 0 ? 0 : (fraction > 0 ? -1 : 1)
    }

    /// Text or blob values by their bytes (blob first, then the size: SQLite's documented order;
    /// text is returned unconverted), a prefix before what it starts.
    private static func compareBytes(_ a: OpaquePointer?, _ b: OpaquePointer?) -> Int {
        let bytesA = sqlite3_value_blob(a), countA = Int(sqlite3_value_bytes(a))
        let bytesB = sqlite3_value_blob(b), countB = Int(sqlite3_value_bytes(b))
        let common = min(countA, countB)
        if common > 0, let bytesA, let bytesB {
            let order = memcmp(bytesA, bytesB, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return countA == countB ? 0 : (countA < countB ? -1 : 1)
    }
}
