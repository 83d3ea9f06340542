import SeedSQLite

/// The canonical validator's `trip_distance_exceeds_shape_distance` (an ERROR; a warning here,
/// an error under `--strict`: distances only place vehicles along shapes) and its
/// `..._below_threshold` (a WARNING, a warning whatever the flags): a trip whose last stop
/// time (by stop_sequence, at a stop) has a shape_dist_traveled above the greatest of its
/// shape's points, when that greatest is above 0. The ERROR when the last stop is more than
/// 11.1 m from the shape's point of that greatest distance (a stop without coordinates
/// counts as far, as the validator measures from 0, 0), the WARNING otherwise.
///
/// Found in `StopTimeChecks`' pass (`ShapeStops` compares each trip's last stop time with its
/// shape's greatest distance, read once a shape); placed in trips.txt, at shape_id.
struct TripShapeDistance {
    let checks: GTFSChecks

    /// The validator's threshold, in metres.
    static let threshold = 11.1

    /// A shape's greatest shape_dist_traveled and the coordinates of its first point with it.
    struct Maximum {
        var distance: Double
        var latitude: Double
        var longitude: Double
    }

    /// A trip whose last stop time is beyond its shape's greatest distance.
    struct Beyond {
        var trip: Int64
        var shapeID: String
        var stop: Int64
        var sequence: Int64
        var distance: Double
        var maximum: Maximum
    }

    /// The greatest distance of each shape whose greatest is above 0, by shape_id.
    static func maxima(on connection: Connection) throws -> [String: Maximum] {
        let rows = try connection.prepare(
            """
            SELECT shape_id, max(shape_dist_traveled), shape_pt_lat, shape_pt_lon FROM shapes GROUP BY shape_id \
            HAVING max(shape_dist_traveled) > 0
            """)
        var maxima: [String: Maximum] = [:]
        while try rows.step() {
            maxima[CSVRowLocator.key(rows.value(at: 0))] = Maximum(
                distance: rows.double(at: 1), latitude: rows.double(at: 2), longitude: rows.double(at: 3))
        }
        return maxima
    }

    /// Places each of `found` at its trip's row of trips.txt and records it.
    func report(_ found: [Beyond]) throws {
        guard !found.isEmpty, let file = checks.file(of: "trips"), let stops = checks.schema.table(named: "stops")
        else { return }
        let tripID = try checks.connection.prepare("SELECT trip_id FROM trips WHERE id = ?")
        let coordinates = try checks.connection.prepare(
            "SELECT stop_lat, stop_lon FROM stops WHERE \(quoted(stops.rowID)) = ?")
        var byTrip: [String: (Beyond, metres: Double?)] = [:]
        for beyond in found {
            try tripID.bind([.integer(beyond.trip)])
            let trip = try tripID.step() ? CSVRowLocator.key(tripID.value(at: 0)) : ""
            tripID.reset()
            try coordinates.bind([.integer(beyond.stop)])
            var metres: Double? = nil
            if try coordinates.step(), coordinates.storageClass(at: 0) != .null,
                coordinates.storageClass(at: 1) != .null
            {
                let end = (beyond.maximum.latitude, beyond.maximum.longitude)
                metres = DistanceChecks.distance((coordinates.double(at: 0), coordinates.double(at: 1)), end)
            }
            coordinates.reset()
            byTrip[trip] = (beyond, metres)
        }
        try checks.places.locate(
            "trips", matching: ["trip_id"], keys: Set(byTrip.keys.map { [$0] }),
            showing: [
                "shape_id"
            ]
        ) { key, row in
            guard let (beyond, metres) = byTrip[key[0]] else { return }
            let far = (metres ?? .infinity) > Self.threshold
            let away = metres.map { "\(Int($0.rounded())) m" } ?? "an unknown distance (the stop has no coordinates)"
            checks.issues.record(
                row.issue(
                    far ? .misleading(strict: checks.options.strict) : .bestPractice, file: file, field: "shape_id",
                    value: row.fields["shape_id"]?.text ?? beyond.shapeID,
                    message: """
                        is \(beyond.maximum.distance) long (its greatest shape_dist_traveled), but trip_id \
                        '\(key[0])' ends at \(beyond.distance) (stop_sequence \(beyond.sequence)), \(away) from \
                        the shape's end: the trip runs beyond its shape
                        """,
                    code: far
                        ? NoticeCode.tripDistanceExceedsShapeDistance
                        : NoticeCode.tripDistanceExceedsShapeDistanceBelowThreshold))
        }
    }
}
