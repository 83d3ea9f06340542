import SeedArchive
import SeedDeltas
import SeedSQLite

/// The journey planner's derived tables of the transit schema (`trip_patterns`,
/// `pattern_stops`, `footpaths`) computed in Swift by the build, instead of by their recipes'
/// SQL: the rows each recipe gives, the same ids and values, inserted in the recipe's order.
/// `trip_patterns` from what the load stage saw of `stop_times` (`TripStopLog`: each trip's
/// stops, grouped on the reader's thread while the writer stores the rows), or, when that does
/// not hold the rows stored, from one pass over `stop_times` in key order (`PlannerRows`, in
/// SeedDeltas: the installer computes the tables with it after a delta). The seed still
/// records the recipes: a row here that differs from the recipe's is a bug (a patched seed's
/// digest would differ from the built one's), and the tests compare both on every shared feed.
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

    /// The rows computed without the log, and the patterns met (from the log or not).
    let rows = PlannerRows()
    /// What the load stage saw of `stop_times` (nil: nothing, or rows were left out after it).
    private let log: TripStopLog?
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
            try rows.fillTripPatterns(region: region, connection: connection)
            return true
        case "pattern_stops":
            return try rows.fillPatternStops(region: region, connection: connection)
        case "footpaths":
            return try rows.fillFootpaths(region: region, connection: connection)
        default:
            return false
        }
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
        self.rows.patterns = stops.indices.map { group in
            var key = PlannerRows.PatternKey(feed: 0)
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
