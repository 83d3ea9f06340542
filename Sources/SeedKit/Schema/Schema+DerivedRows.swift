import SeedSQLite

extension Schema {
    /// Checks a table's `derivedRows` query: it compiles against the schema's tables, and
    /// each of its result columns is a stored column of the table or its parent column.
    func validateDerivedRows(_ table: Table, file: String) throws(SchemaError) {
        guard let query = table.derivedRows else { return }
        func fail(_ message: String) -> SchemaError { SchemaError(file: file, message: "table '\(table.name)': \(message)") }
        if table.withoutRowID { throw fail("'derivedRows' adds rows to tables with row ids") }
        do {
            let connection = try Connection(path: ":memory:")
            for statement in createTableStatements { try connection.execute(statement) }
            _ = try table.derivedRowsStatement(query, connection: connection)
        } catch let error as SQLiteError {
            throw fail("'derivedRows' is not a valid query over the schema's tables: \(error.message)")
        } catch let error as DerivedRowsError {
            throw fail("'derivedRows': \(error.message)")
        } catch {
            throw fail("cannot check 'derivedRows': \(error)")
        }
    }
}

/// A `derivedRows` query whose result does not fit its table.
struct DerivedRowsError: Error {
    var message: String
}

extension Table {
    /// `INSERT INTO table (columns of the result) query`: the statement that adds the rows of
    /// `query` (read from `connection`, where the tables exist).
    func derivedRowsStatement(_ query: String, connection: Connection) throws -> String {
        let statement = try connection.prepare(query)
        let names = (0..<statement.columnCount).map { statement.columnName(at: $0) }
        let writable = Set(layout.filter { $0.role != .rowID }.map(\.name))
        guard !names.isEmpty else { throw DerivedRowsError(message: "the query returns no columns") }
        for name in names where !writable.contains(name) {
            throw DerivedRowsError(message: "the query returns a column '\(name)' that the table does not store (name each result column like a column of the table)")
        }
        return "INSERT INTO \(quoted(self.name)) (\(names.map(quoted).joined(separator: ", "))) \(query)"
    }
}
