import SeedDeltas
import SeedSQLite

/// The stage that computes rows by SQL once every row is loaded and has its final id: first the
/// `expression` columns (each row from its own values), then each `derive:` table in load order
/// (a query may read the tables derived before it). Each table's recipe is recorded for the
/// seed (`seedgen_derive`) and run here with the code the installer runs after a delta, so a
/// seed built here and one patched on a device derive alike.
///
/// It runs after the stable ids, not before: what a recipe derives depends on the ids it reads
/// (a rowid table's rows are numbered in the order of the ids they join), and the installer
/// derives from the final ids.
struct DeriveStage: BuildStage {
    func run(_ state: BuildState) throws {
        let connection = state.connection
        let tables = state.schema.loadOrder
        let expressions = tables.flatMap(\.computedColumnStatements)
        let derived = tables.filter { $0.derive != nil }
        guard !expressions.isEmpty || !derived.isEmpty else { return }
        state.progress?.phase("derived rows")
        try connection.execute("BEGIN")
        defer { try? connection.execute("ROLLBACK") } // a no-op after COMMIT
        for statement in expressions { try connection.execute(statement) }
        for table in derived {
            guard let derive = table.derive else { continue }
            if let warnings = derive.warnings {
                for row in try connection.rows(warnings) {
                    state.issues.record(BuildIssue(kind: .derivedRows, file: table.name, message: row.first?.description ?? ""))
                }
            }
            let recipe = try Self.recipe(for: table, connection: connection)
            try recipe.derive(connection)
            state.recipes.append(recipe)
            let count = try connection.scalar("SELECT count(*) FROM \(quoted(table.name))" + (recipe.rows.map { " WHERE \($0)" } ?? ""))?.integer ?? 0
            if table.isDerived {
                state.setRows(Int(count), of: table.name)
                state.costs.append(QueryIndexCost(name: table.name, table: table.name, kind: .derived, rows: count))
            }
        }
        try connection.execute("COMMIT")
        state.timer.mark("derive")
    }

    /// The recipe of a `derive:` table: its statement, the tables it reads, its derived rows.
    static func recipe(for table: Table, connection: Connection) throws -> DeriveRecipe {
        guard let derive = table.derive else { preconditionFailure("table '\(table.name)' derives nothing") }
        let statement = try connection.prepare(derive.sql)
        let names = (0..<statement.columnCount).map { quoted(statement.columnName(at: $0)) }
        let fill = "INSERT INTO \(quoted(table.name)) (\(names.joined(separator: ", ")))\n\(derive.sql)"
        let reads = try connection.tablesRead(by: derive.sql).filter { $0 != "sqlite_schema" && $0 != "sqlite_master" }.sorted()
        return DeriveRecipe(kind: table.isDerived ? .table : .rows, target: table.name, reads: reads,
                            rows: derive.marker.map { "\(quoted($0)) = 1" }, fill: fill)
    }
}
