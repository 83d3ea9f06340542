import Foundation
import SeedSQLite

/// What to build and how.
public struct BuildOptions: Sendable {
    /// Input folders, `.zip` archives or files.
    public var inputs: [String]
    /// Named feeds (`--feed NAME=PATH`): with `inputs`, two feeds or more make a region seed
    /// (see `InputFeeds`).
    public var feeds: [String] = []
    /// The seed file to write.
    public var output: String
    /// The schema file; nil to look it up (see `SchemaLocator`).
    public var schemaPath: String?
    /// The seed version to stamp; nil for the default, a digest of the schema and inputs.
    public var seedVersion: String?
    /// Keep rows whose references name no row (with a NULL reference) instead of failing.
    public var allowDangling: Bool
    /// Overrides the lookup cache size of every reference.
    public var cacheSize: Int?
    /// The most keys kept per table in the map from integer keys to row ids that resolves
    /// references to tables whose keys ascend (OSM ids) without a query: 8 bytes a key;
    /// default `IDMap.defaultCapacity` (2,097,152: 16 MiB). 0 turns the maps off.
    public var idMapCapacity = 2_097_152
    /// The seed this one follows (`--previous`): rows keep its ids, new rows get ids above
    /// any it gave, and references follow (see `StableIDs`). It must be a seed of the same
    /// schema. nil numbers rows in input order, as without it.
    public var previous: String?
    /// Bounds on record, key and nesting sizes (see `InputLimits`).
    public var limits = InputLimits()
    /// Keep going past data errors: a bad value in a nullable column becomes NULL, a row that
    /// cannot be kept (bad required value, duplicate key, wrong field count) is left out, a
    /// dangling reference becomes NULL; each decision is a warning, and the rows left out are
    /// counted in `seedgen_inputs.rejected`. Implies `allowDangling`.
    public var lenient: Bool
    /// Fail the build on what is otherwise a warning about the input's form: CSV syntax
    /// repairs (text after a closing quote, a quote inside an unquoted field, spaces before an
    /// opening quote) and mapping mistakes (a table with no rows, a source that matched nothing).
    public var strict: Bool
    /// Where to write the notices report (`--notices`, see `NoticeReport`): every issue with its
    /// code, severity and place, written whether the build succeeds or fails. nil: none.
    public var notices: String?
    /// The day the GTFS date-relative rules take as today (`--today`, `YYYY-MM-DD`): a calendar
    /// that ended before it is `expired_calendar`, a week from it without trips is
    /// `trip_coverage_not_active_for_next7_days`. nil: the build's date (UTC). Recorded in the
    /// notices report, not in the seed, so a seed's bytes do not depend on it.
    public var today: String?

    /// `today`, or the build's date (UTC), as `YYYY-MM-DD`.
    public var effectiveToday: String {
        // Worked out from the clock, not with a date formatter: that loads ICU's tables (a few
        // megabytes of the build's peak memory) for one date.
        today ?? CivilDate.text(Int((Date().timeIntervalSince1970 / 86_400).rounded(.down)))
    }

    /// Options for building `inputs` into `output`; the defaults are those of `seedgen build`.
    public init(
        inputs: [String], output: String, schemaPath: String? = nil, seedVersion: String? = nil,
        allowDangling: Bool = false, cacheSize: Int? = nil, lenient: Bool = false, strict: Bool = false
    ) {
        self.inputs = inputs
        self.output = output
        self.schemaPath = schemaPath
        self.seedVersion = seedVersion
        self.allowDangling = allowDangling
        self.cacheSize = cacheSize
        self.lenient = lenient
        self.strict = strict
    }
}
