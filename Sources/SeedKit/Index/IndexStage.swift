import SeedDeltas
import SeedSQLite

/// What one search or spatial index, or one derived table, adds to a seed (the build summary
/// and `seedgen inspect` show it).
public struct QueryIndexCost: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// A full-text index (`search:`, FTS5).
        case search
        /// A spatial index (`spatial:`, R*Tree).
        case spatial
        /// A table computed after loading (`derive:`).
        case derived
    }

    /// The index's (or derived table's) name.
    public var name: String
    /// The table it indexes (the derived table itself for `derived`); nil when a seed does not
    /// say (an R*Tree not named `<table>_rtree`).
    public var table: String?
    public var kind: Kind
    /// Rows indexed (search), derived (derived) or boxes (spatial).
    public var rows: Int64
    /// Spatial: rows of the table left out because a coordinate is missing.
    public var leftOut: Int64?
    /// Bytes of its pages in the seed (the virtual table's shadow tables); nil when SQLite
    /// cannot say (no `dbstat`).
    public var bytes: Int64?
}

/// The stage that creates the indexes once the rows are final (`SeedIndexes`): the secondary
/// indexes not created while loading, then the search (FTS5) and spatial (R*Tree) indexes, each
/// filled by a recorded recipe (`DeriveRecipe`: the installer rebuilds them after a delta the
/// same way). Both kinds are filled in id order, so the same rows give the same bytes.
struct IndexStage: BuildStage {
    func run(_ state: BuildState) throws {
        guard let indexes = state.context?.indexes else { return }
        let connection = state.connection
        state.progress?.phase("indexing")
        try indexes.createRemaining(of: state.allTables, on: connection)
        state.timer.mark("indexes")
        state.progress?.phase("search and spatial indexes")
        try connection.execute("BEGIN")
        defer { try? connection.execute("ROLLBACK") } // a no-op after COMMIT
        let (recipes, costs) = try indexes.createSearchAndSpatial(of: state.schema.loadOrder, on: connection)
        try connection.execute("COMMIT")
        state.recipes += recipes
        state.costs += costs
        state.timer.mark("search and spatial indexes")
    }
}

/// Fills in `bytes` of each cost from the seed at `path` (`dbstat`); left nil without it.
extension QueryIndexCost {
    static func measure(_ costs: [QueryIndexCost], seed path: String) -> [QueryIndexCost] {
        guard let connection = try? Connection(path: path, mode: .readOnly) else { return costs }
        return costs.map { cost in
            var cost = cost
            cost.bytes = QueryIndexSizes.bytes(of: cost.name, in: connection)
            return cost
        }
    }
}

/// The bytes a search or spatial index (its shadow tables: `<name>_data`, `<name>_node`, ...)
/// or a table (with its indexes) takes in a seed, from SQLite's `dbstat`.
enum QueryIndexSizes {
    /// nil when this SQLite has no `dbstat`.
    static func bytes(of name: String, in connection: Connection) -> Int64? {
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "_", with: "\\_").replacingOccurrences(of: "%", with: "\\%")
        // `name IN (...)`: dbstat then reads only those b-trees; an OR of conditions on `name`
        // makes it read every page of the seed, once per index.
        let query = """
            SELECT sum(pgsize) FROM dbstat WHERE name IN (
              SELECT ?1
              UNION SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow' AND name LIKE ?2 ESCAPE '\\'
              UNION SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?1)
            """
        guard let value = try? connection.scalar(query, [.text(name), .text(escaped + "\\_%")]) else { return nil }
        return value.integer ?? 0
    }
}
