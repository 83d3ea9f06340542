/// What a build produced.
public struct BuildSummary: Sendable {
    public var output: String
    public var schemaName: String
    public var schemaVersion: Int
    public var seedVersion: String
    /// Rows per table, in load order.
    public var tables: [(name: String, rows: Int)]
    public var inputs: [InputRecord]
    /// How references were resolved, by `table.column`.
    public var references: [String: ReferenceStatistics]
    /// Records skipped by filters, by table.
    public var filtered: [String: Int]
    /// Rows left out by `--lenient`, by table.
    public var rejected: [String: Int] = [:]
    public var warnings: Int
    /// The warnings, grouped, as text.
    public var warningReport: String
    public var outputBytes: Int64
    public var seconds: Double
    /// What each search and spatial index and each derived table (`service_dates`) adds.
    public var queryIndexes: [QueryIndexCost] = []
    /// The seed's content digest (`content_sha256`, see `Documentation/content-digest.md`).
    public var contentDigest: String = ""
    /// A region seed's feeds: name, source, validity and rows per table; empty for one feed.
    public var feeds: [FeedSummary] = []
    /// What each stage took, in order (`seedgen build --timings`).
    public var timings: [StageTiming] = []

    public var totalRows: Int { tables.reduce(0) { $0 + $1.rows } }
}
