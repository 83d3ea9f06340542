import SeedArchive
import SeedSQLite

/// What a table contributes to a delta.
public struct TableChanges: Equatable, Sendable {
    /// The table.
    public var name: String
    /// Rows only OLD has.
    public var removed = 0
    /// Rows only NEW has.
    public var added = 0
    /// Rows both have, with other values.
    public var changed = 0

    /// No changes yet to table `name`.
    public init(name: String) { self.name = name }
}

/// Compares one table of two databases attached to a connection, by key, and yields the delta
/// records that turn the old rows into the new ones: first the deletes, then the inserts and
/// updates, each in key order (see `DeltaRecord`).
///
/// Both tables are read once, in key order, range by range, and merged (``RowMerge``): the
/// deletes go out as they are found, the inserts and updates wait in a ``RecordSpool`` until the
/// last delete. Rows are compared by the values they store, as the content digest tells rows
/// apart: a value differs in storage class or content (reals by their bits, so 0.0 and -0.0
/// differ; text byte for byte, whatever the column's collation, and keys in the BINARY order,
/// so 'A' and 'a' are two rows even where the key's collation is NOCASE). A changed row is an
/// update of the values that differ, or, when a value some unique index covers changes, a
/// delete and an insert (so that applying the records in order never breaks a unique
/// constraint). Memory stays bounded: rows stream from two queries at a time.
///
/// `filter`, when set, is an SQL condition on a row (its columns unqualified) that limits the
/// comparison to the rows it holds for, on both sides: a loaded table's rows that a recipe does
/// not derive (`DeriveRecipe.rows`).
struct TableComparison {
    /// The table's shape (the same in both databases).
    let shape: DeltaTableShape
    /// The old and new tables: (schema name, table name).
    let old: (schema: String, table: String)
    let new: (schema: String, table: String)
    let connection: Connection
    var filter: String? = nil
    /// The key ranges to compare, in key order (nil: every row): outside them, both tables hold
    /// the same rows (``ChangedKeyRanges``).
    var ranges: [KeyRange]? = nil

    /// Runs the comparison, passing each record to `emit`; the inserts and updates wait in
    /// `spool` meanwhile. With a `helper`, a large comparison's later ranges are compared on
    /// another thread with the helper's connection (its records spooled, then passed on in
    /// order): the records are the same.
    /// - Returns: how many rows were removed, added and changed.
    func run(spool: RecordSpool, helper: Helper? = nil, _ emit: (DeltaRecord) throws -> Void) throws -> TableChanges {
        let unique = try uniqueColumns()
        let ranges = self.ranges ?? [KeyRange()]
        let split = helper.map { Self.split(ranges, atLeast: $0.splitRows) } ?? ranges.count
        spool.start(shape.deltaTable)
        guard let helper, split < ranges.count else {
            let changes = try compare(ranges[...], unique: unique, deletes: emit, inserts: spool)
            try spool.replay(emit)
            return changes
        }
        let other = TableComparison(shape: shape, old: old, new: new, connection: helper.connection, filter: filter)
        helper.deletes.start(shape.deltaTable)
        helper.inserts.start(shape.deltaTable)
        let later = BackgroundWork { () throws(any Error) -> TableChanges in
            try other.compare(
                ranges[split...], unique: unique, deletes: { try helper.deletes.append($0) }, inserts: helper.inserts)
        }
        let first: TableChanges
        do { first = try compare(ranges[..<split], unique: unique, deletes: emit, inserts: spool) } catch {
            _ = later.wait()
            throw error
        }
        let second = try later.wait().get()
        // A prefix's rows that all go lie in one range (shared chunks hold rows of both seeds
        // between ranges): no group of deletes spans the split.
        try helper.deletes.replay(emit)
        try spool.replay(emit)
        try helper.inserts.replay(emit)
        var changes = first
        changes.removed += second.removed
        changes.added += second.added
        changes.changed += second.changed
        return changes
    }

    /// A second connection to the same two databases (attached under the same names), and two
    /// spools of its own, for the later half of a large table's comparison.
    struct Helper {
        let connection: Connection
        let deletes: RecordSpool
        let inserts: RecordSpool
        /// Rows of NEW's changed chunks under which a table is compared on one thread.
        var splitRows: Int64 = 50_000
    }

    /// Where the ranges divide between the two threads; their count when they are too few to
    /// divide (or hold fewer than `splitRows` rows). The first thread takes a little over half
    /// the rows of NEW's changed chunks (11/20): the later ranges hold the rows added at a
    /// table's end, more work per row (at 3M stop_times, halves took 535 and 670 ms).
    static func split(_ ranges: [KeyRange], atLeast splitRows: Int64) -> Int {
        let total = ranges.reduce(Int64(0)) { $0 > .max - $1.rows ? .max : $0 + $1.rows }
        guard ranges.count >= 2, total >= splitRows else { return ranges.count }
        var sum: Int64 = 0
        for (index, range) in ranges.dropLast().enumerated() {
            sum = sum > .max - range.rows ? .max : sum + range.rows
            if sum >= total / 20 * 11 { return index + 1 }
        }
        return ranges.count - 1
    }

    /// Compares `ranges`, passing deletes to `deletes` and keeping inserts and updates in
    /// `inserts` (started by the caller).
    private func compare(
        _ ranges: ArraySlice<KeyRange>, unique: [Int], deletes emit: (DeltaRecord) throws -> Void,
        inserts spool: RecordSpool
    ) throws -> TableChanges {
        let keyCount = shape.keyColumns.count, valueCount = shape.valueColumns.count
        let keys = 0..<keyCount, values = keyCount..<keyCount + valueCount
        var changes = TableChanges(name: new.table)
        var deletes = try DeleteGroups(self)
        let oldRows = rangeStatements(old), newRows = rangeStatements(new)
        for range in ranges {
            var rows = try RowMerge(old: oldRows.bound(to: range), new: newRows.bound(to: range), keyCount: keyCount)
            while let side = try rows.next() {
                let row = rows.new
                switch side {
                case .old:
                    try deletes.add(keys.map(rows.old.deltaValue), emit)
                    changes.removed += 1
                case .new:
                    try spool.append(.insert(key: keys.map(row.deltaValue), values: values.map(row.deltaValue)))
                    changes.added += 1
                case .both:
                    guard let first = values.first(where: { !row.hasSameValue(at: $0, as: rows.old, at: $0) }) else {
                        continue
                    }
                    let differs = values[first...].filter { !row.hasSameValue(at: $0, as: rows.old, at: $0) }
                    let key = keys.map(row.deltaValue)
                    if differs.contains(where: { unique.contains($0 - keyCount) }) {
                        try deletes.add(key, emit)
                        try spool.append(.insert(key: key, values: values.map(row.deltaValue)))
                    } else {
                        let update = differs.map {
                            DeltaRecord.Change(column: $0 - keyCount, value: row.deltaValue(at: $0))
                        }
                        try spool.append(.update(key: key, changes: update))
                    }
                    changes.changed += 1
                }
            }
        }
        try deletes.end(emit)
        return changes
    }

    /// The deletes of a table, in key order: in a WITHOUT ROWID table keyed on several columns,
    /// the rows under one key prefix (a trip's stop_times) that all go are one delete.
    private struct DeleteGroups {
        private let prefixCount: Int
        /// Counts the old table's rows under a prefix (nil: a key of one column).
        private let siblings: Statement?
        private var group: [[DeltaValue]] = []

        init(_ comparison: TableComparison) throws {
            let shape = comparison.shape
            let prefix = shape.isRowID ? [] : Array(shape.keyColumns.dropLast())
            prefixCount = prefix.count
            siblings =
                prefix.isEmpty
                ? nil
                : try comparison.connection.prepare(
                    "SELECT count(*) FROM \(comparison.rows(comparison.old)) AS o WHERE "
                        + prefix.enumerated().map { "\(quoted($1)) = ?\($0 + 1)" }.joined(separator: " AND "))
        }

        /// The key of a row to delete, after those before it.
        mutating func add(_ key: [DeltaValue], _ emit: (DeltaRecord) throws -> Void) throws {
            guard siblings != nil else { return try emit(.delete(key: key)) }
            if let first = group.first, first.prefix(prefixCount) != key.prefix(prefixCount) { try end(emit) }
            group.append(key)
        }

        /// Writes the group waiting: one delete by prefix when it holds every row under it.
        mutating func end(_ emit: (DeltaRecord) throws -> Void) throws {
            guard let first = group.first else { return }
            defer { group.removeAll(keepingCapacity: true) }
            if let siblings, group.count > 1 {
                let values = Array(first.prefix(prefixCount))
                for (index, value) in values.enumerated() { try siblings.bind(value, at: Int32(index + 1)) }
                defer { siblings.reset() }
                if try siblings.step(), siblings.int64(at: 0) == Int64(group.count) {
                    return try emit(.delete(key: values))
                }
            }
            for key in group { try emit(.delete(key: key)) }
        }
    }

    /// The rows of one side, keys and values, of a key range at a time.
    private func rangeStatements(_ side: (schema: String, table: String)) -> RangeStatements {
        // In the BINARY order the merge compares keys in, whatever a key column's collation (an
        // index of another collation then cannot give the order: SQLite sorts).
        RangeStatements(
            connection: connection, shape: shape,
            select: "SELECT \(shape.columnList("s")) FROM \(rows(side)) AS s WHERE 1",
            order: " ORDER BY " + shape.keyColumns.map { "s.\(quoted($0)) COLLATE BINARY" }.joined(separator: ", "))
    }

    /// The rows of one side: the table, or the subquery of its rows `filter` holds for.
    private func rows(_ side: (schema: String, table: String)) -> String {
        let table = "\(quoted(side.schema)).\(quoted(side.table))"
        guard let filter else { return table }
        return "(SELECT \(shape.isRowID ? "\(shape.keyColumns[0]), " : "")* FROM \(table) WHERE NOT (\(filter)))"
    }

    /// The value columns (indexes) some unique index or constraint of the old table covers (all of them
    /// when an index is on an expression). The old table has every index of the schema (the
    /// new one may be a build's scratch copy), so a build and a delta decide alike.
    private func uniqueColumns() throws -> [Int] {
        var columns = Set<String>()
        let indexes = try connection.rows(
            "SELECT name, \"unique\", origin FROM pragma_index_list(?, ?)", [.text(old.table), .text(old.schema)])
        for index in indexes where index[1].integer == 1 {
            // A WITHOUT ROWID table's primary key is its key: rows are matched on it.
            if !shape.isRowID && index[2].text == "pk" { continue }
            let name = index[0].text ?? ""
            for column in try connection.rows(
                "SELECT cid, name FROM pragma_index_info(?, ?)", [.text(name), .text(old.schema)])
            {
                if column[0].integer == -2 { return Array(shape.valueColumns.indices) }
                if let columnName = column[1].text, shape.valueColumns.contains(columnName) {
                    columns.insert(columnName)
                }
            }
        }
        return shape.valueColumns.indices.filter { columns.contains(shape.valueColumns[$0]) }
    }
}

/// Two queries of the same columns over the same keys, in the same (BINARY) key order, one of
/// the old table and one of the new, stepped together like a merge: each step says whether the
/// next key is only in the old table, only in the new, or in both (its rows then are those of
/// `old` and `new`, the statements' current rows).
struct RowMerge {
    enum Side { case old, new, both }

    let old: Statement
    let new: Statement
    let keyCount: Int
    private var oldHasRow: Bool
    private var newHasRow: Bool
    private var last: Side?

    /// Takes the statements bound and unstepped; steps each to its first row.
    init(old: Statement, new: Statement, keyCount: Int) throws(SQLiteError) {
        self.old = old
        self.new = new
        self.keyCount = keyCount
        oldHasRow = try old.step()
        newHasRow = try new.step()
    }

    /// Moves past the rows of the last step and says where the next key is; nil after the last.
    mutating func next() throws(SQLiteError) -> Side? {
        switch last {
        case .old: oldHasRow = try old.step()
        case .new: newHasRow = try new.step()
        case .both:
            oldHasRow = try old.step()
            newHasRow = try new.step()
        case nil: break
        }
        switch (oldHasRow, newHasRow) {
        case (true, true):
            let order = old.compareColumns(keyCount, with: new)
            last = order < 0 ? .old : (order > 0 ? .new : .both)
        case (true, false): last = .old
        case (false, true): last = .new
        case (false, false): last = nil
        }
        return last
    }
}

/// A query's statements for each kind of key range (bounded below, above, both or not),
/// prepared once and bound again for each range.
private final class RangeStatements {
    let connection: Connection
    let shape: DeltaTableShape
    /// The query (of the rows of alias `s`, ending with a WHERE clause) and its ORDER BY.
    let select: String
    let order: String
    /// By kind: 1 when bounded below, plus 2 when bounded above.
    private var byKind: [Statement?] = [nil, nil, nil, nil]

    init(connection: Connection, shape: DeltaTableShape, select: String, order: String) {
        self.connection = connection
        self.shape = shape
        self.select = select
        self.order = order
    }

    /// The query limited to the rows whose key is in `range` (the key compared as it orders
    /// rows: the caller checks its collation is BINARY, which also lets SQLite search the range
    /// by the key), reset and bound.
    func bound(to range: KeyRange) throws -> Statement {
        let width = shape.keyColumns.count
        for bound in [range.after, range.through] where bound != nil && bound?.count != width {
            throw RangeMismatch(table: shape.name)
        }
        let kind = (range.after == nil ? 0 : 1) + (range.through == nil ? 0 : 2)
        let statement: Statement
        if let cached = byKind[kind] {
            statement = cached
            statement.reset()
        } else {
            let key = "(" + shape.keyColumns.map { "s.\(quoted($0))" }.joined(separator: ", ") + ")"
            func parameters(from first: Int) -> String {
                "(" + (first..<first + width).map { "?\($0)" }.joined(separator: ", ") + ")"
            }
            var sql = select
            if range.after != nil { sql += " AND \(key) > \(parameters(from: 1))" }
            if range.through != nil { sql += " AND \(key) <= \(parameters(from: range.after == nil ? 1 : width + 1))" }
            statement = try connection.prepare(sql + order)
            byKind[kind] = statement
        }
        for (index, value) in ((range.after ?? []) + (range.through ?? [])).enumerated() {
            try statement.bind(value, at: Int32(index + 1))
        }
        return statement
    }
}

/// A chunk record's key that does not have the table's key's width.
struct RangeMismatch: Error, CustomStringConvertible {
    var table: String
    var description: String { "the chunk record of table '\(table)' holds keys of another width than its key" }
}
