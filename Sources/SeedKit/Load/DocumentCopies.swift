import SeedSQLite

/// After each document is loaded: an object that `RowCopies` took for a copy of another
/// document's object (the same key and values) is one only when its nested rows are the same
/// too (a time demand type's run times, a pattern's points: written before their parent, they
/// are not known when it is judged), and its references name the same objects (a reference
/// goes to its own document's object of a shared key). Otherwise it is one of its own: its row
/// goes in under the id its nested rows already name, a copy of the other's values, its
/// references resolved again, and its key is shared by two documents (`DocumentScope`).
/// Within one document a copy stays a copy. Runs on the writer thread, with its connection.
struct DocumentCopies {
    let schema: Schema
    let context: BuildContext
    let connection: Connection

    /// Checks the copies made while the current document was read, until none changes (an
    /// object of its own may make the copies naming it objects of their own).
    func check() throws(SQLiteError) {
        var changed = true
        while changed {
            changed = false
            for table in schema.loadOrder where table.duplicates == .merge && !table.withoutRowID {
                changed = try check(table) || changed
            }
        }
    }

    private func check(_ table: Table) throws(SQLiteError) -> Bool {
        let nested = schema.loadOrder.filter { $0.parent?.table == table.name }
        let first = context.firstIDOfCurrentDocument(in: table.name)
        let merged = quoted("seedgen_merged_\(table.name)")
        let copies = try connection.rows(
            """
            SELECT dropped, kept FROM temp.\(merged) WHERE dropped >= ? AND kept < ? AND outcome = \
            \(RowCopies.Outcome.copy.rawValue) ORDER BY dropped
            """, [.integer(first), .integer(first)])
        var changed = false
        for copy in copies {
            guard let dropped = copy[0].integer, let kept = copy[1].integer else { continue }
            var differs = try referencesDiffer(table, kept)
            for child in nested where !differs { differs = try nestedRowsDiffer(child, dropped, kept) }
            guard differs else { continue }
            try insertObject(table, id: dropped, copying: kept)
            try connection.execute("DELETE FROM temp.\(merged) WHERE dropped = \(dropped)")
            context.noteSharedKey(in: table.name)
            changed = true
        }
        return changed
    }

    /// True when a reference of row `kept` (another document's) names an object other than
    /// the one of the same key in the current document (the two documents' objects share a key).
    private func referencesDiffer(_ table: Table, _ kept: Int64) throws(SQLiteError) -> Bool {
        for (r, reference) in table.references.enumerated()
        where reference.from.allSatisfy({ table.column(named: $0)?.stored ?? false }) {
            guard let target = schema.table(named: reference.to), target.duplicates == .merge, !target.withoutRowID
            else { continue }
            let matches = zip(reference.targetColumns(in: target), reference.from).map {
                "p.\(quoted($0)) = t.\(quoted($1))"
            }.joined(separator: " AND ")
            let first = context.firstIDOfCurrentDocument(in: target.name)
            let merged = quoted("seedgen_merged_\(target.name)")
            // This document's object of the key: read in it, or a copy read in it.
            let own = try connection.scalar(
                """
                SELECT min(p.\(quoted(target.rowID))) FROM \(quoted(target.name)) AS p, \(quoted(table.name)) AS t
                WHERE t.\(quoted(table.rowID)) = ?1 AND \(matches) AND (p.\(quoted(target.rowID)) >= ?2
                  OR EXISTS (SELECT 1 FROM temp.\(merged) AS m WHERE m.kept = p.\(quoted(target.rowID)) AND m.dropped \
                >= ?2 AND m.outcome <> \(RowCopies.Outcome.rejected.rawValue)))
                """, [.integer(kept), .integer(first)])?.integer
            guard let own else { continue }
            let named = try connection.scalar(
                """
                SELECT \(quoted(table.references[r].column)) FROM \(quoted(table.name)) WHERE \
                \(quoted(table.rowID)) = ?
                """,
                [.integer(kept)])?.integer
            if named != own { return true }
        }
        return false
    }

    /// True when the rows of `child` nested in `a` and in `b` are not the same (their own
    /// columns, as a multiset).
    private func nestedRowsDiffer(_ child: Table, _ a: Int64, _ b: Int64) throws(SQLiteError) -> Bool {
        guard let parent = child.parent else { return false }
        let columns = child.columns.filter(\.stored).map { quoted($0.name) }.joined(separator: ", ")
        let name = quoted(child.name), link = quoted(parent.column)
        let rows = "SELECT \(columns) FROM \(name) WHERE \(link) ="
        return try connection.scalar(
            """
            SELECT (SELECT count(*) FROM \(name) WHERE \(link) = ?1) <> (SELECT count(*) FROM \(name) WHERE \(link) = \
            ?2)
                OR EXISTS (\(rows) ?1 EXCEPT \(rows) ?2) OR EXISTS (\(rows) ?2 EXCEPT \(rows) ?1)
            """, [.integer(a), .integer(b)])?.integer == 1
    }

    /// Inserts row `id` of `table` with the values of row `source`, its references resolved
    /// again from their keys (against the rows loaded so far: this document's are all in).
    private func insertObject(_ table: Table, id: Int64, copying source: Int64) throws(SQLiteError) {
        let columns = table.layout.filter { $0.role != .rowID }.map { quoted($0.name) }.joined(separator: ", ")
        let name = quoted(table.name), rowID = quoted(table.rowID)
        try connection.execute(
            """
            INSERT INTO \(name) (\(rowID), \(columns)) SELECT \(id), \(columns) FROM \(name) WHERE \(rowID) = \
            \(source)
            """
        )
        for reference in table.references where reference.from.allSatisfy({ table.column(named: $0)?.stored ?? false })
        {
            guard let target = schema.table(named: reference.to) else { continue }
            let matches = zip(reference.targetColumns(in: target), reference.from).map {
                "p.\(quoted($0)) = t.\(quoted($1))"
            }.joined(separator: " AND ")
            try connection.execute(
                """
                UPDATE \(name) AS t SET \(quoted(reference.column)) =
                  (SELECT min(p.\(quoted(target.rowID))) FROM \(quoted(target.name)) AS p WHERE \(matches))
                WHERE t.\(rowID) = \(id)
                """)
        }
    }
}
