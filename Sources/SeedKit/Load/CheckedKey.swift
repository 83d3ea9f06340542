import SeedSQLite

/// The values of `Table.checkedKey` of each row of a file as it loads, in a temporary table of
/// the writer's connection (which SQLite keeps on disk when large), each with the id of the row
/// that has them: a row whose key another row has is found as a row refused by a unique index
/// is, and judged the same way (`DuplicateKeys`). An empty value equals an empty one, as the
/// GTFS validator compares keys: NULL is kept as an empty blob, which no value read is.
/// Runs on the writer thread.
final class CheckedKey {
    private let connection: Connection
    private let name: String
    /// The key's columns, by index in the table.
    private let columns: [Int]
    private let add: Statement
    private let find: Statement

    /// Nil when `table` has no checked key (or no row ids to find the row with).
    init?(table: Table, connection: Connection) throws(SQLiteError) {
        guard !table.checkedKey.isEmpty, !table.withoutRowID else { return nil }
        self.connection = connection
        name = quoted("seedgen_key_\(table.name)")
        columns = table.checkedKey.map { key in table.columns.firstIndex { $0.name == key }! }
        let keys = columns.indices.map { "k\($0)" }
        let values = columns.indices.map { "ifnull(?\($0 + 1), x'')" }
        try connection.execute("DROP TABLE IF EXISTS temp.\(name)") // a failed build's
        try connection.execute(
            """
            CREATE TEMP TABLE \(name) (\(keys.joined(separator: ", ")), row INTEGER NOT NULL, PRIMARY KEY \
            (\(keys.joined(separator: ", ")))) WITHOUT ROWID
            """
        )
        add = try connection.prepare(
            "INSERT INTO temp.\(name) VALUES (\(values.joined(separator: ", ")), ?\(columns.count + 1))")
        find = try connection.prepare(
            "SELECT row FROM temp.\(name) WHERE \(zip(keys, values).map { "\($0) = \($1)" }.joined(separator: " AND "))"
        )
    }

    /// Records the key of `row` of `batch`. Returns nil, or the id of the row that has the same
    /// key already (this row's is then not recorded).
    func holder(of batch: RowBatch, _ row: Int) throws(SQLiteError) -> Int64? {
        let values = columns.map { ReferenceResolver.value(batch, batch.cell(row, $0)) }
        try add.bind(values + [.integer(batch.ids[row])])
        do {
            try add.step()
            add.reset()
            return nil
        } catch  where error.isUniqueViolation {
            add.reset()
        }
        try find.bind(values)
        defer { find.reset() }
        return try find.step() ? find.int64(at: 0) : nil
    }

    /// After the file: the temporary table goes.
    func drop() throws(SQLiteError) {
        try connection.execute("DROP TABLE IF EXISTS temp.\(name)")
    }
}
