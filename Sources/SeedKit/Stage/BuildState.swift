import SeedDeltas
import SeedSQLite

/// One step of a build, run in order by `SeedBuilder`: load, GTFS checks, stable ids, derive,
/// index, finish.
/// Each has one job and reads and writes the build's shared state (`BuildState`) only.
protocol BuildStage: Sendable {
    func run(_ state: BuildState) throws
}

/// What the stages of one build share: its inputs and schema, the scratch database, the issue
/// log, and what each stage leaves for the next (rows loaded, derive recipes, metadata).
/// Used by one thread at a time (the stages run one after the other); the loaders' own state
/// while rows stream in is `BuildContext`.
final class BuildState {
    let options: BuildOptions
    let schema: Schema
    /// The feeds (one, or several for a region seed).
    let feeds: InputFeeds
    /// Every input file, of every feed.
    var inputs: InputSet { feeds.all }
    let issues: IssueLog
    let database: SeedDatabase
    /// The seed ids are kept from (`--previous`), checked against the schema.
    let previous: PreviousSeed?
    /// Times the stages, from the start of the build (`prepare` reads the schema and the inputs).
    let timer: PhaseTimer
    weak var progress: BuildProgress?

    // Load.
    /// Load every file past data errors, and fail after the checks stage (GTFS feeds, set by
    /// the builder: `GTFSChecks.applies`), so that one build reports every problem.
    var loadsPastErrors = false
    /// The tables of the CSV inputs no table of the schema reads (`extraFiles`).
    var extraTables: [ExtraFiles.Source] = []
    /// The loaders' shared state: reference statistics, indexes created while loading.
    var context: BuildContext?
    var records: [InputRecord] = []
    /// The input files read, in the order they were read (`records` names them).
    var readFiles: [InputFile] = []
    /// GTFS: the tables with data errors while loading (rows may be left out), and those not
    /// loaded because they refer to one (`CSVLoad`); see `GTFSChecks.failed`.
    var failedTables: Set<String> = []
    var skippedTables: Set<String> = []
    /// Rows per table, in load order (derived tables' counts are set by the derive stage).
    var rows: [(name: String, rows: Int)] = []
    var filtered: [String: Int] = [:]
    var rejected: [String: Int] = [:]

    // Stable ids: the `seedgen_metadata` entries of `--previous`.
    var previousMetadata: [(key: String, value: String)] = []
    /// With `--previous`: the tables whose ids the stable-ids stage changed after the load.
    var renumberedTables: Set<String> = []

    // Derive and index: what the seed computes from its rows, in the order it is computed (the
    // installer derives again in this order), and what the query features cost.
    var recipes: [DeriveRecipe] = []
    var costs: [QueryIndexCost] = []
    /// A region seed's feeds as their `feeds` rows record them (`FeedsStage`); empty for one feed.
    var feedSummaries: [FeedSummary] = []

    // Finish.
    /// Jobs that only read the final rows, which the finish stage runs beside the content digest
    /// and `VACUUM INTO` (the GTFS checks of a feed that loaded without errors: `GTFSCheckStage`).
    var readers: [ReadingJob] = []
    var seedVersion = ""
    var contentDigest = ""
    /// Whether the derive stage filled `trip_patterns` from what the load stage saw (`TripStopLog`).
    var tripPatternsFromLoad = false

    init(
        options: BuildOptions, schema: Schema, feeds: InputFeeds, issues: IssueLog, database: SeedDatabase,
        previous: PreviousSeed?,
        progress: BuildProgress?, timer: PhaseTimer = PhaseTimer()
    ) {
        self.timer = timer
        self.options = options
        self.schema = schema
        self.feeds = feeds
        self.issues = issues
        self.database = database
        self.previous = previous
        self.progress = progress
    }

    /// The schema's tables in load order, then the extra tables.
    var allTables: [Table] { schema.loadOrder + extraTables.map(\.table) }

    /// In a region seed, the tables whose rows name their feed (`feed_ref`); none for one feed.
    var feedScopedTables: [Table] {
        feeds.isRegion ? allTables.filter { $0.column(named: Schema.feedColumn) != nil } : []
    }

    /// The scratch database's connection, once the loaders' writer thread has given it back.
    var connection: Connection {
        guard let connection = database.connection else {
            preconditionFailure("the scratch database is lent to the writer thread or closed")
        }
        return connection
    }

    /// Sets the row count of `table` (adding it when the loaders did not count it).
    func setRows(_ count: Int, of table: String) {
        if let index = rows.firstIndex(where: { $0.name == table }) {
            rows[index].rows = count
        } else {
            rows.append((table, count))
        }
    }
}
