import SeedArchive
import SeedInstaller
import SeedSQLite

/// Compares one table of two databases attached to a connection, by key, in SQL, and yields
/// the delta records that turn the old rows into the new ones: first the deletes, then the
/// inserts and updates, each in key order (see `DeltaRecord`).
///
/// `seedgen delta` writes these records; `seedgen build --previous` applies them to a copy of
/// the previous seed's rows. Both use this one comparison, so a delta makes exactly the rows
/// the build made: rows it leaves alone keep their stored form (SQLite keeps a record's column
/// count, which `ALTER TABLE ADD COLUMN` leaves short), rows it writes get the form INSERT and
/// UPDATE give them.
///
/// A row is changed when a value differs in storage class or bytes (text compared byte for
/// byte, whatever the column's collation); a changed row is an update of the values that
/// differ, or, when a value some unique index covers changes, a delete and an insert (so that
/// applying the records in order never breaks a unique constraint). Memory stays bounded: rows
/// stream from two queries.
///
/// Given the rows' stored forms (`seedgen delta`, which compares two files a build did not
/// make from one another), a row is also written when its values are the same but NEW stores
/// it whole and OLD with fewer columns: a row changed and later changed back in a chain of
/// `--previous` builds. It is an update of one value to itself, which writes the record whole.
/// A row NEW stores short that a delta would have to write, or shorter than OLD does, cannot
/// be reproduced: refused.
struct TableComparison {
    /// The table's shape (the same in both databases).
    let shape: DeltaTableShape
    /// The old and new tables: (schema name, table name).
    let old: (schema: String, table: String)
    let new: (schema: String, table: String)
    let connection: Connection
    /// The stored forms of both tables' rows, read from the files; nil to compare values only.
    var forms: StoredForms? = nil

    /// Where the stored forms of the two tables' rows come from.
    struct StoredForms {
        var old: RecordFormReader.Cursor
        var new: RecordFormReader.Cursor
        /// The columns a record written whole (by INSERT or UPDATE) holds.
        let columnCount: Int
    }

    /// Runs the comparison, passing each record to `emit`.
    /// - Returns: how many rows were removed, added and changed.
    func run(_ emit: (DeltaRecord) throws -> Void) throws -> SeedDeltaWriter.TableChanges {
        let oldTable = "\(q(old.schema)).\(q(old.table))", newTable = "\(q(new.schema)).\(q(new.table))"
        let join = shape.keyColumns.map { "n.\(q($0)) = o.\(q($0))" }.joined(separator: " AND ")
        let firstKey = q(shape.keyColumns[0])
        let reinsertion = try uniqueColumns().map(differs).joined(separator: " OR ")
        let reinsert = reinsertion.isEmpty ? "0" : reinsertion
        let changed = shape.valueColumns.indices.map(differs).joined(separator: " OR ")
        let oldValues = shape.columnList("o", key: false)

        var changes = SeedDeltaWriter.TableChanges(name: new.table)
        let keyCount = shape.keyColumns.count, valueCount = shape.valueColumns.count
        // Rows the new table lacks, and rows whose unique-indexed values change: those are
        // inserted again below, after every delete. In a WITHOUT ROWID table keyed on several
        // columns, the rows under one key prefix (a trip's stop_times) that all go are one
        // delete.
        let deletes = try connection.prepare("""
            SELECT \(shape.columnList("o", values: false)), n.\(firstKey) IS NULL
            FROM \(oldTable) AS o LEFT JOIN \(newTable) AS n ON \(join)
            WHERE n.\(firstKey) IS NULL OR \(reinsert) ORDER BY \(shape.keyColumns.map { "o." + q($0) }.joined(separator: ", "))
            """)
        let prefix = shape.isRowID ? [] : Array(shape.keyColumns.dropLast())
        let siblings = prefix.isEmpty ? nil : try connection.prepare(
            "SELECT count(*) FROM \(oldTable) WHERE " + prefix.enumerated().map { "\(q($1)) = ?\($0 + 1)" }.joined(separator: " AND "))
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
        while try deletes.step() {
            let key = (0..<keyCount).map(deletes.deltaValue)
            if prefix.isEmpty {
                try emit(.delete(key: key))
            } else {
                if let first = group.first, first.prefix(prefix.count) != key.prefix(prefix.count) { try endGroup() }
                group.append(key)
            }
            if deletes.int64(at: keyCount) == 1 { changes.removed += 1 }
        }
        try endGroup()
        // With the stored forms, every row is read (in key order, as the files store them),
        // since a row of the same values may be stored in another form.
        var forms = self.forms
        let changedFlag = changed.isEmpty ? "0" : changed
        let rows = try connection.prepare("""
            SELECT \(shape.columnList("n")), o.\(firstKey) IS NULL, \(reinsert), \(changedFlag)\(oldValues.isEmpty ? "" : ", " + oldValues)
            FROM \(newTable) AS n LEFT JOIN \(oldTable) AS o ON \(join)
            \(forms == nil ? "WHERE o.\(firstKey) IS NULL OR \(changedFlag)" : "") ORDER BY \(shape.keyColumns.map { "n." + q($0) }.joined(separator: ", "))
            """)
        while try rows.step() {
            let key = (0..<keyCount).map(rows.deltaValue)
            let newColumns = try forms?.new.columnCount(of: key)
            let isNew = rows.int64(at: keyCount + valueCount) == 1
            let isChanged = rows.int64(at: keyCount + valueCount + 2) == 1
            if isNew || rows.int64(at: keyCount + valueCount + 1) == 1 {
                try checkWhole(key, newColumns)
                try emit(.insert(key: key, values: (keyCount..<keyCount + valueCount).map(rows.deltaValue)))
                if isNew { changes.added += 1 } else { changes.changed += 1 }
                continue
            }
            let base = keyCount + valueCount + 3
            let updates: [DeltaRecord.Change] = !isChanged ? [] : (0..<valueCount).compactMap { index in
                let value = rows.deltaValue(at: keyCount + index)
                return value == rows.deltaValue(at: base + index) ? nil : DeltaRecord.Change(column: index, value: value)
            }
            if !updates.isEmpty {
                try checkWhole(key, newColumns)
                try emit(.update(key: key, changes: updates))
                changes.changed += 1
            } else if let newColumns, let oldColumns = try forms?.old.columnCount(of: key), oldColumns != newColumns {
                // The same values in another form: OLD's record is short, NEW's whole.
                try checkWhole(key, newColumns, old: oldColumns)
                guard valueCount > 0 else {
                    throw ShipError(path: self.forms?.new.reader.path ?? new.table, message: "stores row \(DeltaTableEditor.describe(key)) of table '\(new.table)' with \(newColumns) columns, the old seed with \(oldColumns), but the table has no column to write again; ship the full seed")
                }
                let column = valueCount - 1
                try emit(.update(key: key, changes: [DeltaRecord.Change(column: column, value: rows.deltaValue(at: keyCount + column))]))
                changes.changed += 1
            }
        }
        return changes
    }

    /// Refuses a row NEW stores with fewer columns than a delta's INSERT or UPDATE writes.
    private func checkWhole(_ key: [DeltaValue], _ newColumns: Int?, old oldColumns: Int? = nil) throws(ShipError) {
        guard let forms, let newColumns, newColumns != forms.columnCount else { return }
        let before = oldColumns.map { ", in the old one with \($0)" } ?? ""
        throw ShipError(path: forms.new.reader.path, message: "stores row \(DeltaTableEditor.describe(key)) of table '\(new.table)' with \(newColumns) of its \(forms.columnCount) columns\(before): a delta writes a row whole, so it cannot give this form (was the new seed built with --previous from the old one's chain?); ship the full seed")
    }

    /// SQL that is true when value column `index` differs between `n` and `o` in storage class
    /// or bytes. `IS NOT ... COLLATE BINARY` tells text, blobs, NULL and numbers apart, and a
    /// column with an affinity stores a number in one class only; a column without one may
    /// hold 1 and 1.0, which compare equal, so their classes are compared too (a function call
    /// per row: only where needed).
    private func differs(_ index: Int) -> String {
        let column = q(shape.valueColumns[index])
        let values = "n.\(column) IS NOT o.\(column) COLLATE BINARY"
        return shape.valueColumnsKeepNumberClass[index] ? "(\(values) OR typeof(n.\(column)) <> typeof(o.\(column)))" : "(\(values))"
    }

    /// The value columns (indexes) some unique index or constraint of the old table covers (all of them
    /// when an index is on an expression). The old table has every index of the schema (the
    /// new one may be a build's scratch copy), so a build and a delta decide alike.
    private func uniqueColumns() throws -> [Int] {
        var columns = Set<String>()
        let indexes = try connection.rows("SELECT name, \"unique\", origin FROM pragma_index_list(?, ?)", [.text(old.table), .text(old.schema)])
        for index in indexes where index[1].integer == 1 {
            // A WITHOUT ROWID table's primary key is its key: rows are matched on it.
            if !shape.isRowID && index[2].text == "pk" { continue }
            let name = index[0].text ?? ""
            for column in try connection.rows("SELECT cid, name FROM pragma_index_info(?, ?)", [.text(name), .text(old.schema)]) {
                if column[0].integer == -2 { return Array(shape.valueColumns.indices) }
                if let columnName = column[1].text, shape.valueColumns.contains(columnName) { columns.insert(columnName) }
            }
        }
        return shape.valueColumns.indices.filter { columns.contains(shape.valueColumns[$0]) }
    }

    private func q(_ identifier: String) -> String { DeltaTableShape.quoted(identifier) }
}
