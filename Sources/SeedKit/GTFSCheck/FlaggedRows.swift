import SeedSQLite

/// The two ways a rule of the small files says what it found, placed in the table's source
/// (`CheckPlaces`), so that a build and `seedgen report` find the same: the distinct values of a
/// field that fail a test made in Swift, or the rows a SQL condition selects, by their key.
extension GTFSChecks {
    /// Records `code` at every row of `table` whose `field` holds a non-empty value that
    /// `isFlagged` refuses, with `message(value)`; `condition` (SQL) narrows the values read first.
    func flagValues(
        of field: String, in table: String, where condition: String = "1", kind: BuildIssue.Kind, code: String,
        message: (String) -> String, isFlagged: (String) -> Bool
    ) throws {
        guard has(table: table, column: field), let file = file(of: table) else { return }
        let rows = try connection.rows(
            """
            SELECT DISTINCT \(quoted(field)) FROM \(quoted(table)) WHERE coalesce(\(quoted(field)), '') <> '' \
            AND (\(condition))
            """)
        let flagged = Set(rows.map { CSVRowLocator.key($0[0]) }.filter(isFlagged).map { [$0] })
        try places.locate(table, matching: [field], keys: flagged, showing: [field]) { key, row in
            issues.record(
                row.issue(
                    kind, file: file, field: field, value: row.fields[field]?.text ?? key[0], message: message(key[0]),
                    code: code))
        }
    }

    /// Records `code` at every row of `table` (found by its `key` column) that `condition`
    /// selects, at `field`; `message` is given the row's key and the text SQL `detail` gives
    /// for it (empty without one). The table must have every column in `columns`.
    func flagRows(
        of table: String, key: String, columns: [String], condition: String, detail: String = "''", field: String,
        kind: BuildIssue.Kind, code: String, message: (_ key: String, _ detail: String) -> String
    ) throws {
        guard has(table: table, column: key), columns.allSatisfy({ has(table: table, column: $0) }),
            let file = file(of: table)
        else { return }
        let rows = try connection.rows(
            "SELECT \(quoted(key)), \(detail) FROM \(quoted(table)) WHERE \(quoted(key)) IS NOT NULL AND (\(condition))"
        )
        var details: [String: String] = [:]
        for row in rows where details[CSVRowLocator.key(row[0])] == nil {
            details[CSVRowLocator.key(row[0])] = CSVRowLocator.key(row[1])
        }
        try places.locate(table, matching: [key], keys: Set(details.keys.map { [$0] }), showing: [key, field]) {
            found, row in
            let value = row.fields[field]?.text
            issues.record(
                row.issue(
                    kind, file: file, field: field, value: value?.isEmpty == false ? value : nil,
                    message: message(found[0], details[found[0]] ?? ""), code: code))
        }
    }
}

extension GTFSChecks {
    /// Records `code` at every row of `table` whose values of `fields` are those of a row that
    /// `condition` selects (for a table without a key of one column), at `field`, with `message`.
    func flagRows(
        of table: String, matching fields: [String], condition: String, field: String, kind: BuildIssue.Kind,
        code: String, message: String
    ) throws {
        guard fields.allSatisfy({ has(table: table, column: $0) }), let file = file(of: table) else { return }
        let rows = try connection.rows(
            "SELECT \(fields.map(quoted).joined(separator: ", ")) FROM \(quoted(table)) WHERE \(condition)")
        let keys = Set(rows.map { $0.map(CSVRowLocator.key) })
        try places.locate(table, matching: fields, keys: keys, showing: [field]) { _, row in
            let value = row.fields[field]?.text
            issues.record(
                row.issue(
                    kind, file: file, field: field, value: value?.isEmpty == false ? value : nil, message: message,
                    code: code))
        }
    }
}
