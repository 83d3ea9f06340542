import SeedSQLite

/// Inserts rows of integers into one table, `rowsPerStatement` rows by one statement (`VALUES
/// (?, ?), (?, ?), ...`): a statement run costs more than the rows it inserts (half the time of
/// one statement a row, at 116k rows of `trip_patterns`). Rows go in in the order given.
package final class IntegerRowInserter {
    private let connection: Connection
    private let columns: Int
    private let rowsPerStatement: Int
    private let many: Statement
    private let one: Statement
    private var values: [Int64] = []

    package init(
        into table: String, columns names: [String], connection: Connection, rowsPerStatement: Int = 64
    )
        throws(SQLiteError)
    {
        self.connection = connection
        (columns, self.rowsPerStatement) = (names.count, rowsPerStatement)
        let head = "INSERT INTO \(quoted(table)) (\(names.map(quoted).joined(separator: ", "))) VALUES "
        let row = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        many = try connection.prepare(head + Array(repeating: row, count: rowsPerStatement).joined(separator: ", "))
        one = try connection.prepare(head + row)
        values.reserveCapacity(names.count * rowsPerStatement)
    }

    /// Adds a row: `row` holds one value per column.
    package func insert(_ row: Int64...) throws(SQLiteError) {
        values.append(contentsOf: row)
        if values.count == columns * rowsPerStatement { try flush() }
    }

    /// Inserts the rows added and not yet inserted; call it once the last row is added.
    package func flush() throws(SQLiteError) {
        let statement = values.count == columns * rowsPerStatement ? many : one
        var index = 0
        while index < values.count {
            for column in 0..<(statement === many ? values.count : columns) {
                try statement.bind(values[index + column], at: Int32(column + 1))
            }
            try statement.step()
            statement.reset()
            index += statement === many ? values.count : columns
        }
        values.removeAll(keepingCapacity: true)
    }
}
