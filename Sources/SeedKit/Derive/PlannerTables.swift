import SeedArchive
import SeedSQLite

/// The journey planner's derived tables of the transit schema (`trip_patterns`,
/// `pattern_stops`, `footpaths`) computed in Swift by the build, instead of by their recipes'
/// SQL: the rows each recipe gives, the same ids and values, inserted in the recipe's order,
/// from one pass over `stop_times` in key order (`trip_patterns` in SQL groups and sorts every
/// trip's stops as text: 0.6 CPU-s at 3M stop_times). The seed still records the recipes, and
/// the installer derives with them after a delta: a row here that differs from the recipe's is
/// a bug (a patched seed's digest would differ from the built one's), and the tests compare
/// both on every shared feed.
///
/// Only a recipe whose text is the one written for (its SHA-256 below) is computed here; any
/// other runs as SQL, as does a table whose inputs hold what the Swift does not model (a
/// coordinate stored as text). It keeps each distinct pattern's stops (the rows of
/// `pattern_stops`), nothing per trip.
final class PlannerTables {
    /// The SHA-256 of each recipe's SQL (`derive.sql` in Schema/transit.yaml) computed here.
    static let recipeDigests = [
        "trip_patterns": "b355c04a123ff9fecb10e15fc99298554921686c37aef67d33bb6668cfaa7949",
        "pattern_stops": "02d7457808208e0658edda7b35e43b985db81556678a7e9805e55e001bed7ea0",
        "footpaths": "bcdc1e07a2b961e660b5e12968b395e0b8842419d79ef3935b4d9f773fb261d7"
    ]

    /// A pattern: its feed (0 in a seed of one feed) and its timed stops in order.
    private struct PatternKey: Hashable {
        var feed: Int64
        private(set) var stops: [Int64] = []
        /// A hash of `stops` kept as they are appended (FNV-1a over their ids): a lookup then
        /// hashes three numbers, not every stop again.
        private var mixed: UInt64 = 0xcbf2_9ce4_8422_2325

        init(feed: Int64) { self.feed = feed }

        mutating func append(_ stop: Int64) {
            stops.append(stop)
            mixed = (mixed ^ UInt64(bitPattern: stop)) &* 0x100_0000_01b3
        }

        mutating func start(feed: Int64) {
            self.feed = feed
            stops.removeAll(keepingCapacity: true)
            mixed = 0xcbf2_9ce4_8422_2325
        }

        static func == (a: PatternKey, b: PatternKey) -> Bool { a.feed == b.feed && a.stops == b.stops }

        func hash(into hasher: inout Hasher) {
            hasher.combine(feed)
            hasher.combine(stops.count)
            hasher.combine(mixed)
        }
    }

    /// The patterns met in the `trip_patterns` pass, each with its id (its first trip), in
    /// the order met (ascending ids); nil until that pass ran here.
    private var patterns: [(key: PatternKey, id: Int64)]?

    /// Whether `table`'s recipe is one this computes.
    static func handles(_ table: Table) -> Bool {
        guard let sql = table.derive?.sql, let digest = recipeDigests[table.name] else { return false }
        var hash = SHA256()
        hash.update(Array(sql.utf8))
        return hash.hexDigest() == digest
    }

    /// Fills `table` with its recipe's rows and returns true, or returns false (nothing
    /// written) when the recipe is to run as SQL. `region`: the seed holds several feeds, each
    /// table a first column `feed_ref`, each feed's rows derived from its own.
    func fill(_ table: Table, region: Bool, connection: Connection) throws(SQLiteError) -> Bool {
        guard Self.handles(table) else { return false }
        switch table.name {
        case "trip_patterns":
            try fillTripPatterns(region: region, connection: connection)
            return true
        case "pattern_stops":
            guard let patterns else { return false }
            try fillPatternStops(patterns, region: region, connection: connection)
            return true
        case "footpaths":
            guard !region else { return false }
            return try Footpaths.fill(connection)
        default:
            return false
        }
    }

    /// `trip_patterns`: each trip's timed stops (a stop and a time), in stop_sequence order;
    /// a trip of two or more is given the smallest id of the trips with the same stops (of its
    /// feed): the first met, the pass being in trip_ref order.
    private func fillTripPatterns(region: Bool, connection: Connection) throws(SQLiteError) {
        let read = try connection.prepare(
            """
            SELECT \(region ? quoted(Schema.feedColumn) : "0"), trip_ref, stop_ref FROM stop_times
             WHERE stop_ref IS NOT NULL AND coalesce(arrival_time, departure_time) IS NOT NULL
             ORDER BY trip_ref, stop_sequence
            """)
        let insert = try IntegerRowInserter(
            into: "trip_patterns", columns: (region ? [Schema.feedColumn] : []) + ["trip_ref", "pattern"],
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
    /// region seed, feed by feed).
    private func fillPatternStops(
        _ patterns: [(key: PatternKey, id: Int64)], region: Bool, connection: Connection
    ) throws(SQLiteError) {
        let insert = try IntegerRowInserter(
            into: "pattern_stops", columns: (region ? [Schema.feedColumn] : []) + ["pattern", "position", "stop_ref"],
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
    }
}
