import SeedSQLite

/// The stage after loading, for GTFS feeds only (the transit schema, `GTFSChecks.applies`): the
/// checks of MobilityData's validator that the schema cannot declare, run over the loaded
/// tables (`GTFSChecks`). They read the rows and change nothing, so the seed is the same bytes
/// whatever they find, and data errors they find fail the build, as the loaders' do.
///
/// Where they run: a feed that loaded without data errors is checked by the finish stage, on
/// the second core beside the content digest and `VACUUM INTO` (`BuildState.readers`): nothing
/// the stages between change is what the checks read but the ids `--previous` keeps, and the
/// checks name rows by their keys, not their ids (only "the earlier route" of
/// `duplicate_route_name` then follows the kept ids, as `seedgen report` reads it in the seed). A
/// feed with data errors is checked here, and the build fails after the checks (one run says all
/// that is wrong).
///
/// In a region seed the checks run feed by feed: each table read as the feed's rows only
/// (a temporary view of the same name, which SQLite finds before the table), each finding
/// placed in the feed's own file.
struct GTFSCheckStage: BuildStage {
    /// Its name in `--timings`.
    static let name = "checks"

    func run(_ state: BuildState) throws {
        guard GTFSChecks.applies(to: state.schema) else { return }
        Self.noteSubfolders(state)
        let loadFailed = state.issues.hasErrors || !state.failedTables.isEmpty || !state.skippedTables.isEmpty
        guard loadFailed else {
            let checks = Self.checks(state)
            state.readers.append(ReadingJob(name: Self.name) { connection in try checks(connection) })
            state.timer.runsLater(Self.name)
            return
        }
        state.progress?.phase("checking GTFS")
        try Self.checks(state)(state.connection)
        state.timer.mark("GTFS checks")
        throw BuildError.invalidInput(state.issues)
    }

    /// `invalid_input_files_in_subfolder`: GTFS files of a zip archive in a folder of it (the
    /// folder zipped instead of its files), read as if at the archive's root: a warning, an error
    /// under `--strict`, once for each folder (as the validator reports it), at its first file.
    /// (A folder's subfolders are not read: a file the feed needs there is missing,
    /// `missing_required_file`.)
    static func noteSubfolders(_ state: BuildState) {
        let names = Set(state.schema.tables.compactMap(\.file))
        var folders: [String: [InputFile]] = [:]
        var order: [String] = []
        for file in state.feeds.all.files where names.contains(file.name) {
            guard let folder = file.subfolder else { continue }
            let archive = String(file.displayPath.dropLast(folder.count + 1 + file.name.count)) + folder
            if folders[archive] == nil { order.append(archive) }
            folders[archive, default: []].append(file)
        }
        for archive in order {
            guard let files = folders[archive], let first = files.first, let folder = first.subfolder else { continue }
            let others = files.dropFirst().map(\.name).joined(separator: ", ")
            let what = files.count == 1 ? "is" : "and \(files.count - 1) more GTFS files (\(others)) are"
            state.issues.record(
                BuildIssue(
                    kind: .misleading(strict: state.options.strict), file: first.displayPath,
                    message: "\(what) in the archive's folder '\(folder)', not at its root: read as if at the root",
                    code: NoticeCode.invalidInputFilesInSubfolder))
        }
    }

    /// The checks of `state`'s feeds, run on a connection to its scratch file; they throw when
    /// they found data errors.
    private static func checks(_ state: BuildState) -> @Sendable (Connection) throws -> Void {
        let schema = state.schema, issues = state.issues, options = state.options, feeds = state.feeds
        let failed = state.failedTables, skipped = state.skippedTables
        // After a load error too, every feed is checked (one pass, all notices): a table not loaded
        // (`skippedTables`) has no view and no check reads it.
        let scoped = state.feedScopedTables.filter { !skipped.contains($0.name) }
        @Sendable func places(_ inputs: InputSet) -> InputFilePlaces {
            InputFilePlaces(schema: schema, inputs: inputs, limits: options.limits)
        }
        return { connection in
            if feeds.isRegion {
                for feed in feeds.feeds {
                    try readingFeed(feed.id, of: scoped, schema: schema, connection: connection) {
                        try GTFSChecks(
                            schema: schema, places: places(feed.inputs), connection: connection, issues: issues,
                            options: options, failed: failed, skipped: skipped, feed: feed.name
                        ).run()
                    }
                }
            } else {
                try GTFSChecks(
                    schema: schema, places: places(feeds.all), connection: connection, issues: issues,
                    options: options, failed: failed, skipped: skipped
                ).run()
            }
            if issues.hasErrors { throw BuildError.invalidInput(issues) }
        }
    }

    /// Runs `body` with each of `tables` read as feed `feed`'s rows only: a temporary view of
    /// the same name, which SQLite finds before the table, dropped after.
    static func readingFeed(
        _ feed: Int64, of tables: [Table], schema: Schema, connection: Connection, body: () throws -> Void
    ) throws {
        defer { for table in tables { try? connection.execute("DROP VIEW IF EXISTS temp.\(quoted(table.name))") } }
        for table in tables {
            try connection.execute(
                """
                CREATE TEMP VIEW \(quoted(table.name)) AS SELECT * FROM main.\(quoted(table.name)) WHERE \
                \(rowsOf(feed, in: table, schema: schema))
                """
            )
        }
        try body()
    }

    /// The condition on a row of `table` that it is of feed `feed`, as an index can answer it:
    /// a table keyed on a reference to a feed's rows (`stop_times (trip_ref, stop_sequence)`)
    /// by the ids of that feed's rows (so each feed reads its trips' rows, not the whole
    /// table), any other by its `feed_ref`, the first column of its key.
    static func rowsOf(_ feed: Int64, in table: Table, schema: Schema) -> String {
        let byFeed = "\(quoted(Schema.feedColumn)) = \(feed)"
        guard let first = table.key.first, let reference = table.references.first(where: { $0.column == first }),
            let target = schema.table(named: reference.to), target.key.first == Schema.feedColumn
        else { return byFeed }
        return "\(quoted(first)) IN (SELECT \(quoted(target.rowID)) FROM main.\(quoted(target.name)) WHERE \(byFeed))"
    }
}
