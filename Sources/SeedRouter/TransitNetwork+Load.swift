import Foundation
import SeedSQLite

extension TransitNetwork {
    /// Reads the network from an open transit seed (of one feed, or a region's): its patterns
    /// and footpaths from the tables the schema derives (`trip_patterns`, `footpaths`), or, in
    /// a seed built before the schema had them (or when `derived` is false), computed here.
    init(reading db: Connection, derived: Bool = true) throws(RouterError) {
        do {
            let region =
                try db.scalar("SELECT count(*) FROM pragma_table_info('stops') WHERE name = 'feed_ref'") != .integer(0)
            let feedColumn = region ? "feed_ref" : "0"
            var feedIndex: [Int64: Int32] = [:]
            if region {
                for row in try db.rows("SELECT id, name FROM feeds ORDER BY id") {
                    feedIndex[row[0].integer ?? 0] = Int32(feedNames.count)
                    feedNames.append(row[1].text ?? "")
                }
            } else {
                feedIndex[0] = 0
                feedNames = [""]
            }
            try loadZones(db, feedColumn: feedColumn, feedIndex: feedIndex)
            try loadStops(db, feedColumn: feedColumn, feedIndex: feedIndex, region: region)
            let services = try loadServices(db, feedColumn: feedColumn, feedIndex: feedIndex)
            let tripIndex = try loadTrips(db, feedColumn: feedColumn, feedIndex: feedIndex, services: services)
            if try derived && Self.hasDerivedTables(db) {
                // The stops of each trip are its pattern's: stop_times is read for its times only.
                let patterns = try loadTripPatterns(db, tripIndex: tripIndex)
                let stops = try loadPatternStops(db)
                if try stops == nil || !loadTimes(db, tripIndex: tripIndex, patterns: patterns, stops: stops ?? [:]) {
                    try loadStopTimes(db, tripIndex: tripIndex)
                }
                try loadFrequencies(db, tripIndex: tripIndex)
                buildPatterns(derived: patterns)
                try buildFootpaths(derived: loadFootpaths(db), acrossFeeds: region && Self.derivesWalksAcrossFeeds(db))
            } else {
                try loadStopTimes(db, tripIndex: tripIndex)
                try loadFrequencies(db, tripIndex: tripIndex)
                buildPatterns(derived: nil)
                try buildFootpaths(transfers: loadTransfers(db))
            }
        } catch {
            if let error = error as? RouterError { throw error }
            throw RouterError(
                .unreadableSeed, "cannot read the transit tables of '\(db.path)'", cause: error as? SQLiteError)
        }
    }

    private mutating func loadZones(_ db: Connection, feedColumn: String, feedIndex: [Int64: Int32]) throws {
        var zones = [TimeZone?](repeating: nil, count: feedNames.count)
        for row in try db.rows("SELECT \(feedColumn), agency_timezone FROM agency ORDER BY id") {
            guard let feed = feedIndex[row[0].integer ?? 0], zones[Int(feed)] == nil, let name = row[1].text else {
                continue
            }
            guard let zone = TimeZone(identifier: name) else {
                throw RouterError(.unknownTimeZone, "agency_timezone '\(name)' is not a time zone this system knows")
            }
            zones[Int(feed)] = zone
        }
        feedZones = zones.map { $0 ?? TimeZone(identifier: "UTC")! }
    }

    private mutating func loadStops(
        _ db: Connection, feedColumn: String, feedIndex: [Int64: Int32], region: Bool
    ) throws {
        let sql =
            """
            SELECT id, stop_id, \(feedColumn), stop_lat, stop_lon, parent_station_ref, stop_timezone FROM stops \
            ORDER BY id
            """
        var seedIndex: [Int64: Int32] = [:]
        var parents: [Int64?] = []
        for row in try db.rows(sql) {
            let feed = feedIndex[row[2].integer ?? 0] ?? 0
            let id = row[0].integer ?? 0
            let name = region ? "\(feedNames[Int(feed)]):\(row[1].text ?? "")" : row[1].text ?? ""
            seedIndex[id] = Int32(stopSeedIDs.count)
            stopIndex[name] = Int32(stopSeedIDs.count)
            stopSeedIDs.append(id)
            stopNames.append(name)
            stopFeed.append(feed)
            stopLat.append(Self.real(row[3]))
            stopLon.append(Self.real(row[4]))
            parents.append(row[5].integer)
            stopZone.append(row[6].text.flatMap { TimeZone(identifier: $0) })
        }
        stopParent = parents.map { $0.flatMap { seedIndex[$0] } ?? -1 }
    }

    static func real(_ value: Value) -> Double {
        switch value {
        case .real(let v): return v
        case .integer(let v): return Double(v)
        default: return .nan
        }
    }

    /// Reads `service_days`; returns each (feed, service_id)'s index in `services`.
    private mutating func loadServices(
        _ db: Connection, feedColumn: String, feedIndex: [Int64: Int32]
    ) throws
        -> [String: Int32]
    {
        var index: [String: Int32] = [:]
        let sql = "SELECT \(feedColumn), service_id, block, days0, days1, days2, days3 FROM service_days"
        for row in try db.rows(sql) {
            let key = "\(feedIndex[row[0].integer ?? 0] ?? 0):\(row[1].text ?? "")"
            let service: Int32
            if let known = index[key] {
                service = known
            } else {
                service = Int32(services.count)
                index[key] = service
                services.append([:])
            }
            let bits = (3...6).map { UInt64(bitPattern: row[$0].integer ?? 0) }
            services[Int(service)][row[2].integer ?? 0] = (bits[0], bits[1], bits[2], bits[3])
        }
        return index
    }

    private mutating func loadTrips(
        _ db: Connection, feedColumn: String, feedIndex: [Int64: Int32],
        services: [String: Int32]
    ) throws -> [Int64: Int32] {
        var index: [Int64: Int32] = [:]
        for row in try db.rows("SELECT id, trip_id, route_id, service_id, \(feedColumn) FROM trips ORDER BY id") {
            let feed = feedIndex[row[4].integer ?? 0] ?? 0
            index[row[0].integer ?? 0] = Int32(tripIDs.count)
            tripIDs.append(row[1].text ?? "")
            tripRouteIDs.append(row[2].text ?? "")
            tripService.append(services["\(feed):\(row[3].text ?? "")"] ?? -1)
            tripFeed.append(feed)
        }
        return index
    }

    /// Reads every timed stop of every trip, in trip and sequence order (the table's own order,
    /// and trips' indices follow their ids, so each trip's events are appended in one piece).
    private mutating func loadStopTimes(_ db: Connection, tripIndex: [Int64: Int32]) throws {
        let statement = try db.prepare(
            """
            SELECT trip_ref, coalesce(stop_ref, -1), coalesce(arrival_time, departure_time, -1), \
            coalesce(departure_time, arrival_time, -1), pickup_type IS 1, drop_off_type IS 1 \
            FROM stop_times ORDER BY trip_ref, stop_sequence
            """)
        let seedStop = SeedIDs(stopSeedIDs)
        (eventStop, eventArrival, eventDeparture, eventFlags) = ([], [], [], [])
        tripEventStart = Array(repeating: 0, count: tripIDs.count)
        tripEventEnd = Array(repeating: 0, count: tripIDs.count)
        var currentRef: Int64 = .min
        var current: Int32 = -1
        func close() {
            guard current >= 0 else { return }
            let begin = Int(tripEventStart[Int(current)])
            if eventStop.count - begin < 2 { truncateEvents(to: begin) }
            tripEventEnd[Int(current)] = Int32(eventStop.count)
            tripEventStart[Int(current)] = Int32(begin)
        }
        while try statement.step() {
            let ref = statement.int64(at: 0)
            if ref != currentRef {
                close()
                currentRef = ref
                current = tripIndex[ref] ?? -1
                if current >= 0 { tripEventStart[Int(current)] = Int32(eventStop.count) }
            }
            let arrival = statement.int64(at: 2), departure = statement.int64(at: 3)
            guard current >= 0, arrival >= 0, let stop = seedStop.index(of: statement.int64(at: 1)) else { continue }
            eventStop.append(stop)
            eventArrival.append(Int32(truncatingIfNeeded: arrival))
            eventDeparture.append(Int32(truncatingIfNeeded: departure))
            eventFlags.append(UInt8(statement.int64(at: 4)) | UInt8(statement.int64(at: 5)) << 1)
        }
        close()
        latestTime = max(eventArrival.max() ?? 0, eventDeparture.max() ?? 0)
    }

    private mutating func truncateEvents(to count: Int) {
        eventStop.removeLast(eventStop.count - count)
        eventArrival.removeLast(eventArrival.count - count)
        eventDeparture.removeLast(eventDeparture.count - count)
        eventFlags.removeLast(eventFlags.count - count)
    }

    private mutating func loadFrequencies(_ db: Connection, tripIndex: [Int64: Int32]) throws {
        var windows = [[(start: Int32, end: Int32, headway: Int32)]](repeating: [], count: tripIDs.count)
        let sql =
            """
            SELECT trip_ref, start_time, end_time, headway_secs FROM frequencies WHERE headway_secs > 0 ORDER BY \
            trip_ref, start_time
            """
        for row in try db.rows(sql) {
            guard let trip = tripIndex[row[0].integer ?? -1], tripEventEnd[Int(trip)] > tripEventStart[Int(trip)] else {
                continue
            }
            let window = (
                start: Int32(row[1].integer ?? 0), end: Int32(row[2].integer ?? 0), headway: Int32(row[3].integer ?? 1)
            )
            windows[Int(trip)].append(window)
            let (begin, end) = (Int(tripEventStart[Int(trip)]), Int(tripEventEnd[Int(trip)]))
            let span = end > begin ? eventArrival[end - 1] - eventDeparture[begin] : 0
            latestTime = max(latestTime, window.end + span)
        }
        tripFrequencyStart = [0]
        for list in windows {
            frequencies.append(contentsOf: list)
            tripFrequencyStart.append(Int32(frequencies.count))
        }
    }

    /// The stop-to-stop rows of `transfers` (route and trip rules aside): from, to, type, time.
    private func loadTransfers(_ db: Connection) throws -> [(Int32, Int32, Int64, Int64?)] {
        var seedStop: [Int64: Int32] = [:]
        for (i, id) in stopSeedIDs.enumerated() { seedStop[id] = Int32(i) }
        let sql = """
            SELECT from_stop_ref, to_stop_ref, transfer_type, min_transfer_time FROM transfers \
            WHERE from_stop_ref IS NOT NULL AND to_stop_ref IS NOT NULL AND from_route_ref IS NULL \
            AND to_route_ref IS NULL AND from_trip_ref IS NULL AND to_trip_ref IS NULL ORDER BY id
            """
        return try db.rows(sql).compactMap { row in
            guard let a = seedStop[row[0].integer ?? -1], let b = seedStop[row[1].integer ?? -1] else { return nil }
            return (a, b, row[2].integer ?? 0, row[3].integer)
        }
    }
}

/// Seed ids (`INTEGER PRIMARY KEY`s, dense in a built seed) to indexes: an array when the ids
/// are dense enough, else a dictionary.
struct SeedIDs {
    private var table: [Int32] = []
    private var map: [Int64: Int32] = [:]

    init(_ ids: [Int64]) {
        let top = ids.max() ?? 0
        if top >= 0 && top <= Int64(4 * ids.count + 1024) && (ids.min() ?? 0) >= 0 {
            table = Array(repeating: -1, count: Int(top) + 1)
            for (i, id) in ids.enumerated() { table[Int(id)] = Int32(i) }
        } else {
            for (i, id) in ids.enumerated() { map[id] = Int32(i) }
        }
    }

    /// The index of the row with id `id`, if there is one.
    func index(of id: Int64) -> Int32? {
        if table.isEmpty { return map[id] }
        guard id >= 0 && id < Int64(table.count) else { return nil }
        let index = table[Int(id)]
        return index >= 0 ? index : nil
    }
}
