import Foundation
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
        try state.database.beginDeriving()
        try connection.execute("BEGIN")
        defer { try? connection.execute("ROLLBACK") } // a no-op after COMMIT
        for statement in expressions { try connection.execute(statement) }
        let scoped = state.feeds.isRegion ? Set(state.feedScopedTables.map(\.name)) : nil
        // What the load stage saw of stop_times, if it is what was stored (no row left out).
        let log = state.context?.tripStops
        defer { log?.discard() }
        // SEEDGEN_DERIVE_BY_SQL=1: every table by its recipe's SQL, to compare the seed's bytes.
        let bySQL = ProcessInfo.processInfo.environment["SEEDGEN_DERIVE_BY_SQL"] == "1"
        // With --previous, the trip ids the log holds are the stored ones unless the stable-ids
        // stage changed them after the load.
        let logged =
            state.context?.tablesWithDroppedRows.contains("stop_times") == false
            && !state.renumberedTables.contains("trips")
        let planner = PlannerTables(log: logged ? log : nil)
        for table in derived {
            guard let derive = table.derive else { continue }
            if let warnings = derive.warnings {
                try Self.recordWarnings(warnings, of: table, scoped: scoped, state: state)
            }
            let recipe = try Self.recipe(for: table, scoped: scoped, connection: connection)
            let check = DerivedRowCheck(
                table: table, schema: state.schema, connection: connection,
                places: { state.context?.places(of: $0) ?? [] }, issues: state.issues)
            do {
                // The planner's tables in Swift (the recipe's rows, faster); any other by its SQL.
                if bySQL {
                    try recipe.derive(connection)
                } else if try !planner.fill(table, region: scoped != nil, connection: connection) {
                    try recipe.derive(connection)
                }
            } catch {
                // Rows that break a key or a required column: said in the input's terms.
                let query = try Self.perFeed(derive.sql, scoped: scoped, connection: connection, feedColumn: false).sql
                let feeds =
                    scoped == nil || query == derive.sql
                    ? [nil]
                    : try connection.rows("SELECT id FROM \(quoted(Schema.feedsTable)) ORDER BY id").map(\.first)
                var explained = false
                for feed in feeds where !explained {
                    explained = try check.explain(error, query: query, arguments: feed.map { [$0] } ?? [])
                }
                guard explained else { throw error }
                throw BuildError.invalidInput(state.issues)
            }
            if try check.checkReferences() > 0 { throw BuildError.invalidInput(state.issues) }
            state.recipes.append(recipe)
            // A region seed's walks between stops of different feeds: a recipe of their own.
            if scoped != nil && table.name == CrossFeedFootpaths.table && PlannerTables.handles(table) {
                let cross = CrossFeedFootpaths.recipe
                if try bySQL || !FootpathRows.fillCrossFeed(connection) { try cross.derive(connection) }
                state.recipes.append(cross)
            }
            state.timer.mark("derive \(table.name)")
            let count =
                try connection.scalar(
                    "SELECT count(*) FROM \(quoted(table.name))" + (recipe.rows.map { " WHERE \($0)" } ?? ""))?.integer
                ?? 0
            if table.isDerived {
                state.setRows(Int(count), of: table.name)
                state.costs.append(QueryIndexCost(name: table.name, table: table.name, kind: .derived, rows: count))
            }
        }
        try connection.execute("COMMIT")
        state.tripPatternsFromLoad = planner.filledFromLog
        state.timer.mark("derive")
    }

    /// Records as warnings the rows of a table's `warnings` query (each feed's, in a region seed).
    private static func recordWarnings(
        _ warnings: String, of table: Table, scoped: Set<String>?, state: BuildState
    ) throws {
        let connection = state.connection
        let query = try perFeed(warnings, scoped: scoped, connection: connection, feedColumn: false)
        let feeds =
            scoped == nil || query.sql == warnings
            ? [nil]
            : try connection.rows("SELECT id FROM \(quoted(Schema.feedsTable)) ORDER BY id").map(\.first)
        for feed in feeds {
            for row in try connection.rows(query.sql, feed.map { [$0] } ?? []) {
                state.issues.record(
                    BuildIssue(kind: .derivedRows, file: table.name, message: row.first?.description ?? ""))
            }
        }
    }

    /// The recipe of a `derive:` table: its statement, the tables it reads, its derived rows.
    /// In a region seed (`scoped`: the tables with a `feed_ref`), the statement derives one
    /// feed's rows from that feed's rows (`perFeed`), and runs once per feed.
    static func recipe(for table: Table, scoped: Set<String>? = nil, connection: Connection) throws -> DeriveRecipe {
        guard let derive = table.derive else { preconditionFailure("table '\(table.name)' derives nothing") }
        let statement = try connection.prepare(derive.sql)
        var names = (0..<statement.columnCount).map { quoted(statement.columnName(at: $0)) }
        let query = try perFeed(derive.sql, scoped: scoped, connection: connection)
        if query.sql != derive.sql { names.insert(quoted(Schema.feedColumn), at: 0) }
        let fill = "INSERT INTO \(quoted(table.name)) (\(names.joined(separator: ", ")))\n\(query.sql)"
        return DeriveRecipe(
            kind: table.isDerived ? .table : .rows, target: table.name, reads: query.reads,
            rows: derive.marker.map { "\(quoted($0)) = 1" }, fill: fill)
    }

    /// `sql` and the tables it reads; in a region seed, `sql` made to read one feed's rows: each
    /// scoped table it reads is shadowed by a common table expression of the same name holding
    /// the rows whose `feed_ref` is the parameter `:feed`, and each result row begins with
    /// `:feed`. The query itself is unchanged, so a schema's SQL serves one feed and many.
    static func perFeed(
        _ sql: String, scoped: Set<String>?, connection: Connection, feedColumn: Bool = true
    ) throws -> (sql: String, reads: [String]) {
        let reads = try connection.tablesRead(by: sql).filter { $0 != "sqlite_schema" && $0 != "sqlite_master" }
            .sorted()
        guard let scoped else { return (sql, reads) }
        let with = Schema.feedShadows(reads.filter(scoped.contains), notMaterialized: false)
        let select =
            feedColumn ? "SELECT \(DeriveRecipe.feedParameter), * FROM (\n\(sql)\n)" : "SELECT * FROM (\n\(sql)\n)"
        return (with + select, (reads + [Schema.feedsTable]).sorted())
    }
}
