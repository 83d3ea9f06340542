import SeedSQLite

/// Reports the rows of one table the database refused because their key repeats another
/// row's: the key, the row's place and, for the first few, where the first copy was read
/// (found by its key, its place kept in `RowPlaces`). Runs on the writer thread.
final class DuplicateKeys {
    private let table: Table
    private let context: BuildContext
    private let fields: SourceFields
    private let connection: Connection
    private let places: RowPlaces?
    private let referenceColumns: [[Int]]     // per reference: indexes of its `from` columns
    private var firstCopy: Statement?         // finds the row a duplicate repeats; prepared at the first one

    init(table: Table, context: BuildContext, fields: SourceFields, connection: Connection, places: RowPlaces?, referenceColumns: [[Int]]) {
        self.table = table
        self.context = context
        self.fields = fields
        self.connection = connection
        self.places = places
        self.referenceColumns = referenceColumns
    }

    /// Records `row` of `batch` (its resolved references in `resolved` at `slot`) as a
    /// duplicate key: an error, or under `--lenient` a row left out.
    func report(_ batch: RowBatch, _ row: Int, resolved: ResolvedIDs, slot: Int) throws(SQLiteError) {
        let keyText = table.key.map { name -> String in
            if let index = table.columns.firstIndex(where: { $0.name == name }) {
                return "\(name)=\(batch.messageText(batch.cell(row, index)))"
            }
            let r = table.references.firstIndex { $0.column == name }!
            return "\(name)=\(referenceColumns[r].map { batch.messageText(batch.cell(row, $0)) }.joined(separator: ","))"
        }.joined(separator: ", ")
        var column = Int(batch.sourceColumns[row])
        if fields.columnsPerValue {
            let first = table.key.first.flatMap { name in table.columns.firstIndex { $0.name == name } }
            column = first.map { Int(batch.valueColumns[batch.cell(row, $0)]) } ?? 0
        }
        var message = "appears twice: the key of '\(table.name)' must be unique"
        if let first = try placeOfFirstCopy(batch, row, resolved: resolved, slot: slot) { message += "; first copy at \(first)" }
        if context.lenient { message += "; the later row is left out" }
        context.issues.record(BuildIssue(kind: context.lenient ? .rowLeftOut : .duplicateKey, file: fields.file, line: Int(batch.lines[row]),
                                         column: column > 0 ? column : nil, field: table.key.joined(separator: "+"), value: keyText, message: message))
    }

    /// `file:line` of the row already holding the key of `row` (tables with row ids only).
    private func placeOfFirstCopy(_ batch: RowBatch, _ row: Int, resolved: ResolvedIDs, slot: Int) throws(SQLiteError) -> String? {
        guard let places, places.takeLookup() else { return nil }
        if firstCopy == nil {
            let conditions = table.key.map { "\(quoted($0)) = ?" }.joined(separator: " AND ")
            firstCopy = try connection.prepare("SELECT \(quoted(table.rowID)) FROM \(quoted(table.name)) WHERE \(conditions)")
        }
        guard let firstCopy else { return nil }
        var values: [Value] = []
        for name in table.key {
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
