import SeedSQLite

/// The rows of the transit schema's `footpaths` recipe (Schema/transit.yaml) in a seed of one
/// feed, computed in Swift (``PlannerRows``: by the build, and by the installer after a delta):
/// kind 0, the stops within the walking distance,
/// found by the recipe's cells with the recipe's arithmetic, operation by operation in the
/// same order on the same doubles (its constants as this SQLite reads them), so that each
/// comparison comes out as the SQL's; kinds 1 to 3 (a station's stops, transfers.txt) by the
/// recipe's own SQL for them, small tables.
package enum FootpathRows {
    /// A stop with a position, as the recipe's `placed` has it (and its feed, in a region seed).
    private struct Placed {
        var id, feed: Int64
        var lat, lon, cc: Double
        var x, y, reach: Int64
        var served: Bool
    }

    private struct Cell: Hashable {
        var x, y: Int64
    }

    /// The recipe's constants as SQLite evaluates them (a literal's double is SQLite's reading).
    private struct Constants {
        let cell, rFactor, t1, t2, t3, t4, t5, t6, reachDistance, minimumC, limit: Double

        init(_ connection: Connection) throws(SQLiteError) {
            let row =
                try connection.rows(
                    """
                    SELECT 0.004, 0.00030461741978670857, -1 / 2.0, 1 / 24.0, -1 / 720.0, 1 / 40320.0, \
                    -1 / 3628800.0, 479001600.0, 0.9016, 0.01, 160801 / 12364311703.0
                    """
                ).first ?? []
            let values = row.map { value -> Double in
                if case .real(let number) = value { return number }
                return .nan
            }
            guard values.count == 11 else { throw SQLiteError(.error, message: "footpaths: no constants") }
            (cell, rFactor, t1, t2, t3, t4) = (values[0], values[1], values[2], values[3], values[4], values[5])
            (t5, t6, reachDistance, minimumC, limit) = (values[6], values[7], values[8], values[9], values[10])
        }
    }

    /// Fills `footpaths` with the recipe's rows, in its order (key order: ANALYZE's estimates
    /// of a table's rows, in the seed, depend on the order its rows went in), and returns true;
    /// or returns false (nothing written) when a stop's coordinate is not a number or is beyond
    /// ``largestCoordinate`` (the SQL then decides what it means). Kinds 0 and 1 are kept as
    /// keys (32 bytes a row) to sort. `served`: the stops of `pattern_stops`, when the caller
    /// has them. `region`: a region seed's, each feed's rows from its own stops, feed by feed,
    /// as the recipe run once per feed writes them (not the walks between feeds).
    package static func fill(
        _ connection: Connection, served: Set<Int64>? = nil, region: Bool = false
    ) throws(SQLiteError) -> Bool {
        guard let (placed, stations) = try placed(connection, served: served, region: region) else { return false }
        var keys: [(Int64, Int64, Int64, Int64)] = []
        walks(placed, limit: try Constants(connection).limit) { p, q in
            if p.feed == q.feed { keys.append((p.feed, min(p.id, q.id), max(p.id, q.id), 0)) }
        }
        keys += stationPairs(stations, placed: placed)
        keys.sort { $0 < $1 }
        // The recipe's DISTINCT: a stop of two stations (a parent's parent) pairs twice.
        var kept = 0
        for key in keys where kept == 0 || keys[kept - 1] != key {
            keys[kept] = key
            kept += 1
        }
        keys.removeLast(keys.count - kept)
        let feed = region ? ["feed_ref"] : []
        let plain = try IntegerRowInserter(
            into: "footpaths", columns: feed + ["from_stop_ref", "to_stop_ref", "kind"], connection: connection)
        let transfer = try connection.prepare(
            """
            INSERT INTO footpaths (\((feed + ["from_stop_ref", "to_stop_ref", "kind", "min_transfer_time"])
                .joined(separator: ", "))) VALUES (\(region ? "?, " : "")?, ?, ?, ?)
            """)
        func insert(_ key: (Int64, Int64, Int64, Int64)) throws(SQLiteError) {
            if region { try plain.insert(key.0, key.1, key.2, key.3) } else { try plain.insert(key.1, key.2, key.3) }
        }
        var next = 0
        for row in try connection.rows(transfersSQL(region: region) + "\n ORDER BY 1, 2, 3, 4") {
            let key = (row[0].integer ?? 0, row[1].integer ?? 0, row[2].integer ?? 0, row[3].integer ?? 0)
            while next < keys.count && keys[next] <= key {
                try insert(keys[next])
                next += 1
            }
            try plain.flush()
            try transfer.run(region ? row : Array(row.dropFirst()))
        }
        for key in keys[next...] { try insert(key) }
        try plain.flush()
        return true
    }

    /// Fills the walks of a region seed between stops of different feeds (kind 0, the rows of
    /// ``CrossFeedFootpaths/recipe``: the per-feed rule across feeds, each row of the feed of its
    /// `from_stop_ref`), in the recipe's order, and returns true; false (nothing written) when a
    /// stop's coordinate is not a number or is beyond ``largestCoordinate``.
    package static func fillCrossFeed(_ connection: Connection) throws(SQLiteError) -> Bool {
        guard let (placed, _) = try placed(connection, served: nil, region: true) else { return false }
        var rows: [(feed: Int64, from: Int64, to: Int64)] = []
        walks(placed, limit: try Constants(connection).limit) { p, q in
            guard p.feed != q.feed else { return }
            rows.append(p.id < q.id ? (p.feed, p.id, q.id) : (q.feed, q.id, p.id))
        }
        rows.sort { $0 < $1 }
        let insert = try IntegerRowInserter(
            into: "footpaths", columns: ["feed_ref", "from_stop_ref", "to_stop_ref", "kind"], connection: connection)
        for row in rows { try insert.insert(row.feed, row.from, row.to, 0) }
        try insert.flush()
        return true
    }

    /// Kind 1: each two stops of one station (a parent and its stops, the stops of one parent),
    /// both with a position, from the smaller id (a pair of two stations' twice: see `fill`).
    private static func stationPairs(
        _ stations: [Int64: [Int64]], placed: [Placed]
    ) -> [(Int64, Int64, Int64, Int64)] {
        var feeds: [Int64: Int64] = [:]
        for stop in placed { feeds[stop.id] = stop.feed }
        var pairs: [(Int64, Int64, Int64, Int64)] = []
        for members in stations.values {
            var unique: [Int64] = []
            for stop in members.sorted() where feeds[stop] != nil && stop != unique.last { unique.append(stop) }
            for (index, from) in unique.enumerated() {
                // A station's stops are of its feed (references resolve within their feed).
                for to in unique[(index + 1)...] { pairs.append((feeds[from] ?? 0, from, to, 1)) }
            }
        }
        return pairs
    }

    /// The recipe's `placed`: each stop with a latitude and a longitude, in id order; and the
    /// members of each station (the recipe's `members`: a parent and its stops, by parent).
    private static func placed(
        _ connection: Connection, served known: Set<Int64>?, region: Bool = false
    ) throws(SQLiteError) -> (placed: [Placed], stations: [Int64: [Int64]])? {
        let k = try Constants(connection)
        var served = known ?? []
        if known == nil {
            let read = try connection.prepare("SELECT DISTINCT stop_ref FROM pattern_stops")
            while try read.step() { served.insert(read.int64(at: 0)) }
        }
        let stops = try connection.prepare(
            "SELECT id, stop_lat, stop_lon, parent_station_ref, \(region ? "feed_ref" : "0") FROM stops ORDER BY id")
        var placed: [Placed] = []
        var stations: [Int64: [Int64]] = [:]
        while try stops.step() {
            let id = stops.int64(at: 0)
            if stops.storageClass(at: 3) != .null {
                stations[stops.int64(at: 3), default: []] += [id, stops.int64(at: 3)]
            }
            guard stops.storageClass(at: 1) != .null && stops.storageClass(at: 2) != .null else { continue }
            let numeric: [Statement.StorageClass] = [.integer, .real]
            guard numeric.contains(stops.storageClass(at: 1)), numeric.contains(stops.storageClass(at: 2)) else {
                return nil
            }
            let (lat, lon) = (stops.double(at: 1), stops.double(at: 2))
            // Far beyond any place (a hostile or broken seed): the cells' integers could overflow
            // here, where SQLite makes them reals; the SQL decides what such a stop means.
            guard abs(lat) <= Self.largestCoordinate && abs(lon) <= Self.largestCoordinate else { return nil }
            let t = abs(lat) + k.cell
            let r = t * t * k.rFactor
            let c = 1 + r * (k.t1 + r * (k.t2 + r * (k.t3 + r * (k.t4 + r * (k.t5 + r / k.t6)))))
            placed.append(
                Placed(
                    id: id, feed: stops.int64(at: 4), lat: lat, lon: lon, cc: c * c, x: cellIndex(lat, k.cell),
                    y: cellIndex(lon, k.cell),
                    reach: integer(k.reachDistance / max(c, k.minimumC)) + 1, served: served.contains(id)))
        }
        return (placed, stations)
    }

    /// The largest latitude or longitude computed here (any real place is within 180).
    static let largestCoordinate = 1e9

    /// `CAST(v / cell AS INTEGER) - (v < CAST(v / cell AS INTEGER) * cell)`: the cell, floored.
    private static func cellIndex(_ value: Double, _ cell: Double) -> Int64 {
        let truncated = integer(value / cell)
        return truncated - (value < Double(truncated) * cell ? 1 : 0)
    }

    /// SQLite's CAST of a REAL AS INTEGER: toward zero, clamped to the 64-bit range.
    private static func integer(_ value: Double) -> Int64 {
        if value.isNaN { return 0 }
        if value <= -9.223_372_036_854_775_808e18 { return .min }
        if value >= 9.223_372_036_854_775_807e18 { return .max }
        return Int64(value)
    }

    /// Kind 0: each stop probes its own cell (larger ids), the cells after it in its row and
    /// the next row, as far as its reach; a pair is kept when a trip serves one of the two and
    /// `dlat^2 + dlon^2 cc <= limit`. `found` is given the probing stop first.
    private static func walks(_ placed: [Placed], limit: Double, _ found: (Placed, Placed) -> Void) {
        var cells: [Cell: [Int]] = [:]
        for (index, stop) in placed.enumerated() { cells[Cell(x: stop.x, y: stop.y), default: []].append(index) }
        for p in placed {
            for dx: Int64 in 0...1 {
                for d in (dx == 0 ? 0 : -p.reach)...p.reach {
                    guard let members = cells[Cell(x: p.x + dx, y: p.y + d)] else { continue }
                    for index in members {
                        let q = placed[index]
                        if dx == 0 && d == 0 && q.id <= p.id { continue }
                        guard p.served || q.served else { continue }
                        let dlat = q.lat - p.lat
                        let dlon = q.lon - p.lon
                        guard dlat * dlat + dlon * dlon * p.cc <= limit else { continue }
                        found(p, q)
                    }
                }
            }
        }
    }

    /// The recipe's kinds 2 and 3 (transfers.txt), each row beginning with its feed (0 in a
    /// seed of one feed): a pair's stops, and so the last row of a pair, are of one feed.
    static func transfersSQL(region: Bool) -> String {
        let feed = region ? "feed_ref" : "0"
        return """
            SELECT \(feed), from_stop_ref, to_stop_ref, CASE transfer_type WHEN 3 THEN 3 ELSE 2 END,
                   CASE WHEN transfer_type = 2 THEN min_transfer_time END
              FROM (SELECT \(region ? "feed_ref, " : "")from_stop_ref, to_stop_ref, max(id), transfer_type,
                           min_transfer_time FROM transfers
                     WHERE from_stop_ref IS NOT NULL AND to_stop_ref IS NOT NULL AND from_route_ref IS NULL
                       AND to_route_ref IS NULL AND from_trip_ref IS NULL AND to_trip_ref IS NULL
                     GROUP BY from_stop_ref, to_stop_ref)
             WHERE from_stop_ref <> to_stop_ref OR transfer_type = 2 AND min_transfer_time IS NOT NULL
            """
    }
}
