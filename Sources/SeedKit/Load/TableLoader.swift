import SeedSQLite

/// Loads the rows of one table. Readers (CSV, XML) feed it one row at a time on their own
/// thread: `beginRow`, `set` for every column, `finishRow`. Values are converted to their
/// column's type right away, into a batch; full batches go to the build's writer thread,
/// where a `RowWriter` resolves references and inserts them, while the reader goes on.
/// Whatever else touches the database (creating the table, finishing it) is a job on the
/// writer thread too: the loader never uses the connection itself.
///
/// Bad values are recorded in the issue log with their place, and their row is skipped;
/// the build fails after the table when there were errors.
final class TableLoader {
    let table: Table
    let context: BuildContext
    /// Where the values come from, shared with the writer for its messages.
    let fields: SourceFields
    /// The input file, as shown in messages.
    var file: String {
        get { fields.file }
        set { fields.file = newValue }
    }
    /// Per column: the source field it was read from (CSV header, XML path), for messages.
    var sourceNames: [String?] {
        get { fields.names }
        set { fields.names = newValue }
    }
    /// Per column: the 1-based position of its field in a CSV record, for messages.
    var sourcePositions: [Int?] {
        get { fields.positions }
        set { fields.positions = newValue }
    }

    /// The reader's place of a column's value in the current row (line, 1-based character
    /// column), asked only when a value is reported. Nil: the row's place (XML, `setPlace`).
    var valuePlace: ((Int) -> (line: Int, column: Int))?

    /// Made on the writer thread, used only in jobs there (see `deinit`).
    @exclusivity(unchecked) private var writer: RowWriter?
    /// Columns of `table.layout` created so far; nil until the table exists (see `createTable`).
    private(set) var createdColumnCount: Int?
    private let converters: [ValueConverter]
    /// Per column: the type its values convert to (`setInteger`, `setReal`).
    let columnTypes: [ColumnType]
    private let defaults: [[UInt8]?]
    private let required: [Bool]
    /// Per column: the longest value accepted (`InputLimits.keyBytes` for key and reference
    /// columns, whose values are indexed, compared and cached; no limit for the others).
    private let lengthLimits: [Int]
    private let trims: [Bool]
    /// Per column: an invalid value is NULL with a warning, as with `--lenient` (`onInvalid: null`).
    private let invalidAsNull: [Bool]
    /// Per column of a GTFS table with enumerated fields: the values each allows (`GTFSEnumValues`;
    /// all 0 when `checksEnums` is false), tested a batch at a time as it goes to the writer.
    private let enumMasks: [UInt64]
    private let checksEnums: Bool
    private let insertsInGroups: Bool
    /// With `--previous`, for a CSV table keyed on plain columns: where its rows' ids come from.
    private let previousIDs: PreviousIDs?
    @exclusivity(unchecked) private var batch: RowBatch
    @exclusivity(unchecked) private var spare: RowBatch
    @exclusivity(unchecked) private var inFlight = false
    @exclusivity(unchecked) private var rowBase = 0 // first cell of the current row
    @exclusivity(unchecked) private var rowIsValid = true
    @exclusivity(unchecked) private var line = 0
    @exclusivity(unchecked) private var column: Int?
    @exclusivity(unchecked) private var parent: Int64 = 0
    @exclusivity(unchecked) private var accepted = 0
    /// `stop_times` of a build that keeps `BuildContext.tripStops`: each accepted row goes to it.
    private let tripStops: TripStopLog?

    /// In a region seed: the id of the feed the rows are read from, the value of `$feed`
    /// columns (`feed_ref`, see `Schema.scopedByFeed`).
    var feedID: Int64?

    /// Sets column `index` to the feed's id (a `$feed` source).
    func setFeed(_ index: Int) throws(SQLiteError) {
        guard let feedID else { return try set(index, nil) }
        try XMLText.withDecimal(Int(feedID)) { digits throws(SQLiteError) in try set(index, digits) }
    }

    /// Rows inserted: all accepted rows once `finish()` has returned.
    var rowCount: Int { accepted }

    static let batchRows = 4096
    /// A batch goes to the writer once its text passes this too, so two batches of long
    /// values (GeoJSON geometries of thousands of points) stay a few MB, not 4096 rows' worth.
    static let batchTextBytes = 4 << 20

    /// - Parameters:
    ///   - createsTable: false when the table exists already; true to have the reader create
    ///     it (`createTable(supplied:)`) once it knows which columns it fills.
    ///   - insertsInGroups: false to insert every row alone (see `InsertGroup`; tests
    ///     compare the two paths).
    init(
        table: Table, file: String, context: BuildContext, createsTable: Bool = false, insertsInGroups: Bool = true
    ) throws(SQLiteError) {
        self.table = table
        self.context = context
        self.insertsInGroups = insertsInGroups
        let columns = table.columns
        fields = SourceFields(file: file, table: table)
        converters = columns.map(ValueConverter.init(column:))
        columnTypes = converters.map(\.type)
        defaults = columns.map { $0.defaultValue.map { Array($0.utf8) } }
        required = columns.map(\.required)
        let keyNames = Set(table.key + table.references.flatMap(\.from))
        lengthLimits = columns.map { keyNames.contains($0.name) ? context.limits.keyBytes : Int.max }
        trims = columns.map(\.trim)
        invalidAsNull = columns.map { $0.onInvalid == .null && !$0.required }
        let enumMasks = GTFSEnumValues.masks(for: table, schema: context.schema)
        self.enumMasks = enumMasks ?? Array(repeating: 0, count: columns.count)
        checksEnums = enumMasks != nil
        previousIDs = PreviousIDs.applies(to: table) ? context.previousIDs : nil
        tripStops = table.name == "stop_times" ? context.tripStops : nil
        batch = RowBatch(columnCount: columns.count, capacity: Self.batchRows)
        spare = RowBatch(columnCount: columns.count, capacity: Self.batchRows)
        if !createsTable {
            let fields = fields
            writer = try context.writeQueue.sync { [context] connection throws(SQLiteError) in
                try RowWriter(
                    table: table, fields: fields, context: context, connection: connection,
                    insertsInGroups: insertsInGroups)
            }
            createdColumnCount = table.layout.count
        }
    }

    /// The writer's statements are finalized when it goes: the queue is idle by then (no job
    /// of this or any loader runs on the connection), whichever thread lets it go last.
    deinit {
        try? context.writeQueue.drain()
    }

    /// Starts a row read at `line` (and `column`, for XML).
    @inline(__always)
    func beginRow(line: Int, column: Int? = nil) {
        self.line = line
        self.column = column
        rowIsValid = true
        parent = 0
        rowBase = batch.count * batch.columnCount
    }

    /// Moves the place reported for the values set next (XML: the line of each value's
    /// element) without starting a new row.
    @inline(__always)
    func setPlace(line: Int, column: Int?) {
        self.line = line
        self.column = column
    }

    /// Sets column `index` from its source bytes; nil when the source has no such field.
    /// An empty value (after trimming spaces) takes the column's default, if it has one.
    @inline(__always)
    func set(_ index: Int, _ source: UnsafeRawBufferPointer?) throws(SQLiteError) {
        if let source {
            // Trimmed here once, so text is stored (and keys match) without the padding.
            let bytes = trims[index] ? ValueConverter.trim(source) : source
            if bytes.count > lengthLimits[index] {
                batch.tags[rowBase + index] = RowBatch.Tag.null.rawValue
                reject(
                    index, value: String(decoding: UnsafeRawBufferPointer(rebasing: bytes.prefix(256)), as: UTF8.self),
                    message:
                        """
                        is \(bytes.count) bytes long; a key is at most \(lengthLimits[index]) (raise the limit \
                        with --max-key-size)
                        """,
                    code: NoticeCode.invalidValue)
                return
            }
            if store(index, converters[index].convert(bytes), bytes) { return }
        }
        if let fallback = defaults[index] {
            fallback.withUnsafeBytes { _ = store(index, converters[index].convert($0), $0) }
        } else {
            if required[index] {
                if context.lenient {
                    rowIsValid = false
                    report(
                        .rowLeftOut, index, value: nil, message: "is required but empty; the row is left out",
                        code: NoticeCode.missingRequiredField)
                } else {
                    report(.missingValue, index, value: nil, message: "is required but empty")
                }
            }
            batch.tags[rowBase + index] = RowBatch.Tag.null.rawValue
        }
    }

    /// Sets `integer` column `index` to `value`: what `set` stores from its decimal text, without
    /// the text (a PBF reader holds numbers). Only for a column whose `columnTypes` is `integer`.
    @inline(__always)
    func setInteger(_ index: Int, _ value: Int64) {
        batch.tags[rowBase + index] = RowBatch.Tag.integer.rawValue
        batch.words[rowBase + index] = value
    }

    /// Sets `real` column `index` to `value`, which must be what `ValueConverter` reads from the
    /// text the reader would have given `set` (the same double, correctly rounded).
    @inline(__always)
    func setReal(_ index: Int, _ value: Double) {
        batch.tags[rowBase + index] = RowBatch.Tag.real.rawValue
        batch.words[rowBase + index] = Int64(bitPattern: value.bitPattern)
    }

    /// Stores a converted value; false when it is empty (the caller decides what empty means).
    @inline(__always)
    private func store(_ index: Int, _ value: ConvertedValue, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let cell = rowBase + index
        switch value {
        case .null:
            return false
        case .integer(let value):
            batch.tags[cell] = RowBatch.Tag.integer.rawValue
            batch.words[cell] = value
        case .real(let value):
            batch.tags[cell] = RowBatch.Tag.real.rawValue
            batch.words[cell] = Int64(bitPattern: value.bitPattern)
        case .sourceText:
            batch.setText(cell, bytes)
        case .text(let text):
            var text = text
            text.withUTF8 { batch.setText(cell, UnsafeRawBufferPointer($0)) }
        case .invalid(let reason):
            reject(
                index, value: String(decoding: bytes, as: UTF8.self),
                message: "is not a valid \(converters[index].type.rawValue): \(reason)",
                code: NoticeCode.invalidValue(of: converters[index].type))
        }
        return true
    }

    /// A value column `index` cannot take: an error; under `--lenient`, the row is left out
    /// (a required column) or the value is NULL, as a warning.
    private func reject(_ index: Int, value: String, message: String, code: String) {
        if !context.lenient && !invalidAsNull[index] {
            report(.invalidValue, index, value: value, message: message, code: code)
        } else if required[index] {
            rowIsValid = false
            report(.rowLeftOut, index, value: value, message: message + "; the row is left out", code: code)
        } else {
            batch.tags[rowBase + index] = RowBatch.Tag.null.rawValue
            report(.invalidValueAsNull, index, value: value, message: message + "; kept as NULL", code: code)
        }
    }

    /// Records where column `index`'s value begins in the current row (a 1-based character
    /// column), for the writer's messages (duplicate keys, dangling references).
    @inline(__always)
    func setValueColumn(_ index: Int, _ column: Int) {
        batch.valueColumns[rowBase + index] = Int32(clamping: column)
    }

    /// Sets the enclosing row's id (XML nested records).
    @inline(__always)
    func setParent(_ id: Int64?) {
        parent = id ?? 0
    }

    /// Marks the row as bad without a value error (the reader found a problem).
    func reject() { rowIsValid = false }

    /// Accepts the row: it gets its id (or `preassigned`, when the reader allocated it with
    /// `BuildContext.allocateID` to give nested records their parent's id) and is queued for
    /// the writer. Returns the id, or nil when the row was skipped (or for WITHOUT ROWID).
    @discardableResult
    func finishRow(id preassigned: Int64? = nil) throws(SQLiteError) -> Int64? {
        guard rowIsValid else { return nil }
        let row = batch.count
        tripStops?.read(batch, row: row)
        let id =
            table.withoutRowID
            ? 0
            : (preassigned ?? previousIDs?.id(in: table, batch: batch, row: row) ?? context.allocateID(in: table.name))
        batch.ids[row] = id
        batch.parents[row] = parent
        batch.lines[row] = Int32(clamping: line)
        batch.sourceColumns[row] = Int32(clamping: column ?? 0)
        batch.count += 1
        accepted += 1
        if batch.isFull || batch.arenaCount >= Self.batchTextBytes { try submit() }
        return table.withoutRowID ? nil : id
    }

    /// Hands the current batch to the writer and continues in the spare one (once the
    /// writer is done with it).
    private func submit() throws(SQLiteError) {
        guard let writer else { preconditionFailure("table \(table.name) is loaded before it is created") }
        if checksEnums {
            GTFSEnumValues.report(batch, masks: enumMasks, table: table, fields: fields, issues: context.issues)
        }
        let full = batch
        if inFlight { try wait() }
        swap(&batch, &spare)
        batch.reset()
        inFlight = true
        try context.writeQueue.submit { _ throws(SQLiteError) in try writer.write(full) }
    }

    private func wait() throws(SQLiteError) {
        try context.writeQueue.drain()
        inFlight = false
    }

    private func report(_ kind: BuildIssue.Kind, _ index: Int, value: String?, message: String, code: String? = nil) {
        if kind.isError { rowIsValid = false }
        let place = fields.place(of: index)
        let (line, column) = valuePlace.map { $0(index) } ?? (self.line, place.position ?? self.column)
        context.issues.record(
            BuildIssue(
                kind: kind, file: place.file, line: line, column: column,
                field: place.field ?? table.columns[index].name, value: value, message: message,
                code: code == kind.noticeCode ? nil : code))
    }

    /// Creates, before any row is loaded, the indexes of the references whose source columns
    /// the input does not have at all (a feed without GTFS-Flex has no `location_id`): such an
    /// index stays empty, and creating it after loading would scan the whole table for nothing.
    func createIndexesOfAbsentReferences(absent: Set<String>) throws(SQLiteError) {
        let (table, indexes) = (table, context.indexes)
        let existing = Set(table.layout.prefix(createdColumnCount ?? 0).map(\.name))
        try context.writeQueue.sync { connection throws(SQLiteError) in
            try indexes.createForAbsentReferences(of: table, absent: absent, existing: existing, on: connection)
        }
    }

    /// Hands the rows accepted so far to the writer, so that work queued after this call (a
    /// lookup from another table, a statement on `context.writeQueue`) sees them.
    func flush() throws(SQLiteError) {
        if batch.count > 0 { try submit() }
    }

    /// After the last row: writes what is left, waits for the writer, resolves
    /// self-references and publishes the resolvers' statistics.
    func finish() throws(SQLiteError) {
        if batch.count > 0 { try submit() }
        try wait()
        guard let writer else { return }
        let (rowCount, statistics) = try context.writeQueue.sync { _ throws(SQLiteError) in
            (writer.rowCount, try writer.finish())
        }
        accepted = rowCount
        context.addReferenceStatistics(statistics)
    }

    /// After `finish()`: the rows of the file left out as copies of an earlier row (`DuplicateKeys`).
    func copiesLeftOut() throws(SQLiteError) -> DuplicateKeys.Copies? {
        guard let writer else { return nil }
        return try context.writeQueue.sync { _ throws(SQLiteError) in writer.duplicates.copies }
    }

    /// Creates the table (and its key index) with the columns of its layout up to the last
    /// one the input can fill: `supplied` names the columns the input has (see
    /// `Table.createdColumnCount`). The trailing ones are added by `completeTable()` after
    /// loading, so the rows store nothing for them. Prepares the writer.
    func createTable(supplied: Set<String>) throws(SQLiteError) {
        guard createdColumnCount == nil else { return }
        let count = table.createdColumnCount(supplied: supplied)
        let (table, fields, context, insertsInGroups) = (table, fields, context, insertsInGroups)
        writer = try context.writeQueue.sync { connection throws(SQLiteError) in
            try connection.execute(table.createStatement(columnCount: count))
            try context.indexes.createBeforeLoading(table, on: connection)
            return try RowWriter(
                table: table, fields: fields, context: context, connection: connection,
                createdColumns: Set(table.layout.prefix(count).map(\.name)), insertsInGroups: insertsInGroups)
        }
        createdColumnCount = count
    }

    /// After loading: adds the columns `createTable` left out, or creates the whole table when
    /// the reader never did (its file had no usable header). The partial indexes of added
    /// references are created now, without a scan (`SeedIndexes.createOnAddedColumns`); other
    /// indexes on added columns with the other secondary indexes. The writer must be idle.
    func completeTable() throws(SQLiteError) {
        let (table, indexes) = (table, context.indexes)
        guard let count = createdColumnCount else {
            try context.writeQueue.sync { connection throws(SQLiteError) in
                try connection.execute(table.createStatement)
                try indexes.createBeforeLoading(table, on: connection)
            }
            createdColumnCount = table.layout.count
            return
        }
        try context.writeQueue.sync { connection throws(SQLiteError) in
            for statement in table.addColumnStatements(after: count) { try connection.execute(statement) }
            // The added references are NULL in every row: their partial indexes are empty.
            try indexes.createOnAddedColumns(of: table, added: Array(table.layout.dropFirst(count)), on: connection)
        }
        createdColumnCount = table.layout.count
    }
}
