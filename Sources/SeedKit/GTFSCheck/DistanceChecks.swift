import Foundation
import SeedSQLite

/// The canonical validator's rules on distances that need no pass over stop_times:
///
/// - `transfer_distance_too_large` (a WARNING, a warning here whatever the flags): a transfer
///   between two stops more than 10 km apart (great-circle distance; a stop without
///   coordinates placed at its parent's, as the validator does); `transfer_distance_above_2_km`
///   (an INFO, a warning here whatever the flags) for one more than 2 km apart, up to 10 km.
/// - `forbidden_shape_dist_traveled` (an ERROR; a warning here, an error under `--strict`): a
///   GTFS-Flex stop time (location_group_id or location_id, no stop_id) with shape_dist_traveled:
///   a zone has no place along a shape. Read through the partial indexes of location_ref and
///   location_group_ref (the index stage made them), so it costs nothing at millions of stop times.
struct DistanceChecks {
    let checks: GTFSChecks

    /// The validator's largest transfer distance, in metres.
    static let maximumTransferDistance = 10_000.0
    /// The distance above which the validator notes a transfer as long (an INFO), in metres.
    static let longTransferDistance = 2_000.0

    func run() throws {
        try checkTransfers()
        try checkFlexDistances()
    }

    /// The great-circle distance between two points, in metres (haversine, mean Earth radius).
    static func distance(
        _ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)
    )
        -> Double
    {
        let radians = Double.pi / 180
        let dLatitude = (b.latitude - a.latitude) * radians
        let dLongitude = (b.longitude - a.longitude) * radians
        let h =
            sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }

    private func checkTransfers() throws {
        let fields = ["from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id", "to_trip_id"]
        guard fields.allSatisfy({ checks.has(table: "transfers", column: $0) }), checks.has(table: "stops"),
            let file = checks.file(of: "transfers")
        else { return }
        let place = { (side: String) in
            ["lat", "lon"].map { "coalesce(\(side).stop_\($0), \(side)p.stop_\($0), \(side)g.stop_\($0))" }
                .joined(separator: ", ")
        }
        let parents = { (side: String) in
            """
            JOIN stops \(side) ON \(side).id = t.\(side == "a" ? "from" : "to")_stop_ref \
            LEFT JOIN stops \(side)p ON \(side)p.id = \(side).parent_station_ref \
            LEFT JOIN stops \(side)g ON \(side)g.id = \(side)p.parent_station_ref
            """
        }
        let rows = try checks.connection.rows(
            """
            SELECT \(fields.map { "t.\($0)" }.joined(separator: ", ")), \(place("a")), \(place("b")) \
            FROM transfers t \(parents("a")) \(parents("b"))
            """)
        var far: [[String]: Double] = [:]
        for row in rows {
            guard let a = Self.point(row[6], row[7]), let b = Self.point(row[8], row[9]) else { continue }
            let distance = Self.distance(a, b)
            guard distance > Self.longTransferDistance else { continue }
            far[row[0..<6].map(CSVRowLocator.key)] = distance
        }
        try checks.places.locate("transfers", matching: fields, keys: Set(far.keys), showing: ["to_stop_id"]) {
            key, row in
            let distance = far[key] ?? 0
            let kilometres = (distance / 100).rounded() / 10
            let tooLarge = distance > Self.maximumTransferDistance
            let message =
                tooLarge
                ? "is \(kilometres) km from from_stop_id '\(key[0])', more than 10 km: riders do not walk a "
                    + "transfer that long"
                : "is \(kilometres) km from from_stop_id '\(key[0])', more than 2 km: a long walk for a transfer"
            checks.issues.record(
                row.issue(
                    .bestPractice, file: file, field: "to_stop_id", value: row.fields["to_stop_id"]?.text ?? key[1],
                    message: message,
                    code: tooLarge ? NoticeCode.transferDistanceTooLarge : NoticeCode.transferDistanceAbove2km))
        }
    }

    /// A point of two real values, when both are given.
    private static func point(_ latitude: Value, _ longitude: Value) -> (latitude: Double, longitude: Double)? {
        func number(_ value: Value) -> Double? {
            switch value {
            case .real(let number): number
            case .integer(let number): Double(number)
            default: nil
            }
        }
        guard let latitude = number(latitude), let longitude = number(longitude) else { return nil }
        return (latitude, longitude)
    }

    private func checkFlexDistances() throws {
        guard checks.has(table: "stop_times", column: "shape_dist_traveled"), checks.has(table: "trips"),
            let file = checks.file(of: "stop_times"), let table = checks.schema.table(named: "stop_times")
        else { return }
        let zones = ["location_ref", "location_group_ref"].filter { name in
            table.references.contains { $0.column == name }
        }
        guard !zones.isEmpty else { return }
        // One SELECT per zone column, each read through its partial index (`IS NOT NULL`).
        let selects = zones.map { zone in
            """
            SELECT trips.trip_id, st.stop_sequence FROM stop_times st JOIN trips ON trips.id = st.trip_ref \
            WHERE st.\(zone) IS NOT NULL AND st.stop_ref IS NULL AND st.shape_dist_traveled IS NOT NULL
            """
        }
        let rows = try checks.connection.rows(selects.joined(separator: " UNION "))
        let keys = Set(rows.map { $0.map(CSVRowLocator.key) })
        try checks.places.locate(
            "stop_times", matching: ["trip_id", "stop_sequence"], keys: keys, showing: ["shape_dist_traveled"]
        ) { key, row in
            checks.issues.record(
                row.issue(
                    .misleading(strict: checks.options.strict), file: file, field: "shape_dist_traveled",
                    value: row.fields["shape_dist_traveled"]?.text,
                    message: "is given for a stop time at a GTFS-Flex zone (trip_id '\(key[0])', stop_sequence "
                        + "\(key[1])): a zone has no place along a shape", code: NoticeCode.forbiddenShapeDistTraveled))
        }
    }
}
