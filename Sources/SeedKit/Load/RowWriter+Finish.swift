import SeedSQLite

/// After the last row of every table: the references kept aside resolved, and what names no
/// row (or several) judged.
extension RowWriter {
    /// After the last row (of every table, so that all targets are loaded): resolves the
    /// deferred keys and self-references in one statement each, judges the keys that name
    /// no row. Returns the statistics of each reference, by `table.column`.
    func finish() throws(SQLiteError) -> [String: ReferenceStatistics] {
        do {
            try joinLaterRows()
            try checkedKey?.drop()
            return try finishReferences()
        } catch {
            noteFailure(error, batch: nil, row: 0)
            throw error
        }
    }

    private func finishReferences() throws(SQLiteError) -> [String: ReferenceStatistics] {
        var statistics: [String: ReferenceStatistics] = [:]
        for (r, reference) in table.references.enumerated() {
            let name = "\(table.name).\(reference.column)"
            if let resolver = resolvers[r] {
                statistics[name] = try finishResolved(r, resolver)
            } else if referenceParameters[r] != 0 {
                statistics[name] = try finishSelfReference(r)
            } else {
                statistics[name] = ReferenceStatistics()
                continue
            }
            unresolvedKeys.reportOutside(r)
            try reportAmbiguous(r)
        }
        return statistics
    }

    /// A reference matching the first columns of its target's key (a NeTEx object by id,
    /// whose key adds `order`): one warning when some of its keys name several rows.
    private func reportAmbiguous(_ r: Int) throws(SQLiteError) {
        let reference = table.references[r]
        guard referenceParameters[r] != 0, let target = context.schema.table(named: reference.to),
            reference.matchesKeyPrefix(of: target)
        else { return }
        let matches = zip(reference.targetColumns(in: target), reference.from).map {
            "p.\(quoted($0)) = t.\(quoted($1))"
        }.joined(separator: " AND ")
        let found = try connection.rows(
            """
            SELECT count(*), min(t.\(quoted(table.rowID))) FROM \(quoted(table.name)) AS t WHERE \
            t.\(quoted(reference.column)) IS NOT NULL
              AND EXISTS (SELECT 1 FROM \(quoted(target.name)) AS p WHERE \(matches) AND p.\(quoted(target.rowID)) <> \
            t.\(quoted(reference.column)))
            """)
        guard let count = found.first?[0].integer, count > 0, let first = found.first?[1].integer else { return }
        let example = try connection.rows(
            """
            SELECT \(reference.from.map { quoted($0) }.joined(separator: ", ")) FROM \(quoted(table.name)) WHERE \
            \(quoted(table.rowID)) = \(first)
            """
        )
        let key = shownParts[r].map { example.first?[$0].description ?? "" }.joined(separator: ",")
        let place = fields.place(of: referenceColumns[r][shownParts[r][0]])
        let rest = target.key.dropFirst(reference.from.count).joined(separator: ", ")
        context.issues.record(
            BuildIssue(
                kind: .ambiguousReference, file: place.file, field: place.field, value: key,
                message:
                    "names several rows of '\(target.name)', told apart by \(rest), which a reference by id cannot "
                    + "give: "
                        + """
                        the first is used (\(count) \(count == 1 ? "row" : "rows") of '\(table.name)' \
                        \(count == 1 ? "names" : "name") such an id)
                        """
            ))
    }

    /// Resolves the keys of reference `r` kept aside while loading.
    private func finishResolved(_ r: Int, _ resolver: ReferenceResolver) throws(SQLiteError) -> ReferenceStatistics {
        var statistics = resolver.statistics
        guard let pending = pending[r] else { return statistics }
        let place = fields.place(of: referenceColumns[r][shownParts[r][0]])
        do {
            statistics.unresolved = try pending.resolve { item in
                let key = shownParts[r].map { item.parts[$0] }.joined(separator: ",")
                _ = unresolvedKeys.judge(
                    r, file: item.file, line: item.line, column: item.column, field: place.field, key: key)
            }
        } catch  where error.isUniqueViolation {
            // The key includes this reference: rows that differed while it was
            // NULL are the same once it is resolved.
            let reference = table.references[r]
            context.issues.record(
                BuildIssue(
                    kind: .duplicateKey, file: place.file, field: table.key.joined(separator: "+"),
                    message:
                        """
                        two rows of '\(table.name)' have the same key once \(reference.column) is resolved after \
                        loading: the key must be unique
                        """
                ))
        }
        return statistics
    }

    /// Resolves self-reference `r` in one statement, then judges the keys that name no row.
    private func finishSelfReference(_ r: Int) throws(SQLiteError) -> ReferenceStatistics {
        let reference = table.references[r]
        let target = context.schema.table(named: reference.to)!
        let matches = zip(reference.targetColumns(in: target), reference.from).map {
            "p.\(quoted($0)) = t.\(quoted($1))"
        }.joined(separator: " AND ")
        let present = reference.from.map { "\(quoted($0)) IS NOT NULL" }.joined(separator: " AND ")
        try connection.execute(
            """
            UPDATE \(quoted(table.name)) AS t SET \(quoted(reference.column)) =
              (SELECT min(p.\(quoted(target.rowID))) FROM \(quoted(target.name)) AS p WHERE \(matches))
            WHERE \(present)
            """)
        let unresolvedRows = try connection.rows(
            """
            SELECT \(quoted(table.rowID)), \(reference.from.map(quoted).joined(separator: ", ")) FROM \
            \(quoted(table.name)) WHERE \(quoted(reference.column)) IS NULL AND \(present) ORDER BY 1
            """
        )
        var statistics = ReferenceStatistics()
        statistics.unresolved = unresolvedRows.count
        let place = fields.place(of: referenceColumns[r][shownParts[r][0]])
        for row in unresolvedRows {
            var rowPlace: (file: String, line: Int)?
            if let places, places.takeLookup() { rowPlace = places.place(ofRow: row[0].integer ?? 0) }
            let key = shownParts[r].map { row[1 + $0].description }.joined(separator: ",")
            _ = unresolvedKeys.judge(
                r, file: rowPlace?.file ?? place.file, line: rowPlace?.line, column: place.position, field: place.field,
                key: key)
        }
        return statistics
    }
}
