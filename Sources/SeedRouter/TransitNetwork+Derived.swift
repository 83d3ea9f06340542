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
}
