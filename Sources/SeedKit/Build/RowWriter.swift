import Foundation
import SeedSQLite

/// The writer's half of a `TableLoader`, run on the build's writer thread: binds each row of
/// a batch to one prepared INSERT, resolves its references, and records the rows the
/// database refuses (duplicate keys) or that name no row (dangling references).
final class RowWriter: @unchecked Sendable {
    let table: Table
    let context: BuildContext
    let fields: SourceFields

    private let insert: Statement
    private let parameters: [Int32]             // per column; 0 when the column is not stored
    private let idParameter: Int32              // 0 for WITHOUT ROWID tables
    private let parentParameter: Int32          // 0 when the table has no parent
    private let referenceColumns: [[Int]]       // per reference: indexes of its `from` columns
    private let referenceParameters: [Int32]
    private let resolvers: [ReferenceResolver?] // nil for a self-reference, resolved after loading
    private let keepsNull: [Bool]               // per reference: a dangling key keeps the row
    private let pending: [PendingReferences?]   // per reference: keys resolved after loading
    private var outside: [(count: Int, example: BuildIssue?)] // per reference: `onMissing: keep` keys
    private let places: RowPlaces?
    private var firstCopy: Statement?           // finds the row a duplicate repeats
    private var placeLookups: Int               // each reads the places file: only the first few
    private var resolvedIDs: [Value]            // per reference: the current row's resolved id
    private let keyHasReference: Bool           // resolvedIDs are needed to find a duplicate's first copy
    private var deferredKeys: [(Int, [Value])] = []
    private let idMapKey: (map: IDMap, column: Int)? // records each row's key when references look the table up by it
    private(set) var rowCount = 0

    /// - Parameter createdColumns: the columns of the table as created so far (nil: all of
    ///   `table.layout`); the INSERT names only those, and references without a column
    ///   are not resolved (their source columns are absent).
    init(table: Table, fields: SourceFields, context: BuildContext, createdColumns: Set<String>? = nil) throws(SQLiteError) {
        self.table = table
        self.context = context
        self.fields = fields
        let columns = table.columns

        var names: [String] = table.withoutRowID ? [] : [table.rowID]
        idParameter = table.withoutRowID ? 0 : 1
        var parameters: [Int32] = []
        let created = createdColumns ?? Set(table.layout.map(\.name))
        for column in columns {
            if column.stored && created.contains(column.name) {
                names.append(column.name)
                parameters.append(Int32(names.count))
            } else {
                parameters.append(0)
            }
        }
        self.parameters = parameters
        if let parent = table.parent, created.contains(parent.column) {
            names.append(parent.column)
            parentParameter = Int32(names.count)
        } else {
            parentParameter = 0
        }
        var referenceParameters: [Int32] = []
        for reference in table.references {
            if created.contains(reference.column) {
                names.append(reference.column)
                referenceParameters.append(Int32(names.count))
            } else {
                referenceParameters.append(0)
            }
        }
        self.referenceParameters = referenceParameters
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        insert = try context.database.prepare(
            "INSERT INTO \(quoted(table.name)) (\(names.map(quoted).joined(separator: ", "))) VALUES (\(placeholders))")
        referenceColumns = table.references.map { reference in
            reference.from.map { name in columns.firstIndex { $0.name == name }! }
        }
        var resolvers: [ReferenceResolver?] = []
        for reference in table.references {
            if reference.to == table.name {
                resolvers.append(nil)
            } else {
                resolvers.append(try ReferenceResolver(reference: reference, target: context.schema.table(named: reference.to)!, context: context))
            }
        }
        self.resolvers = resolvers
        keepsNull = table.references.map { reference in
            (context.allowDangling || context.lenient || reference.onMissing == .null) && !(table.withoutRowID && table.key.contains(reference.column))
        }
        // XML files may name rows further on (or in a later file): a key not known yet is
        // kept aside and resolved after loading. CSV tables load after their targets, so
        // there a key not known is absent from the whole input.
        var pending: [PendingReferences?] = []
        for (r, reference) in table.references.enumerated() {
            if context.schema.format == .xml && !table.withoutRowID && !reference.create, let resolver = resolvers[r] {
                pending.append(try PendingReferences(reference: reference, table: table, target: resolver.target, database: context.database))
            } else {
                pending.append(nil)
            }
        }
        self.pending = pending
        outside = Array(repeating: (0, nil), count: table.references.count)
        resolvedIDs = Array(repeating: .null, count: table.references.count)
        keyHasReference = table.references.contains { table.key.contains($0.column) }
        places = !table.withoutRowID && (!table.key.isEmpty || resolvers.contains { $0 == nil }) ? RowPlaces() : nil
        placeLookups = 0
        idMapKey = context.idMaps.map(for: table).flatMap { map in context.idMaps.keyColumn(of: table).map { (map, $0) } }
    }

    /// How many rows' places are looked up for messages (the issue log shows the first
    /// examples of each group; the rest are counted).
    static let placeLookupLimit = 20

    /// Inserts every row of `batch`.
    func write(_ batch: RowBatch) throws(SQLiteError) {
        let columnCount = batch.columnCount
        let file = places != nil ? fields.file : "" // the reader changes it only between files
        rows: for row in 0..<batch.count {
            let base = row * columnCount
            for column in 0..<columnCount {
                let parameter = parameters[column]
                guard parameter != 0 else { continue }
                let cell = base + column
                switch batch.tags[cell] {
                case RowBatch.Tag.integer.rawValue: try insert.bind(batch.words[cell], at: parameter)
                case RowBatch.Tag.real.rawValue: try insert.bind(Double(bitPattern: UInt64(bitPattern: batch.words[cell])), at: parameter)
                case RowBatch.Tag.text.rawValue: try insert.bindText(batch.text(cell), at: parameter)
                default: try insert.bindNull(at: parameter)
                }
            }
            if parentParameter != 0 {
                let parent = batch.parents[row]
                if parent != 0 { try insert.bind(parent, at: parentParameter) } else { try insert.bindNull(at: parentParameter) }
            }
            deferredKeys.removeAll(keepingCapacity: true)
            for r in 0..<referenceParameters.count {
                let parameter = referenceParameters[r]
                if keyHasReference { resolvedIDs[r] = .null }
                guard parameter != 0 else { continue } // no column: the input has none of its source columns
                guard let resolver = resolvers[r] else {
                    try insert.bindNull(at: parameter) // a self-reference: resolved after loading
                    continue
                }
                switch try resolver.resolve(batch: batch, row: row, columns: referenceColumns[r]) {
                case .none:
                    try insert.bindNull(at: parameter)
                case .found(let id):
                    try insert.bind(id, at: parameter)
                    if keyHasReference { resolvedIDs[r] = .integer(id) }
                case .missing(let key):
                    try insert.bindNull(at: parameter)
                    if pending[r] != nil {
                        deferredKeys.append((r, referenceColumns[r].map { ReferenceResolver.value(batch, batch.cell(row, $0)) }))
                        continue
                    }
                    let line = Int(batch.lines[row])
                    let place = fields.place(of: referenceColumns[r][0])
                    if !unresolved(r, file: place.file, line: line, column: place.position ?? sourceColumn(referenceColumns[r][0], batch, row),
                                   field: place.field, key: key) {
                        continue rows
                    }
                }
            }
            if idParameter != 0 { try insert.bind(batch.ids[row], at: idParameter) }
            do {
                try insert.step()
                insert.reset()
            } catch where error.code == 2067 || error.code == 1555 { // SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY
                insert.reset()
                try reportDuplicate(batch, row)
                continue rows
            } catch {
                insert.reset()
                throw error
            }
            rowCount += 1
            if let idMapKey { idMapKey.map.record(batch, row: row, column: idMapKey.column) }
            if let places { places.record(id: batch.ids[row], line: batch.lines[row], file: file) }
            for (r, key) in deferredKeys {
                let place = fields.place(of: referenceColumns[r][0])
                try pending[r]!.add(row: batch.ids[row], line: Int(batch.lines[row]), column: place.position ?? sourceColumn(referenceColumns[r][0], batch, row),
                                    file: place.file, key: key)
            }
        }
    }

    /// The character column where the field of column `index` begins in `row` (CSV), or
    /// the record's column (XML); nil when unknown.
    private func sourceColumn(_ index: Int, _ batch: RowBatch, _ row: Int) -> Int? {
        let column = Int(fields.columnsPerValue ? batch.valueColumns[batch.cell(row, index)] : batch.sourceColumns[row])
        return column > 0 ? column : nil
    }

    /// The one place a key that names no row of the whole input is judged (while streaming
    /// for CSV, after loading for XML and self-references): an error, or, when the reference
    /// (or the build, `allowDangling` or `lenient`) keeps such rows, a warning. Returns true
    /// when the row is kept.
    private func unresolved(_ r: Int, file: String, line: Int?, column: Int?, field: String?, key: String) -> Bool {
        let reference = table.references[r]
        let target = context.schema.table(named: reference.to)!
        let field = field ?? reference.from[0]
        if reference.onMissing == .keep && keepsNullAllowed(r) {
            if outside[r].example == nil {
                outside[r].example = BuildIssue(kind: .outsideReference, file: file, line: line, column: column, field: field, value: key, message: "")
            }
            outside[r].count += 1
            return true
        }
        if keepsNull[r] {
            context.issues.record(BuildIssue(kind: .nullReference, file: file, line: line, column: column, field: field, value: key,
                                             message: "names no row of '\(reference.to)' in any input; kept with \(reference.column) = NULL"))
            return true
        }
        // `--lenient` keeps such rows like `allowDangling` (`keepsNull`); a NULL that would
        // be part of a WITHOUT ROWID key cannot be kept, so the row is left out.
        context.issues.record(BuildIssue(kind: context.lenient ? .rowLeftOut : .danglingReference, file: file, line: line, column: column, field: field, value: key,
                                         message: "names no row of '\(reference.to)' (key \(target.key.joined(separator: ", "))): " + (forwardOnly
                                            ? "not found before it (a withoutRowID table cannot refer to rows further on)"
                                            : "not found in any input") + (context.lenient ? "; the row is left out" : "")))
        return false
    }

    /// True when keys must name rows read earlier: XML WITHOUT ROWID rows cannot be updated
    /// after loading (CSV tables always load after their targets).
    private var forwardOnly: Bool { context.schema.format == .xml && table.withoutRowID }

    /// `onMissing: keep` cannot keep a NULL that is part of a WITHOUT ROWID key.
    private func keepsNullAllowed(_ r: Int) -> Bool {
        !(table.withoutRowID && table.key.contains(table.references[r].column))
    }

    private func reportDuplicate(_ batch: RowBatch, _ row: Int) throws(SQLiteError) {
        let keyText = table.key.map { name -> String in
            if let index = table.columns.firstIndex(where: { $0.name == name }) {
                return "\(name)=\(Self.text(batch, batch.cell(row, index)))"
            }
            let r = table.references.firstIndex { $0.column == name }!
            return "\(name)=\(referenceColumns[r].map { Self.text(batch, batch.cell(row, $0)) }.joined(separator: ","))"
        }.joined(separator: ", ")
        var column = Int(batch.sourceColumns[row])
        if fields.columnsPerValue {
            let first = table.key.first.flatMap { name in table.columns.firstIndex { $0.name == name } }
            column = first.map { Int(batch.valueColumns[batch.cell(row, $0)]) } ?? 0
        }
        var message = "appears twice: the key of '\(table.name)' must be unique"
        if let first = try placeOfFirstCopy(batch, row) { message += "; first copy at \(first)" }
        if context.lenient { message += "; the later row is left out" }
        context.issues.record(BuildIssue(kind: context.lenient ? .rowLeftOut : .duplicateKey, file: fields.file, line: Int(batch.lines[row]),
                                         column: column > 0 ? column : nil, field: table.key.joined(separator: "+"), value: keyText, message: message))
    }

    /// `file:line` of the row already holding the key of `row` (tables with row ids only).
    private func placeOfFirstCopy(_ batch: RowBatch, _ row: Int) throws(SQLiteError) -> String? {
        guard let places, placeLookups < Self.placeLookupLimit else { return nil }
        placeLookups += 1
        if firstCopy == nil {
            let conditions = table.key.map { "\(quoted($0)) = ?" }.joined(separator: " AND ")
            firstCopy = try context.database.prepare("SELECT \(quoted(table.rowID)) FROM \(quoted(table.name)) WHERE \(conditions)")
        }
        guard let firstCopy else { return nil }
        var values: [Value] = []
        for name in table.key {
            if let index = table.columns.firstIndex(where: { $0.name == name }) {
                values.append(ReferenceResolver.value(batch, batch.cell(row, index)))
            } else {
                values.append(resolvedIDs[table.references.firstIndex { $0.column == name }!])
            }
        }
        try firstCopy.bind(values)
        defer { firstCopy.reset() }
        guard try firstCopy.step() else { return nil }
        return places.place(ofRow: firstCopy.int64(at: 0)).map { "\($0.file):\($0.line)" }
    }

    /// A cell as text, for messages.
    static func text(_ batch: RowBatch, _ cell: Int) -> String {
        switch batch.tags[cell] {
        case RowBatch.Tag.integer.rawValue: return String(batch.words[cell])
        case RowBatch.Tag.real.rawValue: return String(Double(bitPattern: UInt64(bitPattern: batch.words[cell])))
        case RowBatch.Tag.text.rawValue: return String(decoding: batch.text(cell), as: UTF8.self)
        default: return "NULL"
        }
    }

    /// After the last row (of every table, so that all targets are loaded): resolves the
    /// deferred keys and self-references in one statement each, judges the keys that name
    /// no row, and publishes the resolvers' statistics. Runs on the reader's thread once the
    /// writer is idle.
    func finish() throws(SQLiteError) {
        for (r, reference) in table.references.enumerated() {
            let name = "\(table.name).\(reference.column)"
            if let resolver = resolvers[r] {
                var statistics = resolver.statistics
                if let pending = pending[r] {
                    let place = fields.place(of: referenceColumns[r][0])
                    do {
                        statistics.unresolved = try pending.resolve { item in
                            _ = unresolved(r, file: item.file, line: item.line, column: item.column, field: place.field, key: item.key)
                        }
                    } catch where error.code == 2067 || error.code == 1555 { // SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY
                        // The key includes this reference: rows that differed while it was
                        // NULL are the same once it is resolved.
                        context.issues.record(BuildIssue(
                            kind: .duplicateKey, file: place.file, field: table.key.joined(separator: "+"),
                            message: "two rows of '\(table.name)' have the same key once \(reference.column) is resolved after loading: the key must be unique"))
                    }
                }
                context.referenceStatistics[name] = statistics
                reportOutside(r)
                continue
            }
            guard referenceParameters[r] != 0 else {
                context.referenceStatistics[name] = ReferenceStatistics()
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
            let unresolvedRows = try context.database.rows(
                "SELECT \(quoted(table.rowID)), \(reference.from.map(quoted).joined(separator: ", ")) FROM \(quoted(table.name)) WHERE \(quoted(reference.column)) IS NULL AND \(present) ORDER BY 1")
            var statistics = ReferenceStatistics()
            statistics.unresolved = unresolvedRows.count
            context.referenceStatistics[name] = statistics
            for row in unresolvedRows {
                let place = fields.place(of: referenceColumns[r][0])
                var rowPlace: (file: String, line: Int)?
                if placeLookups < Self.placeLookupLimit {
                    placeLookups += 1
                    rowPlace = places?.place(ofRow: row[0].integer ?? 0)
                }
                let key = row.dropFirst().map(\.description).joined(separator: ",")
                _ = unresolved(r, file: rowPlace?.file ?? place.file, line: rowPlace?.line, column: place.position, field: place.field, key: key)
            }
            reportOutside(r)
        }
    }

    /// One warning for all the keys of reference `r` kept as ids of objects outside the input.
    private func reportOutside(_ r: Int) {
        guard var issue = outside[r].example else { return }
        let reference = table.references[r]
        let count = outside[r].count
        issue.message = "names no row of '\(reference.to)' in any input (an object outside the input); kept as its id with \(reference.column) = NULL"
            + (count > 1 ? (count == 2 ? ", as is 1 more key" : ", as are \(count - 1) more keys") + " of \(table.name).\(reference.column)" : "")
        context.issues.record(issue)
    }
}
