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
struct TableComparison {
    /// The table's shape (the same in both databases).
    let shape: DeltaTableShape
    /// The old and new tables: (schema name, table name).
    let old: (schema: String, table: String)
    let new: (schema: String, table: String)
    let connection: Connection

    /// Runs the comparison, passing each record to `emit`.
    /// - Returns: how many rows were removed, added and changed.
    func run(_ emit: (DeltaRecord) throws -> Void) throws -> SeedDeltaWriter.TableChanges {
        let oldTable = "\(q(old.schema)).\(q(old.table))", newTable = "\(q(new.schema)).\(q(new.table))"
        let join = shape.keyColumns.map { "n.\(q($0)) = o.\(q($0))" }.joined(separator: " AND ")
        let firstKey = q(shape.keyColumns[0])
        let reinsertion = try uniqueColumns().map(differs).joined(separator: " OR ")
        let reinsert = reinsertion.isEmpty ? "0" : reinsertion
        let changed = shape.valueColumns.map(differs).joined(separator: " OR ")
        let oldValues = shape.columnList("o", key: false)

        var changes = SeedDeltaWriter.TableChanges(name: new.table)
        let keyCount = shape.keyColumns.count, valueCount = shape.valueColumns.count
        // Rows the new table lacks, and rows whose unique-indexed values change: those are
        // inserted again below, after every delete.
        let deletes = try connection.prepare("""
            SELECT \(shape.columnList("o", values: false)), n.\(firstKey) IS NULL
            FROM \(oldTable) AS o LEFT JOIN \(newTable) AS n ON \(join)
            WHERE n.\(firstKey) IS NULL OR \(reinsert) ORDER BY \(shape.keyColumns.map { "o." + q($0) }.joined(separator: ", "))
            """)
        while try deletes.step() {
            try emit(.delete(key: (0..<keyCount).map(deletes.deltaValue)))
            if deletes.int64(at: keyCount) == 1 { changes.removed += 1 }
        }
        let rows = try connection.prepare("""
            SELECT \(shape.columnList("n")), o.\(firstKey) IS NULL, \(reinsert)\(oldValues.isEmpty ? "" : ", " + oldValues)
            FROM \(newTable) AS n LEFT JOIN \(oldTable) AS o ON \(join)
            WHERE o.\(firstKey) IS NULL\(changed.isEmpty ? "" : " OR " + changed) ORDER BY \(shape.keyColumns.map { "n." + q($0) }.joined(separator: ", "))
            """)
        while try rows.step() {
            let key = (0..<keyCount).map(rows.deltaValue)
            let values = (keyCount..<keyCount + valueCount).map(rows.deltaValue)
            let isNew = rows.int64(at: keyCount + valueCount) == 1
            if isNew || rows.int64(at: keyCount + valueCount + 1) == 1 {
                try emit(.insert(key: key, values: values))
                if isNew { changes.added += 1 } else { changes.changed += 1 }
                continue
            }
            let base = keyCount + valueCount + 2
            let updates = values.enumerated().compactMap { index, value in
                value == rows.deltaValue(at: base + index) ? nil : DeltaRecord.Change(column: index, value: value)
            }
            guard !updates.isEmpty else { continue }
            try emit(.update(key: key, changes: updates))
            changes.changed += 1
        }
        return changes
    }

    /// SQL that is true when column `name` differs between `n` and `o` in storage class or bytes.
    private func differs(_ name: String) -> String {
        let column = q(name)
        return "(n.\(column) IS NOT o.\(column) COLLATE BINARY OR typeof(n.\(column)) <> typeof(o.\(column)))"
    }

    /// The value columns some unique index or constraint of the old table covers (all of them
    /// when an index is on an expression). The old table has every index of the schema (the
    /// new one may be a build's scratch copy), so a build and a delta decide alike.
    private func uniqueColumns() throws -> [String] {
        var columns = Set<String>()
        let indexes = try connection.rows("SELECT name, \"unique\", origin FROM pragma_index_list(?, ?)", [.text(old.table), .text(old.schema)])
        for index in indexes where index[1].integer == 1 {
            // A WITHOUT ROWID table's primary key is its key: rows are matched on it.
            if !shape.isRowID && index[2].text == "pk" { continue }
            let name = index[0].text ?? ""
            for column in try connection.rows("SELECT cid, name FROM pragma_index_info(?, ?)", [.text(name), .text(old.schema)]) {
                if column[0].integer == -2 { return shape.valueColumns }
                if let columnName = column[1].text, shape.valueColumns.contains(columnName) { columns.insert(columnName) }
            }
        }
        return shape.valueColumns.filter(columns.contains)
    }

    private func q(_ identifier: String) -> String { DeltaTableShape.quoted(identifier) }
}
