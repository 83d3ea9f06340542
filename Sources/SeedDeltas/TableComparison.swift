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

/// Compares one table of two databases attached to a connection, by key, in SQL, and yields
/// the delta records that turn the old rows into the new ones: first the deletes, then the
/// inserts and updates, each in key order (see `DeltaRecord`).
///
/// A row is changed when a value differs in storage class or bytes (text compared byte for
/// byte, whatever the column's collation); a changed row is an update of the values that
/// differ, or, when a value some unique index covers changes, a delete and an insert (so that
/// applying the records in order never breaks a unique constraint). Memory stays bounded: rows
/// stream from two queries.
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

    /// Runs the comparison, passing each record to `emit`.
    /// - Returns: how many rows were removed, added and changed.
    func run(_ emit: (DeltaRecord) throws -> Void) throws -> TableChanges {
        let oldTable = rows(old), newTable = rows(new)
        let join = shape.keyColumns.map { "n.\(quoted($0)) = o.\(quoted($0))" }.joined(separator: " AND ")
        let firstKey = quoted(shape.keyColumns[0])
        let reinsertion = try uniqueColumns().map(differs).joined(separator: " OR ")
        let reinsert = reinsertion.isEmpty ? "0" : reinsertion
        let changed = shape.valueColumns.indices.map(differs).joined(separator: " OR ")
        let oldValues = shape.columnList("o", key: false)

        var changes = TableChanges(name: new.table)
        let keyCount = shape.keyColumns.count, valueCount = shape.valueColumns.count
        changes.removed = try emitDeletes(
            from: oldTable, missingIn: newTable, join: join, reinsert: reinsert, emit)
        let changedFlag = changed.isEmpty ? "0" : changed
        let statements = RangeStatements(connection: connection, shape: shape)
        let select = """
            SELECT \(shape.columnList("n")), o.\(firstKey) IS NULL, \(reinsert), \
            \(changedFlag)\(oldValues.isEmpty ? "" : ", " + oldValues)
            FROM \(newTable) AS n LEFT JOIN \(oldTable) AS o ON \(join)
            WHERE (o.\(firstKey) IS NULL OR \(changedFlag))
            """
        let order = " ORDER BY " + shape.keyColumns.map { "n." + quoted($0) }.joined(separator: ", ")
        for range in ranges ?? [KeyRange()] {
            let rows = try statements.prepare(select, alias: "n", range: range, order: order)
            while try rows.step() {
                let key = (0..<keyCount).map(rows.deltaValue)
                let isNew = rows.int64(at: keyCount + valueCount) == 1
                if isNew || rows.int64(at: keyCount + valueCount + 1) == 1 {
                    try emit(.insert(key: key, values: (keyCount..<keyCount + valueCount).map(rows.deltaValue)))
                    if isNew { changes.added += 1 } else { changes.changed += 1 }
                    continue
                }
                let base = keyCount + valueCount + 3
                let updates: [DeltaRecord.Change] = (0..<valueCount).compactMap { index in
                    let value = rows.deltaValue(at: keyCount + index)
                    return value == rows.deltaValue(at: base + index)
                        ? nil : DeltaRecord.Change(column: index, value: value)
                }
                if !updates.isEmpty {
                    try emit(.update(key: key, changes: updates))
                    changes.changed += 1
                }
            }
        }
        return changes
    }

    /// Rows the new table lacks, and rows whose unique-indexed values change: those are
    /// inserted again below, after every delete. In a WITHOUT ROWID table keyed on several
    /// columns, the rows under one key prefix (a trip's stop_times) that all go are one
    /// delete.
    /// - Returns: how many rows the new table lacks.
    private func emitDeletes(
        from oldTable: String, missingIn newTable: String, join: String, reinsert: String,
        _ emit: (DeltaRecord) throws -> Void
    ) throws -> Int {
        let firstKey = quoted(shape.keyColumns[0])
        let keyCount = shape.keyColumns.count
        var removed = 0
        let statements = RangeStatements(connection: connection, shape: shape)
        let select = """
            SELECT \(shape.columnList("o", values: false)), n.\(firstKey) IS NULL
            FROM \(oldTable) AS o LEFT JOIN \(newTable) AS n ON \(join)
            WHERE (n.\(firstKey) IS NULL OR \(reinsert))
            """
        let order = " ORDER BY " + shape.keyColumns.map { "o." + quoted($0) }.joined(separator: ", ")
        let prefix = shape.isRowID ? [] : Array(shape.keyColumns.dropLast())
        let siblings =
            prefix.isEmpty
            ? nil
            : try connection.prepare(
                "SELECT count(*) FROM \(oldTable) AS o WHERE "
                    + prefix.enumerated().map { "\(quoted($1)) = ?\($0 + 1)" }.joined(separator: " AND "))
        var group: [[DeltaValue]] = []
        func endGroup() throws {
            guard let first = group.first else { return }
            if let siblings, group.count > 1 {
                let values = Array(first.prefix(prefix.count))
                for (index, value) in values.enumerated() { try siblings.bind(value, at: Int32(index + 1)) }
                defer { siblings.reset() }
                if try siblings.step(), siblings.int64(at: 0) == Int64(group.count) {
                    try emit(.delete(key: values))
                    group.removeAll(keepingCapacity: true)
                    return
                }
            }
            for key in group { try emit(.delete(key: key)) }
            group.removeAll(keepingCapacity: true)
        }
        for range in ranges ?? [KeyRange()] {
            let deletes = try statements.prepare(select, alias: "o", range: range, order: order)
            while try deletes.step() {
                let key = (0..<keyCount).map(deletes.deltaValue)
                if prefix.isEmpty {
                    try emit(.delete(key: key))
                } else {
                    if let first = group.first, first.prefix(prefix.count) != key.prefix(prefix.count) {
                        try endGroup()
                    }
                    group.append(key)
                }
                if deletes.int64(at: keyCount) == 1 { removed += 1 }
            }
        }
        try endGroup()
        return removed
    }

    /// The rows of one side: the table, or the subquery of its rows `filter` holds for.
    private func rows(_ side: (schema: String, table: String)) -> String {
        let table = "\(quoted(side.schema)).\(quoted(side.table))"
        guard let filter else { return table }
        return "(SELECT \(shape.isRowID ? "\(shape.keyColumns[0]), " : "")* FROM \(table) WHERE NOT (\(filter)))"
    }

    /// SQL that is true when value column `index` differs between `n` and `o` in storage class
    /// or bytes. `IS NOT ... COLLATE BINARY` tells text, blobs, NULL and numbers apart, and a
    /// column with an affinity stores a number in one class only; a column without one may
    /// hold 1 and 1.0, which compare equal, so their classes are compared too (a function call
    /// per row: only where needed).
    private func differs(_ index: Int) -> String {
        let column = quoted(shape.valueColumns[index])
        let values = "n.\(column) IS NOT o.\(column) COLLATE BINARY"
        return shape.valueColumnsKeepNumberClass[index]
            ? "(\(values) OR typeof(n.\(column)) <> typeof(o.\(column)))" : "(\(values))"
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

/// A comparison's statements for each kind of key range (bounded below, above, both or not),
/// prepared once and bound again for each range.
private final class RangeStatements {
    let connection: Connection
    let shape: DeltaTableShape
    private var bySQL: [String: Statement] = [:]

    init(connection: Connection, shape: DeltaTableShape) {
        self.connection = connection
        self.shape = shape
    }

    /// `select` (which ends with a WHERE clause), limited to the rows of `alias` whose key is in
    /// `range` (the key compared as it orders rows: the caller checks its collation is BINARY,
    /// which also lets SQLite search the range by the key), then `order`; bound and reset.
    func prepare(_ select: String, alias: String, range: KeyRange, order: String) throws -> Statement {
        let key = "(" + shape.keyColumns.map { "\(alias).\(quoted($0))" }.joined(separator: ", ") + ")"
        let width = shape.keyColumns.count
        func parameters(from first: Int) -> String {
            "(" + (first..<first + width).map { "?\($0)" }.joined(separator: ", ") + ")"
        }
        var sql = select
        var values: [DeltaValue] = []
        if let after = range.after {
            guard after.count == width else { throw RangeMismatch(table: shape.name) }
            sql += " AND \(key) > \(parameters(from: values.count + 1))"
            values += after
        }
        if let through = range.through {
            guard through.count == width else { throw RangeMismatch(table: shape.name) }
            sql += " AND \(key) <= \(parameters(from: values.count + 1))"
            values += through
        }
        sql += order
        let statement: Statement
        if let cached = bySQL[sql] {
            statement = cached
            statement.reset()
        } else {
            statement = try connection.prepare(sql)
            bySQL[sql] = statement
        }
        for (index, value) in values.enumerated() { try statement.bind(value, at: Int32(index + 1)) }
        return statement
    }
}

/// A chunk record's key that does not have the table's key's width.
struct RangeMismatch: Error, CustomStringConvertible {
    var table: String
    var description: String { "the chunk record of table '\(table)' holds keys of another width than its key" }
}
