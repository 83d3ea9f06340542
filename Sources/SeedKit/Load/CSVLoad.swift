import SeedSQLite

/// Loads every CSV (and GeoJSON) input of a build, table by table in load order; in a region
/// seed, each table's file of every feed in turn (feeds by name), each row with its feed's
/// id (`feed_ref`). A table reads its files in one transaction each.
///
/// One feed: a table is created by its loader once the file's header shows which columns it
/// fills (`Table.layout`), so an input without a column stores nothing for it. Several feeds:
/// every table is created whole before loading, since each feed's files fill other columns.
struct CSVLoad {
    let state: BuildState
    let context: BuildContext

    /// One table and the files it reads, with the feed of each.
    struct Source {
        var table: Table
        var files: [(file: InputFile, feed: InputFeeds.Feed?)]
        /// Column i reads field i of the header (tables made from unread files, `extraFiles`).
        var byPosition: Bool
    }

    func run() throws {
        let schema = state.schema, feeds = state.feeds, issues = state.issues, progress = state.progress
        let queue = context.writeQueue
        let sources = self.sources()
        // A GTFS feed goes on loading past a file with errors, so that one build reports all of
        // them; the checks stage fails the build after its own checks. A table that refers to
        // a table with errors is not loaded (its references to the rows left out would be
        // errors of their own), nor checked: `state.failedTables`.
        let keepsGoing = state.loadsPastErrors
        // A table read from one CSV file is created by its loader (see above).
        let createdByLoader = Set(
            feeds.isRegion
                ? []
                : sources.filter {
                    !$0.byPosition && $0.files.count == 1
                        && !GeoJSONImporter.reads($0.files[0].file.name)
                }.map(\.table.name))
        let statements =
            schema.loadOrder.filter { !createdByLoader.contains($0.name) }.map(\.createStatement)
            + state.extraTables.map(\.table.createStatement)
        try queue.sync { connection throws(SQLiteError) in
            for statement in statements { try connection.execute(statement) }
            try LoadStage.insertFeeds(feeds, on: connection)
        }
        for source in sources {
            let table = source.table
            let errorsBefore = keepsGoing ? issues.errorCount : 0
            if keepsGoing
                && table.references.contains(where: { state.failedTables.union(state.skippedTables).contains($0.to) })
            {
                state.skippedTables.insert(table.name)
                state.readFiles += source.files.map(\.file)
                continue
            }
            let createsTable = createdByLoader.contains(table.name)
            if !createsTable {
                try queue.sync { [context] connection throws(SQLiteError) in
                    try context.indexes.createBeforeLoading(table, on: connection)
                }
            }
            var count = 0
            for (file, feed) in source.files {
                let loader = try TableLoader(
                    table: table, file: file.displayPath, context: context, createsTable: createsTable)
                loader.feedID = feeds.isRegion ? feed?.id : nil
                try queue.execute("BEGIN")
                var record =
                    GeoJSONImporter.reads(file.name)
                    ? try GeoJSONImporter(file: file, loader: loader, progress: progress).run()
                    : try CSVImporter(file: file, loader: loader, progress: progress, byPosition: source.byPosition)
                        .run()
                try? queue.drain() // a failure is in the issue log, or thrown by finish()
                try loader.completeTable()
                if feeds.isRegion, let feed { record.name = feed.name + "/" + record.name }
                state.records.append(record)
                state.readFiles.append(file)
                try queue.execute("COMMIT")
                count += loader.rowCount
                if record.rejected > 0 { state.rejected[table.name, default: 0] += record.rejected }
                if issues.hasErrors && !keepsGoing { break }
            }
            if !source.files.isEmpty { state.timer.mark("load \(table.name)") }
            state.rows.append(
                (table.name, table.name == Schema.feedsTable && feeds.isRegion ? feeds.feeds.count : count))
            if issues.hasErrors && !keepsGoing { throw BuildError.invalidInput(issues) }
            if keepsGoing && issues.errorCount > errorsBefore { state.failedTables.insert(table.name) }
        }
    }

    /// The tables in load order with their files, then the extra tables (`extraFiles`).
    private func sources() -> [Source] {
        let feeds = state.feeds
        var sources = state.schema.loadOrder.map { table in
            Source(
                table: table,
                files: feeds.feeds.compactMap { feed in
                    table.file.flatMap { feed.inputs.file(named: $0) }.map { ($0, feeds.isRegion ? feed : nil) }
                }, byPosition: false)
        }
        for extra in state.extraTables {
            sources.append(Source(table: extra.table, files: extra.files.map { ($0.file, $0.feed) }, byPosition: true))
        }
        return sources
    }
}
