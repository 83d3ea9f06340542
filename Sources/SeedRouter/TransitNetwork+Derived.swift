import SeedSQLite

/// A row of the seed's `footpaths` (stop indexes): `kind` 0 a candidate within the walking
/// distance and 1 two stops of one station (both both ways), 2 a footpath of `transfers`, 3 one
/// it forbids (one way).
struct FootpathRow {
    let from: Int32
    let to: Int32
    let kind: Int64
    let time: Int64?
}

extension TransitNetwork {
    /// The tables the schema derives for the planner (since schema version 4).
    static let derivedTables = ["trip_patterns", "pattern_stops", "footpaths"]

    /// Whether the seed has `trip_patterns`, `pattern_stops` and `footpaths`.
    static func hasDerivedTables(_ db: Connection) throws -> Bool {
        let names = derivedTables.map { "'\($0)'" }.joined(separator: ", ")
        let sql = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (\(names))"
        return try db.scalar(sql) == .integer(Int64(derivedTables.count))
    }

    /// Whether a region seed's `footpaths` holds the walks between stops of different feeds:
    /// its `seedgen_derive` records their recipe (of kind `rows`, after the table's own), as a
    /// seed built since seedgen derives them does. A region seed built before is read as before:
    /// the planner measures those walks itself.
    static func derivesWalksAcrossFeeds(_ db: Connection) throws -> Bool {
        let recipes = try db.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'seedgen_derive'")
        guard recipes == .integer(1) else { return false }
        let sql = "SELECT count(*) FROM seedgen_derive WHERE target = 'footpaths' AND kind = 'rows'"
        return try db.scalar(sql) != .integer(0)
    }

    /// Each trip's pattern (the smallest trip id of the pattern), by trip index; -1 for none.
    func loadTripPatterns(_ db: Connection, tripIndex: [Int64: Int32]) throws -> [Int64] {
        var patterns = [Int64](repeating: -1, count: tripIDs.count)
        let statement = try db.prepare("SELECT trip_ref, pattern FROM trip_patterns ORDER BY trip_ref")
        while try statement.step() {
            if let trip = tripIndex[statement.int64(at: 0)] { patterns[Int(trip)] = statement.int64(at: 1) }
        }
        return patterns
    }

    /// The rows of `footpaths` between stops the network knows, in the table's order.
    func loadFootpaths(_ db: Connection) throws -> [FootpathRow] {
        let seedStop = SeedIDs(stopSeedIDs)
        let statement = try db.prepare(
            """
            SELECT from_stop_ref, to_stop_ref, kind, min_transfer_time FROM footpaths ORDER BY from_stop_ref, \
            to_stop_ref, kind
            """
        )
        var rows: [FootpathRow] = []
        while try statement.step() {
            guard let from = seedStop.index(of: statement.int64(at: 0)),
                let to = seedStop.index(of: statement.int64(at: 1))
            else { continue }
            let time: Int64? = statement.storageClass(at: 3) == .null ? nil : statement.int64(at: 3)
            rows.append(FootpathRow(from: from, to: to, kind: statement.int64(at: 2), time: time))
        }
        return rows
    }

    /// Each pattern's stops (stop indexes, in order), by pattern; nil when one is not a stop the
    /// network knows.
    func loadPatternStops(_ db: Connection) throws -> [Int64: [Int32]]? {
        let seedStop = SeedIDs(stopSeedIDs)
        var stops: [Int64: [Int32]] = [:]
        let statement = try db.prepare("SELECT pattern, stop_ref FROM pattern_stops ORDER BY pattern, position")
        while try statement.step() {
            guard let stop = seedStop.index(of: statement.int64(at: 1)) else { return nil }
            stops[statement.int64(at: 0), default: []].append(stop)
        }
        return stops
    }

    /// Reads the times of every trip's timed stops (the rows of `stop_times` that the recipe of
    /// `trip_patterns` reads), each trip's stops being its pattern's (`patterns`, by trip index:
    /// the pattern, -1 for none), so `stop_ref` is not read. The events are those
    /// `loadStopTimes` reads: the tables are derived from `stop_times` (again by each delta),
    /// and a trip's timed stops are trusted to be its pattern's. False where they cannot be (a
    /// trip whose number of timed stops is not its pattern's, a pattern without stops, a time
    /// below 0): what was read is then left to `loadStopTimes` to replace.
    mutating func loadTimes(
        _ db: Connection, tripIndex: [Int64: Int32], patterns: [Int64], stops: [Int64: [Int32]]
    ) throws -> Bool {
        let statement = try db.prepare(
            """
            SELECT trip_ref, coalesce(arrival_time, departure_time), coalesce(departure_time, arrival_time), \
            (pickup_type IS 1) + 2 * (drop_off_type IS 1) FROM stop_times \
            WHERE stop_ref IS NOT NULL AND coalesce(arrival_time, departure_time) IS NOT NULL \
            ORDER BY trip_ref, stop_sequence
            """)
        tripEventStart = Array(repeating: 0, count: tripIDs.count)
        tripEventEnd = Array(repeating: 0, count: tripIDs.count)
        (eventStop, eventArrival, eventDeparture, eventFlags) = ([], [], [], [])
        // The events to come, known from the patterns: the arrays are allocated once (a trip
        // without a pattern adds one row at most, removed when its next trip begins).
        let count = patterns.reduce(1) { $1 >= 0 ? $0 + (stops[$1]?.count ?? 0) : $0 }
        eventStop.reserveCapacity(count)
        eventArrival.reserveCapacity(count)
        eventDeparture.reserveCapacity(count)
        eventFlags.reserveCapacity(count)
        var (currentRef, current, begin): (Int64, Int32, Int) = (.min, -1, 0)
        var expected: [Int32] = []
        func close() -> Bool {
            guard current >= 0 else { return true }
            let count = eventArrival.count - begin
            if expected.isEmpty {
                // No pattern: fewer than two timed stops, which make no events.
                guard count < 2 else { return false }
                eventArrival.removeLast(count)
                eventDeparture.removeLast(count)
                eventFlags.removeLast(count)
            } else {
                guard count == expected.count else { return false }
                eventStop.append(contentsOf: expected)
            }
            (tripEventStart[Int(current)], tripEventEnd[Int(current)]) = (Int32(begin), Int32(eventArrival.count))
            return true
        }
        while try statement.step() {
            let ref = statement.int64(at: 0)
            if ref != currentRef {
                guard close() else { return false }
                (currentRef, current, begin) = (ref, tripIndex[ref] ?? -1, eventArrival.count)
                let pattern = current >= 0 ? patterns[Int(current)] : -1
                guard pattern < 0 || stops[pattern] != nil else { return false }
                expected = pattern >= 0 ? stops[pattern] ?? [] : []
            }
            guard current >= 0 else { continue }
            let arrival = statement.int64(at: 1), departure = statement.int64(at: 2)
            guard arrival >= 0 && departure >= 0 else { return false }
            eventArrival.append(Int32(truncatingIfNeeded: arrival))
            eventDeparture.append(Int32(truncatingIfNeeded: departure))
            eventFlags.append(UInt8(statement.int64(at: 3)))
        }
        guard close() else { return false }
        latestTime = max(eventArrival.max() ?? 0, eventDeparture.max() ?? 0)
        return true
    }
}
