import SeedSQLite

/// Loads the rows of one table: converts each source value to its column's type, resolves
/// references, and inserts through one prepared statement. Readers (CSV, XML) feed it one
/// row at a time: `beginRow`, `set` for every column, `finishRow`.
///
/// Bad values are recorded in the issue log with their place, and their row is skipped;
/// the build fails after the table when there were errors.
final class TableLoader {
    let table: Table
    let context: BuildContext
    /// The input file, as shown in messages.
    var file: String
    /// Per column: the source field it was read from (CSV header, XML path), for messages.
    var sourceNames: [String?]
    /// Per column: the 1-based position of its field in a CSV record, for messages.
    var sourcePositions: [Int?]

    private let insert: Statement
    private let converters: [ValueConverter]
    private let defaults: [[UInt8]?]
    private let parameters: [Int32]            // per column; 0 when the column is not stored
    private let keepsValue: [Bool]             // per column: its value feeds a reference or the key
    private var values: [Value]                // per column, when kept
    private let referenceColumns: [[Int]]      // per reference: indexes of its `from` columns
    private let resolvers: [ReferenceResolver?] // nil for a self-reference, resolved after loading
    private let referenceParameters: [Int32]
    private let idParameter: Int32 = 1
    private let parentParameter: Int32?
    private var rowIsValid = true
    private var line = 0
    private var column: Int?
    private var lines: [Int32] = []            // line of each row, kept only for deferred references
    private let keepsLines: Bool
    /// Rows inserted so far.
    private(set) var rowCount = 0

    init(table: Table, file: String, context: BuildContext) throws(SQLiteError) {
        self.table = table
        self.context = context
        self.file = file
        let columns = table.columns
        sourceNames = columns.map { $0.source.first }
        sourcePositions = Array(repeating: nil, count: columns.count)
        converters = columns.map(ValueConverter.init(column:))
        defaults = columns.map { $0.defaultValue.map { Array($0.utf8) } }

        var names = [table.rowID]
        var parameters: [Int32] = []
        for column in columns {
            if column.stored {
                names.append(column.name)
                parameters.append(Int32(names.count))
            } else {
                parameters.append(0)
            }
        }
        self.parameters = parameters
        if let parent = table.parent {
            names.append(parent.column)
            parentParameter = Int32(names.count)
        } else {
            parentParameter = nil
        }
        var referenceParameters: [Int32] = []
        for reference in table.references {
            names.append(reference.column)
            referenceParameters.append(Int32(names.count))
        }
        self.referenceParameters = referenceParameters
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        insert = try context.database.prepare(
            "INSERT INTO \(quoted(table.name)) (\(names.map(quoted).joined(separator: ", "))) VALUES (\(placeholders))")

        referenceColumns = table.references.map { reference in
            reference.from.map { name in columns.firstIndex { $0.name == name }! }
        }
        var keeps = Array(repeating: false, count: columns.count)
        for indexes in referenceColumns { for i in indexes { keeps[i] = true } }
        for name in table.key { if let i = columns.firstIndex(where: { $0.name == name }) { keeps[i] = true } }
        keepsValue = keeps
        values = Array(repeating: .null, count: columns.count)

        var resolvers: [ReferenceResolver?] = []
        for reference in table.references {
            if reference.to == table.name {
                resolvers.append(nil)
            } else {
                resolvers.append(try ReferenceResolver(reference: reference, target: context.schema.table(named: reference.to)!, context: context))
            }
        }
        self.resolvers = resolvers
        keepsLines = resolvers.contains { $0 == nil }
    }

    /// Starts a row read at `line` (and `column`, for XML).
    @inline(__always)
    func beginRow(line: Int, column: Int? = nil) {
        self.line = line
        self.column = column
        rowIsValid = true
    }

    /// Sets column `index` from its source bytes; nil when the source has no such field.
    @inline(__always)
    func set(_ index: Int, _ bytes: UnsafeRawBufferPointer?) throws(SQLiteError) {
        if let bytes, !ValueConverter.trim(bytes).isEmpty {
            try store(index, bytes)
        } else if let fallback = defaults[index] {
            let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: fallback.count, alignment: 1)
            defer { raw.deallocate() }
            raw.copyBytes(from: fallback)
            try store(index, UnsafeRawBufferPointer(raw))
        } else {
            if table.columns[index].required {
                report(.missingValue, index, value: nil, message: "is required but empty")
            }
            if parameters[index] != 0 { try insert.bindNull(at: parameters[index]) }
            if keepsValue[index] { values[index] = .null }
        }
    }

    private func store(_ index: Int, _ bytes: UnsafeRawBufferPointer) throws(SQLiteError) {
        let parameter = parameters[index]
        switch converters[index].convert(bytes) {
        case .null:
            if parameter != 0 { try insert.bindNull(at: parameter) }
            if keepsValue[index] { values[index] = .null }
        case .integer(let value):
            if parameter != 0 { try insert.bind(value, at: parameter) }
            if keepsValue[index] { values[index] = .integer(value) }
        case .real(let value):
            if parameter != 0 { try insert.bind(value, at: parameter) }
            if keepsValue[index] { values[index] = .real(value) }
        case .sourceText:
            if parameter != 0 { try insert.bindText(bytes, at: parameter) }
            if keepsValue[index] { values[index] = .text(String(decoding: bytes, as: UTF8.self)) }
        case .text(let text):
            if parameter != 0 { try insert.bind(text, at: parameter) }
            if keepsValue[index] { values[index] = .text(text) }
        case .invalid(let reason):
            report(.invalidValue, index, value: String(decoding: bytes, as: UTF8.self), message: "is not a valid \(converters[index].type.rawValue): \(reason)")
        }
    }

    /// Sets the enclosing row's id (XML nested records).
    func setParent(_ id: Int64?) throws(SQLiteError) {
        guard let parentParameter else { return }
        if let id { try insert.bind(id, at: parentParameter) } else { try insert.bindNull(at: parentParameter) }
    }

    /// Marks the row as bad without a value error (the reader found a problem).
    func reject() { rowIsValid = false }

    /// Resolves references and inserts the row. Returns its id, or nil when it was skipped.
    @discardableResult
    func finishRow(id preassigned: Int64? = nil) throws(SQLiteError) -> Int64? {
        guard rowIsValid else { return nil }
        for (r, reference) in table.references.enumerated() {
            let parameter = referenceParameters[r]
            let parts = referenceColumns[r].map { values[$0] }
            guard !parts.contains(.null), let resolver = resolvers[r] else {
                try insert.bindNull(at: parameter) // no key, or a self-reference resolved later
                continue
            }
            let key = parts.count == 1 ? parts[0].description : parts.map(\.description).joined(separator: "\u{1F}")
            if let id = try resolver.resolve(key: key, parts: parts) {
                try insert.bind(id, at: parameter)
            } else if context.allowDangling || reference.onMissing == .null {
                try insert.bindNull(at: parameter)
                report(.nullReference, referenceColumns[r][0], value: key,
                       message: "names no row of '\(reference.to)'; kept with \(reference.column) = NULL")
            } else {
                report(.danglingReference, referenceColumns[r][0], value: key,
                       message: "names no row of '\(reference.to)' (key \(resolver.target.key.joined(separator: ", ")))")
            }
        }
        guard rowIsValid else { return nil }
        let id = preassigned ?? context.allocateID(in: table.name)
        try insert.bind(id, at: idParameter)
        defer { insert.reset() }
        do {
            try insert.step()
        } catch where error.isConstraintViolation && error.code == 2067 /* SQLITE_CONSTRAINT_UNIQUE */ {
            if preassigned == nil { context.releaseID(id, in: table.name) }
            let keyText = table.key.map { name -> String in
                if let i = table.columns.firstIndex(where: { $0.name == name }) { return "\(name)=\(values[i])" }
                let r = table.references.firstIndex { $0.column == name }!
                return "\(name)=\(referenceColumns[r].map { values[$0].description }.joined(separator: ","))"
            }.joined(separator: ", ")
            context.issues.record(BuildIssue(kind: .duplicateKey, file: file, line: line, column: column,
                                             field: table.key.joined(separator: "+"), value: keyText,
                                             message: "appears twice: the key of '\(table.name)' must be unique"))
            return nil
        }
        rowCount += 1
        if keepsLines { lines.append(Int32(clamping: line)) }
        return id
    }

    private func report(_ kind: BuildIssue.Kind, _ index: Int, value: String?, message: String) {
        if kind.isError { rowIsValid = false }
        context.issues.record(BuildIssue(kind: kind, file: file, line: line, column: sourcePositions[index] ?? column,
                                         field: sourceNames[index] ?? table.columns[index].name, value: value, message: message))
    }

    /// After the last row: resolves self-references in one statement each and reports the
    /// keys that name no row; publishes the resolvers' statistics.
    func finish() throws(SQLiteError) {
        for (r, reference) in table.references.enumerated() {
            let name = "\(table.name).\(reference.column)"
            guard resolvers[r] == nil else {
                context.referenceStatistics[name] = resolvers[r]!.statistics
                continue
            }
            let target = context.schema.table(named: reference.to)!
            let matches = zip(target.key, reference.from).map { "p.\(quoted($0)) = t.\(quoted($1))" }.joined(separator: " AND ")
            let present = reference.from.map { "\(quoted($0)) IS NOT NULL" }.joined(separator: " AND ")
            try context.database.execute("""
                UPDATE \(quoted(table.name)) AS t SET \(quoted(reference.column)) =
                  (SELECT p.\(quoted(target.rowID)) FROM \(quoted(target.name)) AS p WHERE \(matches))
                WHERE \(present)
                """)
            let unresolved = try context.database.rows(
                "SELECT \(quoted(table.rowID)), \(reference.from.map(quoted).joined(separator: ", ")) FROM \(quoted(table.name)) WHERE \(quoted(reference.column)) IS NULL AND \(present) ORDER BY 1")
            var statistics = ReferenceStatistics()
            statistics.unresolved = unresolved.count
            context.referenceStatistics[name] = statistics
            let keep = context.allowDangling || reference.onMissing == .null
            for row in unresolved {
                let id = Int(row[0].integer ?? 0)
                let index = referenceColumns[r][0]
                let key = row.dropFirst().map(\.description).joined(separator: ",")
                context.issues.record(BuildIssue(
                    kind: keep ? .nullReference : .danglingReference, file: file,
                    line: id >= 1 && id <= lines.count ? Int(lines[id - 1]) : nil, column: sourcePositions[index],
                    field: sourceNames[index] ?? reference.from[0], value: key,
                    message: keep ? "names no row of '\(reference.to)'; kept with \(reference.column) = NULL"
                                  : "names no row of '\(reference.to)' (key \(target.key.joined(separator: ", ")))"))
            }
        }
        lines = []
    }
}
