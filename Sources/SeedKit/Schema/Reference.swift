/// A to-one relationship: the values of some columns of this table are the natural key of a
/// row of another table (or of this one). It is stored as an integer column holding that
/// row's id, declared as a foreign key and indexed.
public struct Reference: Sendable, Equatable {
    /// What to do with a row whose key names no row of the target table.
    public enum OnMissing: String, Sendable, CaseIterable {
        /// Fail the build, naming file, line, column and value (the default).
        case error
        /// Keep the row with a NULL reference (and count it as a warning).
        case null
        /// The key names an object outside the input (NeTEx points at national stop
        /// registries): keep the row, its key columns (which must be stored) holding the id
        /// and the reference NULL, with one summarised warning per reference.
        case keep
    }

    /// The integer column added to this table.
    public var column: String
    /// The columns of this table whose values form the target's natural key, in key order.
    public var from: [String]
    /// The target table.
    public var to: String
    /// Find-or-create: a key seen for the first time creates the target row (its key
    /// columns filled with the values), and later rows reuse it.
    public var create: Bool
    /// How many keys the lookup cache keeps (least recently used are dropped).
    public var cacheSize: Int
    public var onMissing: OnMissing
    /// True to store the column after the table's other columns and references (before
    /// `extras`), like `Column.trailing`.
    public var trailing: Bool = false
    /// The target's columns the `from` values match, in order: nil for its `key`, the
    /// columns of one of its unique indexes (`users.display_name`), or the first columns of
    /// its key (a NeTEx object by id, whose key adds `order`): then the first row, in row
    /// order, of those the values name, with one warning when they name several.
    public var toColumns: [String]?
    /// Find-or-create: the created row's other columns, each filled from a column of this
    /// table (target column -> this table's column). A row found is left as it is.
    public var fill: [String: String] = [:]

    /// The columns of `target` this reference matches: `toColumns`, or its key.
    public func targetColumns(in target: Table) -> [String] {
        toColumns ?? target.key
    }

    /// True when the matched columns are the first columns of the target's key, not all of
    /// them: the values may name several rows.
    public func matchesKeyPrefix(of target: Table) -> Bool {
        guard let toColumns, toColumns.count < target.key.count else { return false }
        return Array(target.key.prefix(toColumns.count)) == toColumns
    }

    public static let defaultCacheSize = 65_536

    public init(
        column: String, from: [String], to: String, create: Bool = false,
        cacheSize: Int = Reference.defaultCacheSize, onMissing: OnMissing = .error
    ) {
        self.column = column
        self.from = from
        self.to = to
        self.create = create
        self.cacheSize = cacheSize
        self.onMissing = onMissing
    }
}
