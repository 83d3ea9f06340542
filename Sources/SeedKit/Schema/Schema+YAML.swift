import Foundation
import SeedArchive
import Yams

extension Schema {
    /// Reads and validates a schema file.
    /// - Parameter path: a `.yaml` schema file.
    public static func load(path: String) throws(SchemaError) -> Schema {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SchemaError(code: .fileSystem, file: path, message: "cannot read the schema file")
        }
        return try parse(Array(data), file: path)
    }

    /// The YAML document of the schema text, with errors that say what to do.
    private static func composed(_ text: String, file: String) throws(SchemaError) -> Node {
        do {
            guard let node = try Yams.compose(yaml: text, .basic) else {
                throw SchemaError(code: .invalidYAML, file: file, message: "the schema is empty")
            }
            return node
        } catch let error as SchemaError {
            throw error
        } catch let error as YamlError {
            var message = "not valid YAML: \(error)"
            // `source: @id`: YAML reserves `@` (and `` ` ``) at the start of a plain value.
            if message.contains("cannot start any token") {
                message += "\n(a value starting with @ or ` must be quoted in YAML: source: \"@id\")"
            }
            throw SchemaError(code: .invalidYAML, file: file, message: message, cause: error)
        } catch {
            throw SchemaError(code: .invalidYAML, file: file, message: "not valid YAML: \(error)")
        }
    }

    /// Parses and validates schema text.
    /// - Parameters:
    ///   - bytes: the YAML text.
    ///   - file: the name used in error messages.
    public static func parse(_ bytes: [UInt8], file: String) throws(SchemaError) -> Schema {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw SchemaError(code: .invalidYAML, file: file, message: "the schema is not UTF-8 text")
        }
        var top = try YAMLObject(try composed(text, file: file), file: file, what: "the schema")
        let name = try top.requiredString("name", in: "the schema")
        guard let version = try top.int("schemaVersion") else {
            throw top.error("the schema needs 'schemaVersion' (a whole number)")
        }
        guard version >= 0 else { throw top.error("'schemaVersion' must not be negative") }
        let formatText = try top.string("format") ?? "csv"
        guard let format = Format(rawValue: formatText) else {
            throw top.error(
                """
                'format' must be one of \(Format.allCases.map(\.rawValue).joined(separator: ", ")), not \
                '\(formatText)'
                """
            )
        }
        let namespaces = try top.stringMap("namespaces")
        let extraFiles = try top.bool("extraFiles") ?? false
        let reportUnreadObjects = try top.bool("reportUnreadObjects") ?? false
        if reportUnreadObjects && format != .xml {
            throw top.error("'reportUnreadObjects' is for XML schemas (format: xml)")
        }
        let entitiesText = try top.string("entities") ?? Entities.xml.rawValue
        guard let entities = Entities(rawValue: entitiesText) else {
            throw top.error(
                """
                'entities' must be one of \(Entities.allCases.map(\.rawValue).joined(separator: ", ")), not \
                '\(entitiesText)'
                """
            )
        }
        _ = try top.string("description")
        var queries: [SchemaQuery] = []
        for var object in try top.objects("queries", what: "a query") { queries.append(try SchemaQuery.parse(&object)) }
        var tables: [Table] = []
        var places = SchemaPlaces()
        places.file = file
        for var object in try top.objects("tables", what: "a table") {
            tables.append(try Table.parse(&object, format: format))
            places.record(object, table: tables[tables.count - 1])
        }
        try top.rejectUnknownKeys(in: "the schema")
        if format == .xml {
            // The codeless convention: a table's records are the elements named like it,
            // except tables filled by find-or-create or from a list.
            let created = Set(tables.flatMap { $0.references.filter(\.create).map(\.to) })
            for index in tables.indices
            where tables[index].element == nil && tables[index].list == nil
                && !tables[index].isDerived && !created.contains(tables[index].name)
            {
                tables[index].element = tables[index].name
            }
        }
        var schema = Schema(
            name: name, schemaVersion: version, format: format, namespaces: namespaces,
            tables: tables, sha256: SHA256.hex(of: bytes))
        schema.places = places
        schema.extraFiles = extraFiles
        schema.queries = queries
        schema.reportUnreadObjects = reportUnreadObjects
        schema.entities = entities
        try schema.validate(file: file)
        return schema
    }
}

extension Table {
    fileprivate static func parse(_ object: inout YAMLObject, format: Schema.Format) throws(SchemaError) -> Table {
        let name = try object.requiredString("name", in: "a table")
        let what = "table '\(name)'"
        var table = Table(name: name, columns: [])
        for old in ["fill", "derivedRows"] where object.peek(old) != nil {
            throw object.error(
                """
                \(what): '\(old)' is now 'derive', the one way to compute rows by SQL: derive: { sql: \"SELECT \
                ...\" } (see Schema/README.md, Derived rows)
                """
            )
        }
        if var derive = try object.object("derive", what: "the derive of \(what)") {
            table.derive = TableDerive(
                sql: try derive.requiredString("sql", in: "'derive' of \(what)"),
                warnings: try derive.string("warnings"),
                marker: try derive.string("marker"))
            try derive.rejectUnknownKeys(in: "'derive' of \(what)")
        }
        // A derived table reads no input.
        table.file = try object.string("file") ?? (format == .csv && !table.isDerived ? "\(name).txt" : nil)
        table.optional = try object.bool("optional") ?? false
        table.element = try object.strings("element")?.joined(separator: Table.elementSeparator)
        table.rowID = try object.string("rowID") ?? "id"
        table.key = try object.strings("key") ?? []
        table.withoutRowID = try object.bool("withoutRowID") ?? false
        table.extras = try object.bool("extras") ?? false
        if let text = try object.string("duplicates") {
            guard let rule = DuplicateRule(rawValue: text) else {
                throw object.error(
                    """
                    \(what): 'duplicates' must be \
                    \(DuplicateRule.allCases.map(\.rawValue).joined(separator: " or ")), not '\(text)'
                    """
                )
            }
            table.duplicates = rule
        }
        table.version = try object.string("version")
        _ = try object.string("description")
        if case .scalar(let scalar)? = object.value("parent") {
            // `parent: author` is short for `parent: { table: author, column: author_ref }`.
            table.parent = ParentLink(table: scalar.string, column: scalar.string + "_ref")
        } else if var parent = try object.object("parent", what: "the parent of \(what)") {
            let parentTable = try parent.requiredString("table", in: "'parent' of \(what)")
            table.parent = ParentLink(table: parentTable, column: try parent.string("column") ?? parentTable + "_ref")
            try parent.rejectUnknownKeys(in: "'parent' of \(what)")
        }
        if var list = try object.object("list", what: "the list of \(what)") {
            guard let sources = try list.strings("source"), !sources.isEmpty else {
                throw list.error("the 'list' of \(what) needs a 'source'")
            }
            table.list = ValueList(
                sources: sources,
                separator: try list.string("separator"), open: try list.string("open"),
                close: try list.string("close"))
            try list.rejectUnknownKeys(in: "'list' of \(what)")
        }
        for var item in try object.objects("columns", what: "a column of \(what)") {
            table.columns.append(try Column.parse(&item, table: name))
        }
        if table.extras { table.columns.append(.extras) }
        for var item in try object.objects("references", what: "a reference of \(what)") {
            table.references.append(try Reference.parse(&item, table: name))
        }
        try parseQueryFeatures(&object, into: &table, what: what)
        for var item in try object.objects("filter", what: "a filter of \(what)") {
            table.filter.append(try Condition.parse(&item, table: name))
        }
        try object.rejectUnknownKeys(in: what)
        return table
    }

    /// `indexes`, `search` and `spatial`.
    private static func parseQueryFeatures(
        _ object: inout YAMLObject, into table: inout Table, what: String
    ) throws(SchemaError) {
        let name = table.name
        for var item in try object.objects("indexes", what: "an index of \(what)") {
            guard let columns = try item.strings("columns"), !columns.isEmpty else {
                throw item.error("an index of \(what) needs 'columns'")
            }
            let index = Index(
                name: try item.string("name") ?? ([name] + columns).joined(separator: "_"),
                columns: columns, unique: try item.bool("unique") ?? false)
            try item.rejectUnknownKeys(in: "an index of \(what)")
            table.indexes.append(index)
        }
        if var search = try object.object("search", what: "the search index of \(what)") {
            guard let columns = try search.strings("columns"), !columns.isEmpty else {
                throw search.error("'search' of \(what) needs 'columns'")
            }
            var prefix: [Int] = []
            if let texts = try search.strings("prefix") {
                for text in texts {
                    guard let length = Int(text), (1...SearchIndex.maximumPrefix).contains(length) else {
                        throw search.error(
                            """
                            'search' of \(what): 'prefix' lists lengths from 1 to \(SearchIndex.maximumPrefix), \
                            not '\(text)'
                            """,
                            at: search.peek("prefix"))
                    }
                    prefix.append(length)
                }
            }
            table.search = SearchIndex(
                name: try search.string("name") ?? name + "_search", columns: columns, prefix: prefix)
            try search.rejectUnknownKeys(in: "'search' of \(what)")
        }
        if var spatial = try object.object("spatial", what: "the spatial index of \(what)") {
            let groupBy = try spatial.string("groupBy")
            table.spatial = SpatialIndex(
                name: try spatial.string("name") ?? name + (groupBy == nil ? "_location" : "_rtree"),
                lat: try spatial.requiredString("lat", in: "'spatial' of \(what)"),
                lon: try spatial.requiredString("lon", in: "'spatial' of \(what)"),
                groupBy: groupBy)
            try spatial.rejectUnknownKeys(in: "'spatial' of \(what)")
        }
    }
}

extension Column {
    fileprivate static func parse(_ object: inout YAMLObject, table: String) throws(SchemaError) -> Column {
        let name = try object.requiredString("name", in: "a column of table '\(table)'")
        let what = "column '\(table).\(name)'"
        let typeText = try object.string("type") ?? "text"
        guard let type = ColumnType(rawValue: typeText) else {
            throw object.error(
                """
                \(what): unknown type '\(typeText)' (types: \
                \(ColumnType.allCases.map(\.rawValue).joined(separator: ", ")))
                """
            )
        }
        let exists = try object.bool("exists") ?? false
        let expression = try object.string("expression")
        let source = try object.strings("source")
        if expression != nil, source != nil {
            throw object.error("\(what): 'expression' computes the value, so the column has no 'source'")
        }
        if expression != nil, exists {
            throw object.error("\(what): a column has either 'expression' or 'exists', not both")
        }
        if exists, object.value("type") != nil, type != .boolean {
            throw object.error("\(what): an 'exists' column is boolean (1 or 0), not \(type.rawValue)")
        }
        var column = Column(
            name: name, type: exists ? .boolean : type, source: expression != nil ? [] : source,
            required: try object.bool("required") ?? false,
            defaultValue: try object.string("default"), format: try object.string("format"),
            stored: try object.bool("stored") ?? true, exists: exists, expression: expression)
        column.trim = try object.bool("trim") ?? true
        column.trailing = try object.bool("trailing") ?? false
        if let text = try object.string("onInvalid") {
            guard let rule = Column.InvalidRule(rawValue: text) else {
                throw object.error(
                    """
                    \(what): 'onInvalid' must be \
                    \(Column.InvalidRule.allCases.map(\.rawValue).joined(separator: " or ")), not '\(text)'
                    """
                )
            }
            column.onInvalid = rule
        }
        column.precision = try object.int("precision") ?? 0
        column.partial = try object.bool("partial") ?? false
        try object.rejectUnknownKeys(in: what)
        return column
    }
}

extension Reference {
    fileprivate static func parse(_ object: inout YAMLObject, table: String) throws(SchemaError) -> Reference {
        let what = "a reference of table '\(table)'"
        let column = try object.requiredString("column", in: what)
        guard let from = try object.strings("from"), !from.isEmpty else { throw object.error("\(what) needs 'from'") }
        let to = try object.requiredString("to", in: what)
        let onMissingText = try object.string("onMissing") ?? "error"
        guard let onMissing = OnMissing(rawValue: onMissingText) else {
            throw object.error("\(what): 'onMissing' must be error, null or keep, not '\(onMissingText)'")
        }
        let cacheSize = try object.int("cache") ?? Reference.defaultCacheSize
        guard cacheSize > 0 else { throw object.error("\(what): 'cache' must be at least 1") }
        var reference = Reference(
            column: column, from: from, to: to, create: try object.bool("create") ?? false,
            cacheSize: cacheSize, onMissing: onMissing)
        reference.trailing = try object.bool("trailing") ?? false
        reference.toColumns = try object.strings("toColumns")
        reference.fill = try object.stringMap("fill")
        try object.rejectUnknownKeys(in: what)
        return reference
    }
}

extension Condition {
    fileprivate static func parse(_ object: inout YAMLObject, table: String) throws(SchemaError) -> Condition {
        let what = "a filter of table '\(table)'"
        let source = try object.requiredString("source", in: what)
        var tests: [Test] = []
        if try object.bool("present") == true { tests.append(.present) }
        if try object.bool("absent") == true { tests.append(.absent) }
        if let values = try object.strings("equals") { tests.append(.equals(values)) }
        if let values = try object.strings("notEquals") { tests.append(.notEquals(values)) }
        guard tests.count == 1, let test = tests.first else {
            throw object.error("\(what) needs exactly one of present: true, absent: true, equals, notEquals")
        }
        try object.rejectUnknownKeys(in: what)
        return Condition(source: source, test: test)
    }
}
