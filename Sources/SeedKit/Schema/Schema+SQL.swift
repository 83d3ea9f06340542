extension Schema {
    /// The statements that create every table (without secondary indexes), in load order.
    public var createTableStatements: [String] {
        loadOrder.map(\.createStatement)
    }

    /// The statements that create every index: natural keys, references, declared indexes.
    public var createIndexStatements: [String] {
        loadOrder.flatMap(\.indexStatements)
    }

    /// The complete DDL of a seed built from this schema.
    public var sql: String {
        (createTableStatements + createIndexStatements).map { $0 + ";" }.joined(separator: "\n")
    }
}

extension Table {
    /// `CREATE TABLE` with typed columns and foreign keys, in the order of `layout`.
    public var createStatement: String {
        createStatement(columnCount: layout.count)
    }

    /// The unique index on the natural key, if the table has one.
    public var keyIndexStatement: String? {
        guard !key.isEmpty, !withoutRowID else { return nil }
        return "CREATE UNIQUE INDEX \(quoted(name + "_key")) ON \(quoted(name)) (\(key.map(quoted).joined(separator: ", ")))"
    }

    /// Indexes on the reference and parent columns (so joins and foreign-key checks are fast)
    /// and the declared indexes; the natural key's index comes first.
    public var indexStatements: [String] {
        var statements: [String] = keyIndexStatement.map { [$0] } ?? []
        var covered = Set(indexes.compactMap { $0.columns.first } + key.prefix(1))
        var referenceColumns = references.map(\.column)
        if let parent { referenceColumns.insert(parent.column, at: 0) }
        for column in referenceColumns where !covered.contains(column) {
            covered.insert(column)
            // Partial: rows without a reference (most stop_times have no location_ref) cost
            // nothing, and `column = ?` lookups and joins still use the index.
            let partial = references.contains { $0.column == column } ? " WHERE \(quoted(column)) IS NOT NULL" : ""
            statements.append("CREATE INDEX \(quoted(name + "_" + column)) ON \(quoted(name)) (\(quoted(column)))\(partial)")
        }
        for index in indexes { statements.append(statement(for: index)) }
        return statements
    }

    /// `CREATE [UNIQUE] INDEX` for a declared index.
    func statement(for index: Index) -> String {
        "CREATE \(index.unique ? "UNIQUE " : "")INDEX \(quoted(index.name)) ON \(quoted(name)) (\(index.columns.map(quoted).joined(separator: ", ")))"
    }
}

extension Schema {
    /// The indexes of `table` created before its rows are loaded: its key's, and the unique
    /// indexes some reference matches (`Reference.toColumns`), so that lookups use them (and
    /// duplicates are caught) while rows stream in. The other indexes come after loading.
    func preloadIndexStatements(of table: Table) -> [String] {
        var statements = table.keyIndexStatement.map { [$0] } ?? []
        for index in table.indexes where index.unique {
            let matched = tables.contains { other in
                other.references.contains { $0.to == table.name && $0.toColumns.map(Set.init) == Set(index.columns) }
            }
            if matched && Set(index.columns) != Set(table.key) { statements.append(table.statement(for: index)) }
        }
        return statements
    }
}

/// Quotes an SQL identifier.
func quoted(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
