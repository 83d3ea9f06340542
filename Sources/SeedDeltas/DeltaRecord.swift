import SeedArchive
/// One value of a row in a seed delta: SQLite's five storage classes, text and blobs as
/// their bytes (text may hold any bytes SQLite stored, NUL included).
public enum DeltaValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])

    /// Equality of the stored value: a real is compared by its bits, so 0.0 and -0.0 differ
    /// (as they do in the content digest).
    public static func == (lhs: DeltaValue, rhs: DeltaValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.integer(a), .integer(b)): return a == b
        case let (.real(a), .real(b)): return a.bitPattern == b.bitPattern
        case let (.text(a), .text(b)), let (.blob(a), .blob(b)): return a == b
        default: return false
        }
    }
}

/// A table's section in a delta: which table, how its rows are keyed, and how many other
/// columns a row has.
public struct DeltaTable: Equatable, Sendable {
    /// The table's name in `sqlite_schema`.
    public var name: String
    /// True when rows are keyed by their rowid (one integer); false for a `WITHOUT ROWID`
    /// table, keyed by its primary key columns.
    public var isRowID: Bool
    /// The number of key values of a row: 1 for a rowid table.
    public var keyCount: Int
    /// The number of the row's other values, in the table's column order (a rowid table's
    /// `INTEGER PRIMARY KEY` column is the rowid, so it is the key, not one of these).
    public var valueCount: Int

    /// A table's shape: its name, whether its key is the row id, and its key and value column counts.
    public init(name: String, isRowID: Bool, keyCount: Int, valueCount: Int) {
        self.name = name
        self.isRowID = isRowID
        self.keyCount = keyCount
        self.valueCount = valueCount
    }
}

/// One record of a delta's body. The body is, per table in name order: a `table` record, the
/// `delete`s, then the `insert`s and `update`s, in key order; `end` closes it.
///
/// Applying a table's records in that order never breaks a unique constraint: the writer
/// deletes (and inserts again) every row whose unique-indexed values change, so each row
/// present at any moment already holds its new unique values.
public enum DeltaRecord: Equatable, Sendable {
    /// Starts the section of a table.
    case table(DeltaTable)
    /// Removes the row with this key; or, with fewer values than the key has (a `WITHOUT
    /// ROWID` table only), every row whose key starts with them (a trip's stop_times at once).
    case delete(key: [DeltaValue])
    /// Adds a row: its key and its other values.
    case insert(key: [DeltaValue], values: [DeltaValue])
    /// Changes some values of the row with this key: (index among the other values, new value),
    /// in increasing index order.
    case update(key: [DeltaValue], changes: [Change])
    /// The end of the body.
    case end

    /// One changed value of an `update`.
    public struct Change: Equatable, Sendable {
        /// The value column changed (0-based, after the key columns).
        public var column: Int
        /// Its new value.
        public var value: DeltaValue

        /// Value column `column` becomes `value`.
        public init(column: Int, value: DeltaValue) {
            self.column = column
            self.value = value
        }
    }
}

/// The record and value tags of the body, and the state both sides keep to encode integers
/// as differences from the previous one in the same column.
///
/// Values: a tag byte, then `null` (0): nothing; `integer` (1): a zigzag LEB128 varint;
/// `real` (2): 8 bytes, little-endian IEEE 754; `text` (3) and `blob` (4): a varint length,
/// then the bytes; `integer delta` (5): a zigzag varint added (wrapping) to the last value
/// written in the same column of the same table, which must have been an integer. Keys of a
/// table are a column space of their own. Sorted keys, ascending times and repeated
/// references thus become small numbers, which deflate compresses well.
enum DeltaCoding {
    static let tableTag: UInt8 = 1
    static let deleteTag: UInt8 = 2
    static let insertTag: UInt8 = 3
    static let updateTag: UInt8 = 4
    /// A delete of every row whose key starts with some values: their count, then the values.
    static let deletePrefixTag: UInt8 = 5
    static let endTag: UInt8 = 0

    static let nullTag: UInt8 = 0
    static let integerTag: UInt8 = 1
    static let realTag: UInt8 = 2
    static let textTag: UInt8 = 3
    static let blobTag: UInt8 = 4
    static let integerDeltaTag: UInt8 = 5

    /// The longest table name (SQLite names are short; this bounds a hostile one).
    static let maximumNameBytes = 4096
    /// The most columns a table may have (SQLite's own hard limit, `SQLITE_MAX_COLUMN`).
    static let maximumColumns = 32767
    /// The longest text or blob value: the writer refuses a seed holding a longer one (ship
    /// the full seed), and the reader never allocates more for one value.
    public static let maximumValueBytes = 32 << 20

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

    /// The last integer written in each column of the current table (nil: none, or not an integer).
    struct ColumnState {
        var keys: [Int64?] = []
        var values: [Int64?] = []

        mutating func reset(for table: DeltaTable) {
            keys = Array(repeating: nil, count: table.keyCount)
            values = Array(repeating: nil, count: table.valueCount)
        }
    }
}
