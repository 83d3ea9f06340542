import SeedKit
import Foundation
import SeedSQLite

/// `seedgen verify`'s check of the search (FTS5) and spatial (R*Tree) indexes: each must be
/// sound and agree with its table.
///
/// - FTS5: its own `integrity-check` with rank 1, which compares the index with the content
///   table, token by token. The command is an INSERT, which a read-only seed refuses, so it
///   runs on a copy of the index and of the indexed columns in a temporary database (on disk:
///   memory stays bounded); the seed is never written.
/// - R*Tree: `rtreecheck()`, and, with a schema, the boxes against what the table gives
///   (`SpatialIndex.contentQuery`: the same ids, each box holding its rows' coordinates within
///   the 32-bit rounding of the R*Tree).
/// - With a schema: every index it declares is in the seed, with the declared columns.
struct QueryIndexCheck {
    let connection: Connection
    /// The seed's file, attached to the temporary database of the FTS5 check.
    let path: String
    let schema: Schema?

    static let name = "search_and_spatial_indexes"

    /// nil when the seed has no such index and the schema (if any) declares none.
    func run() throws -> SeedCheck? {
        let indexes = try connection.searchAndSpatialIndexes()
        let declared = schema?.tables.filter { $0.search != nil || $0.spatial != nil } ?? []
        guard !indexes.isEmpty || !declared.isEmpty else { return nil }
        var problems: [String] = []
        let present = Set(indexes.map(\.name))
        for table in declared {
            for name in [table.search?.name, table.spatial?.name].compactMap({ $0 }) where !present.contains(name) {
                problems.append("\(name) (of table \(table.name)) is missing")
            }
        }
        for index in indexes {
            switch index.kind {
            case .search:
                if let problem = try checkSearch(index.name) { problems.append("\(index.name): \(problem)") }
                if let search = declared.first(where: { $0.search?.name == index.name })?.search {
                    let columns = try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(index.name)]).map(
                        \.[0].description)
                    if columns != search.columns {
                        problems.append(
                            """
                            \(index.name) indexes \(columns.joined(separator: ", ")), the schema says \
                            \(search.columns.joined(separator: ", "))
                            """
                        )
                    }
                }
            case .spatial
            where try connection.scalar("SELECT type FROM sqlite_schema WHERE name = ?", [.text(index.name)])?.text
                == "index":
                // A points index: a B-tree index, which integrity_check reads.
                if let table = declared.first(where: { $0.spatial?.name == index.name }), let spatial = table.spatial {
                    let columns = try connection.rows(
                        "SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(index.name)]
                    ).map(\.[0].description)
                    if columns != [spatial.lat, spatial.lon] {
                        problems.append(
                            """
                            \(index.name) indexes \(columns.joined(separator: ", ")), the schema says \
                            \(spatial.lat), \(spatial.lon)
                            """
                        )
                    }
                }
            case .spatial:
                let result = try connection.scalar("SELECT rtreecheck(?)", [.text(index.name)])?.description ?? "?"
                if result != "ok" { problems.append("\(index.name): \(result)") }
                if let table = declared.first(where: { $0.spatial?.name == index.name }), let spatial = table.spatial,
                    let problem = try compare(spatial, table: table)
                {
                    problems.append("\(index.name): \(problem)")
                }
            case .derived, .index:
                break
            }
        }
        let names = indexes.map(\.name).joined(separator: ", ")
        return SeedCheck(
            name: Self.name, passed: problems.isEmpty,
            detail: problems.isEmpty ? "\(names) agree with their tables" : problems.joined(separator: "; "))
    }

    /// FTS5's integrity check, on a copy (see the type's comment); nil when it passes.
    private func checkSearch(_ name: String) throws -> String? {
        guard let sql = try connection.scalar("SELECT sql FROM sqlite_schema WHERE name = ?", [.text(name)])?.text
        else { return "not found" }
        // Its content: a table, or a view of one (SearchIndex.textView), copied as a table.
        let content = Connection.virtualTableOption("content", in: sql)
        let scratch = try Connection(path: "") // a temporary database, deleted when closed
        try scratch.attachReadOnly(path, as: "seed")
        if let content {
            let rowID = Connection.virtualTableOption("content_rowid", in: sql) ?? "rowid"
            let columns = try scratch.rows("SELECT name FROM pragma_table_info(?, 'seed')", [.text(name)]).map {
                quoted($0[0].description)
            }
            try scratch.execute(
                """
                CREATE TABLE main.\(quoted(content)) (\(quoted(rowID)) INTEGER PRIMARY KEY, \
                \(columns.joined(separator: ", ")))
                """
            )
            try scratch.execute(
                """
                INSERT INTO main.\(quoted(content)) SELECT \(quoted(rowID)), \(columns.joined(separator: ", ")) \
                FROM seed.\(quoted(content))
                """
            )
        }
        try scratch.execute(sql)
        // Its own shadow tables (`<name>_data`), not those of an index named after it (`<name>_substring_data`).
        let shadows = try connection.rows(
            """
            SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow' AND name LIKE ?1 ESCAPE \
            '\\' AND substr(name, length(?2) + 2) NOT LIKE '%\\_%' ESCAPE '\\'
            """,
            [.text(name.replacingOccurrences(of: "_", with: "\\_") + "\\_%"), .text(name)]
        ).map(\.[0].description)
        for shadow in shadows {
            try scratch.execute(
                """
                DELETE FROM main.\(quoted(shadow)); INSERT INTO main.\(quoted(shadow)) SELECT * FROM \
                seed.\(quoted(shadow))
                """
            )
        }
        do {
            try scratch.execute("INSERT INTO \(quoted(name))(\(quoted(name)), rank) VALUES('integrity-check', 1)")
        } catch {
            return "FTS5 integrity-check failed: \(error.message)"
        }
        return nil
    }

    /// The R*Tree's boxes against the table's coordinates; nil when they agree.
    private func compare(_ spatial: SpatialIndex, table: Table) throws -> String? {
        // 32-bit floats have 24 bits of mantissa: a coordinate below 360 is off by < 3e-5.
        let slack = 1e-4
        let expected = "(\(spatial.contentQuery(table: table.name, rowID: table.rowID)))"
        let query = """
            WITH e(id, min_lat, max_lat, min_lon, max_lon) AS \(expected)
            SELECT count(*) FROM e
              LEFT JOIN \(quoted(spatial.name)) AS r ON r.id = e.id
             WHERE r.id IS NULL OR r.min_lat > e.min_lat OR r.max_lat < e.max_lat OR r.min_lon > e.min_lon OR \
            r.max_lon < e.max_lon
                OR e.min_lat - r.min_lat > \(slack) OR r.max_lat - e.max_lat > \(slack) OR e.min_lon - r.min_lon > \
            \(slack) OR r.max_lon - e.max_lon > \(slack)
            """
        let wrong = try connection.scalar(query)?.integer ?? 0
        let boxes = try connection.scalar("SELECT count(*) FROM \(quoted(spatial.name))")?.integer ?? 0
        let rows = try connection.scalar("SELECT count(*) FROM \(expected)")?.integer ?? 0
        if wrong > 0 { return "\(wrong) of the table's \(rows) rows (or groups) have no box or another one" }
        if boxes != rows { return "\(boxes) boxes, but the table gives \(rows)" }
        return nil
    }
}
