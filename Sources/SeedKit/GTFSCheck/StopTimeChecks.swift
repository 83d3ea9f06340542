import SeedSQLite

/// The checks along each trip of stop_times, in stop_sequence order (as MobilityData's
/// validator sorts them, whatever the file's order): one pass over the table, clustered by
/// (trip_ref, stop_sequence), so in that order already. What it finds is placed in the file
/// in batches (`CSVRowLocator`), so memory stays bounded however broken the feed.
///
/// All are warnings (errors under `--strict`): the seed holds such rows, an app would show
/// them wrongly. The same pass notes the stops served, so that stops.txt's stops (location_type
/// 0 or empty) no stop time serves are `stop_without_stop_time` (a warning whatever the flags),
/// and the shapes' stops (`ShapeStops`), for `stop_too_far_from_shape` (`ShapeDistanceCheck`).
struct StopTimeChecks {
    let checks: GTFSChecks
    let file: String

    /// Findings placed per pass over the file.
    static let batchSize = 20_000

    private enum Problem {
        case negativeSequence
        case arrivalOnly, departureOnly
        case missingEdge(last: Bool)
        case backwards(previousSequence: Int64, previousDeparture: Int64)
        case distanceNotIncreasing(previousSequence: Int64, previousDistance: Double)
        case timepointWithoutTimes, missingTimepoint

        /// `missing_timepoint_value`, a best-practice warning.
        var isMissingTimepoint: Bool {
            if case .missingTimepoint = self { true } else { false }
        }
    }

    private struct Finding {
        var trip: Int64
        var sequence: Int64
        var arrival: Int64?
        var departure: Int64?
        var problem: Problem
    }

    /// Runs the checks; returns how many stop times each trip has (for `UsageChecks`).
    func run() throws -> TripUsage {
        var usage = try TripUsage(
            trips: checks.schema.table(named: "trips")!, blocks: checks.has(table: "trips", column: "block_id"),
            on: checks.connection)
        let table = checks.schema.table(named: "stop_times")!
        let statement = try checks.connection.prepare(Self.selection(of: table))
        let windows = try PickupWindows(table: table, on: checks.connection)
        var served: [Bool] = []
        var distance: (sequence: Int64, value: Double)? = nil
        var findings: [Finding] = []
        var trip: Int64? = nil
        var previous: (sequence: Int64, departure: Int64)? = nil
        var last: (sequence: Int64, arrival: Int64?, departure: Int64?)? = nil
        var rowsOfTrip = 0
        var first: (arrival: Int64?, departure: Int64?) = (nil, nil)
        var shapeStops = try ShapeStops(checks: checks)
        var speeds = try TravelSpeedRule(checks: checks)
        var timepoints = TimepointRule<Finding>(
            hasColumn: (try? checks.places.header(of: "stop_times"))?.contains("timepoint"))
        func edge(_ row: (sequence: Int64, arrival: Int64?, departure: Int64?), trip: Int64, last: Bool) throws {
            guard row.arrival == nil || row.departure == nil, try !windows.has(trip: trip, sequence: row.sequence)
            else { return }
            findings.append(
                Finding(
                    trip: trip, sequence: row.sequence, arrival: row.arrival, departure: row.departure,
                    problem: .missingEdge(last: last)))
        }
        while try statement.step() {
            let read = StopTimeRow(statement)
            let (rowTrip, sequence, arrival, departure) = (read.trip, read.sequence, read.arrival, read.departure)
            let row = (sequence: sequence, arrival: arrival, departure: departure)
            if rowTrip != trip {
                if let trip { try usage.note(trip: trip, stopTimes: rowsOfTrip, ends: TripEnds(first, last)) }
                first = (arrival, departure)
                if let trip, let last, rowsOfTrip > 1 { try edge(last, trip: trip, last: true) }
                rowsOfTrip = 0
                trip = rowTrip
                previous = nil
                distance = nil
                try edge(row, trip: rowTrip, last: false)
                last = nil
            }
            func finding(_ problem: Problem) -> Finding {
                Finding(trip: rowTrip, sequence: sequence, arrival: arrival, departure: departure, problem: problem)
            }
            func add(_ problem: Problem) { findings.append(finding(problem)) }
            if sequence < 0 { add(.negativeSequence) }
            if arrival != nil && departure == nil { add(.arrivalOnly) }
            if arrival == nil && departure != nil { add(.departureOnly) }
            if let arrival, let previous, arrival < previous.departure {
                add(.backwards(previousSequence: previous.sequence, previousDeparture: previous.departure))
            }
            if let departure { previous = (sequence, departure) }
            if let stop = read.stop { Self.mark(Int(stop), in: &served) }
            try shapeStops?.add(trip: rowTrip, sequence: sequence, stop: read.stop, distance: read.distance)
            try speeds?.add(trip: rowTrip, sequence: sequence, stop: read.stop, arrival: arrival, departure: departure)
            if let value = read.distance {
                if let distance, value <= distance.value {
                    add(.distanceNotIncreasing(previousSequence: distance.sequence, previousDistance: distance.value))
                }
                distance = (sequence, value)
            }
            timepoints.check(read.timepoint, arrival: arrival, departure: departure, into: &findings) {
                finding($0 ? .missingTimepoint : .timepointWithoutTimes)
            }
            last = row
            rowsOfTrip += 1
            try reportFull(&findings, &shapeStops, &speeds)
        }
        // A trip of one stop is its own first and last: reported once.
        if let trip, let last, rowsOfTrip > 1 { try edge(last, trip: trip, last: true) }
        if let trip { try usage.note(trip: trip, stopTimes: rowsOfTrip, ends: TripEnds(first, last)) }
        try usage.finish()
        try report(findings)
        try reportStops(servedOnly: served)
        try finish(&shapeStops, &speeds)
        if let shapeStops { try ShapeDistanceCheck(checks: checks, file: file, shapeStops: shapeStops).run() }
        return usage
    }

    /// Ends the pass's last trip for `shapeStops` and `speeds` and reports what they found.
    private func finish(_ shapeStops: inout ShapeStops?, _ speeds: inout TravelSpeedRule?) throws {
        shapeStops?.endTrip()
        speeds?.endTrip()
        try reportBeyond(&shapeStops)
        try reportSpeeds(&speeds)
    }

    /// Reports what the pass has found so far, of each kind that has a batch's worth.
    private func reportFull(
        _ findings: inout [Finding], _ shapeStops: inout ShapeStops?, _ speeds: inout TravelSpeedRule?
    ) throws {
        if findings.count >= Self.batchSize {
            try report(findings)
            findings.removeAll()
        }
        if shapeStops?.beyondShape.count ?? 0 >= Self.batchSize { try reportBeyond(&shapeStops) }
        if speeds?.found.count ?? 0 >= Self.batchSize { try reportSpeeds(&speeds) }
    }

    /// Reports the trips `shapeStops` found beyond their shapes (`TripShapeDistance`) and forgets them.
    private func reportBeyond(_ shapeStops: inout ShapeStops?) throws {
        guard let found = shapeStops?.beyondShape, !found.isEmpty else { return }
        try TripShapeDistance(checks: checks).report(found)
        shapeStops?.beyondShape.removeAll()
    }

    /// Marks stop row id `stop` served (`served` grows as needed).
    private static func mark(_ stop: Int, in served: inout [Bool]) {
        if stop >= served.count { served += Array(repeating: false, count: max(stop + 1 - served.count, 1024)) }
        if stop >= 0 { served[stop] = true }
    }

    /// The query of the pass: each row's trip, sequence, times, stop, distance and timepoint, by
    /// trip and stop_sequence (NULL for a column the table does not store). A row's pickup
    /// windows are not read here (`PickupWindows`: only a trip's first and last rows without
    /// both times need them).
    private static func selection(of table: Table) -> String {
        let stored = ["stop_ref", "shape_dist_traveled", "timepoint"].map { name in
            table.columns.contains { $0.name == name && $0.stored }
                || table.references.contains { $0.column == name }
                ? quoted(name) : "NULL"
        }
        return """
            SELECT trip_ref, stop_sequence, arrival_time, departure_time, \(stored.joined(separator: ", ")) \
            FROM stop_times ORDER BY trip_ref, stop_sequence
            """
    }

    /// Records `stop_without_stop_time` for each stop of stops.txt (location_type 0 or empty)
    /// whose row id is not marked in `served` (and `location_with_unexpected_stop_time`).
    private func reportStops(servedOnly served: [Bool]) throws {
        try reportUnexpectedStops(served: served)
        guard checks.isWhole("stop_times"), checks.has(table: "stops", column: "location_type"),
            let file = checks.file(of: "stops"),
            let stops = checks.schema.table(named: "stops")
        else { return }
        let rows = try checks.connection.rows(
            "SELECT \(quoted(stops.rowID)), stop_id FROM stops WHERE coalesce(location_type, 0) = 0")
        var unserved = Set<[String]>()
        for row in rows {
            guard case .integer(let id) = row[0], id < 0 || Int(id) >= served.count || !served[Int(id)] else {
                continue
            }
            unserved.insert([CSVRowLocator.key(row[1])])
        }
        try checks.places.locate("stops", matching: ["stop_id"], keys: unserved, showing: ["stop_id"]) {
            key, row in
            checks.issues.record(
                row.issue(
                    .bestPractice, file: file, field: "stop_id", value: key[0],
                    message: "is served by no stop time: a stop no trip calls at", code: NoticeCode.stopWithoutStopTime)
            )
        }
    }

    /// The trip_id of each finding's trip, and the rows of stop_times.txt the findings name.
    private func locate(
        _ findings: [Finding]
    ) throws -> (tripIDs: [Int64: String], rows: [[String]: PlacedRow]) {
        var tripIDs: [Int64: String] = [:]
        let lookup = try checks.connection.prepare("SELECT trip_id FROM trips WHERE id = ?")
        for trip in Set(findings.map(\.trip)) {
            try lookup.bind([.integer(trip)])
            if try lookup.step() { tripIDs[trip] = CSVRowLocator.key(lookup.value(at: 0)) }
            lookup.reset()
        }
        var keys = Set<[String]>()
        for finding in findings {
            let trip = tripIDs[finding.trip] ?? ""
            keys.insert([trip, String(finding.sequence)])
            if case .backwards(let sequence, _) = finding.problem { keys.insert([trip, String(sequence)]) }
            if case .distanceNotIncreasing(let sequence, _) = finding.problem { keys.insert([trip, String(sequence)]) }
        }
        var rows: [[String]: PlacedRow] = [:]
        let shown = ["arrival_time", "departure_time", "stop_sequence", "shape_dist_traveled", "timepoint"]
        try checks.places.locate(
            "stop_times", matching: ["trip_id", "stop_sequence"], keys: keys, showing: shown
        ) { key, row in
            if rows[key] == nil { rows[key] = row } // a repeated key: the row kept is the first
        }
        return (tripIDs, rows)
    }

    /// Places `findings` in the file and records them.
    private func report(_ findings: [Finding]) throws {
        guard !findings.isEmpty else { return }
        let (tripIDs, rows) = try locate(findings)
        for finding in findings {
            let trip = tripIDs[finding.trip] ?? ""
            let row = rows[[trip, String(finding.sequence)]]
            func written(_ field: String, _ stored: Int64?) -> String? {
                row?.fields[field]?.text ?? stored.map(SourceText.time)
            }
            let field: String
            let value: String?
            let message: String
            let code: String
            switch finding.problem {
            case .negativeSequence:
                (field, value, code) = (
                    "stop_sequence", row?.fields["stop_sequence"]?.text ?? String(finding.sequence),
                    NoticeCode.numberOutOfRange
                )
                message = "is negative (trip_id '\(trip)'): stop_sequence must be 0 or more"
            case .arrivalOnly:
                (field, value, code) = (
                    "arrival_time", written("arrival_time", finding.arrival), NoticeCode.onlyArrivalOrDeparture
                )
                message =
                    """
                    is given without departure_time (trip_id '\(trip)', stop_sequence \(finding.sequence)): a stop \
                    time needs both or neither
                    """
            case .departureOnly:
                (field, value, code) = (
                    "departure_time", written("departure_time", finding.departure), NoticeCode.onlyArrivalOrDeparture
                )
                message =
                    """
                    is given without arrival_time (trip_id '\(trip)', stop_sequence \(finding.sequence)): a stop \
                    time needs both or neither
                    """
            case .missingEdge(let last):
                field = finding.arrival == nil ? "arrival_time" : "departure_time"
                (value, code) = (nil, NoticeCode.missingTripEdge)
                message =
                    "is empty on the \(last ? "last" : "first") stop of trip_id '\(trip)' (stop_sequence "
                    + "\(finding.sequence)): "
                    + "a trip's first and last stops need arrival_time and departure_time"
            case .backwards(let previousSequence, let previousDeparture):
                let before = rows[[trip, String(previousSequence)]]
                let previousText = before?.fields["departure_time"]?.text ?? SourceText.time(previousDeparture)
                let previousLine = before?.line.map { " on line \($0)" } ?? ""
                (field, value, code) = (
                    "arrival_time", written("arrival_time", finding.arrival), NoticeCode.arrivalBeforePreviousDeparture
                )
                message =
                    "is before departure_time '\(previousText)' of the previous stop (stop_sequence "
                    + "\(previousSequence)\(previousLine)) "
                    + "on trip_id '\(trip)': times run backwards"
            case .distanceNotIncreasing(let previousSequence, let previousDistance):
                (field, value, code) = (
                    "shape_dist_traveled", row?.fields["shape_dist_traveled"]?.text,
                    NoticeCode.decreasingStopTimeDistance
                )
                let previousLine = rows[[trip, String(previousSequence)]]?.line.map { " on line \($0)" } ?? ""
                message =
                    "is not above \(previousDistance), the previous stop's (stop_sequence \(previousSequence)"
                    + "\(previousLine)) on trip_id '\(trip)': distances along a trip must increase"
            case .timepointWithoutTimes, .missingTimepoint:
                let missing = finding.problem.isMissingTimepoint
                (field, value, code, message) = TimepointNotice.notice(
                    missing: missing, trip: trip, sequence: finding.sequence, timepoint: row?.fields["timepoint"]?.text)
            }
            checks.issues.record(
                BuildIssue(
                    kind: finding.problem.isMissingTimepoint
                        ? .bestPractice : .misleading(strict: checks.options.strict),
                    file: file, line: row?.line, row: row?.key,
                    column: row?.fields[field]?.column, field: field, value: value, message: message, code: code))
        }
    }
}
