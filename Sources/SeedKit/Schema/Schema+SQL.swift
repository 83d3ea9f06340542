extension Schema {
    /// The statements that create every table (without secondary indexes), in load order.
    public var createTableStatements: [String] {
        loadOrder.map(\.createStatement)
    }

    /// The statements that create every index: natural keys, references, declared indexes
    /// (`Table.indexStatements`; `SeedIndexes` creates them in a build).
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
}
