import SeedSQLite

/// Reports the rows of one table the database refused because their key (or the columns of
/// a unique index) repeats another row's: the values, the row's place and, for the first few, where the first copy was read
/// (found by its key, its place kept in `RowPlaces`). Runs on the writer thread.
final class DuplicateKeys {
    private let table: Table
    private let context: BuildContext
    private let fields: SourceFields
    private let connection: Connection
    private let places: RowPlaces?
    private let referenceColumns: [[Int]]     // per reference: indexes of its `from` columns
    private var firstCopy: (columns: [String], statement: Statement)? // finds the row a duplicate repeats

    init(table: Table, context: BuildContext, fields: SourceFields, connection: Connection, places: RowPlaces?, referenceColumns: [[Int]]) {
        self.table = table
        self.context = context
        self.fields = fields
        self.connection = connection
        self.places = places
        self.referenceColumns = referenceColumns
    }

    /// Records `row` of `batch` (its resolved references in `resolved` at `slot`) as a
    /// duplicate key, SQLite having said `failure` ("UNIQUE constraint failed: t.a"): an
    /// error, or under `--lenient` a row left out.
    func report(_ batch: RowBatch, _ row: Int, resolved: ResolvedIDs, slot: Int, failure: String) throws(SQLiteError) {
        let columns = uniqueColumns(failedIn: failure)
        // Named as the input names them (a reference by its source fields: trip_id, not
        // trip_ref), values in the source's format (a time as 07:00:00, not 25200 seconds).
        let sourceNames = fields.names
        let sourceName = { (index: Int) in sourceNames[index] ?? self.table.columns[index].name }
        var names: [String] = []
        // A region seed's `feed_ref` is the file's feed: the message names the file already.
        let shown = columns.filter { $0 != Schema.feedColumn }
        let keyText = shown.map { name -> String in
            if let index = table.columns.firstIndex(where: { $0.name == name }) {
                names.append(sourceName(index))
                return "\(sourceName(index))=\(SourceText.value(batch, batch.cell(row, index), column: table.columns[index]))"
            }
            let r = table.references.firstIndex { $0.column == name }!
            let parts = referenceColumns[r].filter { table.columns[$0].name != Schema.feedColumn }
            names.append(parts.map(sourceName).joined(separator: ","))
            return "\(names.last!)=\(parts.map { SourceText.value(batch, batch.cell(row, $0), column: table.columns[$0]) }.joined(separator: ","))"
        }.joined(separator: ", ")
        var column = Int(batch.sourceColumns[row])
        if fields.columnsPerValue {
            let first = shown.first.flatMap { name in
                table.columns.firstIndex { $0.name == name } ?? table.references.firstIndex { $0.column == name }.map { referenceColumns[$0][0] }
            }
            column = first.map { Int(batch.valueColumns[batch.cell(row, $0)]) } ?? 0
        }
        var message = columns == table.key ? "appears twice: the key of '\(table.name)' must be unique"
            : "appears twice: '\(table.name)' has a unique index on \(names.joined(separator: ", "))"
        if let first = try placeOfFirstCopy(batch, row, resolved: resolved, slot: slot, columns: columns) { message += "; first copy at \(first)" }
        if context.lenient { message += "; the later row is left out" }
        context.issues.record(BuildIssue(kind: context.lenient ? .rowLeftOut : .duplicateKey, file: fields.file, line: Int(batch.lines[row]),
                                         column: column > 0 ? column : nil, field: names.joined(separator: "+"), value: keyText, message: message,
                                         code: context.lenient ? NoticeCode.duplicateKey : nil))
    }

    /// The columns of the unique index SQLite names in `failure` ("UNIQUE constraint failed:
    /// users.name"): the key, or a unique index that references match.
    private func uniqueColumns(failedIn failure: String) -> [String] {
        guard let range = failure.range(of: "constraint failed: ") else { return table.key }
        let columns = failure[range.upperBound...].split(separator: ",").map { part -> String in
            let name = part.trimmingCharacters(in: .whitespaces)
            return name.hasPrefix(table.name + ".") ? String(name.dropFirst(table.name.count + 1)) : name
        }
        return columns.isEmpty || Set(columns) == Set(table.key) ? table.key : columns
    }

    /// `file:line` of the row already holding the values of `columns` of `row` (tables with
    /// row ids only).
    private func placeOfFirstCopy(_ batch: RowBatch, _ row: Int, resolved: ResolvedIDs, slot: Int, columns: [String]) throws(SQLiteError) -> String? {
        guard let places, places.takeLookup() else { return nil }
        if firstCopy?.columns != columns {
            let conditions = columns.map { "\(quoted($0)) = ?" }.joined(separator: " AND ")
            firstCopy = (columns, try connection.prepare("SELECT \(quoted(table.rowID)) FROM \(quoted(table.name)) WHERE \(conditions)"))
        }
        guard let firstCopy = firstCopy?.statement else { return nil }
        var values: [Value] = []
        for name in columns {
            if let index = table.columns.firstIndex(where: { $0.name == name }) {
                values.append(ReferenceResolver.value(batch, batch.cell(row, index)))
            } else {
                values.append(resolved.id(slot: slot, table.references.firstIndex { $0.column == name }!).map(Value.integer) ?? .null)
            }
        }
        try firstCopy.bind(values)
        defer { firstCopy.reset() }
        guard try firstCopy.step() else { return nil }
        return places.place(ofRow: firstCopy.int64(at: 0)).map { "\($0.file):\($0.line)" }
    }
}
