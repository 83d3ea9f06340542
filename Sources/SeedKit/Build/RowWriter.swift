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
    private let lines: LineRecord?
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
            (context.allowDangling || reference.onMissing == .null) && !(table.withoutRowID && table.key.contains(reference.column))
        }
        lines = resolvers.contains { $0 == nil } ? LineRecord() : nil
    }

    /// Inserts every row of `batch`.
    func write(_ batch: RowBatch) throws(SQLiteError) {
        let columnCount = batch.columnCount
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
            for r in 0..<referenceParameters.count {
                let parameter = referenceParameters[r]
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
                case .missing(let key):
                    let reference = table.references[r]
                    if keepsNull[r] {
                        try insert.bindNull(at: parameter)
                        report(.nullReference, referenceColumns[r][0], batch, row, value: key,
                               message: "names no row of '\(reference.to)'; kept with \(reference.column) = NULL")
                    } else {
                        let message = "names no row of '\(reference.to)' (key \(resolver.target.key.joined(separator: ", ")))"
                        report(context.lenient ? .rowLeftOut : .danglingReference, referenceColumns[r][0], batch, row, value: key,
                               message: context.lenient ? message + "; the row is left out" : message)
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
                reportDuplicate(batch, row)
                continue rows
            } catch {
                insert.reset()
                throw error
            }
            rowCount += 1
            lines?.append(batch.lines[row])
        }
    }

    private func report(_ kind: BuildIssue.Kind, _ index: Int, _ batch: RowBatch, _ row: Int, value: String?, message: String) {
        let line = Int(batch.lines[row]), column = Int(batch.sourceColumns[row])
        let place = fields.place(of: index)
        context.issues.record(BuildIssue(kind: kind, file: place.file, line: line, column: place.position ?? (column > 0 ? column : nil),
                                         field: place.field ?? table.columns[index].name, value: value, message: message))
    }

    private func reportDuplicate(_ batch: RowBatch, _ row: Int) {
        let keyText = table.key.map { name -> String in
            if let index = table.columns.firstIndex(where: { $0.name == name }) {
                return "\(name)=\(Self.text(batch, batch.cell(row, index)))"
            }
            let r = table.references.firstIndex { $0.column == name }!
            return "\(name)=\(referenceColumns[r].map { Self.text(batch, batch.cell(row, $0)) }.joined(separator: ","))"
        }.joined(separator: ", ")
        let column = Int(batch.sourceColumns[row])
        let message = "appears twice: the key of '\(table.name)' must be unique"
        context.issues.record(BuildIssue(kind: context.lenient ? .rowLeftOut : .duplicateKey, file: fields.file, line: Int(batch.lines[row]),
                                         column: column > 0 ? column : nil, field: table.key.joined(separator: "+"), value: keyText,
                                         message: context.lenient ? message + "; the later row is left out" : message))
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

    /// After the last row: resolves self-references in one statement each and reports the
    /// keys that name no row; publishes the resolvers' statistics. Runs on the reader's
    /// thread once the writer is idle.
    func finish() throws(SQLiteError) {
        for (r, reference) in table.references.enumerated() {
            let name = "\(table.name).\(reference.column)"
            if let resolver = resolvers[r] {
                context.referenceStatistics[name] = resolver.statistics
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
            let unresolved = try context.database.rows(
                "SELECT \(quoted(table.rowID)), \(reference.from.map(quoted).joined(separator: ", ")) FROM \(quoted(table.name)) WHERE \(quoted(reference.column)) IS NULL AND \(present) ORDER BY 1")
            var statistics = ReferenceStatistics()
            statistics.unresolved = unresolved.count
            context.referenceStatistics[name] = statistics
            for row in unresolved {
                let place = fields.place(of: referenceColumns[r][0])
                let key = row.dropFirst().map(\.description).joined(separator: ",")
                context.issues.record(BuildIssue(
                    kind: keepsNull[r] ? .nullReference : .danglingReference, file: place.file,
                    line: lines?.line(ofRow: Int(row[0].integer ?? 0)), column: place.position,
                    field: place.field ?? reference.from[0], value: key,
                    message: keepsNull[r] ? "names no row of '\(reference.to)'; kept with \(reference.column) = NULL"
                                          : "names no row of '\(reference.to)' (key \(target.key.joined(separator: ", ")))"))
            }
        }
    }
}

/// The source line of each inserted row, kept only for tables with self-references, whose
/// dangling keys are found after loading.
final class LineRecord: @unchecked Sendable {
    private var lines: [Int32] = []

    func append(_ line: Int32) { lines.append(line) }

    /// The line of the row with id `id` (ids count up from the table's first row).
    func line(ofRow id: Int) -> Int? {
        id >= 1 && id <= lines.count ? Int(lines[id - 1]) : nil
    }
}
