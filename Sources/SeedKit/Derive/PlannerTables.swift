import SeedArchive
import SeedSQLite

/// The journey planner's derived tables of the transit schema (`trip_patterns`,
/// `pattern_stops`, `footpaths`) computed in Swift by the build, instead of by their recipes'
/// SQL: the rows each recipe gives, the same ids and values, inserted in the recipe's order.
/// `trip_patterns` from what the load stage saw of `stop_times` (`TripStopLog`: each trip's
/// stops, grouped on the reader's thread while the writer stores the rows), or, when that does
/// not hold the rows stored, from one pass over `stop_times` in key order (0.2 CPU-s at 3M
/// stop_times just to read them; in SQL, which groups and sorts every trip's stops as text,
/// 0.6 CPU-s). The seed still records the recipes, and
/// the installer derives with them after a delta: a row here that differs from the recipe's is
/// a bug (a patched seed's digest would differ from the built one's), and the tests compare
/// both on every shared feed.
///
/// Only a recipe whose text is the one written for (its SHA-256 below) is computed here; any
/// other runs as SQL, as does a table whose inputs hold what the Swift does not model (a
/// coordinate stored as text). It keeps each distinct pattern's stops (the rows of
/// `pattern_stops`); the log, one number a trip.
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

    /// What the load stage saw of `stop_times` (nil: nothing, or rows were left out after it).
    private let log: TripStopLog?
    /// Whether `pattern_stops` was filled here (its rows: `patterns`' stops).
    private var patternStopsFilled = false
    /// Whether `trip_patterns` was filled from `log`.
    private(set) var filledFromLog = false

    /// - Parameter log: what the load stage saw of `stop_times`, if every row it saw is stored.
    init(log: TripStopLog? = nil) { self.log = log }

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
            if !region, let log, try fillTripPatterns(from: log, connection: connection) {
                filledFromLog = true
                return true
            }
            try fillTripPatterns(region: region, connection: connection)
            return true
        case "pattern_stops":
            guard let patterns else { return false }
            try fillPatternStops(patterns, region: region, connection: connection)
            patternStopsFilled = true
            return true
        case "footpaths":
            guard !region else { return false }
            // The stops of pattern_stops: its rows are `patterns`' stops, when filled here.
            let served = patternStopsFilled ? patterns.map { Set($0.lazy.flatMap(\.key.stops)) } : nil
            return try Footpaths.fill(connection, served: served)
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

extension PlannerTables {
    /// `trip_patterns` from what the load stage saw (`TripStopLog`): its patterns (trips with
    /// the same `stop_id`s) regrouped by their stops' ids, each the id of its smallest trip.
    /// Returns false, with nothing written, when the log does not hold the rows stored: a row
    /// it did not expect, a trip's rows apart, an id the writer did not resolve as here.
    fileprivate func fillTripPatterns(from log: TripStopLog, connection: Connection) throws(SQLiteError) -> Bool {
        log.endOfInput()
        defer { log.discard() }
        guard log.readAsExpected, log.everyTripResolved, log.readRows == log.writtenRows,
            log.tripRuns.reduce(0, { $0 + Int($1.count) }) == log.tripPatterns.count,
            let (groupOf, stops) = try stopGroups(of: log, connection: connection)
        else { return false }
        // Each group's id: its smallest trip.
        var first = [Int64](repeating: .max, count: stops.count)
        var ascending = true
        var previous = Int64.min
        var index = 0
        for run in log.tripRuns {
            if run.first <= previous { ascending = false }
            previous = run.first + run.count - 1
            for trip in run.first...previous {
                let pattern = log.tripPatterns[index]
                index += 1
                if pattern != TripStopLog.noPattern {
                    first[groupOf[Int(pattern)]] = min(first[groupOf[Int(pattern)]], trip)
                }
            }
        }
        var rows: [(trip: Int64, pattern: Int64)] = []
        if !ascending { // a trip's rows apart: two runs would hold it
            rows.reserveCapacity(log.tripPatterns.count)
            index = 0
            for run in log.tripRuns {
                for trip in run.first..<(run.first + run.count) {
                    let pattern = log.tripPatterns[index]
                    index += 1
                    rows.append((trip, pattern == TripStopLog.noPattern ? -1 : first[groupOf[Int(pattern)]]))
                }
            }
            rows.sort { $0.trip < $1.trip }
            for i in rows.indices.dropFirst() where rows[i].trip == rows[i - 1].trip { return false }
            rows.removeAll { $0.pattern == -1 }
        }
        let insert = try IntegerRowInserter(
            into: "trip_patterns", columns: ["trip_ref", "pattern"], connection: connection)
        if ascending {
            index = 0
            for run in log.tripRuns {
                for trip in run.first..<(run.first + run.count) {
                    let pattern = log.tripPatterns[index]
                    index += 1
                    if pattern != TripStopLog.noPattern { try insert.insert(trip, first[groupOf[Int(pattern)]]) }
                }
            }
        } else {
            for row in rows { try insert.insert(row.trip, row.pattern) }
        }
        try insert.flush()
        patterns = stops.indices.map { group in
            var key = PatternKey(feed: 0)
            for stop in stops[group] { key.append(stop) }
            return (key, first[group])
        }.sorted { $0.id < $1.id }
        return true
    }

    /// The log's patterns regrouped by their stops' ids (`stop_id` looked up as the writer's
    /// resolver does): per logged pattern its group, and each group's stops; nil when a stop is
    /// not found.
    private func stopGroups(
        of log: TripStopLog, connection: Connection
    ) throws(SQLiteError) -> (groupOf: [Int], stops: [[Int64]])? {
        let lookup = try connection.prepare(#"SELECT "id" FROM "stops" WHERE "stop_id" = ? ORDER BY 1 LIMIT 1"#)
        var stopIDs: [ArraySlice<UInt8>: Int64] = [:]
        var groups: [[Int64]: Int] = [:]
        var groupOf: [Int] = []
        var stops: [[Int64]] = []
        for pattern in log.patterns.indices {
            var ids: [Int64] = []
            for stop in log.stopIDs(ofPattern: pattern) {
                if let id = stopIDs[stop] {
                    ids.append(id)
                    continue
                }
                try lookup.bind([.text(String(decoding: stop, as: UTF8.self))])
                let found = try lookup.step()
                let id = found ? lookup.int64(at: 0) : 0
                lookup.reset()
                guard found else { return nil }
                stopIDs[stop] = id
                ids.append(id)
            }
            if let group = groups[ids] {
                groupOf.append(group)
            } else {
                groups[ids] = stops.count
                groupOf.append(stops.count)
                stops.append(ids)
            }
        }
        return (groupOf, stops)
    }
}
