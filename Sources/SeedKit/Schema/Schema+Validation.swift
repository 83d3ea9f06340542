extension Schema {
    /// Names the builder keeps for its own tables.
    static let reservedPrefixes = ["sqlite_", "seedgen_"]
    /// The prefix of the tables made from unread files (`extraFiles: true`).
    package static let extraTablePrefix = "extra_"

    /// Checks that the schema is consistent; throws the first problem found.
    func validate(file: String) throws(SchemaError) {
        func fail(_ message: String) -> SchemaError { SchemaError(file: file, message: message) }
        guard !tables.isEmpty else { throw fail("the schema declares no tables") }
        if format == .xml && extraFiles { throw fail("'extraFiles' is for CSV schemas") }
        var tableNames = Set<String>()
        for table in tables {
            try Self.checkIdentifier(table.name, what: "table name", file: file)
            if Self.reservedPrefixes.contains(where: { table.name.lowercased().hasPrefix($0) }) {
                throw fail("table name '\(table.name)' is reserved (names starting with sqlite_ or seedgen_)")
            }
            guard tableNames.insert(table.name.lowercased()).inserted else {
                throw fail("table '\(table.name)' is declared twice")
            }
            if extraFiles && table.name.lowercased().hasPrefix(Self.extraTablePrefix) {
                throw fail(
                    """
                    table name '\(table.name)' is reserved: with 'extraFiles: true', tables named extra_* hold the \
                    files no table reads
                    """
                )
            }
        }
        for table in tables {
            try validate(table, file: file)
        }
        try validateDerivedNames(file: file)
        try validateDerives(file: file)
        try validateQueries(file: file)
        let order = loadOrder.map(\.name)
        for table in tables {
            let position = order.firstIndex(of: table.name)!
            for dependency in table.dependencies where dependency != table.name {
                if order.firstIndex(of: dependency)! > position {
                    throw fail(
                        """
                        tables '\(table.name)' and '\(dependency)' reference each other in a cycle; make one side \
                        a plain column
                        """
                    )
                }
            }
        }
    }

    private func validate(_ table: Table, file: String) throws(SchemaError) {
        func fail(_ message: String) -> SchemaError {
            SchemaError(file: file, message: "table '\(table.name)': \(message)")
        }
        switch format {
        case .csv:
            if table.file == nil && !table.isDerived { throw fail("needs 'file'") }
            if table.element != nil || table.parent != nil || !table.filter.isEmpty || table.list != nil {
                throw fail("'element', 'parent', 'filter' and 'list' are for XML schemas (format: xml)")
            }
        case .xml:
            if table.extras { throw fail("'extras' is for CSV schemas") }
            try validateXML(table, file: file)
        }
        if table.withoutRowID {
            if table.key.isEmpty { throw fail("'withoutRowID' needs a 'key' to cluster the table on") }
            if table.parent != nil { throw fail("'withoutRowID' tables cannot be nested records") }
            if let other = tables.first(where: {
                $0.references.contains { $0.to == table.name } || $0.parent?.table == table.name
            }) {
                throw fail("'withoutRowID' tables cannot be referenced, but table '\(other.name)' references it")
            }
        }
        var names = Set<String>()
        func claim(_ name: String, _ what: String) throws(SchemaError) {
            try Self.checkIdentifier(name, what: what, file: file)
            guard names.insert(name.lowercased()).inserted else { throw fail("the name '\(name)' is used twice") }
        }
        if !table.withoutRowID { try claim(table.rowID, "row id column") }
        guard !table.columns.isEmpty else { throw fail("declares no columns") }
        for (index, column) in table.columns.enumerated() {
            if table.extras && index != table.extrasIndex && column.name.lowercased() == Column.extrasName {
                throw fail(
                    """
                    'extras: true' adds a column named '\(Column.extrasName)'; rename the declared column \
                    '\(column.name)'
                    """
                )
            }
            try claim(column.name, "column name")
            if column.expression == nil && (column.source.isEmpty || column.source.contains(where: \.isEmpty)) {
                throw fail("column '\(column.name)' has an empty source")
            }
            if let format = column.format {
                guard [.date, .datetime, .time, .duration].contains(column.type) else {
                    throw fail("column '\(column.name)': 'format' is for date, datetime, time and duration columns")
                }
                do {
                    if column.type == .duration {
                        _ = try DurationFormat(pattern: format)
                    } else {
                        _ = try ValueFormat(pattern: format)
                    }
                } catch {
                    throw fail("column '\(column.name)': \(error.message)")
                }
            }
            if column.precision != 0 {
                guard column.type == .datetime else {
                    throw fail("column '\(column.name)': 'precision' is for datetime columns")
                }
                guard (0...9).contains(column.precision) else {
                    throw fail("column '\(column.name)': 'precision' is 0 to 9 digits of a second")
                }
            }
            if column.partial && column.type != .date {
                throw fail("column '\(column.name)': 'partial' is for date columns")
            }
            if let value = column.defaultValue {
                let converter = ValueConverter(column: column)
                if case .invalid(let reason) = converter.convert(Array(value.utf8)) {
                    throw fail("column '\(column.name)': default '\(value)' is not valid: \(reason)")
                }
            }
        }
        for reference in table.references { try claim(reference.column, "reference column") }
        try validateComputedColumns(table, file: file)
        try validateQueryFeatures(table, file: file)
        if let parent = table.parent {
            try claim(parent.column, "parent column")
            guard self.table(named: parent.table) != nil else {
                throw fail("parent table '\(parent.table)' is not declared")
            }
        }
        if table.duplicates == .merge {
            if table.key.isEmpty || table.withoutRowID {
                throw fail("'duplicates: merge' needs a 'key' (and row ids): rows repeating it are merged")
            }
        }
        if let version = table.version {
            guard table.duplicates == .merge else {
                throw fail("'version' names the version of the copies 'duplicates: merge' merges")
            }
            guard table.column(named: version)?.stored == true, !table.key.contains(version) else {
                throw fail("'version' must name a stored column outside the key, not '\(version)'")
            }
        }
        for key in table.key
        where table.column(named: key)?.stored != true && !table.references.contains(where: { $0.column == key }) {
            throw fail("key column '\(key)' is neither a stored column nor a reference column of the table")
        }
        for reference in table.references {
            guard let target = self.table(named: reference.to) else {
                throw fail("reference '\(reference.column)' points to table '\(reference.to)', which is not declared")
            }
            let matched = reference.targetColumns(in: target)
            if let columns = reference.toColumns {
                guard
                    Set(columns) == Set(target.key) || reference.matchesKeyPrefix(of: target)
                        || target.indexes.contains(where: { $0.unique && Set($0.columns) == Set(columns) })
                else {
                    throw fail(
                        "reference '\(reference.column)' matches \(columns.map { "'\($0)'" }.joined(separator: ", ")) "
                            + "of '\(reference.to)', "
                                + """
                                which is neither its key, the first columns of its key, nor a unique index (declare { \
                                columns: [\(columns.joined(separator: ", "))], unique: true })
                                """
                    )
                }
                if target.withoutRowID {
                    throw fail("reference '\(reference.column)': 'toColumns' needs a target with row ids")
                }
            }
            guard !matched.isEmpty else {
                throw fail(
                    "reference '\(reference.column)' points to table '\(reference.to)', which has no 'key' to match")
            }
            guard matched.allSatisfy({ target.column(named: $0)?.stored == true }) else {
                throw fail(
                    """
                    reference '\(reference.column)' points to table '\(reference.to)', whose \
                    \(reference.toColumns == nil ? "key" : "toColumns") includes a reference column
                    """
                )
            }
            guard matched.count == reference.from.count else {
                throw fail(
                    """
                    reference '\(reference.column)' gives \(reference.from.count) value(s) but '\(target.name)' \
                    has a \(matched.count)-column \(reference.toColumns == nil ? "key" : "toColumns")
                    """
                )
            }
            if !reference.fill.isEmpty {
                guard reference.create else {
                    throw fail(
                        "reference '\(reference.column)': 'fill' is for find-or-create references (create: true)")
                }
                for (targetColumn, source) in reference.fill.sorted(by: { $0.key < $1.key }) {
                    guard target.column(named: targetColumn)?.stored == true, !matched.contains(targetColumn) else {
                        throw fail(
                            """
                            reference '\(reference.column)': 'fill' names '\(targetColumn)', which is not a stored \
                            column of '\(target.name)' outside the columns it matches
                            """
                        )
                    }
                    guard table.column(named: source) != nil else {
                        throw fail(
                            "reference '\(reference.column)': 'fill' reads column '\(source)', which is not declared")
                    }
                }
            }
            for name in reference.from {
                guard let column = table.column(named: name) else {
                    throw fail("reference '\(reference.column)' reads column '\(name)', which is not declared")
                }
                if reference.onMissing == .keep && !column.stored {
                    throw fail(
                        """
                        reference '\(reference.column)' keeps unknown keys (onMissing: keep), so '\(name)' must be \
                        stored
                        """
                    )
                }
                if reference.to == table.name && !column.stored {
                    throw fail(
                        """
                        self-reference '\(reference.column)' needs '\(name)' stored: it is resolved after the \
                        table is loaded
                        """
                    )
                }
            }
        }
        for index in table.indexes {
            for column in index.columns where !names.contains(column.lowercased()) {
                throw fail("index '\(index.name)' names column '\(column)', which the table does not have")
            }
        }
    }

    /// XML: paths parse, lists have a parent and read only the item and its position.
    private func validateXML(_ table: Table, file: String) throws(SchemaError) {
        func fail(_ message: String) -> SchemaError {
            SchemaError(file: file, message: "table '\(table.name)': \(message)")
        }
        func check(_ body: () throws(XMLPathError) -> Void) throws(SchemaError) {
            do { try body() } catch { throw fail("'\(error.path)': \(error.message)") }
        }
        if let element = table.element {
            if table.list != nil { throw fail("has both 'element' and 'list'; a table's rows come from one of them") }
            for alternative in table.elementAlternatives {
                try check { () throws(XMLPathError) in
                    _ = try XMLValuePath.elementPattern(alternative, namespaces: namespaces)
                }
            }
            if element.isEmpty { throw fail("'element' is empty") }
        }
        if let list = table.list {
            guard table.parent != nil else {
                throw fail("'list' needs 'parent': the table whose records hold the list")
            }
            guard (list.separator != nil) != (list.open != nil && list.close != nil), list.separator?.isEmpty != true,
                (list.open == nil) == (list.close == nil), list.open?.isEmpty != true, list.close?.isEmpty != true
            else {
                throw fail("'list' needs either a non-empty 'separator' or both 'open' and 'close'")
            }
            for source in list.sources {
                try check { () throws(XMLPathError) in _ = try XMLValuePath.alternatives(source, namespaces: namespaces)
                }
            }
            for column in table.columns
            where column.source.contains(where: { $0 != "." && $0 != "$position" && $0 != XMLMapping.fileSource }) {
                throw fail(
                    """
                    column '\(column.name)': a list item has only '.' (the item) and '$position' (and '$file') as \
                    sources
                    """
                )
            }
        }
        if let parent = table.parent, let parentTable = self.table(named: parent.table), parentTable.element == nil {
            throw fail("its parent '\(parent.table)' has no elements of its own in the XML")
        }
        for column in table.columns {
            for source in column.source where source != XMLMapping.fileSource {
                try check { () throws(XMLPathError) in _ = try XMLValuePath.alternatives(source, namespaces: namespaces)
                }
            }
        }
        for condition in table.filter {
            try check { () throws(XMLPathError) in
                guard try XMLValuePath.alternatives(condition.source, namespaces: namespaces).allSatisfy(\.isCaptured)
                else {
                    throw XMLPathError(
                        path: condition.source,
                        message:
                            """
                            a filter reads the record's own text and attributes, not $position, $name or an \
                            enclosing element
                            """
                    )
                }
            }
        }
    }

    /// True when some reference creates rows of `table` (XML find-or-create targets need no element).
    func isCreatedByReference(_ table: Table) -> Bool {
        tables.contains { $0.references.contains { $0.to == table.name && $0.create } }
    }

    static func checkIdentifier(_ name: String, what: String, file: String) throws(SchemaError) {
        let bytes = Array(name.utf8)
        let valid =
            !bytes.isEmpty && !(bytes[0] >= 48 && bytes[0] <= 57)
            && bytes.allSatisfy {
                ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95
            }
        guard valid else {
            throw SchemaError(
                file: file, message: "\(what) '\(name)' must be letters, digits and _, not starting with a digit")
        }
    }
}
