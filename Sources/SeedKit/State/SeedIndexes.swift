import SeedSystem
import Foundation
import SeedDeltas
import SeedSQLite

/// The one owner of a seed's indexes: which each table gets, their SQL (`Table.indexStatements`),
/// when each is made, and which are made already. Nothing else creates an index.
///
/// - Before a table's rows (`createBeforeLoading`): its natural key's index and the unique
///   indexes references match, so that lookups use them while rows stream in and duplicate keys
///   are caught.
/// - When a CSV file has no source column of a reference at all (`createForAbsentReferences`):
///   that reference's index, while the table is still empty, instead of after loading.
/// - On reference columns added empty after loading (`createOnAddedColumns`): without a scan
///   (`EmptyIndexes`).
/// - In the index stage (`createRemaining`, `createSearchAndSpatial`): every other one, then the
///   search (FTS5) and spatial (R*Tree) indexes, filled by the recipes the installer runs too.
///
/// Thread-safe: loaders record what they made from the reader thread, SQL runs on whichever
/// thread holds the connection it is given.
final class SeedIndexes: @unchecked Sendable {
    // @unchecked: `created` is behind `lock`; `schema` is immutable.
    let schema: Schema
    private var created: Set<String> = []
    private let lock = Lock()

    init(schema: Schema) {
        self.schema = schema
    }

    /// The indexes of `table` made before its rows: its key's, and the unique indexes some
    /// reference matches (`Reference.toColumns`). The others come after loading.
    func beforeLoading(_ table: Table) -> [String] {
        var statements = table.keyIndexStatement.map { [$0] } ?? []
        for index in table.indexes where index.unique {
            let matched = schema.tables.contains { other in
                other.references.contains { $0.to == table.name && $0.toColumns.map(Set.init) == Set(index.columns) }
            }
            if matched && Set(index.columns) != Set(table.key) { statements.append(table.statement(for: index)) }
        }
        // Rows nested in a `duplicates: merge` table are compared per parent after each
        // document (`DocumentCopies`): the index on the parent column serves the comparison.
        if let parent = table.parent, schema.table(named: parent.table)?.duplicates == .merge {
            statements += table.indexStatements.filter {
                $0 != table.keyIndexStatement && $0.contains(" (\(quoted(parent.column))")
            }
        }
        return statements
    }

    /// Creates `table`'s indexes of `beforeLoading`, on the connection that loads it.
    func createBeforeLoading(_ table: Table, on connection: Connection) throws(SQLiteError) {
        try create(beforeLoading(table), on: connection)
    }

    /// Creates the indexes of `table`'s references whose source columns the input does not have
    /// at all (a feed without GTFS-Flex has no `location_id`), while the table is empty: such an
    /// index stays empty, and creating it after loading would scan the whole table for nothing.
    /// `existing`: the table's columns created so far (a column added later gets its index then).
    func createForAbsentReferences(
        of table: Table, absent: Set<String>, existing: Set<String>, on connection: Connection
    ) throws(SQLiteError) {
        let statements = table.indexStatements
        var indexes: [String] = []
        for reference in table.references
        where reference.from.allSatisfy(absent.contains) && existing.contains(reference.column) {
            let name = quoted(table.name + "_" + reference.column)
            indexes += statements.filter { $0.hasPrefix("CREATE INDEX \(name) ") }
        }
        try create(indexes, on: connection)
    }

    /// Creates, without a scan, the partial indexes of the reference columns just added to a
    /// loaded table (NULL in every row: `EmptyIndexes`).
    func createOnAddedColumns(of table: Table, added: [StoredColumn], on connection: Connection) throws(SQLiteError) {
        let made = try EmptyIndexes(connection: connection).create(
            table: table, addedColumns: added, skipping: createdStatements)
        record(made)
    }

    /// The index stage: every secondary index not made yet, of `tables`.
    func createRemaining(of tables: [Table], on connection: Connection) throws(SQLiteError) {
        for table in tables {
            try create(table.indexStatements.filter { $0 != table.keyIndexStatement }, on: connection)
        }
    }

    /// The index stage: creates the search and spatial indexes of `tables` and fills them by
    /// their recipes (which the installer runs again after a delta).
    /// - Returns: the recipes, in order, and what each index holds.
    func createSearchAndSpatial(
        of tables: [Table], on connection: Connection
    ) throws -> (recipes: [DeriveRecipe], costs: [QueryIndexCost]) {
        var recipes: [DeriveRecipe] = [], costs: [QueryIndexCost] = []
        for table in tables {
            if let search = table.search {
                try connection.execute(search.viewStatement(table: table.name, rowID: table.rowID))
                try connection.execute(search.createStatement(rowID: table.rowID))
                let name = quoted(search.name)
                // 'rebuild' reads the table in id order; 'optimize' (the recipe's finish) merges it into one segment.
                let recipe = DeriveRecipe(
                    kind: .search, target: search.name, reads: [table.name],
                    fill: "INSERT INTO \(name)(\(name)) VALUES('rebuild')")
                try recipe.derive(connection)
                recipes.append(recipe)
                let rows = try connection.scalar("SELECT count(*) FROM \(quoted(table.name))")?.integer ?? 0
                costs.append(QueryIndexCost(name: search.name, table: table.name, kind: .search, rows: rows))
            }
            if let spatial = table.spatial, spatial.isPoints {
                // A plain index: SQLite keeps it, no recipe derives it.
                try connection.execute(spatial.createStatement(table: table.name))
                let leftOut = try connection.scalar(spatial.leftOutQuery(table: table.name))?.integer ?? 0
                let rows = (try connection.scalar("SELECT count(*) FROM \(quoted(table.name))")?.integer ?? 0) - leftOut
                costs.append(
                    QueryIndexCost(name: spatial.name, table: table.name, kind: .spatial, rows: rows, leftOut: leftOut))
            } else if let spatial = table.spatial {
                try connection.execute(spatial.createStatement(table: table.name))
                let content = spatial.contentQuery(table: table.name, rowID: table.rowID)
                let recipe = DeriveRecipe(
                    kind: .spatial, target: spatial.name, reads: try connection.tablesRead(by: content).sorted(),
                    fill: "INSERT INTO \(quoted(spatial.name)) \(content)")
                try recipe.derive(connection)
                recipes.append(recipe)
                let rows = try connection.scalar("SELECT count(*) FROM \(quoted(spatial.name))")?.integer ?? 0
                let leftOut = try connection.scalar(spatial.leftOutQuery(table: table.name))?.integer ?? 0
                costs.append(
                    QueryIndexCost(name: spatial.name, table: table.name, kind: .spatial, rows: rows, leftOut: leftOut))
            }
        }
        return (recipes, costs)
    }

    /// Runs each statement not run yet, and records it.
    private func create(_ statements: [String], on connection: Connection) throws(SQLiteError) {
        let made = createdStatements
        for statement in statements where !made.contains(statement) {
            try connection.execute(statement)
            record([statement])
        }
    }

    private var createdStatements: Set<String> { lock.withLock { created } }

    private func record(_ statements: [String]) {
        lock.withLock { created.formUnion(statements) }
    }
}

extension Table {
    /// The unique index on the natural key, if the table has one. With `duplicates: merge`
    /// the key is unique per document, not across the input (two files may each hold an
    /// object of that key: `RowCopies`), so its index is not `UNIQUE`.
    public var keyIndexStatement: String? {
        guard !key.isEmpty, !withoutRowID else { return nil }
        let unique = duplicates == .merge ? "" : "UNIQUE "
        return
            """
            CREATE \(unique)INDEX \(quoted(name + "_key")) ON \(quoted(name)) \
            (\(key.map(quoted).joined(separator: ", ")))
            """
    }

    /// Indexes on the reference and parent columns (so joins and foreign-key checks are fast)
    /// and the declared indexes; the natural key's index comes first.
    public var indexStatements: [String] {
        var statements: [String] = keyIndexStatement.map { [$0] } ?? []
        var covered = Set(indexes.compactMap { $0.columns.first } + key.prefix(1))
        var referenceColumns = references.map(\.column)
        if let parent { referenceColumns.insert(parent.column, at: 0) }
        for column in referenceColumns where !covered.contains(column) {
            covered.insert(column)
            // Partial: rows without a reference (most stop_times have no location_ref) cost
            // nothing, and `column = ?` lookups and joins still use the index.
            let partial = references.contains { $0.column == column } ? " WHERE \(quoted(column)) IS NOT NULL" : ""
            statements.append(
                "CREATE INDEX \(quoted(name + "_" + column)) ON \(quoted(name)) (\(quoted(column)))\(partial)")
        }
        for index in indexes { statements.append(statement(for: index)) }
        return statements
    }

    /// `CREATE [UNIQUE] INDEX` for a declared index.
    func statement(for index: Index) -> String {
        """
        CREATE \(index.unique ? "UNIQUE " : "")INDEX \(quoted(index.name)) ON \(quoted(name)) \
        (\(index.columns.map(quoted).joined(separator: ", ")))
        """
    }
}
