import SeedSQLite

/// The rows of the transit schema's `footpaths` recipe (Schema/transit.yaml) in a seed of one
/// feed, computed in Swift (``PlannerTables``): kind 0, the stops within the walking distance,
/// found by the recipe's cells with the recipe's arithmetic, operation by operation in the
/// same order on the same doubles (its constants as this SQLite reads them), so that each
/// comparison comes out as the SQL's; kinds 1 to 3 (a station's stops, transfers.txt) by the
/// recipe's own SQL for them, small tables.
enum Footpaths {
    /// A stop with a position, as the recipe's `placed` has it.
    private struct Placed {
        var id: Int64
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
    /// or returns false (nothing written) when a stop's coordinate is not a number (the SQL
    /// then decides what it means). Kind 0 is kept as pairs of ids (16 bytes a row) to sort.
    static func fill(_ connection: Connection) throws(SQLiteError) -> Bool {
        guard let placed = try placed(connection) else { return false }
        var pairs: [(Int64, Int64)] = []
        try walks(placed, limit: try Constants(connection).limit) { (from, to) throws(SQLiteError) in
            pairs.append((from, to))
        }
        pairs.sort { $0 < $1 }
        let walk = try IntegerRowInserter(
            into: "footpaths", columns: ["from_stop_ref", "to_stop_ref", "kind"], connection: connection)
        let other = try connection.prepare(
            "INSERT INTO footpaths (from_stop_ref, to_stop_ref, kind, min_transfer_time) VALUES (?, ?, ?, ?)")
        var next = 0
        for row in try connection.rows(otherKindsSQL + "\n ORDER BY 1, 2, 3") {
            let key = (row[0].integer ?? 0, row[1].integer ?? 0)
            while next < pairs.count && pairs[next] <= key {
                try walk.insert(pairs[next].0, pairs[next].1, 0)
                next += 1
            }
            try walk.flush()
            try other.run(row)
        }
        for pair in pairs[next...] { try walk.insert(pair.0, pair.1, 0) }
        try walk.flush()
        return true
    }

    /// The recipe's `placed`: each stop with a latitude and a longitude, in id order.
    private static func placed(_ connection: Connection) throws(SQLiteError) -> [Placed]? {
        let k = try Constants(connection)
        var served = Set<Int64>()
        let read = try connection.prepare("SELECT DISTINCT stop_ref FROM pattern_stops")
        while try read.step() { served.insert(read.int64(at: 0)) }
        let stops = try connection.prepare(
            "SELECT id, stop_lat, stop_lon FROM stops WHERE stop_lat IS NOT NULL AND stop_lon IS NOT NULL ORDER BY id")
        var placed: [Placed] = []
        while try stops.step() {
            let numeric: [Statement.StorageClass] = [.integer, .real]
            guard numeric.contains(stops.storageClass(at: 1)), numeric.contains(stops.storageClass(at: 2)) else {
                return nil
            }
            let (id, lat, lon) = (stops.int64(at: 0), stops.double(at: 1), stops.double(at: 2))
            let t = abs(lat) + k.cell
            let r = t * t * k.rFactor
            let c = 1 + r * (k.t1 + r * (k.t2 + r * (k.t3 + r * (k.t4 + r * (k.t5 + r / k.t6)))))
            placed.append(
                Placed(
                    id: id, lat: lat, lon: lon, cc: c * c, x: cellIndex(lat, k.cell), y: cellIndex(lon, k.cell),
                    reach: integer(k.reachDistance / max(c, k.minimumC)) + 1, served: served.contains(id)))
        }
        return placed
    }

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
    /// `dlat^2 + dlon^2 cc <= limit`.
    private static func walks(
        _ placed: [Placed], limit: Double, _ found: (Int64, Int64) throws(SQLiteError) -> Void
    ) throws(SQLiteError) {
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
                        try found(min(p.id, q.id), max(p.id, q.id))
                    }
                }
            }
        }
    }

    /// The recipe's kinds 1 (a station's stops, both with a position), 2 and 3 (transfers.txt).
    static let otherKindsSQL = """
        WITH members(station, stop) AS (
            SELECT parent_station_ref, id FROM stops WHERE parent_station_ref IS NOT NULL
            UNION SELECT parent_station_ref, parent_station_ref FROM stops WHERE parent_station_ref IS NOT NULL
          ),
          placed(id) AS (SELECT id FROM stops WHERE stop_lat IS NOT NULL AND stop_lon IS NOT NULL)
        SELECT DISTINCT m.stop, n.stop, 1, NULL FROM members AS m JOIN members AS n ON n.station = m.station
           AND n.stop > m.stop
         WHERE EXISTS (SELECT 1 FROM placed WHERE id = m.stop) AND EXISTS (SELECT 1 FROM placed WHERE id = n.stop)
        UNION ALL
        SELECT from_stop_ref, to_stop_ref, CASE transfer_type WHEN 3 THEN 3 ELSE 2 END,
               CASE WHEN transfer_type = 2 THEN min_transfer_time END
          FROM (SELECT from_stop_ref, to_stop_ref, max(id), transfer_type, min_transfer_time FROM transfers
                 WHERE from_stop_ref IS NOT NULL AND to_stop_ref IS NOT NULL AND from_route_ref IS NULL
                   AND to_route_ref IS NULL AND from_trip_ref IS NULL AND to_trip_ref IS NULL
                 GROUP BY from_stop_ref, to_stop_ref)
         WHERE from_stop_ref <> to_stop_ref OR transfer_type = 2 AND min_transfer_time IS NOT NULL
        """
}
