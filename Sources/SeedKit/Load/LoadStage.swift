import Foundation
import SeedSQLite

/// The first stage: streams every input into the scratch database through the schema, one
/// table at a time (CSV, GeoJSON) or file by file (XML), on the loaders' writer thread; then
/// checks what the mapping matched (custom schemas) and names the inputs nothing read.
struct LoadStage: BuildStage {
    func run(_ state: BuildState) throws {
        let schema = state.schema, inputs = state.inputs, options = state.options, issues = state.issues
        state.extraTables = schema.extraFiles ? try ExtraFiles(schema: schema, feeds: state.feeds).tables() : []
        let extraFiles = Set(state.extraTables.flatMap { $0.files.map(\.file.displayPath) })
        var matchedColumns: [String: [Bool]] = [:]
        var findings = XMLLoadFindings()
        var loading: BuildContext?
        // While the rows stream in, the database belongs to the writer thread.
        do {
            state.context = try load(state, loading: &loading, matchedColumns: &matchedColumns, findings: &findings)
        } catch let error as SQLiteError where !error.isDiskFull {
            // SQLite refused one of seedgen's own statements: name the input it was storing.
            if let failure = loading?.writeFailure { throw failure.buildError }
            throw error
        }
        state.context?.idMaps.discardAll()
        let readFiles = Set(state.readFiles.map(\.displayPath))
        // Built-in schemas cover a standard's optional parts (NeTEx stop places, TXC stop
        // points): a table or column one export leaves empty is not a mapping mistake.
        if !SchemaLocator.isBuiltIn(schema) {
            MappingCheck(
                schema: schema, inputs: inputs, files: inputs.files.filter { readFiles.contains($0.displayPath) },
                rows: Dictionary(state.rows, uniquingKeysWith: +), filtered: state.filtered,
                matchedColumns: matchedColumns,
                strict: options.strict, issues: issues, findings: findings
            ).run()
        }
        // A GTFS feed with data errors still gets the checks that read the rows loaded (one run
        // says all that is wrong): the checks stage fails the build after them.
        if issues.hasErrors && !state.loadsPastErrors { throw BuildError.invalidInput(issues) }
        for file in inputs.files
        where !readFiles.contains(file.displayPath) && file.name != SchemaLocator.folderSchemaName
            && !extraFiles.contains(file.displayPath)
        {
            issues.record(
                BuildIssue(
                    kind: .unusedFile, file: file.displayPath,
                    message: "is not read by any table of schema '\(schema.name)'"))
        }
    }

    /// A region seed's `feeds` rows, before any row names them (`FeedsStage` completes them).
    static func insertFeeds(_ feeds: InputFeeds, on connection: Connection) throws(SQLiteError) {
        guard feeds.isRegion else { return }
        let insert = try connection.prepare(
            "INSERT INTO \(quoted(Schema.feedsTable)) (id, name, source, row_counts) VALUES (?, ?, ?, '{}')")
        for feed in feeds.feeds { try insert.run([.integer(feed.id), .text(feed.name), .text(feed.sourceName)]) }
    }

    /// Streams every input into the database on the writer thread; returns the build's
    /// context. `loading` is the context as soon as it exists, for a failure's place.
    private func load(
        _ state: BuildState, loading: inout BuildContext?, matchedColumns: inout [String: [Bool]],
        findings: inout XMLLoadFindings
    ) throws -> BuildContext {
        let schema = state.schema, options = state.options, issues = state.issues
        let progress = state.progress
        return try state.database.withWriteQueue { queue in
            // XML rows may repeat a key (copies merged by the writer): their ids are the stable-ids stage's.
            let previousIDs = try state.previous.flatMap { schema.format == .csv ? try PreviousIDs(previous: $0) : nil }
            let context = BuildContext(
                writeQueue: queue, schema: schema, issues: issues,
                allowDangling: options.allowDangling || options.lenient, cacheSize: options.cacheSize,
                limits: options.limits, lenient: options.lenient, strict: options.strict,
                idMapCapacity: options.idMapCapacity, previousIDs: previousIDs,
                tripStops: state.feeds.isRegion || schema.format != .csv
                    || !schema.tables.contains { $0.name == "trip_patterns" && $0.derive != nil }
                    ? nil : schema.tables.first { $0.name == "stop_times" }.flatMap(TripStopLog.init(stopTimes:)))
            loading = context
            switch schema.format {
            case .csv:
                try CSVLoad(state: state, context: context).run()
            case .xml:
                try queue.sync { [feeds = state.feeds] connection throws(SQLiteError) in
                    for statement in schema.loadOrder.map(\.createStatement) { try connection.execute(statement) }
                    try LoadStage.insertFeeds(feeds, on: connection)
                }
                let result = try XMLLoad(schema: schema, feeds: state.feeds, context: context, progress: progress).run()
                state.records = result.inputs
                state.readFiles = result.files
                state.rows = result.rows
                state.filtered = result.filtered
                matchedColumns = result.matchedColumns
                state.rejected = result.rejected
                findings = result.findings
                state.timer.mark("load XML")
            }
            return context
        }
    }
}
