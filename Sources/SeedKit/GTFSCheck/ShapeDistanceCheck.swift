import Foundation
import SeedSQLite

/// The canonical validator's `stop_too_far_from_shape` (a WARNING there, a warning here
/// whatever the flags): a stop a trip serves that is more than 100 m from the trip's shape
/// (the polyline of its shapes.txt points in shape_pt_sequence order), or 400 m for the first
/// and last stops of a rail trip (route_type 2: a large station's platforms are far from its
/// coordinates). A stop without coordinates is placed at its parent station's, as the
/// validator does. Each (shape, stop) is reported once, at the first stop time that served it.
///
/// Distances are on an equirectangular projection about the shape's first point (well under
/// a metre off at a city's scale). The stops of a shape are taken in the order its trips
/// serve them, and each search starts at the segment the previous stop was found near, so a
/// stop on the shape costs a few segments, not all of them; only a stop far from every
/// segment (what is reported) costs a full pass, after a bounding-box test.
struct ShapeDistanceCheck {
    let checks: GTFSChecks
    let file: String
    let shapeStops: ShapeStops

    /// The validator's distance, in metres.
    static let maximumDistance = 100.0
    /// Its multiplier for the first and last stops of a rail trip.
    static let largeStationMultiplier = 4.0
    /// Metres per degree of latitude (the mean Earth radius, 6,371,008.8 m).
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    /// A stop time a rule found on its trip's shape: the trip, the stop time's stop_sequence and
    /// stop (stops row ids), the field shown, the code, and the message given the trip's
    /// trip_id and the stops' stop_ids (of `stop` and of `other`, a stop the message names).
    struct Finding {
        var trip: Int64
        var sequence: Int64
        var stop: Int64
        var other: Int64? = nil
        var field = "stop_id"
        var code: String
        var message: (_ tripID: String, _ stopIDs: [Int64: String]) -> String
    }

    func run() throws {
        let stops = try stopLocations()
        let measured = checks.has(table: "shapes", column: "shape_dist_traveled") ? "shape_dist_traveled" : "NULL"
        let points = try checks.connection.prepare(
            """
            SELECT shape_pt_lat, shape_pt_lon, \(measured) FROM shapes WHERE shape_id = ? \
            ORDER BY shape_pt_sequence
            """)
        var far: [Finding] = []
        var found: [Finding] = []
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var distances: [Double?] = []
        for (shape, entries) in shapeStops.entries.enumerated() where !entries.isEmpty {
            try points.bind([.text(shapeStops.shapeIDs[shape])])
            latitudes.removeAll(keepingCapacity: true)
            longitudes.removeAll(keepingCapacity: true)
            distances.removeAll(keepingCapacity: true)
            while try points.step() {
                guard points.storageClass(at: 0) != .null, points.storageClass(at: 1) != .null else { continue }
                latitudes.append(points.double(at: 0))
                longitudes.append(points.double(at: 1))
                distances.append(points.storageClass(at: 2) == .null ? nil : points.double(at: 2))
            }
            points.reset()
            guard !latitudes.isEmpty else { continue }
            let line = Polyline(latitudes: latitudes, longitudes: longitudes)
            var hint = 0
            var segments = [Int?](repeating: nil, count: entries.count)
            for (index, entry) in entries.enumerated() {
                guard let location = stops[entry.stop] else { continue }
                let limit = Self.maximumDistance * (entry.largeStation ? Self.largeStationMultiplier : 1)
                let (segment, distance) = line.nearest(
                    latitude: location.latitude, longitude: location.longitude,
                    within: limit, from: hint)
                if let segment {
                    hint = segment
                    segments[index] = segment
                } else {
                    far.append(tooFar(shape: shape, entry: entry, distance: distance, limit: limit))
                }
            }
            let rules = ShapePatternRules(
                line: line, distances: distances, stops: stops, shapeID: shapeStops.shapeIDs[shape])
            rules.check(shapeStops.patterns[shape], entries: entries, segments: segments, into: &found)
        }
        try report(far + found)
    }

    /// `stop_too_far_from_shape` at the stop time that first served `entry` on `shape`.
    private func tooFar(shape: Int, entry: ShapeStops.Entry, distance: Double, limit: Double) -> Finding {
        let shapeID = shapeStops.shapeIDs[shape]
        return Finding(
            trip: entry.trip, sequence: entry.sequence, stop: entry.stop, code: NoticeCode.stopTooFarFromShape
        ) { tripID, _ in
            """
            is \(Int(distance.rounded())) m from shape_id '\(shapeID)' \
            of trip_id '\(tripID)' (stop_sequence \(entry.sequence)), more than \(Int(limit)) m: \
            the stop is drawn off its trip's path
            """
        }
    }

    /// Each stop's coordinates, or its parent station's when it has none, by row id.
    private func stopLocations() throws -> [Int64: (latitude: Double, longitude: Double)] {
        guard checks.has(table: "stops", column: "stop_lat"), checks.has(table: "stops", column: "stop_lon"),
            let table = checks.schema.table(named: "stops")
        else { return [:] }
        let id = quoted(table.rowID)
        let parent = table.references.contains { $0.column == "parent_station_ref" }
        let sql =
            parent
            ? """
            SELECT s.\(id), coalesce(s.stop_lat, p.stop_lat), coalesce(s.stop_lon, p.stop_lon) FROM stops s \
            LEFT JOIN stops p ON p.\(id) = s.parent_station_ref
            """
            : "SELECT \(id), stop_lat, stop_lon FROM stops"
        let rows = try checks.connection.prepare(sql)
        var locations: [Int64: (latitude: Double, longitude: Double)] = [:]
        while try rows.step() {
            guard rows.storageClass(at: 1) != .null, rows.storageClass(at: 2) != .null else { continue }
            locations[rows.int64(at: 0)] = (rows.double(at: 1), rows.double(at: 2))
        }
        return locations
    }

    /// Places each finding at its stop time, and records it.
    private func report(_ found: [Finding]) throws {
        guard !found.isEmpty else { return }
        var tripIDs: [Int64: String] = [:]
        var stopIDs: [Int64: String] = [:]
        let trip = try checks.connection.prepare("SELECT trip_id FROM trips WHERE id = ?")
        let stop = try checks.connection.prepare(
            "SELECT stop_id FROM stops WHERE \(quoted(checks.schema.table(named: "stops")?.rowID ?? "id")) = ?")
        func text(_ statement: Statement, _ id: Int64) throws -> String {
            try statement.bind([.integer(id)])
            defer { statement.reset() }
            return try statement.step() ? CSVRowLocator.key(statement.value(at: 0)) : ""
        }
        for finding in found {
            if tripIDs[finding.trip] == nil { tripIDs[finding.trip] = try text(trip, finding.trip) }
            for id in [finding.stop] + (finding.other.map { [$0] } ?? []) where stopIDs[id] == nil {
                stopIDs[id] = try text(stop, id)
            }
        }
        let keys = Set(found.map { [tripIDs[$0.trip] ?? "", String($0.sequence)] })
        var rows: [[String]: PlacedRow] = [:]
        try checks.places.locate(
            "stop_times", matching: ["trip_id", "stop_sequence"], keys: keys,
            showing: Array(Set(found.map(\.field))).sorted()
        ) { key, row in
            if rows[key] == nil { rows[key] = row }
        }
        for finding in found {
            let tripID = tripIDs[finding.trip] ?? ""
            let row = rows[[tripID, String(finding.sequence)]]
            let field = row?.fields[finding.field]
            checks.issues.record(
                BuildIssue(
                    kind: .bestPractice, file: file, line: row?.line, row: row?.key, column: field?.column,
                    field: finding.field,
                    value: field?.text ?? (finding.field == "stop_id" ? stopIDs[finding.stop] : nil),
                    message: finding.message(tripID, stopIDs), code: finding.code))
        }
    }
}

/// A shape's points on an equirectangular projection about its first point, in metres.
struct Polyline {
    private let xs: [Double]
    private let ys: [Double]
    private let scale: Double
    private let box: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// The bounding box of each run of `chunk` segments, so that a search near a point skips
    /// the runs far from it (`localMatches`).
    private let chunks: [(minX: Double, minY: Double, maxX: Double, maxY: Double)]
    private static let chunk = 8

    /// The shape of the given points (at least one), in order.
    init(latitudes: [Double], longitudes: [Double]) {
        let scale = cos(latitudes[0] * Double.pi / 180)
        let xs = longitudes.map { $0 * ShapeDistanceCheck.metresPerDegree * scale }
        let ys = latitudes.map { $0 * ShapeDistanceCheck.metresPerDegree }
        (self.scale, self.xs, self.ys) = (scale, xs, ys)
        box = (xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0)
        chunks = stride(from: 0, to: max(xs.count - 1, 1), by: Self.chunk).map { start in
            let points = start...min(start + Self.chunk, xs.count - 1)
            return (
                xs[points].min() ?? 0, ys[points].min() ?? 0, xs[points].max() ?? 0, ys[points].max() ?? 0
            )
        }
    }

    /// The point at `latitude`, `longitude` on the projection, in metres.
    func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        (longitude * ShapeDistanceCheck.metresPerDegree * scale, latitude * ShapeDistanceCheck.metresPerDegree)
    }

    /// Point `index` of the shape on the projection, in metres.
    func point(_ index: Int) -> (x: Double, y: Double) { (xs[index], ys[index]) }

    /// Every segment (the point, for a shape of one) within `limit` metres of the given point, in order.
    func segments(latitude: Double, longitude: Double, within limit: Double) -> [Int] {
        let (x, y) = project(latitude: latitude, longitude: longitude)
        guard x >= box.minX - limit && x <= box.maxX + limit && y >= box.minY - limit && y <= box.maxY + limit
        else { return [] }
        return (0..<max(xs.count - 1, 1)).filter { distanceSquared(x, y, segment: $0) <= limit * limit }
    }

    /// The first segment (or the point, for a shape of one) within `limit` metres of the given
    /// point, searched from segment `hint` on, then from the start; when there is none, nil and
    /// the distance to the nearest segment.
    func nearest(latitude: Double, longitude: Double, within limit: Double, from hint: Int) -> (Int?, Double) {
        let x = longitude * ShapeDistanceCheck.metresPerDegree * scale
        let y = latitude * ShapeDistanceCheck.metresPerDegree
        let segments = max(xs.count - 1, 1)
        let limitSquared = limit * limit
        let inBox = x >= box.minX - limit && x <= box.maxX + limit && y >= box.minY - limit && y <= box.maxY + limit
        var nearest = Double.infinity
        for step in 0..<segments {
            let index = (min(hint, segments - 1) + step) % segments
            let squared = distanceSquared(x, y, segment: index)
            if inBox && squared <= limitSquared { return (index, squared.squareRoot()) }
            nearest = min(nearest, squared)
        }
        return (nil, nearest.squareRoot())
    }

    /// How many places the shape comes within `limit` metres of the given point, as the
    /// validator counts its potential matches: a run of segments within the limit is one
    /// place, or more where the shape went away from the point and comes back closer within it
    /// (the local minima of the distance); 0 when at most `atLeast` segments of the shape are
    /// near the point by their boxes (then there cannot be more places than that).
    func localMatches(latitude: Double, longitude: Double, within limit: Double, atLeast: Int) -> Int {
        let (x, y) = project(latitude: latitude, longitude: longitude)
        let segments = xs.count - 1
        let near = chunks.indices.filter { index in
            let b = chunks[index]
            return x >= b.minX - limit && x <= b.maxX + limit && y >= b.minY - limit && y <= b.maxY + limit
        }
        guard near.reduce(0, { $0 + min(Self.chunk, segments - $1 * Self.chunk) }) > atLeast else { return 0 }
        var (matches, pending, last) = (0, false, -2)
        var (endDistance, goingAway) = (Double.infinity, false)
        for index in near.flatMap({ $0 * Self.chunk..<min($0 * Self.chunk + Self.chunk, segments) }) {
            // A segment skipped is farther than the limit: it ends the run before it.
            if index != last + 1 && pending { (matches, pending) = (matches + 1, false) }
            last = index
            let distance = distanceSquared(x, y, segment: index).squareRoot()
            if distance <= limit {
                if goingAway && distance < endDistance && pending { matches += 1 }
                pending = true
            } else if pending {
                (matches, pending) = (matches + 1, false)
            }
            let (ex, ey) = (xs[index + 1] - x, ys[index + 1] - y)
            endDistance = (ex * ex + ey * ey).squareRoot()
            goingAway = endDistance > distance
        }
        return matches + (pending ? 1 : 0)
    }

    private func distanceSquared(_ x: Double, _ y: Double, segment index: Int) -> Double {
        let (ax, ay) = (xs[index], ys[index])
        guard index + 1 < xs.count else { return (x - ax) * (x - ax) + (y - ay) * (y - ay) }
        let (dx, dy) = (xs[index + 1] - ax, ys[index + 1] - ay)
        let length = dx * dx + dy * dy
        let t = length == 0 ? 0 : max(0, min(1, ((x - ax) * dx + (y - ay) * dy) / length))
        let (px, py) = (ax + t * dx - x, ay + t * dy - y)
        return px * px + py * py
    }
}
