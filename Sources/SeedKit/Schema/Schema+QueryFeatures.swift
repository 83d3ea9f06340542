import SeedSQLite

extension Schema {
    /// Checks a table's `search`, `spatial` and `derive` keys against its columns, so that a
    /// misspelt column or a wrong type is an error naming the schema line, not a failed build.
    func validateQueryFeatures(_ table: Table, file: String) throws(SchemaError) {
        func fail(_ key: String, _ message: String) -> SchemaError {
            let place = places.features[table.name + "." + key] ?? places.tables[table.name]
            return SchemaError(
                file: file, line: place?.line, column: place?.column,
                message: "table '\(table.name)': '\(key)': \(message)")
        }
        func stored(_ name: String, _ key: String, what: String) throws(SchemaError) -> ColumnType {
            if let column = table.column(named: name), column.stored { return column.type }
            if table.references.contains(where: { $0.column == name }) || table.parent?.column == name {
                return .integer
            }
            let known = table.layout.map(\.name).joined(separator: ", ")
            throw fail(key, "\(what) '\(name)' is not a stored column of the table (its columns: \(known))")
        }
        if let search = table.search {
            if table.withoutRowID {
                throw fail("search", "a 'withoutRowID' table has no integer id for the index to point at")
            }
            try Self.checkIdentifier(search.name, what: "search index name", file: file)
            guard Set(search.columns).count == search.columns.count else {
                throw fail("search", "a column is listed twice")
            }
            for name in search.columns {
                let type = try stored(name, "search", what: "column")
                guard type == .text else {
                    throw fail("search", "column '\(name)' is \(type.rawValue); only text columns can be searched")
                }
            }
        }
        if let spatial = table.spatial {
            if table.withoutRowID && !spatial.isPoints {
                throw fail("spatial", "a 'withoutRowID' table has no integer id for the R*Tree to point at")
            }
            try Self.checkIdentifier(spatial.name, what: "spatial index name", file: file)
            for (key, name) in [("lat", spatial.lat), ("lon", spatial.lon)] {
                let type = try stored(name, "spatial", what: "'\(key)' column")
                guard type == .real || type == .integer else {
                    throw fail(
                        "spatial",
                        "'\(key)' column '\(name)' is \(type.rawValue); coordinates must be real (or integer) columns")
                }
            }
            if let groupBy = spatial.groupBy { _ = try stored(groupBy, "spatial", what: "'groupBy' column") }
        }
        if let derive = table.derive {
            if let marker = derive.marker {
                guard table.element != nil || (format == .csv && table.file != nil) else {
                    throw fail(
                        "derive",
                        """
                        'marker' is for a table that also reads rows (an 'element' or 'file'); a table with no \
                        input is derived whole
                        """
                    )
                }
                if table.withoutRowID { throw fail("derive", "a 'withoutRowID' table is derived whole or not at all") }
                guard let column = table.column(named: marker), column.stored,
                    column.type == .boolean || column.type == .integer,
                    column.expression == nil, column.defaultValue == "0"
                else {
                    throw fail(
                        "derive",
                        """
                        'marker' must name a boolean column with default \"0\" (the rows read keep it; the derived \
                        rows set it to 1), not '\(marker)'
                        """
                    )
                }
            } else {
                if format == .csv && table.file != nil {
                    throw fail("derive", "a derived table reads no input; remove 'file' (or name a 'marker' column)")
                }
                if table.element != nil || table.list != nil || !table.references.isEmpty {
                    throw fail(
                        "derive",
                        """
                        a derived table reads no input: it takes no 'element', 'list' or 'references' (or name a \
                        'marker' column)
                        """
                    )
                }
                if isCreatedByReference(table) {
                    throw fail("derive", "a derived table cannot be the target of 'create: true'")
                }
            }
            if table.columns.contains(where: { $0.expression != nil || !$0.stored }) && derive.marker == nil {
                throw fail("derive", "the query gives every column: no 'expression' or 'stored: false' columns")
            }
        }
    }

    /// The tables the search and spatial indexes add (the virtual table and its shadow
    /// tables) must not take the name of a declared table or of each other's.
    func validateDerivedNames(file: String) throws(SchemaError) {
        var taken = Dictionary(
            tables.map { ($0.name.lowercased(), "table '\($0.name)'") }, uniquingKeysWith: { first, _ in first })
        for table in tables {
            let derived: [(String, [String])] = [
                table.search.map { ($0.name, [$0.name] + $0.addedNames) },
                table.spatial.map { ($0.name, [$0.name] + $0.shadowTables) }
            ].compactMap { $0 }
            for (index, names) in derived {
                for name in names {
                    if Self.reservedPrefixes.contains(where: { name.lowercased().hasPrefix($0) }) {
                        throw SchemaError(
                            file: file,
                            message:
                                """
                                table '\(table.name)': index name '\(index)' is reserved (names starting with \
                                sqlite_ or seedgen_)
                                """
                        )
                    }
                    if let owner = taken[name.lowercased()] {
                        throw SchemaError(
                            file: file,
                            message:
                                """
                                table '\(table.name)': index '\(index)' needs a table named '\(name)', but \
                                \(owner) has that name; give the index another 'name'
                                """
                        )
                    }
                    taken[name.lowercased()] = "index '\(index)' of table '\(table.name)'"
                }
            }
        }
    }

    /// Each `derive` query must compile against the schema's tables and name its result columns
    /// like columns of its table, so that a mistake is an error when the schema is read.
    func validateDerives(file: String) throws(SchemaError) {
        let derived = tables.filter { $0.derive != nil }
        guard !derived.isEmpty else { return }
        do {
            let connection = try Connection(path: ":memory:")
            for table in tables { try connection.execute(table.createStatement) }
            for table in derived {
                let place = places.features[table.name + ".derive"] ?? places.tables[table.name]
                func fail(_ message: String) -> SchemaError {
                    SchemaError(
                        file: file, line: place?.line, column: place?.column,
                        message: "table '\(table.name)': 'derive': \(message)")
                }
                let derive = table.derive!
                let statement: Statement
                do { statement = try connection.prepare(derive.sql) } catch {
                    throw fail("'sql' is not a valid query over the schema's tables: \(error.message)")
                }
                let names = (0..<statement.columnCount).map { statement.columnName(at: $0) }
                let writable = table.layout.filter { $0.role != .rowID }.map(\.name)
                guard !names.isEmpty else { throw fail("'sql' returns no columns") }
                for name in names where !writable.contains(name) {
                    throw fail(
                        """
                        'sql' returns a column '\(name)' that the table does not store (name each result column \
                        like a column of the table: \(writable.joined(separator: ", ")))
                        """
                    )
                }
                guard Set(names).count == names.count else { throw fail("'sql' returns a column twice") }
                if let marker = derive.marker, !names.contains(marker) {
                    throw fail("'sql' must return the marker column '\(marker)' (as 1)")
                }
                if let warnings = derive.warnings {
                    do { _ = try connection.prepare(warnings) } catch {
                        throw fail("'warnings' is not a valid query over the schema's tables: \(error.message)")
                    }
                }
            }
        } catch let error as SchemaError {
            throw error
        } catch {
            throw SchemaError(file: file, message: "cannot check the derive queries: \(error)")
        }
    }
}
