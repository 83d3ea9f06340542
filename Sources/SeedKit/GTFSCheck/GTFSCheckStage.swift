import SeedSQLite

/// The stage after loading, for GTFS feeds only (the transit schema, `GTFSChecks.applies`): the
/// checks of MobilityData's validator that the schema cannot declare, run over the loaded
/// tables (`GTFSChecks`). It runs before the stable ids and before anything is derived: it reads
/// the rows as loaded and changes nothing, so the seed is the same bytes whatever it finds.
/// Data errors it finds fail the build here, as the loaders' do.
///
/// In a region seed the checks run feed by feed: each table read as the feed's rows only
/// (a temporary view of the same name, which SQLite finds before the table), each finding
/// placed in the feed's own file.
struct GTFSCheckStage: BuildStage {
    func run(_ state: BuildState) throws {
        guard GTFSChecks.applies(to: state.schema) else { return }
        state.progress?.phase("checking GTFS")
        let connection = state.connection
        guard state.feeds.isRegion else {
            try GTFSChecks(
                schema: state.schema, places: places(state.inputs, state), connection: connection,
                issues: state.issues, options: state.options, failed: state.failedTables, skipped: state.skippedTables
            ).run()
            state.timer.mark("GTFS checks")
            if state.issues.hasErrors { throw BuildError.invalidInput(state.issues) }
            return
        }
        // After a load error too, every feed is checked (one pass, all notices): a table not loaded
        // (`skippedTables`) has no view and no check reads it.
        let scoped = state.feedScopedTables.filter { !state.skippedTables.contains($0.name) }
        for feed in state.feeds.feeds {
            try Self.readingFeed(feed.id, of: scoped, schema: state.schema, connection: connection) {
                try GTFSChecks(
                    schema: state.schema, places: places(feed.inputs, state), connection: connection,
                    issues: state.issues, options: state.options, failed: state.failedTables,
                    skipped: state.skippedTables, feed: feed.name
                ).run()
            }
        }
        state.timer.mark("GTFS checks")
        if state.issues.hasErrors { throw BuildError.invalidInput(state.issues) }
    }

    private func places(_ inputs: InputSet, _ state: BuildState) -> InputFilePlaces {
        InputFilePlaces(schema: state.schema, inputs: inputs, limits: state.options.limits)
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
