import SeedSQLite

/// The canonical validator's WARNINGs about rows nothing uses or that repeat another's name,
/// warnings here whatever the flags:
///
/// - `unused_trip`: a trip no stop time names.
/// - `unused_shape`: a shape_id of shapes.txt that no trip names, at its first row.
/// - `duplicate_route_name`: a route with the same route_short_name, route_long_name,
///   route_type (the extended types counted as one, as the validator does) and agency_id as
///   an earlier route (in row order).
struct UsageChecks {
    let checks: GTFSChecks
    /// The stop times of each trip, when stop_times.txt was read.
    let trips: TripUsage?

    func run() throws {
        try checkTrips()
        try checkShapes()
        try checkRouteNames()
    }

    private func checkTrips() throws {
        guard let trips, checks.isWhole("stop_times"), checks.has(table: "trips"), let file = checks.file(of: "trips"),
            let table = checks.schema.table(named: "trips")
        else { return }
        // Row ids only, the trip_id of an unused trip looked up after (a city feed has 100,000s).
        let ids = try checks.connection.prepare("SELECT \(quoted(table.rowID)) FROM trips")
        var unusedIDs: [Int64] = []
        var singleIDs: [Int64] = []
        while try ids.step() {
            let id = ids.int64(at: 0)
            if trips.count(of: id) == 0 { unusedIDs.append(id) }
            if trips.count(of: id) == 1 { singleIDs.append(id) }
        }
        let tripID = try checks.connection.prepare("SELECT trip_id FROM trips WHERE \(quoted(table.rowID)) = ?")
        var stopTimes: [[String]: Int] = [:]
        for (id, count) in unusedIDs.map({ ($0, 0) }) + singleIDs.map({ ($0, 1) }) {
            try tripID.bind([.integer(id)])
            if try tripID.step() { stopTimes[[CSVRowLocator.key(tripID.value(at: 0))]] = count }
            tripID.reset()
        }
        try checks.places.locate(
            "trips", matching: ["trip_id"], keys: Set(stopTimes.keys), showing: ["trip_id"]
        ) { key, row in
            let count = stopTimes[key] ?? 0
            checks.issues.record(UnusableTrip.notice(key[0], stopTimes: count, row: row, file: file))
            guard count == 0 else { return }
            checks.issues.record(
                row.issue(
                    .bestPractice, file: file, field: "trip_id", value: key[0],
                    message: "is named by no stop time: the trip goes nowhere", code: NoticeCode.unusedTrip))
        }
    }

    private func checkShapes() throws {
        guard checks.has(table: "shapes"), checks.has(table: "trips", column: "shape_id"), checks.isWhole("trips"),
            let file = checks.file(of: "shapes")
        else { return }
        // NOT IN, not NOT EXISTS: trips.shape_id has no index before the index stage, so SQLite builds one
        // from the subquery, once.
        let rows = try checks.connection.rows(
            """
            SELECT DISTINCT shape_id FROM shapes WHERE shape_id NOT IN \
            (SELECT shape_id FROM trips WHERE shape_id IS NOT NULL)
            """)
        var unused = Set(rows.map { [CSVRowLocator.key($0[0])] })
        try checks.places.locate("shapes", matching: ["shape_id"], keys: unused, showing: ["shape_id"]) {
            key, row in
            guard unused.remove(key) != nil else { return }
            checks.issues.record(
                row.issue(
                    .bestPractice, file: file, field: "shape_id", value: key[0],
                    message: "is named by no trip: the shape is drawn for nothing", code: NoticeCode.unusedShape))
        }
    }

    private func checkRouteNames() throws {
        guard checks.has(table: "routes", column: "route_short_name"), checks.has(table: "routes", column: "agency_id"),
            checks.has(table: "routes", column: "route_long_name"), let file = checks.file(of: "routes"),
            let table = checks.schema.table(named: "routes")
        else { return }
        let type = "CASE WHEN route_type IN (0, 1, 2, 3, 4, 5, 6, 7, 11, 12) THEN route_type ELSE -1 END"
        let rows = try checks.connection.rows(
            """
            SELECT route_id, first FROM (SELECT route_id, first_value(route_id) OVER same AS first, \
            row_number() OVER same AS n FROM routes WINDOW same AS (PARTITION BY \
            trim(coalesce(route_short_name, '')), trim(coalesce(route_long_name, '')), \(type), \
            coalesce(agency_id, '') ORDER BY \(quoted(table.rowID)))) WHERE n > 1
            """)
        let first = Dictionary(
            rows.map { (CSVRowLocator.key($0[0]), CSVRowLocator.key($0[1])) }, uniquingKeysWith: { a, _ in a })
        try checks.places.locate(
            "routes", matching: ["route_id"], keys: Set(first.keys.map { [$0] }), showing: ["route_id"]
        ) { key, row in
            checks.issues.record(
                row.issue(
                    .bestPractice, file: file, field: "route_id", value: key[0],
                    message: """
                        has the names, route_type and agency of route_id '\(first[key[0]] ?? "?")': riders cannot \
                        tell the two apart
                        """,
                    code: NoticeCode.duplicateRouteName))
        }
    }
}
