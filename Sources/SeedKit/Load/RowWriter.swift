import Foundation
import SeedSQLite

/// The writer's half of a `TableLoader`, made and used on the build's writer thread only
/// (it holds statements of the writer's connection): binds each row of a batch to one
/// prepared INSERT, resolves its references, and records the rows the database refuses
/// (`DuplicateKeys`) or that name no row (`UnresolvedKeys`).
final class RowWriter: @unchecked Sendable {
    // @unchecked: made and used on the writer thread only, in the jobs of its TableLoader.
    let table: Table
    let context: BuildContext
    let fields: SourceFields

    let connection: Connection
    private let insert: Statement
    private let insertNulls: BoundNulls
    private let parameters: [Int32] // per column; 0 when the column is not stored
    private let idParameter: Int32 // 0 for WITHOUT ROWID tables
    private let parentParameter: Int32 // 0 when the table has no parent
    let referenceColumns: [[Int]] // per reference: indexes of its `from` columns
    /// Per reference: the positions in `from` its messages show: not a `$file` column (a key
    /// scoped to its file, as TransXChange's are; the message names the file already).
    let shownParts: [[Int]]
    let referenceParameters: [Int32]
    let resolvers: [ReferenceResolver?] // nil for a self-reference, resolved after loading
    let pending: [PendingReferences?] // per reference: keys resolved after loading
    let unresolvedKeys: UnresolvedKeys
    let places: RowPlaces?
    let duplicates: DuplicateKeys
    /// `Table.checkedKey`: the key of each row so far, to find the rows that repeat one.
    let checkedKey: CheckedKey?
    private let resolved: ResolvedIDs // per reference: the resolved id of the current (and each waiting) row
    private let group: InsertGroup? // WITHOUT ROWID tables with ascending integer keys
    private let later: LaterRows? // with --previous: the rows of new trips, joined after the last row
    @exclusivity(unchecked) private var deferredKeys: [(Int, [Value])] = []
    private let idMapKey: (map: IDMap, column: Int)? // records each row's key when references look the table up by it
    /// `duplicates: merge`: judges the rows that repeat a key.
    private let copies: RowCopies?
    @exclusivity(unchecked) private(set) var rowCount = 0
    /// `stop_times` of a build that keeps `BuildContext.tripStops`: each row's trip id goes to it.
    private let tripStops: TripStopLog?

    /// - Parameters:
    ///   - createdColumns: the columns of the table as created so far (nil: all of
    ///     `table.layout`); the INSERT names only those, and references without a column
    ///     are not resolved (their source columns are absent).
    ///   - insertsInGroups: false to insert every row alone, even where an `InsertGroup` could.
    ///   - connection: the writer's connection (this runs on its thread).
    init(
        table: Table, fields: SourceFields, context: BuildContext, connection: Connection,
        createdColumns: Set<String>? = nil,
        insertsInGroups: Bool = true
    ) throws(SQLiteError) {
        self.table = table
        self.context = context
        self.fields = fields
        self.connection = connection
        let columns = table.columns

        let layout = InsertLayout(table: table, created: createdColumns ?? Set(table.layout.map(\.name)))
        let names = layout.names, parameters = layout.parameters, referenceParameters = layout.referenceParameters
        idParameter = layout.idParameter
        self.parameters = parameters
        parentParameter = layout.parentParameter
        self.referenceParameters = referenceParameters
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let head = "INSERT INTO \(quoted(table.name)) (\(names.map(quoted).joined(separator: ", "))) VALUES "
        insert = try connection.prepare(head + "(\(placeholders))")
        insertNulls = BoundNulls(parameterCount: names.count)
        referenceColumns = table.references.map { reference in
            reference.from.map { name in columns.firstIndex { $0.name == name }! }
        }
        shownParts = referenceColumns.map { indexes in
            let shown = indexes.indices.filter {
                ![[XMLMapping.fileSource], [Schema.feedSource]].contains(columns[indexes[$0]].source)
            }
            return shown.isEmpty ? Array(indexes.indices) : shown
        }
        let resolvers = try Self.resolvers(table: table, context: context, connection: connection)
        self.resolvers = resolvers
        unresolvedKeys = UnresolvedKeys(table: table, context: context)
        pending = try Self.pendingReferences(
            table: table, resolvers: resolvers, context: context, connection: connection)
        // Grouping needs every key column in the INSERT, within SQLite's parameter limit.
        let inInsert = { (part: InsertGroup.KeyPart) -> Bool in
            switch part {
            case .column(let index): parameters[index] != 0
            case .reference(let r): referenceParameters[r] != 0
            }
        }
        if insertsInGroups, let key = InsertGroup.integerKey(of: table), key.allSatisfy(inInsert),
            names.count * InsertGroup.size <= InsertGroup.parameterLimit
        {
            group = try InsertGroup(head: head, parametersPerRow: Int32(names.count), key: key, connection: connection)
            later = try LaterRows(table: table, context: context, names: names, key: key, connection: connection)
        } else {
            (group, later) = (nil, nil)
        }
        let slots = group == nil ? 1 : InsertGroup.size * (later == nil ? 1 : 2)
        resolved = ResolvedIDs(slots: slots, referenceCount: table.references.count)
        let places =
            !table.withoutRowID && (!table.key.isEmpty || !table.checkedKey.isEmpty || resolvers.contains { $0 == nil })
            ? RowPlaces() : nil
        self.places = places
        // Kept for messages about derived rows, which name the XML objects they come from; a
        // CSV table's places go with its writer (a region of GTFS feeds has one per table and feed).
        if let places, context.schema.format == .xml { context.keepPlaces(places, of: table.name) }
        duplicates = DuplicateKeys(
            table: table, context: context, fields: fields, connection: connection, places: places,
            referenceColumns: referenceColumns, unresolvedKeys: unresolvedKeys, parameters: parameters,
            parentParameter: parentParameter, referenceParameters: referenceParameters,
            resolvedWhileLoading: zip(resolvers, pending).map { $0 != nil && $1 == nil })
        duplicates.sideTable = later?.tableName
        checkedKey = try CheckedKey(table: table, connection: connection)
        copies =
            table.duplicates == .merge
            ? try RowCopies(
                table: table, context: context, connection: connection, fields: fields, names: names,
                parameters: parameters,
                parentColumn: table.parent?.column, places: places)
            : nil
        tripStops = table.name == "stop_times" ? context.tripStops : nil
        idMapKey = context.idMaps.map(for: table).flatMap { map in context.idMaps.keyColumn(of: table).map { (map, $0) }
        }
    }

    /// The resolver of each reference; nil for a self-reference, resolved after loading.
    private static func resolvers(
        table: Table, context: BuildContext, connection: Connection
    ) throws(SQLiteError) -> [ReferenceResolver?] {
        var resolvers: [ReferenceResolver?] = []
        for reference in table.references {
            if reference.to == table.name {
                resolvers.append(nil)
            } else {
                resolvers.append(
                    try ReferenceResolver(
                        reference: reference, table: table, target: context.schema.table(named: reference.to)!,
                        context: context, connection: connection))
            }
        }
        return resolvers
    }

    /// XML files may name rows further on (or in a later file): a key not known yet is
    /// kept aside and resolved after loading. CSV tables load after their targets, so
    /// there a key not known is absent from the whole input.
    private static func pendingReferences(
        table: Table, resolvers: [ReferenceResolver?], context: BuildContext, connection: Connection
    ) throws(SQLiteError) -> [PendingReferences?] {
        var pending: [PendingReferences?] = []
        for (r, reference) in table.references.enumerated() {
            if context.schema.format == .xml && !table.withoutRowID && !reference.create, let resolver = resolvers[r] {
                pending.append(
                    try PendingReferences(
                        reference: reference, table: table, target: resolver.target, connection: connection))
            } else {
                pending.append(nil)
            }
        }
        return pending
    }

    /// Inserts every row of `batch`. A failure SQLite reports is noted with the place of
    /// the row being stored (`BuildContext.noteWriteFailure`) before it is thrown.
    func write(_ batch: RowBatch) throws(SQLiteError) {
        var current = 0
        do {
            try writeRows(batch, current: &current)
        } catch {
            noteFailure(error, batch: batch, row: current)
            throw error
        }
    }

    private func writeRows(_ batch: RowBatch, current: inout Int) throws(SQLiteError) {
        let file = places != nil ? fields.file : "" // the reader changes it only between files
        rows: for row in 0..<batch.count {
            current = row
            var slot = group?.count ?? 0 // where the row's resolved ids are kept until it is bound
            guard try resolveReferences(batch, row, slot: slot) else {
                context.noteDroppedRow(in: table.name)
                continue rows
            }
            if let tripStops { tripStops.wrote(tripID: resolved.id(slot: slot, tripStops.tripReference)) }
            // A key a row of the table holds: a copy, another version or another object.
            if copies != nil, try !isNewObject(batch, row, slot: slot) {
                context.noteDroppedRow(in: table.name)
                continue rows
            }
            var (statement, nulls) = (insert, insertNulls)
            if var waiting = group {
                if let later, later.holds(resolved, slot: slot) {
                    resolved.copy(slot: slot, to: later.group.firstSlot + later.group.count)
                    slot = later.group.firstSlot + later.group.count
                    (waiting, statement, nulls) = (later.group, later.insert, later.nulls)
                }
                if waiting.admit(batch, row, resolved: resolved, slot: slot) {
                    if waiting.isFull { try insertGroup(waiting, batch) }
                    continue rows
                }
                try insertWaitingRows(batch) // before this row, in input order
            }
            if let checkedKey, let holder = try checkedKey.holder(of: batch, row) {
                context.noteDroppedRow(in: table.name)
                try duplicates.report(batch, row, resolved: resolved, slot: slot, holder: .row(holder))
                continue rows
            }
            try bind(batch, row, slot: slot, to: statement, nulls: nulls, offset: 0)
            if idParameter != 0 { try statement.bind(batch.ids[row], at: idParameter) }
            do {
                try statement.step()
                statement.reset()
            } catch  where error.isUniqueViolation {
                statement.reset()
                context.noteDroppedRow(in: table.name)
                try duplicates.report(batch, row, resolved: resolved, slot: slot, failure: error.message)
                continue rows
            } catch {
                statement.reset()
                throw error
            }
            rowCount += 1
            if let idMapKey { idMapKey.map.record(batch, row: row, column: idMapKey.column) }
            if let places { places.record(id: batch.ids[row], line: batch.lines[row], file: file) }
            for (r, key) in deferredKeys {
                let place = fields.place(of: referenceColumns[r][0])
                try pending[r]!.add(
                    row: batch.ids[row], line: Int(batch.lines[row]),
                    column: place.position ?? sourceColumn(referenceColumns[r][0], batch, row),
                    file: place.file, key: key)
            }
        }
        try insertWaitingRows(batch) // the batch is reused once this returns
    }

    /// Resolves the references of `row` into `resolved` (at `slot`), and keeps aside the
    /// keys resolved after loading (`deferredKeys`). Returns false when the row is left out:
    /// a key names no row and the reference does not keep such rows.
    @inline(__always)
    private func resolveReferences(_ batch: RowBatch, _ row: Int, slot: Int) throws(SQLiteError) -> Bool {
        deferredKeys.removeAll(keepingCapacity: true)
        for r in 0..<referenceParameters.count {
            resolved.set(slot: slot, r, nil)
            // No column: the input has none of its source columns. No resolver: a
            // self-reference, resolved after loading.
            guard referenceParameters[r] != 0, let resolver = resolvers[r] else { continue }
            switch try resolver.resolve(batch: batch, row: row, columns: referenceColumns[r]) {
            case .none:
                break
            case .found(let id):
                resolved.set(slot: slot, r, id)
            case .missing:
                if pending[r] != nil {
                    deferredKeys.append(
                        (r, referenceColumns[r].map { ReferenceResolver.value(batch, batch.cell(row, $0)) }))
                    continue
                }
                let line = Int(batch.lines[row])
                let shown = referenceColumns[r][shownParts[r][0]]
                let place = fields.place(of: shown)
                let key = shownParts[r].map { batch.messageText(batch.cell(row, referenceColumns[r][$0])) }.joined(
                    separator: ",")
                if !unresolvedKeys.judge(
                    r, file: place.file, line: line, column: place.position ?? sourceColumn(shown, batch, row),
                    field: place.field, key: key)
                {
                    return false
                }
            }
        }
        return true
    }

    /// Binds the values of `row` (its references from `resolved` at `slot`) to `statement`,
    /// parameter `p` of the one-row INSERT at `offset + p`; `nulls` are the statement's
    /// parameters holding NULL. The row id is bound by the caller.
    @inline(__always)
    private func bind(
        _ batch: RowBatch, _ row: Int, slot: Int, to statement: Statement, nulls: BoundNulls, offset: Int32
    ) throws(SQLiteError) {
        let columnCount = batch.columnCount
        let base = row * columnCount
        for column in 0..<columnCount {
            let parameter = parameters[column]
            guard parameter != 0 else { continue }
            let cell = base + column
            let index = offset + parameter
            switch batch.tags[cell] {
            case RowBatch.Tag.integer.rawValue: try statement.bind(batch.words[cell], at: index)
            case RowBatch.Tag.real.rawValue:
                try statement.bind(Double(bitPattern: UInt64(bitPattern: batch.words[cell])), at: index)
            case RowBatch.Tag.text.rawValue: try statement.bindText(batch.text(cell), at: index)
            default:
                try nulls.bindNull(statement, at: index)
                continue
            }
            nulls.bound(index)
        }
        if parentParameter != 0 {
            let parent = batch.parents[row]
            let index = offset + parentParameter
            if parent != 0 {
                try statement.bind(parent, at: index)
                nulls.bound(index)
            } else {
                try nulls.bindNull(statement, at: index)
            }
        }
        for r in 0..<referenceParameters.count {
            let parameter = referenceParameters[r]
            guard parameter != 0 else { continue }
            let index = offset + parameter
            if let id = resolved.id(slot: slot, r) {
                try statement.bind(id, at: index)
                nulls.bound(index)
            } else {
                try nulls.bindNull(statement, at: index)
            }
        }
    }

    /// Inserts a full group with one statement. Its rows cannot be duplicates (see `InsertGroup`).
    private func insertGroup(_ group: InsertGroup, _ batch: RowBatch) throws(SQLiteError) {
        let statement = group.statement
        for slot in 0..<group.count {
            try bind(
                batch, group.row(slot), slot: group.firstSlot + slot, to: statement, nulls: group.nulls,
                offset: group.parameterOffset(slot))
        }
        defer { statement.reset() }
        try statement.step()
        rowCount += group.count
        group.removeAll()
    }

    /// Inserts the rows waiting for a group that did not fill, one at a time (each group's
    /// into its table).
    private func insertWaitingRows(_ batch: RowBatch) throws(SQLiteError) {
        if let group { try insertWaitingRows(of: group, batch, into: insert, nulls: insertNulls) }
        if let later { try insertWaitingRows(of: later.group, batch, into: later.insert, nulls: later.nulls) }
    }

    private func insertWaitingRows(
        of group: InsertGroup, _ batch: RowBatch, into statement: Statement, nulls: BoundNulls
    ) throws(SQLiteError) {
        for slot in 0..<group.count {
            try bind(batch, group.row(slot), slot: group.firstSlot + slot, to: statement, nulls: nulls, offset: 0)
            defer { statement.reset() }
            try statement.step()
        }
        rowCount += group.count
        group.removeAll()
    }

    /// After the table's last row: the rows of new trips waiting aside join it (`LaterRows`).
    func joinLaterRows() throws(SQLiteError) {
        try later?.join()
    }

    /// Judges a row of a `duplicates: merge` table before it is inserted (see `RowCopies`):
    /// true for an object of its own; false for a copy, another version or a conflict, not
    /// inserted. A version that replaced the row keeps its id, so its references resolved
    /// after loading are kept under that id.
    private func isNewObject(_ batch: RowBatch, _ row: Int, slot: Int) throws(SQLiteError) -> Bool {
        guard let copies else { return true }
        let keyColumn = table.key.first.flatMap { name in table.columns.firstIndex { $0.name == name } }
        var column = Int(batch.sourceColumns[row])
        if fields.columnsPerValue, let keyColumn { column = Int(batch.valueColumns[batch.cell(row, keyColumn)]) }
        let place = (file: fields.file, line: Int(batch.lines[row]), column: column > 0 ? Optional(column) : nil)
        let judgement = try copies.judge(batch, row, place: place) { [self] statement, nulls throws(SQLiteError) in
            try bind(batch, row, slot: slot, to: statement, nulls: nulls, offset: 0)
        }
        switch judgement {
        case .newObject: return true
        case .refused: return false
        case .merged(let outcome, let keptID):
            guard outcome == .replaced else { return false }
            // The replaced version's keys kept aside are no longer the row's (they were added
            // under the same row id: two versions naming a line further on failed here).
            for case let kept? in pending { try kept.forget(row: keptID) }
            for (r, key) in deferredKeys {
                let place = fields.place(of: referenceColumns[r][0])
                try pending[r]!.add(
                    row: keptID, line: Int(batch.lines[row]),
                    column: place.position ?? sourceColumn(referenceColumns[r][0], batch, row),
                    file: place.file, key: key)
            }
            return false
        }
    }
}
