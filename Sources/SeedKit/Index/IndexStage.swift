import SeedDeltas
import SeedSQLite

/// The stage that creates the indexes once the rows are final (`SeedIndexes`): the secondary
/// indexes not created while loading, then the search (FTS5) and spatial (R*Tree) indexes, each
/// filled by a recorded recipe (`DeriveRecipe`: the installer rebuilds them after a delta the
/// same way). Both kinds are filled in id order, so the same rows give the same bytes.
struct IndexStage: BuildStage {
    func run(_ state: BuildState) throws {
        try state.database.beginFinishing()
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
        for table in state.schema.loadOrder {
            for (index, column) in table.indexesReplacingReferences {
                let rows = try connection.scalar("SELECT count(*) FROM \(quoted(table.name))")?.integer ?? 0
                state.costs.append(
                    QueryIndexCost(name: index.name, table: table.name, kind: .index, rows: rows, replaces: column))
            }
        }
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
            if cost.kind == .index, let bytes = cost.bytes, let table = cost.table {
                cost.indexBytes = bytes
                cost.bytes = QueryIndexSizes.addedBytes(of: cost.name, table: table, bytes: bytes, in: connection)
            }
            return cost
        }
    }
}

extension Table {
    /// The declared indexes that lead with a reference (or parent) column: they stand in for
    /// that column's plain index, which is then not created (`indexStatements`).
    var indexesReplacingReferences: [(index: Index, column: String)] {
        let columns = references.map(\.column) + (parent.map { [$0.column] } ?? [])
        return indexes.compactMap { index in
            guard index.columns.count > 1, let first = index.columns.first, columns.contains(first) else { return nil }
            return (index, first)
        }
    }
}

/// The bytes a search or spatial index (its shadow tables: `<name>_data`, `<name>_node`, ...)
/// or a table (with its indexes) takes in a seed, from SQLite's `dbstat`.
package enum QueryIndexSizes {
    /// nil when this SQLite has no `dbstat`.
    package static func bytes(of name: String, in connection: Connection) -> Int64? {
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "_", with: "\\_")
            .replacingOccurrences(of: "%", with: "\\%")
        // `name IN (...)`: dbstat then reads only those b-trees; an OR of conditions on `name`
        // makes it read every page of the seed, once per index.
        let query = """
            SELECT sum(pgsize) FROM dbstat WHERE name IN (
              SELECT ?1
              UNION SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow' AND name LIKE ?2 \
            ESCAPE '\\'
                AND substr(name, length(?1) + 2) NOT LIKE '%\\_%' ESCAPE '\\'
              UNION SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?1)
            """
        guard let value = try? connection.scalar(query, [.text(name), .text(escaped + "\\_%")]) else { return nil }
        return value.integer ?? 0
    }

    /// What index `name` of `table` (`bytes` in all) adds beyond the plain index of its first
    /// column: its pages in the share its other columns (but the table's key) take of its
    /// records, counted from the values as SQLite's record format stores them (a header byte
    /// and the value's bytes). One pass over the index; nil without `dbstat`.
    package static func addedBytes(of name: String, table: String, bytes: Int64, in connection: Connection) -> Int64? {
        guard
            let columns = try? connection.rows("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(name)])
                .compactMap(\.[0].text),
            let key = try? Set(
                connection.rows("SELECT name FROM pragma_table_info(?) WHERE pk > 0", [.text(table)]).compactMap(
                    \.[0].text)),
            let payload = try? connection.scalar("SELECT sum(payload) FROM dbstat WHERE name = ?", [.text(name)])?
                .integer, payload > 0
        else { return nil }
        let added = columns.dropFirst().filter { !key.contains($0) }
        guard !added.isEmpty else { return 0 }
        let sizes = added.map { column in
            let value = quoted(column)
            return """
                CASE typeof(\(value)) WHEN 'null' THEN 1 WHEN 'real' THEN 9
                  WHEN 'integer' THEN 1 + CASE WHEN \(value) IN (0, 1) THEN 0 WHEN \(value) BETWEEN -128 AND 127 THEN 1
                    WHEN \(value) BETWEEN -32768 AND 32767 THEN 2 WHEN \(value) BETWEEN -8388608 AND 8388607 THEN 3
                    WHEN \(value) BETWEEN -2147483648 AND 2147483647 THEN 4 WHEN \(value) BETWEEN -140737488355328 AND \
                140737488355327 THEN 6 ELSE 8 END
                  ELSE 1 + length(CAST(\(value) AS BLOB)) END
                """
        }
        let query = "SELECT sum(\(sizes.joined(separator: " + "))) FROM \(quoted(table)) INDEXED BY \(quoted(name))"
        guard let addedPayload = try? connection.scalar(query)?.integer else { return nil }
        return Int64((Double(bytes) * Double(addedPayload) / Double(payload)).rounded())
    }
}
