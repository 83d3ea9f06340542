import Foundation
import SeedSQLite

/// Reading what a seed holds, with SQL only (nothing is loaded that a big seed would not fit).
extension Connection {
    /// The value of option `name` (`content_rowid="id"`) in a `CREATE VIRTUAL TABLE` text.
    package static func virtualTableOption(_ name: String, in sql: String) -> String? {
        guard let range = sql.range(of: name + "=") else { return nil }
        let rest = sql[range.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The data tables, in creation order: every table but SQLite's own (`sqlite_*`),
    /// seedgen's bookkeeping (`seedgen_*`) and the search and spatial indexes (virtual tables
    /// and their shadow tables: see `searchAndSpatialIndexes`).
    package func seedTables(schema: String = "main") throws(SQLiteError) -> [String] {
        try rows(
            """
            SELECT name FROM \(quoted(schema)).sqlite_schema WHERE type = 'table'
              AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'seedgen\\_%' ESCAPE '\\'
              AND name NOT IN (SELECT name FROM pragma_table_list WHERE schema = ?1 AND type IN ('virtual', 'shadow'))
            ORDER BY rowid
            """, [.text(schema)]
        ).compactMap { $0.first?.text }
    }

    /// The search (FTS5) and spatial (R*Tree, or a points index) indexes: name, kind and the
    /// table they index (FTS5's `content=` table or the table of its view; for an R*Tree, the
    /// table its name is made from, `<table>_rtree`, when there is one).
    package func searchAndSpatialIndexes() throws(SQLiteError) -> [(
        name: String, kind: QueryIndexCost.Kind, table: String?
    )] {
        var indexes: [(name: String, kind: QueryIndexCost.Kind, table: String?)] = []
        for row in try rows(
            """
            SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' ORDER BY \
            rowid
            """
        ) {
            guard let name = row[0].text, let sql = row[1].text else { continue }
            if sql.range(of: "USING fts5(", options: .caseInsensitive) != nil {
                // The content may be a view of the table (SearchIndex.textView): name the table.
                var table = Self.virtualTableOption("content", in: sql)
                if let content = table,
                    try scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'view' AND name = ?", [.text(content)])?
                        .integer == 1
                {
                    table = try tablesRead(by: "SELECT * FROM \(quoted(content))").sorted().first
                }
                indexes.append((name, .search, table))
            } else if sql.range(of: "USING rtree(", options: .caseInsensitive) != nil {
                indexes.append((name, .spatial, name.hasSuffix("_rtree") ? String(name.dropLast(6)) : nil))
            }
        }
        // Points: plain indexes marked as spatial (SpatialIndex.pointsMark).
        for row in try rows(
            "SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND sql LIKE ? ORDER BY rowid",
            [.text("%" + SpatialIndex.pointsMark)])
        {
            guard let name = row[0].text else { continue }
            indexes.append((name, .spatial, row[1].text))
        }
        return indexes
    }

    /// The number of rows of each data table.
    package func seedRowCounts(schema: String = "main") throws(SQLiteError) -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for table in try seedTables(schema: schema) {
            counts[table] = try scalar("SELECT count(*) FROM \(quoted(schema)).\(quoted(table))")?.integer ?? 0
        }
        return counts
    }

    /// `seedgen_metadata` as a dictionary; empty when the table is missing.
    package func seedMetadata() throws(SQLiteError) -> [String: String] {
        guard try hasTable("seedgen_metadata") else { return [:] }
        var metadata: [String: String] = [:]
        for row in try rows("SELECT key, value FROM seedgen_metadata") {
            if let key = row[0].text { metadata[key] = row[1].description }
        }
        return metadata
    }

    /// True when the database has a table (or view) named `name`.
    package func hasTable(_ name: String) throws(SQLiteError) -> Bool {
        try scalar("SELECT count(*) FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ?", [.text(name)])?
            .integer ?? 0 > 0
    }

    /// An integer pragma (`user_version`, `page_size`, ...).
    package func pragmaInteger(_ name: String) throws(SQLiteError) -> Int64 {
        try scalar("PRAGMA \(name)")?.integer ?? 0
    }

    /// The columns of `table`: name, declared type, NOT NULL, part of the primary key.
    package func seedColumns(
        of table: String, schema: String = "main"
    ) throws(SQLiteError) -> [(name: String, type: String, notNull: Bool, primaryKey: Bool)] {
        try rows(
            "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?, ?) ORDER BY cid",
            [.text(table), .text(schema)]
        ).map {
            ($0[0].description, $0[1].description, $0[2].integer == 1, ($0[3].integer ?? 0) > 0)
        }
    }

    /// The foreign-key columns of `table`, with the table each references.
    package func seedReferences(of table: String, schema: String = "main") throws(SQLiteError) -> [String: String] {
        var references: [String: String] = [:]
        for row in try rows(
            "SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?, ?)", [.text(table), .text(schema)])
        {
            references[row[0].description] = row[1].description
        }
        return references
    }

    /// The columns of the unique index named `name`, if the table has one.
    package func uniqueIndexColumns(
        _ name: String, table: String, schema: String = "main"
    ) throws(SQLiteError) -> [String]? {
        let unique = try scalar(
            "SELECT \"unique\" FROM pragma_index_list(?, ?) WHERE name = ?", [.text(table), .text(schema), .text(name)])
        guard unique?.integer == 1 else { return nil }
        return try rows("SELECT name FROM pragma_index_info(?, ?) ORDER BY seqno", [.text(name), .text(schema)]).map {
            $0[0].description
        }
    }
}
