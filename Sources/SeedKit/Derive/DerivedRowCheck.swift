import SeedSQLite

/// Says in the input's terms what a `derive:` recipe broke, so that a build never stops on
/// an SQLite message: rows repeating the derived table's key (or a unique index), a required
/// column left NULL, a parent or foreign-key column naming no row. A key is explained by the
/// objects the recipe read that carry the repeated value as their own key (`StopPlace
/// 'x' at a.xml:12 and Quay 'x' at a.xml:20`), with the places the loaders recorded.
struct DerivedRowCheck {
    let table: Table
    let schema: Schema
    let connection: Connection
    /// Where rows of a loaded table were read, by table name.
    let places: (String) -> [RowPlaces]
    let issues: IssueLog

    /// Records, as errors, what the rows of `query` (the recipe's query, one feed's when
    /// `arguments` binds `:feed`) break that made SQLite refuse them with `error`. Returns false
    /// when it found nothing to say (the failure is then not the input's).
    func explain(_ error: SQLiteError, query: String, arguments: [Value]) throws(SQLiteError) -> Bool {
        guard error.isConstraintViolation else { return false }
        if let columns = Self.columns(failedIn: error.message, table: table.name),
            error.message.hasPrefix("UNIQUE") || error.isUniqueViolation
        {
            return try explainDuplicates(columns: columns, query: query, arguments: arguments)
        }
        if error.message.hasPrefix("NOT NULL"),
            let column = Self.columns(failedIn: error.message, table: table.name)?.first
        {
            return try explainNull(column: column, query: query, arguments: arguments)
        }
        return false
    }

    /// Records, as errors, the derived rows whose parent or foreign-key column names no row
    /// (SQLite does not enforce them while building). Returns how many were recorded.
    @discardableResult
    func checkReferences() throws(SQLiteError) -> Int {
        let keys = try connection.rows(
            "SELECT id, \"from\", \"table\" FROM pragma_foreign_key_list(?)", [.text(table.name)])
        guard !keys.isEmpty else { return 0 }
        var recorded = 0
        for key in keys {
            guard let column = key[1].text, let target = key[2].text, let targetTable = schema.table(named: target)
            else { continue }
            let sql = """
                SELECT \(quoted(column)), count(*) OVER () FROM \(quoted(table.name)) AS d
                WHERE \(quoted(column)) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(quoted(target)) AS t WHERE \
                t.\(quoted(targetTable.rowID)) = d.\(quoted(column)))
                LIMIT 1
                """
            guard let row = try connection.rows(sql).first else { continue }
            recorded += 1
            issues.record(
                BuildIssue(
                    kind: .danglingReference, file: "derived table '\(table.name)'", field: column,
                    value: row[0].description,
                    message:
                        """
                        names no row of '\(target)', in \(row[1]) rows the recipe of '\(table.name)' (schema \
                        \(schema.name)) gives
                        """
                ))
        }
        return recorded
    }

    /// The columns of the constraint SQLite names in `message` ("UNIQUE constraint failed:
    /// stops.stop_id"), without the table's name.
    static func columns(failedIn message: String, table: String) -> [String]? {
        guard let range = message.range(of: "constraint failed: ") else { return nil }
        let columns = message[range.upperBound...].split(separator: ",").map { part -> String in
            let name = part.trimmingCharacters(in: .whitespaces)
            return name.hasPrefix(table + ".") ? String(name.dropFirst(table.count + 1)) : name
        }
        return columns.isEmpty ? nil : columns
    }

    private func explainDuplicates(columns: [String], query: String, arguments: [Value]) throws(SQLiteError) -> Bool {
        // A region seed's feed_ref is the feed the query is run for: not part of what repeats.
        let shown = columns.filter { $0 != Schema.feedColumn }
        guard !shown.isEmpty else { return false }
        let list = shown.map(quoted).joined(separator: ", ")
        let repeated = try connection.rows(
            """
            SELECT \(list), count(*) FROM (\(query)) GROUP BY \(list) HAVING count(*) > 1 ORDER BY \(list) LIMIT \
            \(RowPlaces.lookupLimit)
            """, arguments)
        guard !repeated.isEmpty else { return false }
        let what =
            columns == table.key
            ? "the key of '\(table.name)' must be unique"
            : "'\(table.name)' has a unique index on \(shown.joined(separator: ", "))"
        for row in repeated {
            let values = row.dropLast().map(\.description)
            let sources = try objects(withKey: values)
            let named =
                sources.isEmpty ? "" : "; the objects with this id: " + sources.map(\.text).joined(separator: ", ")
            let first = sources.first
            issues.record(
                BuildIssue(
                    kind: .duplicateKey, file: first?.file ?? "derived table '\(table.name)'", line: first?.line,
                    field: shown.joined(separator: "+"), value: values.joined(separator: ","),
                    message:
                        """
                        is given to \(row.last!) rows by the recipe of '\(table.name)' (schema \(schema.name)), \
                        and \(what)\(named)
                        """
                ))
        }
        return true
    }

    private func explainNull(column: String, query: String, arguments: [Value]) throws(SQLiteError) -> Bool {
        let statement = try connection.prepare("SELECT * FROM (\(query)) WHERE \(quoted(column)) IS NULL LIMIT 1")
        try statement.bind(arguments)
        guard try statement.step() else { return false }
        let values = (0..<statement.columnCount).compactMap { index -> String? in
            let value = statement.value(at: index)
            return value == .null ? nil : "\(statement.columnName(at: index))=\(value)"
        }
        statement.reset()
        let shown = values.isEmpty ? "every column of the row is NULL" : "the row: " + values.joined(separator: ", ")
        issues.record(
            BuildIssue(
                kind: .missingValue, file: "derived table '\(table.name)'", field: column,
                message:
                    """
                    is NULL in a row the recipe of '\(table.name)' (schema \(schema.name)) gives, and it is \
                    required (\(shown))
                    """
            ))
        return true
    }

    /// An object a recipe read whose own key is a repeated value: its element, key and place.
    private struct Source {
        var text: String
        var file: String?
        var line: Int?
    }

    /// The rows of the tables the recipe reads (loaded ones, with a key) whose key's first
    /// column holds one of `values`, in table then row order.
    private func objects(withKey values: [String]) throws(SQLiteError) -> [Source] {
        guard let sql = table.derive?.sql else { return [] }
        let read = try connection.tablesRead(by: sql)
        var sources: [Source] = []
        for source in schema.loadOrder where read.contains(source.name) && !source.isDerived && !source.withoutRowID {
            guard let column = source.key.first(where: { $0 != Schema.feedColumn }) else { continue }
            let element = source.elementAlternatives.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
            let name = element.isEmpty ? source.name : element.joined(separator: " or ")
            for value in Set(values).sorted() {
                for row in try connection.rows(
                    """
                    SELECT \(quoted(source.rowID)) FROM \(quoted(source.name)) WHERE \(quoted(column)) = ? ORDER \
                    BY 1 LIMIT 2
                    """,
                    [.text(value)])
                {
                    guard let id = row[0].integer else { continue }
                    let place = places(source.name).lazy.compactMap { $0.place(ofRow: id) }.first
                    sources.append(
                        Source(
                            text: name + (place.map { " at \($0.file):\($0.line)" } ?? ""),
                            file: place?.file, line: place?.line))
                }
            }
        }
        return sources
    }
}
