import SeedSQLite

extension Schema {
    /// Checks a table's `search`, `spatial` and `fill` keys against its columns, so that a
    /// misspelt column or a wrong type is an error naming the schema line, not a failed build.
    func validateQueryFeatures(_ table: Table, file: String) throws(SchemaError) {
        func fail(_ key: String, _ message: String) -> SchemaError {
            let place = places.features[table.name + "." + key] ?? places.tables[table.name]
            return SchemaError(file: file, line: place?.line, column: place?.column, message: "table '\(table.name)': '\(key)': \(message)")
        }
        func stored(_ name: String, _ key: String, what: String) throws(SchemaError) -> ColumnType {
            if let column = table.column(named: name), column.stored { return column.type }
            if table.references.contains(where: { $0.column == name }) || table.parent?.column == name { return .integer }
            let known = table.layout.map(\.name).joined(separator: ", ")
            throw fail(key, "\(what) '\(name)' is not a stored column of the table (its columns: \(known))")
        }
        if let search = table.search {
            if table.withoutRowID { throw fail("search", "a 'withoutRowID' table has no integer id for the index to point at") }
            try Self.checkIdentifier(search.name, what: "search index name", file: file)
            guard Set(search.columns).count == search.columns.count else { throw fail("search", "a column is listed twice") }
            for name in search.columns {
                let type = try stored(name, "search", what: "column")
                guard type == .text else { throw fail("search", "column '\(name)' is \(type.rawValue); only text columns can be searched") }
            }
        }
        if let spatial = table.spatial {
            if table.withoutRowID { throw fail("spatial", "a 'withoutRowID' table has no integer id for the index to point at") }
            try Self.checkIdentifier(spatial.name, what: "spatial index name", file: file)
            for (key, name) in [("lat", spatial.lat), ("lon", spatial.lon)] {
                let type = try stored(name, "spatial", what: "'\(key)' column")
                guard type == .real || type == .integer else {
                    throw fail("spatial", "'\(key)' column '\(name)' is \(type.rawValue); coordinates must be real (or integer) columns")
                }
            }
            if let groupBy = spatial.groupBy { _ = try stored(groupBy, "spatial", what: "'groupBy' column") }
        }
        if table.fill != nil {
            if format == .csv && table.file != nil { throw fail("fill", "a filled table reads no input; remove 'file'") }
            if table.element != nil || table.parent != nil || table.list != nil || !table.references.isEmpty {
                throw fail("fill", "a filled table reads no input: it takes no 'element', 'parent', 'list' or 'references'")
            }
            if table.columns.contains(where: { $0.expression != nil || !$0.stored }) {
                throw fail("fill", "the query gives every column: no 'expression' or 'stored: false' columns")
            }
            if isCreatedByReference(table) { throw fail("fill", "a filled table cannot be the target of 'create: true'") }
        }
    }

    /// The tables the search and spatial indexes add (the virtual table and its shadow
    /// tables) must not take the name of a declared table or of each other's.
    func validateDerivedNames(file: String) throws(SchemaError) {
        var taken = Dictionary(tables.map { ($0.name.lowercased(), "table '\($0.name)'") }, uniquingKeysWith: { first, _ in first })
        for table in tables {
            let derived: [(String, [String])] = [table.search.map { ($0.name, [$0.name] + $0.shadowTables) },
                                                 table.spatial.map { ($0.name, [$0.name] + $0.shadowTables) }].compactMap { $0 }
            for (index, names) in derived {
                for name in names {
                    if Self.reservedPrefixes.contains(where: { name.lowercased().hasPrefix($0) }) {
                        throw SchemaError(file: file, message: "table '\(table.name)': index name '\(index)' is reserved (names starting with sqlite_ or seedgen_)")
                    }
                    if let owner = taken[name.lowercased()] {
                        throw SchemaError(file: file, message: "table '\(table.name)': index '\(index)' needs a table named '\(name)', but \(owner) has that name; give the index another 'name'")
                    }
                    taken[name.lowercased()] = "index '\(index)' of table '\(table.name)'"
                }
            }
        }
    }

    /// Each `fill` query must compile against the schema's tables, so that a mistake is an
    /// error when the schema is read.
    func validateFills(file: String) throws(SchemaError) {
        let filled = tables.filter { $0.fill != nil }
        guard !filled.isEmpty else { return }
        do {
            let connection = try Connection(path: ":memory:")
            for table in tables { try connection.execute(table.createStatement) }
            for table in filled {
                let place = places.features[table.name + ".fill"]
                func fail(_ message: String) -> SchemaError {
                    SchemaError(file: file, line: place?.line, column: place?.column, message: "table '\(table.name)': 'fill': \(message)")
                }
                let fill = table.fill!
                let statement: Statement
                do { statement = try connection.prepare(fill.sql) } catch {
                    throw fail("'sql' is not a valid query over the schema's tables: \(error.message)")
                }
                let expected = table.layout.filter { $0.role != .rowID }.count
                guard statement.columnCount == expected else {
                    throw fail("'sql' gives \(statement.columnCount) column(s), the table stores \(expected) (\(table.layout.filter { $0.role != .rowID }.map(\.name).joined(separator: ", ")))")
                }
                if let warnings = fill.warnings {
                    do { _ = try connection.prepare(warnings) } catch {
                        throw fail("'warnings' is not a valid query over the schema's tables: \(error.message)")
                    }
                }
            }
        } catch let error as SchemaError {
            throw error
        } catch {
            throw SchemaError(file: file, message: "cannot check the fill queries: \(error)")
        }
    }
}
