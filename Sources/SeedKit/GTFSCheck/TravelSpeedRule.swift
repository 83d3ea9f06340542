import Foundation
import SeedSQLite

/// The canonical validator's `fast_travel_between_consecutive_stops` (a WARNING, a warning here
/// whatever the flags): two consecutive stop times of a trip (by stop_sequence) between which
/// the vehicle would travel faster than its route_type allows (tram 100 km/h, subway, bus,
/// trolleybus and monorail 150, rail 500, ferry 80, cable tram 30, aerial lift and funicular 50,
/// other types 200), the great-circle distance between the stops (or their parents' places)
/// over the time from the first's departure to the second's arrival (times on whole minutes
/// count one minute more, no time at all one minute, as the validator reads them). A trip with
/// a stop time at no place (a stop without coordinates, or a GTFS-Flex zone) is not checked.
///
/// Made in `StopTimeChecks`' pass, cheap at millions of rows: each stop's coordinates are read
/// once into arrays by row id, and an equirectangular estimate (a multiplication) decides
/// whether a pair needs the exact haversine. Reported at the second stop time's arrival_time.
struct TravelSpeedRule {
    /// A pair of stop times too fast for the trip's route_type: consecutive, or 10 km apart
    /// or more along the trip (`far`).
    struct Fast {
        var far = false
        var trip: Int64
        var sequence: Int64
        var previousSequence: Int64
        var speed: Double
        var kilometres: Double
        var limit: Double
    }

    /// The validator's Earth radius, in kilometres (gtfs-guru's).
    static let earthRadius = 6371.0

    /// A stop's place: latitude, longitude (degrees) and the cosine of its latitude.
    private struct Place {
        var latitude: Double
        var longitude: Double
        var cosine: Double
    }

    /// Each stop's place by row id (NaN latitude: none).
    private var places: [Place] = []
    /// Each trip's route_type, in row id order, read beside the pass; nil once read out.
    private var routes: Statement?
    private var trip: Int64 = -1
    /// The current trip's speed limit (km/h); nil: the trip is not checked.
    private var limit: Double?
    private var previous: (stop: Int, sequence: Int64, departure: Int64?)?
    private var pending: [Fast] = []
    /// For `fast_travel_between_far_stops`: an upper bound of the distance along the current trip
    /// so far (km: each hop's |dx| + |dy|, 10 % more), the least of `along - limit * departure`
    /// over its stop times so far, and whether a span may be too fast (a stop time's
    /// `along - limit * arrival` above that least): only such a trip is read again and searched.
    private var along = 0.0
    private var lowest = Double.infinity
    private var mayBeFast = false
    /// A trip's stop times by trip_ref, for the search.
    private let tripRows: Statement
    /// What the trips ended so far found.
    var found: [Fast] = []

    /// Reads the stops' places and prepares the trips' route types; nil when the feed has no
    /// routes or stops with coordinates.
    init?(checks: GTFSChecks) throws {
        guard checks.has(table: "stops", column: "stop_lat"), checks.has(table: "stops", column: "stop_lon"),
            checks.has(table: "routes", column: "route_type"), let stops = checks.schema.table(named: "stops"),
            stops.references.contains(where: { $0.column == "parent_station_ref" })
        else { return nil }
        let id = quoted(stops.rowID)
        let place = ["lat", "lon"].map { "coalesce(s.stop_\($0), p.stop_\($0), g.stop_\($0))" }.joined(separator: ", ")
        let rows = try checks.connection.prepare(
            """
            SELECT s.\(id), \(place) FROM stops s LEFT JOIN stops p ON p.\(id) = s.parent_station_ref \
            LEFT JOIN stops g ON g.\(id) = p.parent_station_ref WHERE s.\(id) >= 0 AND s.\(id) < 100000000
            """)
        while try rows.step() {
            guard rows.storageClass(at: 1) != .null, rows.storageClass(at: 2) != .null else { continue }
            let index = Int(rows.int64(at: 0))
            if index >= places.count {
                places += Array(
                    repeating: Place(latitude: .nan, longitude: 0, cosine: 0), count: index + 1 - places.count)
            }
            let latitude = rows.double(at: 1)
            places[index] = Place(
                latitude: latitude, longitude: rows.double(at: 2), cosine: cos(latitude * Double.pi / 180))
        }
        tripRows = try checks.connection.prepare(
            """
            SELECT stop_ref, stop_sequence, arrival_time, departure_time FROM stop_times WHERE trip_ref = ? \
            ORDER BY stop_sequence
            """)
        routes = try checks.connection.prepare(
            "SELECT trips.id, routes.route_type FROM trips JOIN routes ON routes.id = trips.route_ref ORDER BY trips.id"
        )
        if try !routes!.step() { routes = nil }
    }

    /// The validator's speed limit of `routeType`, in km/h.
    static func limit(of routeType: Int64) -> Double {
        switch routeType {
        case 0: 100
        case 1, 3, 11, 12: 150
        case 2: 500
        case 4: 80
        case 5: 30
        case 6, 7: 50
        default: 200
        }
    }

    /// The seconds the validator counts between a departure and the next arrival.
    static func seconds(from departure: Int64, to arrival: Int64) -> Int64 {
        let delta = arrival - departure
        guard delta > 0 else { return 60 }
        return arrival % 60 == 0 && departure % 60 == 0 ? delta + 60 : delta
    }

    /// Notes stop time (`trip`, `sequence`) at `stop` (nil: at no stop); rows come trip by trip,
    /// in stop_sequence order, the trips in increasing row id.
    @inline(__always)
    mutating func add(trip: Int64, sequence: Int64, stop: Int64?, arrival: Int64?, departure: Int64?) throws {
        if trip != self.trip { try startTrip(trip) }
        guard let limit else { return }
        guard let stop, stop >= 0, Int(stop) < places.count, !places[Int(stop)].latitude.isNaN else {
            self.limit = nil // a stop time at no place: the trip is not checked
            pending.removeAll()
            return
        }
        let here = Int(stop)
        let before = previous
        previous = (here, sequence, departure)
        let perSecond = limit / 3600
        var hop: (dx: Double, dy: Double)? = nil
        if let before {
            let (a, b) = (places[before.stop], places[here])
            hop = ((b.longitude - a.longitude) * a.cosine, b.latitude - a.latitude)
            along += (abs(hop!.dx) + abs(hop!.dy)) * Double.pi * Self.earthRadius / 180 * 1.1
        }
        if let arrival, along - perSecond * Double(arrival) > lowest { mayBeFast = true }
        if let departure { lowest = min(lowest, along - perSecond * Double(departure)) }
        guard let before, let (dx, dy) = hop, let departure = before.departure, let arrival else { return }
        // The estimate in degrees against half the limit (squared, no root): most pairs stop here.
        let (a, b) = (places[before.stop], places[here])
        let degreesPerHour = limit * 180 / (Double.pi * Self.earthRadius) / 3600
        let seconds = Double(Self.seconds(from: departure, to: arrival))
        let reach = seconds * degreesPerHour / 2
        guard dx * dx + dy * dy > reach * reach else { return }
        try check(from: a, to: b, seconds: seconds, sequence: sequence, previousSequence: before.sequence)
    }

    /// Compares the exact speed between `a` and `b` with the limit.
    private mutating func check(
        from a: Place, to b: Place, seconds: Double, sequence: Int64, previousSequence: Int64
    )
        throws
    {
        guard let limit else { return }
        let hours = seconds / 3600
        let kilometres =
            DistanceChecks.distance((a.latitude, a.longitude), (b.latitude, b.longitude)) / 6_371_008.8
            * Self.earthRadius
        guard kilometres / hours > limit else { return }
        pending.append(
            Fast(
                trip: trip, sequence: sequence, previousSequence: previousSequence, speed: kilometres / hours,
                kilometres: kilometres, limit: limit))
    }

    /// Ends the current trip and starts trip `trip`.
    private mutating func startTrip(_ trip: Int64) throws {
        endTrip()
        self.trip = trip
        limit = try routeType(of: trip).map(Self.limit)
    }

    /// Keeps what the current trip found (all its stop times were at a place).
    mutating func endTrip() {
        if let limit {
            found += pending
            if mayBeFast, let far = try? farSpan(limit: limit) { found.append(far) }
        }
        pending.removeAll(keepingCapacity: true)
        (previous, along, lowest, mayBeFast) = (nil, 0, .infinity, false)
    }

    /// The validator's distance of far stops, in kilometres.
    static let farDistance = 10.0

    /// `fast_travel_between_far_stops`, as the validator looks for it: for each stop time in
    /// order, the stop times before it from the nearest back, the distance the sum of the hops
    /// between; the first span longer than 10 km that is too fast (one a trip).
    private func farSpan(limit: Double) throws -> Fast? {
        var rows: [(place: Int, sequence: Int64, arrival: Int64?, departure: Int64?)] = []
        try tripRows.bind([.integer(trip)])
        defer { tripRows.reset() }
        while try tripRows.step() {
            func integer(_ index: Int) -> Int64? {
                tripRows.storageClass(at: index) == .null ? nil : tripRows.int64(at: index)
            }
            guard let stop = integer(0), stop >= 0, Int(stop) < places.count else { return nil }
            rows.append((Int(stop), tripRows.int64(at: 1), integer(2), integer(3)))
        }
        var hops: [Double] = []
        for (a, b) in zip(rows, rows.dropFirst()) {
            let (from, to) = (places[a.place], places[b.place])
            hops.append(
                DistanceChecks.distance((from.latitude, from.longitude), (to.latitude, to.longitude)) / 6_371_008.8
                    * Self.earthRadius)
        }
        for end in rows.indices {
            guard let arrival = rows[end].arrival else { continue }
            var kilometres = 0.0
            for start in stride(from: end - 1, through: 0, by: -1) {
                kilometres += hops[start]
                guard let departure = rows[start].departure else { continue }
                let speed = kilometres * 3600 / Double(Self.seconds(from: departure, to: arrival))
                guard speed > limit, kilometres > Self.farDistance else { continue }
                return Fast(
                    far: true, trip: trip, sequence: rows[end].sequence, previousSequence: rows[start].sequence,
                    speed: speed, kilometres: kilometres, limit: limit)
            }
        }
        return nil
    }

    /// The route_type of trip `id` (a trips row id, met in increasing order).
    private mutating func routeType(of id: Int64) throws -> Int64? {
        while let rows = routes, rows.int64(at: 0) < id {
            if try !rows.step() { routes = nil }
        }
        guard let rows = routes, rows.int64(at: 0) == id, rows.storageClass(at: 1) != .null else { return nil }
        return rows.int64(at: 1)
    }
}

extension StopTimeChecks {
    /// Places what `speeds` found at the second stop time of each pair and records it.
    func reportSpeeds(_ speeds: inout TravelSpeedRule?) throws {
        guard let found = speeds?.found, !found.isEmpty else { return }
        speeds?.found.removeAll()
        var tripIDs: [Int64: String] = [:]
        let lookup = try checks.connection.prepare("SELECT trip_id FROM trips WHERE id = ?")
        for trip in Set(found.map(\.trip)) {
            try lookup.bind([.integer(trip)])
            if try lookup.step() { tripIDs[trip] = CSVRowLocator.key(lookup.value(at: 0)) }
            lookup.reset()
        }
        var byKey: [[String]: [TravelSpeedRule.Fast]] = [:]
        for fast in found { byKey[[tripIDs[fast.trip] ?? "", String(fast.sequence)], default: []].append(fast) }
        try checks.places.locate(
            "stop_times", matching: ["trip_id", "stop_sequence"], keys: Set(byKey.keys), showing: ["arrival_time"]
        ) { key, row in
            for fast in byKey.removeValue(forKey: key) ?? [] {
                checks.issues.record(
                    row.issue(
                        .bestPractice, file: file, field: "arrival_time", value: row.fields["arrival_time"]?.text,
                        message: """
                            is reached at \(Int(fast.speed.rounded())) km/h from \
                            \(fast.far ? "a stop" : "the stop before") (stop_sequence \
                            \(fast.previousSequence), \((fast.kilometres * 10).rounded() / 10) km away) on trip_id \
                            '\(key[0])': faster than the \(Int(fast.limit)) km/h of its route_type
                            """,
                        code: fast.far
                            ? NoticeCode.fastTravelBetweenFarStops : NoticeCode.fastTravelBetweenConsecutiveStops))
            }
        }
    }
}
