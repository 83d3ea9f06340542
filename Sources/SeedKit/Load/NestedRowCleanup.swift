import SeedSQLite

/// After the XML inputs are loaded, makes the rows nested in rows that were not inserted
/// follow them, so that no parent column and no reference names a row that is not there
/// (`PRAGMA foreign_key_check` stays empty, `--lenient` or not).
///
/// A nested record is written before its parent ends, under the id its parent will have;
/// when the parent is then left out (`--lenient`: a bad value, a dangling key, a duplicate)
/// or is a copy merged into a row already loaded (`duplicates: merge`, `RowCopies`), its
/// nested rows name an id no row has. Here, parents first:
/// - rows nested in a version that replaced a row move under the kept row, which first loses
///   its own nested rows of tables without a key (their new versions replace them; keyed
///   nested rows are objects of their own, merged one by one);
/// - rows nested in a copy that was not kept are removed (they are copies too);
/// - rows nested in a row left out are removed, and counted as rejected;
/// - a reference resolved to a removed row is set to NULL, with a warning.
/// Only tables that lost rows are scanned: a build where every row went in costs nothing.
/// Runs on the writer thread, with its connection.
struct NestedRowCleanup {
    let schema: Schema
    let context: BuildContext
    let connection: Connection

    /// Runs the cleanup; returns the rows removed as rejected, by table.
    func run() throws(SQLiteError) -> [String: Int] {
        var lost = context.tablesWithDroppedRows
        guard !lost.isEmpty else { return [:] }
        let database = connection
        var rejected: [String: Int] = [:]
        for table in schema.loadOrder {
            guard let parent = table.parent, lost.contains(parent.table),
                let parentTable = schema.table(named: parent.table)
            else { continue }
            let child = quoted(table.name), column = quoted(parent.column)
            let merged = try mergedTable(of: parent.table)
            if let merged {
                if table.key.isEmpty {
                    try database.execute(
                        """
                        DELETE FROM \(child) WHERE \(column) IN (SELECT kept FROM temp.\(merged) WHERE outcome = \
                        \(RowCopies.Outcome.replaced.rawValue))
                        """
                    )
                } else if table.duplicates == .merge {
                    // Keyed nested rows of a version read in a later document are objects of
                    // their own there (`RowCopies`): they replace the kept row's earlier ones.
                    for pair in try database.rows(
                        """
                        SELECT dropped, kept FROM temp.\(merged) WHERE outcome = \
                        \(RowCopies.Outcome.replaced.rawValue) ORDER BY dropped
                        """
                    ) {
                        guard let dropped = pair[0].integer, let kept = pair[1].integer else { continue }
                        let document = context.document(ofRow: dropped, in: parent.table)
                        guard document != context.document(ofRow: kept, in: parent.table) else { continue }
                        let first = context.firstID(in: table.name, ofDocument: document)
                        try database.execute(
                            "DELETE FROM \(child) WHERE \(column) = \(kept) AND \(quoted(table.rowID)) < \(first)")
                    }
                }
                try database.execute(
                    """
                    UPDATE \(child) SET \(column) = m.kept FROM temp.\(merged) AS m
                    WHERE \(child).\(column) = m.dropped AND m.outcome = \(RowCopies.Outcome.replaced.rawValue)
                    """)
            }
            let orphans =
                """
                \(column) IS NOT NULL AND \(column) NOT IN (SELECT \(quoted(parentTable.rowID)) FROM \
                \(quoted(parentTable.name)))
                """
            let copies =
                merged.map {
                    """
                     AND \(column) NOT IN (SELECT dropped FROM temp.\($0) WHERE outcome != \
                    \(RowCopies.Outcome.rejected.rawValue))
                    """
                } ?? ""
            let rejectedRows = Int(
                try database.scalar("SELECT count(*) FROM \(child) WHERE \(orphans)\(copies)")?.integer ?? 0)
            try database.execute("DELETE FROM \(child) WHERE \(orphans)")
            guard database.changes > 0 else { continue }
            lost.insert(table.name)
            context.idMaps.discard(table.name)
            if rejectedRows > 0 {
                rejected[table.name] = rejectedRows
                context.issues.record(
                    BuildIssue(
                        kind: .rowLeftOut, file: "table '\(table.name)'", field: parent.column,
                        value: String(rejectedRows),
                        message: "rows nested in rows of '\(parent.table)' that were left out are left out with them"))
            }
            try nullReferences(to: table)
        }
        return rejected
    }

    /// The temporary table where `RowCopies` recorded the copies of `table`, if it did.
    private func mergedTable(of table: String) throws(SQLiteError) -> String? {
        let name = "seedgen_merged_\(table)"
        let exists =
            try connection.scalar("SELECT count(*) FROM sqlite_temp_master WHERE name = ?", [.text(name)])?.integer ?? 0
        return exists > 0 ? quoted(name) : nil
    }

    /// Sets to NULL the references to rows of `target` that were removed.
    private func nullReferences(to target: Table) throws(SQLiteError) {
        for table in schema.loadOrder {
            for reference in table.references where reference.to == target.name {
                let column = quoted(reference.column)
                try connection.execute(
                    """
                    UPDATE \(quoted(table.name)) SET \(column) = NULL WHERE \(column) IS NOT NULL
                    AND \(column) NOT IN (SELECT \(quoted(target.rowID)) FROM \(quoted(target.name)))
                    """)
                let count = connection.changes
                guard count > 0 else { continue }
                context.issues.record(
                    BuildIssue(
                        kind: .nullReference, file: "table '\(table.name)'", field: reference.column,
                        value: String(count),
                        message:
                            """
                            rows named rows of '\(target.name)' that were left out with the row they were nested \
                            in; kept with \(reference.column) = NULL
                            """
                    ))
            }
        }
    }
}
