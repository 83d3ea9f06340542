import SeedSQLite

/// The writer's judge of rows that repeat a key already loaded, for tables with
/// `duplicates: merge` (NeTEx: an export repeats its shared stop places and operators in
/// every line file), before they are inserted. The rows in the table are compared with the
/// new one, column by column:
/// - the same values: the new row is a copy, left out without a word;
/// - another `version`: the highest is kept (the row is updated in place, keeping its id, so
///   references already resolved to it stay right), with a warning naming both places;
/// - the same version with other values: in the same document, two objects share the key,
///   an error naming both places (`--lenient` keeps the first, as a warning); in another
///   document, another object, inserted (a key names one object per document, as NeTEx's
///   XSD keys it; `DocumentScope` resolves references by document).
/// A copy that is not kept had its nested rows written already, under the id it would have
/// had: `NestedRowCleanup` removes them after loading (or, for a version that replaced the
/// row, moves them under the kept id), using what `merged` records here.
final class RowCopies {
    /// What became of a row that repeated a key.
    enum Outcome: Int64 {
        /// Left out: a copy of the row.
        case copy = 0
        /// Its values replaced the row's (a higher version); its nested rows replace the row's.
        case replaced = 1
        /// Left out as a conflicting object (`--lenient`): its nested rows are rejected too.
        case rejected = 2
        /// Left out: an older version of the row (its nested rows go with it, as a copy's).
        case older = 3
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
    /// Records each row that repeated a key (its nested rows need the cleanup; its document
    /// holds the row kept).
    private let record: Statement
    /// Finds a copy of a row read from a document (row id, the document's first row id).
    private let copyInDocument: Statement
    /// The temporary table `record` writes (dropped id, kept id, outcome).
    let mergedTable: String
    /// How many rows of each outcome.
    private(set) var counts: [Outcome: Int] = [:]

    /// - Parameters:
    ///   - names: the columns of the writer's INSERT, in parameter order (`names[0]` is
    ///     parameter 1, the row id).
    ///   - parameters: per column of the table, its INSERT parameter (0: not stored).
    ///   - places: where each row was read, to name the first place in messages.
    ///   - connection: the writer's connection (this runs on its thread).
    init(
        table: Table, context: BuildContext, connection: Connection, fields: SourceFields, names: [String],
        parameters: [Int32],
        parentColumn: String?, places: RowPlaces?
    ) throws(SQLiteError) {
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
        existing = try connection.prepare(
            """
            SELECT \(quoted(table.rowID)), \(selected.joined(separator: ", ")) FROM \(quoted(table.name)) WHERE \
            \(keyMatch) ORDER BY 1
            """
        )
        // The INSERT's parameters, numbered the same: the writer binds a row to either.
        let assignments = names.enumerated().dropFirst().filter { $0.element != parentColumn }
            .map { "\(quoted($0.element)) = ?\($0.offset + 1)" }
        update = try connection.prepare(
            "UPDATE \(quoted(table.name)) SET \(assignments.joined(separator: ", ")) WHERE \(quoted(table.rowID)) = ?1")
        updateNulls = BoundNulls(parameterCount: names.count)
        // Every merged row is recorded: its document holds the kept row too (`DocumentScope`).
        let name = quoted("seedgen_merged_\(table.name)")
        try connection.execute(
            "CREATE TEMP TABLE IF NOT EXISTS \(name) (dropped INTEGER PRIMARY KEY, kept INTEGER, outcome INTEGER)")
        try connection.execute(
            """
            CREATE INDEX IF NOT EXISTS temp.\(quoted("seedgen_merged_\(table.name)_kept")) ON \
            \(quoted("seedgen_merged_\(table.name)")) (kept)
            """
        )
        record = try connection.prepare("INSERT INTO temp.\(name) VALUES (?, ?, ?)")
        copyInDocument = try connection.prepare(
            """
            SELECT 1 FROM temp.\(name) WHERE kept = ? AND dropped >= ? AND outcome <> \(Outcome.rejected.rawValue) \
            LIMIT 1
            """
        )
        mergedTable = name
    }

    /// What a row whose key the table holds already is.
    enum Judgement {
        /// An object of its own: to be inserted (no row has its key, or only other
        /// documents' objects, with other values, do).
        case newObject
        /// Merged into row `keptID` (a copy, another version): not inserted.
        case merged(Outcome, keptID: Int64)
        /// Two objects of one document sharing the key: reported (an error, or under
        /// `--lenient` the row left out); not inserted.
        case refused
    }

    /// Judges row `row` of `batch` against the rows holding its key, before it is inserted:
    /// - a row with the same values (and version): a copy of it;
    /// - one row, of another version: the highest is kept (one object, whichever file);
    /// - a row of this document (read in it, or a copy read in it) with other values: two
    ///   objects of one document share the key, which its XSD forbids: an error;
    /// - only other documents' rows, with other values: another object (`newObject`); for a
    ///   nested table, another document's row is never the same object.
    /// `bind` binds the new row to a statement numbered like the INSERT (parameter 1 left
    /// for the row id).
    func judge(
        _ batch: RowBatch, _ row: Int, place: (file: String, line: Int, column: Int?),
        bind: (Statement, BoundNulls) throws(SQLiteError) -> Void
    ) throws(SQLiteError) -> Judgement {
        try existing.bind(
            table.key.map { name in
                ReferenceResolver.value(batch, batch.cell(row, table.columns.firstIndex { $0.name == name }!))
            })
        var rows: [(id: Int64, values: [Value])] = []
        while try existing.step() {
            rows.append((existing.int64(at: 0), (0..<existing.columnCount).map { existing.value(at: $0) }))
        }
        existing.reset()
        guard !rows.isEmpty else { return .newObject }
        let first = context.firstIDOfCurrentDocument(in: table.name)
        if table.parent != nil {
            // A nested object (a pattern's point) belongs to its parent, which is written after
            // it and may be another document's object of the same id: only this document's
            // rows can be its copies. Those of another document's copy of the parent are
            // removed with it after loading (`NestedRowCleanup`).
            var own: [(id: Int64, values: [Value])] = []
            for row in rows where try isInCurrentDocument(row.id, first: first) { own.append(row) }
            guard !own.isEmpty else {
                context.noteSharedKey(in: table.name)
                return .newObject
            }
            rows = own
        }
        let new = (0..<table.columns.count).map { ReferenceResolver.value(batch, batch.cell(row, $0)) }
        func differing(_ old: [Value]) -> (column: Int, old: Value, new: Value)? {
            for (column, position) in resultColumns.enumerated()
            where position != 0 && column != versionColumn && old[Int(position)] != new[column] {
                return (column, old[Int(position)], new[column])
            }
            return nil
        }
        func otherVersion(_ old: [Value]) -> (old: Value, new: Value)? {
            guard let versionColumn, case let value = old[Int(resultColumns[versionColumn])],
                value != new[versionColumn]
            else { return nil }
            return (value, new[versionColumn])
        }
        var kept = rows[0]
        if let copy = rows.first(where: { differing($0.values) == nil && otherVersion($0.values) == nil }) {
            kept = copy
        } else if rows.count == 1, otherVersion(kept.values) != nil {
            // One object in another version, whichever file it is in.
        } else {
            var own: (id: Int64, values: [Value])?
            for row in rows where try isInCurrentDocument(row.id, first: first) {
                own = row
                break
            }
            guard let own else {
                context.noteSharedKey(in: table.name)
                return .newObject
            }
            kept = own
        }
        guard
            let merged = try merge(
                batch, row, keptID: kept.id, old: kept.values, differing: differing(kept.values),
                otherVersion: otherVersion(kept.values),
                place: place, bind: bind)
        else { return .refused }
        return .merged(merged.outcome, keptID: merged.keptID)
    }

    /// True when row `id` was read in the current document (its first row id is `first`), or
    /// a copy of it was.
    private func isInCurrentDocument(_ id: Int64, first: Int64) throws(SQLiteError) -> Bool {
        if id >= first { return true }
        try copyInDocument.bind([.integer(id), .integer(first)])
        defer { copyInDocument.reset() }
        return try copyInDocument.step()
    }

    /// Row `row` of `batch`, repeating the key of row `keptID` (whose selected values are
    /// `old`): another version, another object of the same version, or a copy. Returns the
    /// outcome and the id of the row kept, or nil when the row is a conflict that fails the
    /// build (reported).
    private func merge(
        _ batch: RowBatch, _ row: Int, keptID: Int64, old: [Value], differing: (column: Int, old: Value, new: Value)?,
        otherVersion: (old: Value, new: Value)?, place: (file: String, line: Int, column: Int?),
        bind: (Statement, BoundNulls) throws(SQLiteError) -> Void
    ) throws(SQLiteError) -> (outcome: Outcome, keptID: Int64)? {
        var outcome = Outcome.copy
        // A region seed's `feed_ref` is the file's feed: the message names the file already.
        let shownKey = table.key.filter { $0 != Schema.feedColumn }
        let keyText = shownKey.map { name in
            batch.messageText(batch.cell(row, table.columns.firstIndex { $0.name == name }!))
        }.joined(separator: ",")
        if let versionColumn, let (old, new) = otherVersion {
            let newer = Self.isHigher(new, than: old)
            let first = placeOfRow(keptID).map { " at \($0)" } ?? ""
            context.issues.record(
                BuildIssue(
                    kind: .otherVersion, file: place.file, line: place.line, column: place.column,
                    field: fields.names[versionColumn] ?? table.version,
                    value: new.description,
                    message:
                        """
                        \(table.name) '\(keyText)' has version '\(new)' here and '\(old)'\(first): the highest, \
                        '\(newer ? new : old)', is kept
                        """
                ))
            if newer {
                try bind(update, updateNulls)
                try update.bind(keptID, at: 1)
                defer { update.reset() }
                try update.step()
                outcome = .replaced
            } else {
                outcome = .older
            }
        } else if let differing {
            let name = table.columns[differing.column].name
            let first = placeOfRow(keptID).map { "the row at \($0)" } ?? "the first row with it"
            let message =
                """
                is the key of another object: '\(name)' is '\(differing.new)' here and '\(differing.old)' in \
                \(first) (same key, same version: two objects of one document share the id)
                """
            if !context.lenient {
                context.issues.record(
                    BuildIssue(
                        kind: .duplicateKey, file: place.file, line: place.line, column: place.column,
                        field: shownKey.joined(separator: "+"), value: keyText, message: message))
                return nil
            }
            context.issues.record(
                BuildIssue(
                    kind: .rowLeftOut, file: place.file, line: place.line, column: place.column,
                    field: shownKey.joined(separator: "+"), value: keyText,
                    message: message + "; the first is kept, this one and the rows nested in it are left out"))
            outcome = .rejected
        }
        counts[outcome, default: 0] += 1
        try record.bind([.integer(batch.ids[row]), .integer(keptID), .integer(outcome.rawValue)])
        defer { record.reset() }
        try record.step()
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
