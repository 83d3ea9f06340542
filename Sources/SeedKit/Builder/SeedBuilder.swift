import Foundation
import SeedArchive
import SeedSQLite
import SeedSystem

/// Builds one seed: reads the inputs through the schema into a scratch database, indexes,
/// analyzes and compacts it, and renames it over the output only when all went well.
public struct SeedBuilder {
    /// What to build, from what.
    public let options: BuildOptions
    /// Told what is read, as it is read (held weakly).
    public weak var progress: BuildProgress?

    /// A builder for `options`; `progress` hears of each file and table as it loads.
    public init(options: BuildOptions, progress: BuildProgress? = nil) {
        self.options = options
        self.progress = progress
    }

    /// Runs the build. On failure nothing is written and an existing output is untouched.
    /// With `options.notices`, the notices report is written either way.
    public func build() throws(BuildError) -> BuildSummary {
        guard let path = options.notices else { return try build(issues: IssueLog()) }
        let report = try NoticeReport(path: path, today: options.effectiveToday)
        let summary: BuildSummary
        do { summary = try build(issues: IssueLog(observer: { report.record($0) })) } catch {
            try? report.finish(built: false) // the build's own failure is the one to report
            throw error
        }
        try report.finish(built: true)
        return summary
    }

    private func build(issues: IssueLog) throws(BuildError) -> BuildSummary {
        let clock = ContinuousClock.now
        let timer = PhaseTimer()
        var feeds: InputFeeds
        do { feeds = try InputFeeds(paths: options.inputs, named: options.feeds) } catch { throw .input(error) }
        var schema: Schema
        do {
            schema = try SchemaLocator.schema(
                explicit: options.schemaPath, inputPaths: feeds.all.paths, inputs: feeds.all)
        } catch {
            // A folder of feed folders (`gtfs/metro/feed`): say what to build instead.
            if options.schemaPath == nil && options.feeds.isEmpty && options.inputs.count == 1,
                let found = SchemaLocator.feedsBelow(options.inputs[0])
            {
                throw .schema(SchemaError(code: .noSchema, file: options.inputs[0], message: found))
            }
            throw .schema(error)
        }
        schema = GTFSChecks.checkingKeys(of: schema)
        if feeds.isRegion { schema = try Self.scopedByFeed(schema, feedCount: feeds.feeds.count) }
        var previous: PreviousSeed?
        if let path = options.previous {
            previous = try PreviousSeed(path: path, schema: schema)
            if feeds.isRegion, let previous {
                feeds.assignIDs(
                    previous: previous.feedIDs(), highWater: previous.recordedMaximumID(Schema.feedsTable) ?? 0)
            }
        }
        if feeds.isRegion { issues.feedOfFile = feeds.feedNames() }

        let emptyFiles = schema.format == .csv ? feeds.all.files.filter { $0.size == 0 } : []
        for file in emptyFiles {
            issues.record(
                BuildIssue(kind: .emptyFile, file: file.displayPath, message: "is empty (0 bytes); treated as absent"))
        }
        feeds.remove(emptyFiles)
        for feed in feeds.feeds { try checkRequiredFiles(schema: schema, inputs: feed.inputs, issues: issues) }
        if issues.hasErrors { throw .invalidInput(issues) }
        let database = try SeedDatabase(outputPath: options.output)
        let state = BuildState(
            options: options, schema: schema, feeds: feeds, issues: issues, database: database, previous: previous,
            progress: progress, timer: timer)
        state.loadsPastErrors = GTFSChecks.applies(to: schema)
        try runStages(state, database: database)
        let written: FileStatus?
        do { written = try FileSystem.status(options.output) } catch {
            throw .output(
                path: options.output, message: "cannot read the seed just written: \(error.text)", cause: error)
        }
        var summary = BuildSummary(
            output: options.output, schemaName: schema.name, schemaVersion: schema.schemaVersion,
            seedVersion: state.seedVersion, tables: state.rows, inputs: state.records,
            references: state.context?.referenceStatistics ?? [:], filtered: state.filtered, rejected: state.rejected,
            warnings: issues.warningCount, warningReport: issues.report(errors: false), outputBytes: written?.size ?? 0,
            seconds: (ContinuousClock.now - clock).seconds, queryIndexes: state.costs,
            contentDigest: state.contentDigest,
            feeds: state.feedSummaries, timings: state.timer.stages)
        summary.tripPatternsFromLoad = state.tripPatternsFromLoad
        return summary
    }

    /// The schema of a region: each table scoped by feed. A region adds a table `feeds` and a column
    /// `feed_ref`: a schema using those names cannot hold several feeds.
    private static func scopedByFeed(_ schema: Schema, feedCount: Int) throws(BuildError) -> Schema {
        if let table = schema.tables.first(where: {
            $0.name == Schema.feedsTable || $0.column(named: Schema.feedColumn) != nil
        }) {
            let what =
                table.name == Schema.feedsTable
                ? "a table '\(Schema.feedsTable)'" : "a column '\(Schema.feedColumn)' in table '\(table.name)'"
            let place =
                table.name == Schema.feedsTable
                ? schema.places.tables[table.name] : schema.places.place(of: Schema.feedColumn, in: table.name)
            throw .schema(
                SchemaError(
                    file: schema.places.file, line: place?.line, column: place?.column,
                    message:
                        """
                        has \(what), which a seed of several feeds adds itself: rename it to build \
                        \(feedCount) feeds into one seed
                        """
                ))
        }
        return schema.scopedByFeed()
    }

    /// Runs every stage; a failure discards the scratch database and names the stage.
    private func runStages(_ state: BuildState, database: SeedDatabase) throws(BuildError) {
        var stageName = ""
        do {
            state.timer.endStage("prepare")
            for (name, stage) in Self.stages {
                stageName = String(describing: type(of: stage))
                try stage.run(state)
                CurrentProcess.returnFreedMemory() // what the stage freed: 3 MB of the 3M build's peak
                state.timer.endStage(name)
            }
        } catch {
            database.discard()
            switch error {
            case let error as BuildError: throw error
            case let error as SQLiteError where error.isDiskFull:
                throw .output(path: options.output, message: "the disk is full (\(error.message))", cause: error)
            case let error as SQLiteError:
                // Never seedgen's scratch tables in a message: SQLite's own words only when
                // they name none (a derive recipe's table or column helps).
                let detail = error.message.contains("seedgen_") ? "" : ": \(error.message)"
                throw .output(
                    path: options.output,
                    message: "SQLite error \(error.code) (\(error.codeDescription)) in stage \(stageName)\(detail)",
                    cause: error)
            default: throw .output(path: options.output, message: "\(error)", cause: error)
            }
        }
    }

    /// The stages of every build, in order. The GTFS checks read the rows as loaded. Stable ids
    /// come before deriving: the installer derives from the final ids after a delta, so the
    /// build derives from them too.
    /// The stages in the order they run, each with its name in `--timings` (the content digest,
    /// part of the finish stage, is timed on its own: `FinishStage`).
    static let stages: [(name: String, stage: any BuildStage)] = [
        ("load", LoadStage()), (GTFSCheckStage.name, GTFSCheckStage()), ("stable ids", StableIDs()),
        ("derive", DeriveStage()),
        ("feeds", FeedsStage()), ("index", IndexStage()), ("finish", FinishStage())
    ]

    /// Records every required input file `inputs` (a feed) misses.
    private func checkRequiredFiles(schema: Schema, inputs: InputSet, issues: IssueLog) throws(BuildError) {
        if schema.format == .xml {
            // XML: every top-level table needs some input matching its `file` (default *.xml);
            // an OSM PBF file matches as its `.osm` name.
            let names = inputs.files.map(OSMPBFFile.patternName(of:))
            for table in schema.tables where !table.optional && table.element != nil && table.parent == nil {
                let pattern = table.file ?? "*.xml"
                if !names.contains(where: { XMLMapping.file($0, matches: pattern) }) {
                    issues.record(
                        BuildIssue(
                            kind: .missingFile, file: pattern,
                            message: "is required by table '\(table.name)' but no input matches it in \(inputs.sources)"
                        ))
                }
            }
            return
        }
        for table in schema.tables
        where !table.optional && !GTFSChecks.mayBeAbsent(table, schema: schema, inputs: inputs) {
            if let name = table.file, inputs.file(named: name) == nil {
                issues.record(
                    BuildIssue(
                        kind: .missingFile, file: name,
                        message: "is required by table '\(table.name)' but is not in \(inputs.sources)"))
            }
        }
    }

}

extension Schema {
    /// The schema's meaning as text, independent of comments and layout in its file.
    var canonicalDescription: String {
        let namespaceText = namespaces.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        let entitiesText = entities == .xml ? "" : " entities=\(entities.rawValue)" // read differently: another seed
        return
            """
            \(name) \(schemaVersion) \(format.rawValue) [\(namespaceText)]\(entitiesText) \
            \(String(reflecting: tables))
            """
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    package var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
