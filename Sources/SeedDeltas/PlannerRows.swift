import SeedArchive
import SeedSQLite

/// The journey planner's derived tables of the transit schema (`trip_patterns`,
/// `pattern_stops`, `footpaths`, and a region seed's walks between feeds) computed in Swift:
/// the rows each recipe's SQL gives, the same ids and values, inserted in the recipe's order.
/// `trip_patterns` by one pass over `stop_times` in key order (at 3M stop_times, 0.2 CPU-s just
/// to read them; the SQL, which groups and sorts every trip's stops as text, 0.6 CPU-s),
/// `pattern_stops` from the patterns that pass met, `footpaths` by ``FootpathRows``.
///
/// The build uses it (SeedKit's `PlannerTables`, which also has what its load saw of
/// `stop_times`), and so does the installer after a delta (``DeltaPatch``), for a recipe whose
/// statement is exactly one it knows (``knownRecipes``: the SHA-256 of its `fill`); any other
/// runs as SQL. A row here that differs from the recipe's is a bug (a patched seed's digest
/// would differ from the built one's): the tests compare both on every shared feed.
package final class PlannerRows {
    /// The column of a region seed's feed.
    package static let feedColumn = "feed_ref"

    /// A pattern: its feed (0 in a seed of one feed) and its timed stops in order.
    package struct PatternKey: Hashable {
        package var feed: Int64
        package private(set) var stops: [Int64] = []
        /// A hash of `stops` kept as they are appended (FNV-1a over their ids): a lookup then
        /// hashes three numbers, not every stop again.
        private var mixed: UInt64 = 0xcbf2_9ce4_8422_2325

        package init(feed: Int64) { self.feed = feed }

        package mutating func append(_ stop: Int64) {
            stops.append(stop)
            mixed = (mixed ^ UInt64(bitPattern: stop)) &* 0x100_0000_01b3
        }

        mutating func start(feed: Int64) {
            self.feed = feed
            stops.removeAll(keepingCapacity: true)
            mixed = 0xcbf2_9ce4_8422_2325
        }

        package static func == (a: PatternKey, b: PatternKey) -> Bool { a.feed == b.feed && a.stops == b.stops }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(feed)
            hasher.combine(stops.count)
            hasher.combine(mixed)
        }
    }

    /// The patterns met in the `trip_patterns` pass, each with its id (its first trip), in the
    /// order met (ascending ids); nil until that pass ran here.
    package var patterns: [(key: PatternKey, id: Int64)]?
    /// Whether `pattern_stops` was filled here (its rows: `patterns`' stops).
    private var patternStopsFilled = false

    package init() {}

    /// `trip_patterns`: each trip's timed stops (a stop and a time), in stop_sequence order;
    /// a trip of two or more is given the smallest id of the trips with the same stops (of its
    /// feed): the first met, the pass being in trip_ref order. `region`: the seed holds several
    /// feeds, each table a first column `feed_ref`, each feed's rows derived from its own.
    package func fillTripPatterns(region: Bool, connection: Connection) throws(SQLiteError) {
        let read = try connection.prepare(
            """
            SELECT \(region ? quoted(Self.feedColumn) : "0"), trip_ref, stop_ref FROM stop_times
             WHERE stop_ref IS NOT NULL AND coalesce(arrival_time, departure_time) IS NOT NULL
             ORDER BY trip_ref, stop_sequence
            """)
        let insert = try IntegerRowInserter(
            into: "trip_patterns", columns: (region ? [Self.feedColumn] : []) + ["trip_ref", "pattern"],
            connection: connection)
        var ids: [PatternKey: Int64] = [:]
        var met: [(key: PatternKey, id: Int64)] = []
        var key = PatternKey(feed: 0)
        var trip: Int64?
        // A region seed's rows go in feed by feed, as the recipe run once per feed writes them
        // (the order rows go in shows in the seed's ANALYZE estimates): a trip's new id may be
        // larger than another feed's (--previous). Kept until the pass ends: the recipe's rows.
        var regionRows: [(feed: Int64, trip: Int64, pattern: Int64)] = []
        func finishTrip() throws(SQLiteError) {
            guard let trip, key.stops.count >= 2 else { return }
            let pattern: Int64
            if let id = ids[key] {
                pattern = id
            } else {
                pattern = trip
                ids[key] = trip
                met.append((key, trip))
            }
            if region { regionRows.append((key.feed, trip, pattern)) } else { try insert.insert(trip, pattern) }
        }
        while try read.step() {
            let rowTrip = read.int64(at: 1)
            if rowTrip != trip {
                try finishTrip()
                trip = rowTrip
                key.start(feed: read.int64(at: 0))
            }
            key.append(read.int64(at: 2))
        }
        try finishTrip()
        for row in regionRows.sorted(by: { ($0.feed, $0.trip) < ($1.feed, $1.trip) }) {
            try insert.insert(row.feed, row.trip, row.pattern)
        }
        try insert.flush()
        patterns = met
    }

    /// `pattern_stops`: each pattern's stops, positions from 0, patterns in id order (in a
    /// region seed, feed by feed). Returns false, with nothing written, when `trip_patterns`
    /// was not filled here (its patterns are not known).
    package func fillPatternStops(region: Bool, connection: Connection) throws(SQLiteError) -> Bool {
        guard let patterns else { return false }
        let insert = try IntegerRowInserter(
            into: "pattern_stops", columns: (region ? [Self.feedColumn] : []) + ["pattern", "position", "stop_ref"],
            connection: connection)
        for (key, id) in patterns.sorted(by: { ($0.key.feed, $0.id) < ($1.key.feed, $1.id) }) {
            for (position, stop) in key.stops.enumerated() {
                if region {
                    try insert.insert(key.feed, id, Int64(position), stop)
                } else {
                    try insert.insert(id, Int64(position), stop)
                }
            }
        }
        try insert.flush()
        patternStopsFilled = true
        return true
    }

    /// `footpaths` (``FootpathRows``; in a region seed each feed's rows from its own, not the
    /// walks between feeds); false, nothing written, when a coordinate is not a number.
    package func fillFootpaths(region: Bool, connection: Connection) throws(SQLiteError) -> Bool {
        // The stops of pattern_stops: its rows are `patterns`' stops, when filled here.
        let served = patternStopsFilled ? patterns.map { Set($0.lazy.flatMap(\.key.stops)) } : nil
        return try FootpathRows.fill(connection, served: served, region: region)
    }
}
