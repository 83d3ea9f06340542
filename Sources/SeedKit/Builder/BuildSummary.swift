/// What a build produced.
public struct BuildSummary: Sendable {
    /// The seed file written.
    public var output: String
    /// The schema's `name`.
    public var schemaName: String
    /// The schema's `schemaVersion`, stamped in the seed's header (`user_version`).
    public var schemaVersion: Int
    /// The seed version stamped in `seedgen_metadata` (`--seed-version`, or one derived from the content).
    public var seedVersion: String
    /// Rows per table, in load order.
    public var tables: [(name: String, rows: Int)]
    /// Each input file read, as `seedgen_inputs` records it.
    public var inputs: [InputRecord]
    /// How references were resolved, by `table.column`.
    public var references: [String: ReferenceStatistics]
    /// Records skipped by filters, by table.
    public var filtered: [String: Int]
    /// Rows left out by `--lenient`, by table.
    public var rejected: [String: Int] = [:]
    /// How many warnings the build reported.
    public var warnings: Int
    /// The warnings, grouped, as text.
    public var warningReport: String
    /// The seed file's size in bytes.
    public var outputBytes: Int64
    /// The wall time of the build.
    public var seconds: Double
    /// What each search and spatial index and each derived table (`service_dates`) adds.
    public var queryIndexes: [QueryIndexCost] = []
    /// The seed's content digest (`content_sha256`, see `Documentation/content-digest.md`).
    public var contentDigest: String = ""
    /// A region seed's feeds: name, source, validity and rows per table; empty for one feed.
    public var feeds: [FeedSummary] = []
    /// What each stage took, in order (`seedgen build --timings`).
    public var timings: [StageTiming] = []
    /// Whether `trip_patterns` came from what the load stage saw of `stop_times` (`TripStopLog`),
    /// not from reading it again (for the tests).
    var tripPatternsFromLoad = false

    /// Rows in every table together.
    public var totalRows: Int { tables.reduce(0) { $0 + $1.rows } }
}
