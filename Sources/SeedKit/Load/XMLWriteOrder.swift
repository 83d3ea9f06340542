import SeedSQLite

/// Keeps what the XML reader hands to the writer thread in the order the database needs.
/// Rows go to the database through the writer thread in batches, so a table whose
/// references look up rows of another table read here first hands over that table's
/// pending rows; and the rows nested in a record that fails its filter at its end (written
/// before it ended) are deleted by a statement queued after them.
struct XMLWriteOrder {
    private let mapping: XMLMapping
    private let loaders: [TableLoader]
    private let context: BuildContext
    /// Per table: the tables read here whose rows its references look up.
    private let referenceTargets: [[Int]]
    /// Per table: true when it has rows not yet handed to the writer thread.
    private var unflushed: [Bool]

    init(mapping: XMLMapping, loaders: [TableLoader], context: BuildContext) {
        self.mapping = mapping
        self.loaders = loaders
        self.context = context
        let indexOfTable = Dictionary(uniqueKeysWithValues: mapping.tables.enumerated().map { ($1.table.name, $0) })
        referenceTargets = mapping.tables.map { table in
            table.table.references.compactMap { $0.to == table.table.name ? nil : indexOfTable[$0.to] }
        }
        unflushed = Array(repeating: false, count: mapping.tables.count)
    }

    /// Hands the rows of `table`'s reference targets read so far to the writer, so that the
    /// lookups of rows finished after this see them (OSM: the nodes before the first way).
    mutating func flushTargets(of table: Int) throws {
        for target in referenceTargets[table] where unflushed[target] {
            try loaders[target].flush()
            unflushed[target] = false
        }
    }

    /// Notes that `table` has a row not yet handed to the writer thread.
    mutating func rowAdded(to table: Int) {
        unflushed[table] = true
    }

    /// Removes the rows nested (at any depth) in the row `parentID` of `table`: they were
    /// written before their parent turned out to fail its filter. The deletion is queued on
    /// the writer thread after those rows.
    func deleteNestedRows(of table: Int, parentID: Int64) throws {
        var statements: [String] = []
        func collect(_ table: Int, _ parentIDs: String) throws {
            for child in mapping.tables[table].children {
                try loaders[child].flush()
                let nested = mapping.tables[child].table
                let selection = "\(quoted(nested.parent!.column)) IN (\(parentIDs))"
                try collect(child, "SELECT \(quoted(nested.rowID)) FROM \(quoted(nested.name)) WHERE \(selection)")
                statements.append("DELETE FROM \(quoted(nested.name)) WHERE \(selection)")
            }
        }
        try collect(table, String(parentID))
        let (idMaps, deletions) = (context.idMaps, statements)
        let nestedNames = statements.isEmpty ? [] : descendants(of: table).map { mapping.tables[$0].table.name }
        try context.writeQueue.submit { connection throws(SQLiteError) in
            for statement in deletions { try connection.execute(statement) }
            for name in nestedNames { idMaps.discard(name) } // their maps may hold the deleted rows
        }
    }

    /// The tables nested (at any depth) in `table`.
    private func descendants(of table: Int) -> [Int] {
        mapping.tables[table].children.flatMap { [$0] + descendants(of: $0) }
    }
}
