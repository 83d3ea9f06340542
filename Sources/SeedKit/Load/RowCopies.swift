import SeedSQLite

/// The writer's judge of rows that repeat a key already loaded, for tables with
/// `duplicates: merge` (NeTEx: an export repeats its shared stop places and operators in
/// every line file). The row in the table is compared with the new one, column by column:
/// - the same values: the new row is a copy, left out without a word;
/// - another `version`: the highest is kept (the row is updated in place, keeping its id, so
///   references already resolved to it stay right), with a warning naming both places;
/// - the same version with other values: two objects share the key, an error naming both
///   places (`--lenient` keeps the first, as a warning).
/// A copy that is not kept had its nested rows written already, under the id it would have
/// had: `NestedRowCleanup` removes them after loading (or, for a version that replaced the
/// row, moves them under the kept id), using what `merged` records here.
final class RowCopies {
    /// What became of a row that repeated a key.
    enum Outcome: Int64 {
        /// Left out: a copy of the row, or an older version of it.
        case copy = 0
        /// Its values replaced the row's (a higher version); its nested rows replace the row's.
        case replaced = 1
        /// Left out as a conflicting object (`--lenient`): its nested rows are rejected too.
        case rejected = 2
    }

    private let table: Table
    private let context: BuildContext
    private let fields: SourceFields
    private let places: RowPlaces?
    /// Per column of the table: its position in `existing`'s result (0: not compared).
    private let resultColumns: [Int32]
    private let versionColumn: Int?
    private let existing: Statement
    private let update: Statement
    private let updateNulls: BoundNulls
    /// Rows that repeated a key, recorded when the table has nested tables (their rows need
    /// the cleanup); nil otherwise.
    private let record: Statement?
    /// The temporary table `record` writes (dropped id, kept id, outcome).
    let mergedTable: String?
    /// How many rows of each outcome.
    private(set) var counts: [Outcome: Int] = [:]

    /// - Parameters:
    ///   - names: the columns of the writer's INSERT, in parameter order (`names[0]` is
    ///     parameter 1, the row id).
    ///   - parameters: per column of the table, its INSERT parameter (0: not stored).
    ///   - places: where each row was read, to name the first place in messages.
    ///   - hasNestedTables: true when other tables are nested in this one.
    ///   - connection: the writer's connection (this runs on its thread).
    init(table: Table, context: BuildContext, connection: Connection, fields: SourceFields, names: [String], parameters: [Int32],
         parentColumn: String?, places: RowPlaces?, hasNestedTables: Bool) throws(SQLiteError) {
        self.table = table
        self.context = context
        self.fields = fields
        self.places = places
        var selected: [String] = []
        var resultColumns: [Int32] = []
        for (index, column) in table.columns.enumerated() {
            if parameters[index] != 0 {
                selected.append(quoted(column.name))
                resultColumns.append(Int32(selected.count))
            } else {
                resultColumns.append(0)
            }
        }
        self.resultColumns = resultColumns
        versionColumn = table.version.flatMap { name in table.columns.firstIndex { $0.name == name } }
        let keyMatch = table.key.map { "\(quoted($0)) = ?" }.joined(separator: " AND ")
        existing = try connection.prepare("SELECT \(quoted(table.rowID)), \(selected.joined(separator: ", ")) FROM \(quoted(table.name)) WHERE \(keyMatch)")
        // The INSERT's parameters, numbered the same: the writer binds a row to either.
        let assignments = names.enumerated().dropFirst().filter { $0.element != parentColumn }
            .map { "\(quoted($0.element)) = ?\($0.offset + 1)" }
        update = try connection.prepare("UPDATE \(quoted(table.name)) SET \(assignments.joined(separator: ", ")) WHERE \(quoted(table.rowID)) = ?1")
        updateNulls = BoundNulls(parameterCount: names.count)
        if hasNestedTables {
            let name = quoted("seedgen_merged_\(table.name)")
            try connection.execute("CREATE TEMP TABLE \(name) (dropped INTEGER PRIMARY KEY, kept INTEGER, outcome INTEGER)")
            record = try connection.prepare("INSERT INTO temp.\(name) VALUES (?, ?, ?)")
            mergedTable = name
        } else {
            record = nil
            mergedTable = nil
        }
    }

    /// The row of `batch` that repeated a key: judged against the row holding the key.
    /// `bind` binds the new row to a statement numbered like the INSERT (parameter 1 left
    /// for the row id). Returns the outcome and the id of the row kept, or nil when the row is
    /// a conflict that fails the build (reported).
    func merge(_ batch: RowBatch, _ row: Int, place: (file: String, line: Int, column: Int?),
               bind: (Statement, BoundNulls) throws(SQLiteError) -> Void) throws(SQLiteError) -> (outcome: Outcome, keptID: Int64)? {
        try existing.bind(table.key.map { name in ReferenceResolver.value(batch, batch.cell(row, table.columns.firstIndex { $0.name == name }!)) })
        defer { existing.reset() }
        guard try existing.step() else { return nil }
        let keptID = existing.int64(at: 0)
        var differing: (column: Int, old: Value, new: Value)?
        for (column, position) in resultColumns.enumerated() where position != 0 && column != versionColumn {
            let old = existing.value(at: Int(position)), new = ReferenceResolver.value(batch, batch.cell(row, column))
            if old != new {
                differing = (column, old, new)
                break
            }
        }
        var outcome = Outcome.copy
        // A region seed's `feed_ref` is the file's feed: the message names the file already.
        let shownKey = table.key.filter { $0 != Schema.feedColumn }
        let keyText = shownKey.map { name in batch.messageText(batch.cell(row, table.columns.firstIndex { $0.name == name }!)) }.joined(separator: ",")
        if let versionColumn, case let old = existing.value(at: Int(resultColumns[versionColumn])),
           case let new = ReferenceResolver.value(batch, batch.cell(row, versionColumn)), old != new {
            let newer = Self.isHigher(new, than: old)
            let first = placeOfRow(keptID).map { " at \($0)" } ?? ""
            context.issues.record(BuildIssue(
                kind: .otherVersion, file: place.file, line: place.line, column: place.column, field: fields.names[versionColumn] ?? table.version,
                value: new.description,
                message: "\(table.name) '\(keyText)' has version '\(new)' here and '\(old)'\(first): the highest, '\(newer ? new : old)', is kept"))
            if newer {
                try bind(update, updateNulls)
                try update.bind(keptID, at: 1)
                defer { update.reset() }
                try update.step()
                outcome = .replaced
            }
        } else if let differing {
            let name = table.columns[differing.column].name
            let firstPlace = placeOfRow(keptID)
            let first = firstPlace.map { "the row at \($0)" } ?? "the first row with it"
            var message = "is the key of another object: '\(name)' is '\(differing.new)' here and '\(differing.old)' in \(first) (same key, same version: two objects share the id)"
            // Two files of one export disagree: perhaps each file is an export of its own.
            if let firstPlace, !firstPlace.hasPrefix(place.file + ":"), !table.key.contains(Schema.feedColumn) {
                message += "; if each file is an export of its own, build them as feeds (--feed NAME=FILE for each)"
            }
            if !context.lenient {
                context.issues.record(BuildIssue(kind: .duplicateKey, file: place.file, line: place.line, column: place.column,
                                                 field: shownKey.joined(separator: "+"), value: keyText, message: message))
                return nil
            }
            context.issues.record(BuildIssue(kind: .rowLeftOut, file: place.file, line: place.line, column: place.column,
                                             field: shownKey.joined(separator: "+"), value: keyText,
                                             message: message + "; the first is kept, this one and the rows nested in it are left out"))
            outcome = .rejected
        }
        counts[outcome, default: 0] += 1
        if let record {
            try record.bind([.integer(batch.ids[row]), .integer(keptID), .integer(outcome.rawValue)])
            defer { record.reset() }
            try record.step()
        }
        return (outcome, keptID)
    }

    /// `file:line` of row `id`, for the first few messages.
    private func placeOfRow(_ id: Int64) -> String? {
        guard let places, places.takeLookup() else { return nil }
        return places.place(ofRow: id).map { "\($0.file):\($0.line)" }
    }

    /// True when version `new` is above `old`: as numbers when both are whole numbers,
    /// otherwise as text; any version is above none.
    static func isHigher(_ new: Value, than old: Value) -> Bool {
        func number(_ value: Value) -> Int64? {
            if case .integer(let number) = value { return number }
            if case .text(let text) = value { return Int64(text) }
            return nil
        }
        if let a = number(new), let b = number(old) { return a > b }
        switch (new, old) {
        case (.null, _): return false
        case (_, .null): return true
        default: return new.description > old.description
        }
    }
}
