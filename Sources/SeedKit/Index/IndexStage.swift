import SeedSQLite

/// What one search or spatial index, or one filled table, adds to a seed (the build summary
/// and `seedgen inspect` show it).
public struct QueryIndexCost: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// A full-text index (`search:`, FTS5).
        case search
        /// A spatial index (`spatial:`, R*Tree).
        case spatial
        /// A table computed after loading (`fill:`).
        case filled
    }

    /// The index's (or filled table's) name.
    public var name: String
    /// The table it indexes (the filled table itself for `filled`); nil when a seed does not
    /// say (an R*Tree not named `<table>_rtree`).
    public var table: String?
    public var kind: Kind
    /// Rows indexed (search, filled) or boxes (spatial).
    public var rows: Int64
    /// Spatial: rows of the table left out because a coordinate is missing.
    public var leftOut: Int64?
    /// Bytes of its pages in the seed (the virtual table's shadow tables); nil when SQLite
    /// cannot say (no `dbstat`).
    public var bytes: Int64?
}

/// Builds what answers an app's first questions once every row is in place: the tables a
/// schema fills by SQL (`fill:`, such as GTFS `service_dates`), and the search (FTS5) and
/// spatial (R*Tree) indexes. Both kinds are filled in id order, so the same rows give the same
/// bytes; with `--previous` the indexes are built after the ids are renumbered.
struct QueryIndexes {
    let tables: [Table]
    let connection: Connection

    /// Fills the `fill:` tables (in load order), reporting the rows of their `warnings` query.
    /// - Returns: the rows of each filled table.
    func fillTables(issues: IssueLog) throws -> [String: Int] {
        var rows: [String: Int] = [:]
        let filled = tables.filter { $0.fill != nil }
        guard !filled.isEmpty else { return rows }
        try connection.execute("BEGIN")
        defer { try? connection.execute("ROLLBACK") } // a no-op after COMMIT
        for table in filled {
            guard let fill = table.fill else { continue }
            if let warnings = fill.warnings {
                for row in try connection.rows(warnings) {
                    issues.record(BuildIssue(kind: .filledTable, file: table.name, message: row.first?.description ?? ""))
                }
            }
            try connection.execute(fill.insertStatement(table))
            rows[table.name] = Int(try connection.scalar("SELECT count(*) FROM \(quoted(table.name))")?.integer ?? 0)
        }
        try connection.execute("COMMIT")
        return rows
    }

    /// Creates and fills every search and spatial index.
    /// - Returns: what each holds (sizes are measured on the finished seed: `measure`).
    func build() throws -> [QueryIndexCost] {
        var costs: [QueryIndexCost] = []
        try connection.execute("BEGIN")
        defer { try? connection.execute("ROLLBACK") } // a no-op after COMMIT
        for table in tables {
            if let search = table.search {
                let name = quoted(search.name)
                try connection.execute(search.createStatement(table: table.name, rowID: table.rowID))
                // 'rebuild' reads the table in id order; 'optimize' merges it into one segment.
                try connection.execute("INSERT INTO \(name)(\(name)) VALUES('rebuild')")
                try connection.execute("INSERT INTO \(name)(\(name)) VALUES('optimize')")
                let rows = try connection.scalar("SELECT count(*) FROM \(quoted(table.name))")?.integer ?? 0
                costs.append(QueryIndexCost(name: search.name, table: table.name, kind: .search, rows: rows))
            }
            if let spatial = table.spatial {
                try connection.execute(spatial.createStatement)
                try connection.execute("INSERT INTO \(quoted(spatial.name)) \(spatial.contentQuery(table: table.name, rowID: table.rowID))")
                let rows = try connection.scalar("SELECT count(*) FROM \(quoted(spatial.name))")?.integer ?? 0
                let leftOut = try connection.scalar(spatial.leftOutQuery(table: table.name))?.integer ?? 0
                costs.append(QueryIndexCost(name: spatial.name, table: table.name, kind: .spatial, rows: rows, leftOut: leftOut))
            }
        }
        try connection.execute("COMMIT")
        return costs
    }

    /// The costs of the filled tables, after `fillTables`.
    func filledCosts() throws -> [QueryIndexCost] {
        try tables.filter { $0.fill != nil }.map { table in
            QueryIndexCost(name: table.name, table: table.name, kind: .filled,
                           rows: try connection.scalar("SELECT count(*) FROM \(quoted(table.name))")?.integer ?? 0)
        }
    }

    /// Fills in `bytes` of each cost from the seed at `path` (`dbstat`); left nil without it.
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
