import SeedSQLite

/// The distinct (shape, stop) pairs of a feed's trips, gathered during `StopTimeChecks`' pass
/// over stop_times (trip by trip, in stop_sequence order) for `ShapeDistanceCheck`, and each
/// shape's patterns (its trips' sequences of stops, with the distances of the first trip of
/// each) for `ShapePatternRules`.
///
/// Cheap at millions of stop times: a row of a trip without a shape costs a comparison; a
/// trip's stops are compared as a whole with those of the trips of the same shape already
/// seen (most trips repeat a pattern), and only a new pattern's stops are added, each pair once.
struct ShapeStops {
    /// A stop of a shape: the first stop time that served it on a trip of that shape.
    struct Entry {
        var stop: Int64
        var trip: Int64
        var sequence: Int64
        /// Whether every trip of the shape that serves the stop is a rail trip (route_type 2)
        /// that starts or ends there: the validator then allows 4 times the distance (a large
        /// station's platforms are far from its coordinates).
        var largeStation: Bool
    }

    /// A sequence of stops that trips of a shape serve, as the first trip of it gives them.
    struct Pattern {
        var trip: Int64
        /// Per stop time at a stop: the stop's entry (an index of its shape's `entries`), its
        /// stop_sequence, its shape_dist_traveled and whether it is a rail trip's first or last.
        var stops: [(entry: Int, sequence: Int64, distance: Double?, largeStation: Bool)]
    }

    private struct Pair: Hashable {
        var shape: Int
        var stop: Int64
    }

    /// The shape_id of each shape index.
    private(set) var shapeIDs: [String] = []
    /// The stops of each shape index, in the order trips first serve them.
    private(set) var entries: [[Entry]] = []
    /// The patterns of each shape index, in the order trips first serve them.
    private(set) var patterns: [[Pattern]] = []
    private var indexOfShape: [String: Int] = [:]
    /// The trips with a shape, with their shape_id and route_type, in row id order: read beside
    /// the pass, which meets the trips in that order (no per-trip memory); nil once read out.
    private var trips: Statement?
    private var entryOfPair: [Pair: Int] = [:]
    private var seenPatterns = Set<[Int64]>()
    private var trip: Int64 = -1
    /// The current trip's shape index and whether it is a rail trip (route_type 2); nil: no shape.
    private var shapeOfTrip: (shape: Int, rail: Bool)? = nil
    private var tripStops: [(stop: Int64, sequence: Int64, distance: Double?)] = []
    /// The greatest shape_dist_traveled of each shape index, when above 0 (`TripShapeDistance`).
    private var maxima: [TripShapeDistance.Maximum?] = []
    private var maximumOfShape: [String: TripShapeDistance.Maximum] = [:]
    /// The current trip's last stop time, when at a stop: its stop, sequence and distance.
    private var lastOfTrip: (stop: Int64, sequence: Int64, distance: Double?)? = nil
    /// The trips found so far whose last stop time is beyond their shape's greatest distance.
    var beyondShape: [TripShapeDistance.Beyond] = []

    /// Prepares the reading of each trip's shape_id and route_type; nil when trips have no
    /// shape_id or the feed no shapes.txt.
    init?(checks: GTFSChecks) throws {
        guard checks.has(table: "trips", column: "shape_id"), checks.has(table: "shapes"),
            checks.isWhole("shapes"), checks.file(of: "shapes") != nil
        else { return nil }
        let routeType = checks.has(table: "routes", column: "route_type") ? "routes.route_type" : "NULL"
        trips = try checks.connection.prepare(
            """
            SELECT trips.id, trips.shape_id, \(routeType) FROM trips LEFT JOIN routes ON routes.id = trips.route_ref \
            WHERE trips.shape_id IS NOT NULL AND trips.shape_id <> '' AND trips.shape_id IN (SELECT shape_id FROM \
            shapes) ORDER BY trips.id
            """)
        if try !trips!.step() { trips = nil }
        if checks.has(table: "shapes", column: "shape_dist_traveled"),
            checks.has(table: "stop_times", column: "shape_dist_traveled")
        {
            maximumOfShape = try TripShapeDistance.maxima(on: checks.connection)
        }
    }

    /// The shape of trip `id` (a trips row id, met in increasing order) and whether it is a rail trip.
    private mutating func shape(of id: Int64) throws -> (shape: Int, rail: Bool)? {
        while let rows = trips, rows.int64(at: 0) < id {
            if try !rows.step() { trips = nil }
        }
        guard let rows = trips, rows.int64(at: 0) == id else { return nil }
        let shape = CSVRowLocator.key(rows.value(at: 1))
        let index =
            indexOfShape[shape]
            ?? {
                indexOfShape[shape] = shapeIDs.count
                shapeIDs.append(shape)
                entries.append([])
                patterns.append([])
                maxima.append(maximumOfShape[shape])
                return shapeIDs.count - 1
            }()
        return (index, rows.storageClass(at: 2) != .null && rows.int64(at: 2) == 2)
    }

    /// Notes stop time (`trip`, `sequence`), at `stop` (a stops row id; nil: not at a stop) with
    /// `distance`; rows come trip by trip, in stop_sequence order, the trips in increasing row id.
    mutating func add(trip: Int64, sequence: Int64, stop: Int64?, distance: Double?) throws {
        if trip != self.trip {
            endTrip()
            self.trip = trip
            shapeOfTrip = try shape(of: trip)
        }
        guard shapeOfTrip != nil else { return }
        lastOfTrip = stop.map { ($0, sequence, distance) }
        if let stop { tripStops.append((stop, sequence, distance)) }
    }

    /// Adds the current trip's stops to its shape's, when the shape has not had its pattern yet,
    /// and notes the trip when its last stop time is beyond its shape's greatest distance.
    mutating func endTrip() {
        defer {
            tripStops.removeAll(keepingCapacity: true)
            lastOfTrip = nil
        }
        if let (shape, _) = shapeOfTrip, let last = lastOfTrip, let distance = last.distance,
            let maximum = maxima[shape], distance > maximum.distance
        {
            beyondShape.append(
                TripShapeDistance.Beyond(
                    trip: trip, shapeID: shapeIDs[shape], stop: last.stop, sequence: last.sequence, distance: distance,
                    maximum: maximum))
        }
        guard !tripStops.isEmpty, let (shape, rail) = shapeOfTrip else { return }
        guard seenPatterns.insert([Int64(shape)] + tripStops.map(\.stop)).inserted else { return }
        var pattern = Pattern(trip: trip, stops: [])
        pattern.stops.reserveCapacity(tripStops.count)
        for (position, served) in tripStops.enumerated() {
            let large = rail && (position == 0 || position == tripStops.count - 1)
            let pair = Pair(shape: shape, stop: served.stop)
            let entry: Int
            if let known = entryOfPair[pair] {
                entry = known
                if !large { entries[shape][entry].largeStation = false }
            } else {
                entry = entries[shape].count
                entryOfPair[pair] = entry
                entries[shape].append(
                    Entry(stop: served.stop, trip: trip, sequence: served.sequence, largeStation: large))
            }
            pattern.stops.append((entry, served.sequence, served.distance, large))
        }
        patterns[shape].append(pattern)
    }
}
