import SeedSQLite

/// Judges the rows of one table the database refused because their key (or the columns of
/// a unique index, or the table's `checkedKey`) repeats another row's, against the row
/// holding it. Runs on the writer thread, one file at a time.
///
/// - A row equal to that row in every field is a copy (a CSV file, all of whose fields the
///   table keeps: `SourceFields.keepsEveryField`): left out and counted, and reported once
///   for the file (`copies`): a warning, an error under `--strict`.
/// - Any other is an error naming the values, the row's place and, for the first few, where
///   the first copy was read (its place kept in `RowPlaces`); under `--lenient` the later row
///   is left out, a warning.
///
/// Fields are compared as the table stores them (text, `extras` included, byte for byte;
/// numbers, times and dates as values), a reference by the row it names. A field the table
/// does not store is compared through its reference; when that is NULL and could hide a key
/// that named nothing, the row is not taken for a copy.
final class DuplicateKeys {
    /// Where the row a refused row repeats is found.
    enum Holder {
        /// By the columns SQLite names (the key, or a unique index).
        case columns([String])
        /// By its id (a checked key: `CheckedKey` knows the row).
        case row(Int64)
    }

    /// The copies left out of one file: how many, and the first of them.
    struct Copies {
        var count: Int
        /// The first copy, as a duplicate key would be reported; its message is `issue(strict:)`'s.
        var first: BuildIssue
        /// The line of the row the first copy repeats, when known.
        var firstLine: Int?

        /// The report of the file's copies: one issue, a warning (an error under `strict`).
        func issue(strict: Bool) -> BuildIssue {
            var issue = first
            let repeated = firstLine.map { "line \($0)" } ?? "an earlier row"
            let all =
                count == 1
                ? "it is the only row of this file that repeats an earlier one whole"
                : "\(count) rows of this file repeat an earlier row whole (this is the first)"
            issue.message =
                "repeats \(repeated) in every field: \(all); "
                + (strict
                    ? """
                    --strict: a row repeated whole is an error (without --strict each copy is left out, with a \
                    warning)
                    """
                    : "each copy is left out, the row it repeats is kept")
            issue.kind = strict ? .duplicateKey : .repeatedRow
            issue.code = nil
            return issue
        }
    }

    private let table: Table
    private let context: BuildContext
    private let fields: SourceFields
    private let connection: Connection
    private let places: RowPlaces?
    private let referenceColumns: [[Int]] // per reference: indexes of its `from` columns
    private let unresolvedKeys: UnresolvedKeys
    /// What a row is compared on, as the writer's INSERT stores it: per column its parameter (0:
    /// not stored), the parent's, and per reference its parameter.
    private let parameters: [Int32]
    private let parentParameter: Int32
    private let referenceParameters: [Int32]
    /// Per reference: a NULL in two rows means the same source, as far as this file was read:
    /// its source columns are stored (and compared), or it is resolved while loading and no key of
    /// it was kept naming nothing.
    private let resolvedWhileLoading: [Bool]
    private let sourcesStored: [Bool]
    /// The held row's id (tables with row ids), then what is compared, in `parameters` order.
    private let selected: String
    private var holders: [String: Statement] = [:] // by condition
    /// Rows of a table without row ids whose first copy is looked for in the file (each read
    /// of the file goes up to the row): as many as a group of issues shows.
    private var fileLookups = 0
    /// The copies left out so far.
    private(set) var copies: Copies?
    /// A temporary table that holds some of the table's rows while it loads (`LaterRows`): a
    /// row's twin may be there.
    var sideTable: String?

    init(
        table: Table, context: BuildContext, fields: SourceFields, connection: Connection, places: RowPlaces?,
        referenceColumns: [[Int]],
        unresolvedKeys: UnresolvedKeys, parameters: [Int32], parentParameter: Int32, referenceParameters: [Int32],
        resolvedWhileLoading: [Bool]
    ) {
        self.table = table
        self.context = context
        self.fields = fields
        self.connection = connection
        self.places = places
        self.referenceColumns = referenceColumns
        self.unresolvedKeys = unresolvedKeys
        self.parameters = parameters
        self.parentParameter = parentParameter
        self.referenceParameters = referenceParameters
        self.resolvedWhileLoading = resolvedWhileLoading
        sourcesStored = referenceColumns.map { $0.allSatisfy { parameters[$0] != 0 } }
        var selected = table.withoutRowID ? [] : [quoted(table.rowID)]
        selected += table.columns.indices.filter { parameters[$0] != 0 }.map { quoted(table.columns[$0].name) }
        if parentParameter != 0, let parent = table.parent { selected.append(quoted(parent.column)) }
        selected += table.references.indices.filter { referenceParameters[$0] != 0 }.map {
            quoted(table.references[$0].column)
        }
        self.selected = selected.joined(separator: ", ")
    }

    /// Judges `row` of `batch` (its resolved references in `resolved` at `slot`), refused by
    /// SQLite with `failure` ("UNIQUE constraint failed: t.a").
    func report(_ batch: RowBatch, _ row: Int, resolved: ResolvedIDs, slot: Int, failure: String) throws(SQLiteError) {
        try report(batch, row, resolved: resolved, slot: slot, holder: .columns(uniqueColumns(failedIn: failure)))
    }

    /// Judges `row` of `batch`, whose key `holder` holds already: a copy (counted), or an error
    /// (under `--lenient`, a row left out).
    func report(_ batch: RowBatch, _ row: Int, resolved: ResolvedIDs, slot: Int, holder: Holder) throws(SQLiteError) {
        let columns: [String], heldID: Int64?
        switch holder {
        case .columns(let names): (columns, heldID) = (names, nil)
        case .row(let id): (columns, heldID) = (table.checkedKey, id)
        }
        // The row holding the key is read to compare the rows, or to name its place.
        let held =
            fields.keepsEveryField || (heldID == nil && places?.lookupsLeft == true)
            ? try heldRow(batch, row, resolved: resolved, slot: slot, holder: holder) : nil
        if held?.same == true, copies != nil {
            copies?.count += 1
            return
        }
        // Named as the input names them (a reference by its source fields: trip_id, not
        // trip_ref), values in the source's format (a time as 07:00:00, not 25200 seconds).
        let sourceNames = fields.names
        let sourceName = { (index: Int) in sourceNames[index] ?? self.table.columns[index].name }
        let text = { (index: Int) in
            batch.tags[batch.cell(row, index)] == RowBatch.Tag.null.rawValue
                ? "" : SourceText.value(batch, batch.cell(row, index), column: self.table.columns[index])
        }
        var names: [String] = []
        var located: (fields: [String], values: [String]) = ([], []) // the key as the file has it
        // A region seed's `feed_ref` is the file's feed: the message names the file already.
        let shown = columns.filter { $0 != Schema.feedColumn }
        let keyText = shown.map { name -> String in
            let parts =
                table.columns.firstIndex(where: { $0.name == name }).map { [$0] }
                ?? referenceColumns[table.references.firstIndex { $0.column == name }!].filter {
                    table.columns[$0].name != Schema.feedColumn
                }
            names.append(parts.map(sourceName).joined(separator: ","))
            for index in parts
            where [[XMLMapping.fileSource], [Schema.feedSource]].contains(table.columns[index].source) == false {
                located.fields.append(sourceName(index))
                located.values.append(CSVRowLocator.key(ReferenceResolver.value(batch, batch.cell(row, index))))
            }
            return "\(names.last!)=\(parts.map(text).joined(separator: ","))"
        }.joined(separator: ", ")
        var column = Int(batch.sourceColumns[row])
        if fields.columnsPerValue {
            let first = shown.first.flatMap { name in
                table.columns.firstIndex { $0.name == name }
                    ?? table.references.firstIndex { $0.column == name }.map { referenceColumns[$0][0] }
            }
            column = first.map { Int(batch.valueColumns[batch.cell(row, $0)]) } ?? 0
        }
        var issue = BuildIssue(
            kind: .duplicateKey, file: fields.file, line: Int(batch.lines[row]), column: column > 0 ? column : nil,
            field: names.joined(separator: "+"), value: keyText, message: "")
        if held?.same == true {
            copies = Copies(
                count: 1, first: issue,
                firstLine: placeOfFirstCopy(held?.id, located, before: issue.line, copy: true)?.line)
            return
        }
        issue.message =
            columns == table.key
            ? "appears twice: the key of '\(table.name)' must be unique"
            : columns == table.checkedKey
                ? "appears twice: no two rows of '\(table.name)' may have the same \(names.joined(separator: ", "))"
                : "appears twice: '\(table.name)' has a unique index on \(names.joined(separator: ", "))"
        if let first = placeOfFirstCopy(heldID ?? held?.id, located, before: issue.line, copy: false) {
            issue.message += "; first copy at \(first.file):\(first.line)"
        }
        if context.lenient {
            issue.message += "; the later row is left out"
            issue.kind = .rowLeftOut
            issue.code = NoticeCode.duplicateKey
        }
        context.issues.record(issue)
    }

    /// `file:line` of the row holding a key, for the first few messages: from its place (row id
    /// `id`), or for a table without row ids the first row of the file before line `before`
    /// whose key fields have the values of `key` (the file read again up to there). `copy`: for
    /// the one message of the file's copies, always looked for.
    private func placeOfFirstCopy(
        _ id: Int64?, _ key: (fields: [String], values: [String]), before: Int?, copy: Bool
    ) -> (file: String, line: Int)? {
        if !table.withoutRowID {
            guard let id, let places, copy || places.takeLookup() else { return nil }
            return places.place(ofRow: id)
        }
        guard let before, !key.fields.isEmpty, copy || fileLookups < context.issues.examplesPerGroup,
            let find = fields.firstLine
        else { return nil }
        if !copy { fileLookups += 1 }
        return find(key.fields, key.values, before).map { (fields.file, $0) }
    }

    /// The columns of the unique index SQLite names in `failure` ("UNIQUE constraint failed:
    /// users.name"): the key, or a unique index that references match.
    private func uniqueColumns(failedIn failure: String) -> [String] {
        guard let range = failure.range(of: "constraint failed: ") else { return table.key }
        let columns = failure[range.upperBound...].split(separator: ",").map { part -> String in
            let name = part.trimmingCharacters(in: .whitespaces)
            let owner = [table.name, sideTable].compactMap { $0 }.first { name.hasPrefix($0 + ".") }
            return owner.map { String(name.dropFirst($0.count + 1)) } ?? name
        }
        return columns.isEmpty || Set(columns) == Set(table.key) ? table.key : columns
    }

    /// The row holding the key of `row`: its id (tables with row ids), and whether `row` is
    /// the same in every field. Nil when no row holds it.
    private func heldRow(
        _ batch: RowBatch, _ row: Int, resolved: ResolvedIDs, slot: Int, holder: Holder
    ) throws(SQLiteError) -> (id: Int64?, same: Bool)? {
        let condition: String
        var values: [Value] = []
        switch holder {
        case .row(let id):
            condition = "\(quoted(table.rowID)) = ?"
            values = [.integer(id)]
        case .columns(let columns):
            condition = columns.map { "\(quoted($0)) = ?" }.joined(separator: " AND ")
            for name in columns {
                if let index = table.columns.firstIndex(where: { $0.name == name }) {
                    values.append(ReferenceResolver.value(batch, batch.cell(row, index)))
                } else {
                    values.append(
                        resolved.id(slot: slot, table.references.firstIndex { $0.column == name }!).map(Value.integer)
                            ?? .null)
                }
            }
        }
        let statement: Statement
        if let known = holders[condition] {
            statement = known
        } else {
            let rows =
                sideTable.map {
                    "(SELECT * FROM main.\(quoted(table.name)) UNION ALL SELECT * FROM temp.\(quoted($0)))"
                }
                ?? quoted(table.name)
            statement = try connection.prepare("SELECT \(selected) FROM \(rows) WHERE \(condition)")
            holders[condition] = statement
        }
        try statement.bind(values)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let id = table.withoutRowID ? nil : statement.int64(at: 0)
        return (
            id,
            fields.keepsEveryField
                && isSame(batch, row, resolved: resolved, slot: slot, as: statement, from: table.withoutRowID ? 0 : 1)
        )
    }

    /// True when `row` of `batch` stores what the row `held` has, from result column `start` on.
    private func isSame(
        _ batch: RowBatch, _ row: Int, resolved: ResolvedIDs, slot: Int, as held: Statement, from start: Int
    ) -> Bool {
        var position = start
        for (index, column) in table.columns.enumerated() {
            let cell = batch.cell(row, index)
            if parameters[index] != 0 {
                guard Self.same(held.value(at: position), ReferenceResolver.value(batch, cell)) else { return false }
                position += 1
            } else if !column.stored && batch.tags[cell] != RowBatch.Tag.null.rawValue {
                // Read only for a reference: the same only if that names a row (compared below).
                let named = referenceColumns.indices.contains { r in
                    referenceParameters[r] != 0 && referenceColumns[r].contains(index)
                        && resolved.id(slot: slot, r) != nil
                }
                guard named else { return false }
            }
        }
        if parentParameter != 0 {
            let parent = batch.parents[row]
            guard held.value(at: position) == (parent != 0 ? .integer(parent) : .null) else { return false }
            position += 1
        }
        for r in referenceParameters.indices where referenceParameters[r] != 0 {
            let id = resolved.id(slot: slot, r)
            guard held.value(at: position) == (id.map(Value.integer) ?? .null) else { return false }
            position += 1
            // Two NULLs: the same when no key of a source the table does not store named nothing.
            if id == nil && !sourcesStored[r] && (!resolvedWhileLoading[r] || unresolvedKeys.keptNull(r)) {
                return false
            }
        }
        return true
    }

    /// Values compared as stored: text byte for byte (Swift's `==` would take canonically
    /// equivalent text as equal).
    private static func same(_ a: Value, _ b: Value) -> Bool {
        if case .text(let x) = a, case .text(let y) = b { return x.utf8.elementsEqual(y.utf8) }
        return a == b
    }
}
