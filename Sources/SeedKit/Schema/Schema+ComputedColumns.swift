import SeedSQLite

extension Schema {
    /// Checks `exists` and `expression` columns: where they may be used, and that each
    /// expression compiles against the table as it is stored (so a misspelt column is an
    /// error when the schema is read, not after an hour of loading).
    func validateComputedColumns(_ table: Table, file: String) throws(SchemaError) {
        func fail(_ message: String) -> SchemaError {
            SchemaError(file: file, message: "table '\(table.name)': \(message)")
        }
        for column in table.columns where column.exists {
            guard format == .xml else {
                throw fail("column '\(column.name)': 'exists' is for XML schemas (format: xml)")
            }
            guard table.list == nil else {
                throw fail("column '\(column.name)': a list item has no paths to test with 'exists'")
            }
        }
        let computed = table.columns.filter { $0.expression != nil }
        guard !computed.isEmpty else { return }
        for column in computed {
            if column.required || column.defaultValue != nil || !column.stored || column.format != nil {
                throw fail(
                    """
                    column '\(column.name)': an 'expression' column is computed after loading; it takes no \
                    'required', 'default', 'stored' or 'format'
                    """
                )
            }
            if table.key.contains(column.name) || table.references.contains(where: { $0.from.contains(column.name) }) {
                throw fail(
                    """
                    column '\(column.name)': an 'expression' column is computed after loading, so keys and \
                    references cannot read it
                    """
                )
            }
        }
        do {
            let connection = try Connection(path: ":memory:")
            try connection.execute(table.createStatement)
            for column in computed {
                do { _ = try connection.prepare("SELECT (\(column.expression!)) FROM \(quoted(table.name))") } catch {
                    throw fail(
                        """
                        column '\(column.name)': expression '\(column.expression!)' is not valid SQL over the \
                        table's columns: \(error.message)
                        """
                    )
                }
            }
        } catch let error as SchemaError {
            throw error
        } catch {
            throw fail("cannot check the expressions: \(error)")
        }
    }
}

extension Table {
    /// The statements that fill the `expression` columns, in column order (a later
    /// expression may read an earlier one).
    var computedColumnStatements: [String] {
        columns.compactMap { column in
            column.expression.map { "UPDATE \(quoted(name)) SET \(quoted(column.name)) = (\($0))" }
        }
    }
}
