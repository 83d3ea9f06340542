import SeedSQLite

/// Creates the partial indexes (`WHERE column IS NOT NULL`) of reference columns that were
/// added to a loaded table by `ALTER TABLE ... ADD COLUMN`, without scanning the table.
///
/// Every row of such a column is NULL, so its index is empty, but `CREATE INDEX` would still
/// visit every row (a few hundredths of a second per index on 300,000 stop_times, four GTFS-Flex
/// indexes per feed). Instead each index is created on an empty stand-in table with the same
/// column, and its `sqlite_schema` row is then pointed at the real table with the statement
/// `CREATE INDEX` would have stored: SQLite's documented way to change the schema without
/// touching the content (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of
/// Table Schema Changes"). An empty index b-tree is the same whatever its table; the schema
/// version is bumped so that SQLite reads the schema again, and the stand-in is dropped. Runs on
/// the scratch database only; `VACUUM INTO` then writes the final file from its schema.
struct EmptyIndexes {
    static let standIn = "seedgen_empty_index_source"

    let connection: Connection

    /// Creates, for each added reference column of `table`, its partial index as
    /// `table.indexStatements` has it; returns the statements created. Columns whose index is
    /// not that plain partial one are left for a regular `CREATE INDEX`.
    func create(
        table: Table, addedColumns: [StoredColumn], skipping created: Set<String>
    ) throws(SQLiteError) -> [String] {
        let statements = Set(table.indexStatements)
        var indexes: [(name: String, statement: String, standIn: String, column: StoredColumn)] = []
        for column in addedColumns {
            guard case .reference = column.role else { continue }
            let name = table.name + "_" + column.name
            let condition = " (\(quoted(column.name))) WHERE \(quoted(column.name)) IS NOT NULL"
            let statement = "CREATE INDEX \(quoted(name)) ON \(quoted(table.name))" + condition
            guard statements.contains(statement), !created.contains(statement) else { continue }
            indexes.append(
                (name, statement, "CREATE INDEX \(quoted(name)) ON \(quoted(Self.standIn))" + condition, column))
        }
        guard !indexes.isEmpty else { return [] }
        try connection.execute(
            "CREATE TABLE \(quoted(Self.standIn)) (" + indexes.map(\.column.definition).joined(separator: ", ") + ")")
        for index in indexes { try connection.execute(index.standIn) }
        let version = try connection.scalar("PRAGMA schema_version")?.integer ?? 0
        try connection.execute("PRAGMA writable_schema = ON")
        do {
            let move = try connection.prepare(
                "UPDATE sqlite_schema SET tbl_name = ?, sql = ? WHERE type = 'index' AND name = ? AND tbl_name = ?")
            for index in indexes {
                try move.run([.text(table.name), .text(index.statement), .text(index.name), .text(Self.standIn)])
            }
            try connection.execute("PRAGMA schema_version = \(version + 1)")
        } catch {
            try? connection.execute("PRAGMA writable_schema = OFF")
            throw error
        }
        try connection.execute("PRAGMA writable_schema = OFF")
        // The schema is read again: the stand-in has no index left and goes.
        try connection.execute("DROP TABLE \(quoted(Self.standIn))")
        return indexes.map(\.statement)
    }
}
