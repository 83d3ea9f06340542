import SeedSQLite

/// The places of a built seed (`seedgen report` without `--notices`): a table is its own
/// source when the feed had its file (`seedgen_inputs`), and a row is named by its key
/// (`stop_id 'S1'`; `trip_id 'T1', stop_sequence 3`), since the seed keeps no lines. A field
/// the seed resolved into a reference (`stop_times.trip_id`) is read through it.
struct SeedTablePlaces: CheckPlaces {
    let connection: Connection
    let schema: Schema
    /// The names of the feed's input files, in lower case (`stops.txt`; a region's without
    /// the feed's folder).
    let files: Set<String>

    func source(of table: String) -> String? {
        guard let file = schema.table(named: table)?.file, files.contains(file.lowercased()) else { return nil }
        return table
    }

    func locate(
        _ table: String, matching fields: [String], keys: Set<[String]>, showing shown: [String],
        found: (_ key: [String], _ row: PlacedRow) throws -> Void
    ) throws {
        guard !keys.isEmpty, let definition = schema.table(named: table) else { return }
        let keyNames = Self.keyNames(of: definition)
        let expressions = (fields + shown + keyNames).map { expression($0, in: definition) }
        let statement = try connection.prepare(
            "SELECT \(expressions.joined(separator: ", ")) FROM \(quoted(table)) AS checked")
        var key = Array(repeating: "", count: fields.count)
        while try statement.step() {
            for index in fields.indices { key[index] = CSVRowLocator.key(statement.value(at: index)) }
            guard keys.contains(key) else { continue }
            var row = PlacedRow(line: nil, key: nil, fields: [:])
            for (index, name) in shown.enumerated() {
                row.fields[name] = (nil, text(statement.value(at: fields.count + index), of: name, in: definition))
            }
            row.key = keyNames.enumerated().map { index, name in
                let value = statement.value(at: fields.count + shown.count + index)
                return name == definition.rowID ? "row \(value)" : "\(name) '\(text(value, of: name, in: definition))'"
            }.joined(separator: ", ")
            try found(key, row)
        }
    }

    /// The source names that say which row of `table` it is: its key (a reference in it by the
    /// names it was read from), without a region's `feed_ref`; its row id when it has no key.
    static func keyNames(of table: Table) -> [String] {
        let key = (table.checkedKey.isEmpty ? table.key : table.checkedKey).flatMap { name in
            table.references.first { $0.column == name }?.from ?? [name]
        }.filter { $0 != Schema.feedColumn }
        return key.isEmpty && !table.withoutRowID ? [table.rowID] : key
    }

    /// The SQL giving field `name` (a source name) of a row of `table` (as `checked`): its
    /// stored column, or the key of the row a reference read from it names; NULL when the
    /// seed keeps neither.
    func expression(_ name: String, in table: Table) -> String {
        if name == table.rowID { return "checked.\(quoted(name))" }
        if let column = table.columns.first(where: { $0.stored && ($0.name == name || $0.source.contains(name)) }) {
            return "checked.\(quoted(column.name))"
        }
        for reference in table.references {
            guard let position = reference.from.firstIndex(of: name), let target = schema.table(named: reference.to)
            else { continue }
            let columns = reference.toColumns ?? target.key
            guard position < columns.count else { continue }
            return
                """
                (SELECT \(quoted(columns[position])) FROM \(quoted(target.name)) WHERE \(quoted(target.rowID)) = \
                checked.\(quoted(reference.column)))
                """
        }
        return "NULL"
    }

    /// A stored value as the file would write it: a time of day as `HH:MM:SS`, else its key text.
    private func text(_ value: Value, of name: String, in table: Table) -> String {
        if case .integer(let seconds) = value, table.columns.first(where: { $0.name == name })?.type == .time {
            return SourceText.time(seconds)
        }
        return CSVRowLocator.key(value)
    }
}
