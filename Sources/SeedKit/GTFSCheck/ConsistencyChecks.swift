import SeedSQLite

/// The canonical validator's ERRORs about rows that contradict each other or another file,
/// reported as warnings (errors under `--strict`): the seed keeps the rows as written.
///
/// - `start_and_end_range_out_of_order`: calendar.txt's start_date after its end_date,
///   feed_info.txt's feed_start_date after its feed_end_date, a frequency's start_time after
///   its end_time; `start_and_end_range_equal`: a frequency's start_time equal to its end_time.
/// - `inconsistent_agency_timezone`: an agency whose agency_timezone is not the first agency's.
/// - transfers.txt: `transfer_with_invalid_stop_location_type` (a stop that is not a stop or a
///   station), `transfer_with_invalid_trip_and_route` (a trip of another route than the rule's),
///   `transfer_with_invalid_trip_and_stop` (a stop the trip does not serve, itself or a platform
///   of the station named).
/// - stops.txt's stop_access: `stop_access_specified_for_incorrect_location` (on a location that
///   is not a stop), `stop_access_specified_for_stop_with_no_parent_station`.
/// - `location_with_unexpected_stop_time`: a station, entrance, node or boarding area that stop
///   times serve (placed at the stop, once; from `StopTimeChecks`' pass).
struct ConsistencyChecks {
    let checks: GTFSChecks

    func run() throws {
        let kind = BuildIssue.Kind.misleading(strict: checks.options.strict)
        try checkRanges(kind: kind)
        try checks.flagRows(
            of: "agency", key: "agency_id", columns: ["agency_timezone"],
            condition:
                "agency_timezone <> (SELECT agency_timezone FROM agency ORDER BY \(quoted("id")) LIMIT 1)",
            field: "agency_timezone", kind: kind, code: NoticeCode.inconsistentAgencyTimezone
        ) { _, _ in "is not the first agency's: the feed's times are read in one time zone" }
        try checkTransfers(kind: kind)
        let access = "stop_access IS NOT NULL"
        try checks.flagRows(
            of: "stops", key: "stop_id", columns: ["stop_access", "location_type"],
            condition: "\(access) AND coalesce(location_type, 0) <> 0", field: "stop_access", kind: kind,
            code: NoticeCode.stopAccessSpecifiedForIncorrectLocation
        ) { _, _ in "is given for a location that is not a stop or platform (location_type 0)" }
        try checks.flagRows(
            of: "stops", key: "stop_id", columns: ["stop_access", "parent_station"],
            condition: "\(access) AND coalesce(location_type, 0) = 0 AND coalesce(parent_station, '') = ''",
            field: "stop_access", kind: kind, code: NoticeCode.stopAccessSpecifiedForStopWithNoParentStation
        ) { _, _ in "is given for a stop without parent_station: it says how a station's stop is reached" }
    }

    private func checkRanges(kind: BuildIssue.Kind) throws {
        let message = { (end: String) in "is after \(end): the range runs backwards" }
        try checks.flagRows(
            of: "calendar", key: "service_id", columns: ["start_date", "end_date"],
            condition: "start_date > end_date", field: "start_date", kind: kind,
            code: NoticeCode.startAndEndRangeOutOfOrder
        ) { _, _ in message("end_date") }
        try checks.flagRows(
            of: "feed_info", matching: ["feed_start_date", "feed_end_date"],
            condition: "feed_start_date > feed_end_date", field: "feed_start_date", kind: kind,
            code: NoticeCode.startAndEndRangeOutOfOrder, message: message("feed_end_date"))
        let fields = ["trip_id", "start_time"]
        try checks.flagRows(
            of: "frequencies", matching: fields, condition: "start_time > end_time", field: "start_time", kind: kind,
            code: NoticeCode.startAndEndRangeOutOfOrder, message: message("end_time"))
        try checks.flagRows(
            of: "frequencies", matching: fields, condition: "start_time = end_time", field: "start_time", kind: kind,
            code: NoticeCode.startAndEndRangeEqual, message: "is end_time: the frequency covers no time")
    }

    private func checkTransfers(kind: BuildIssue.Kind) throws {
        let fields = ["from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id", "to_trip_id"]
        guard fields.allSatisfy({ checks.has(table: "transfers", column: $0) }) else { return }
        for side in ["from", "to"] {
            let stop = "\(side)_stop_ref"
            let trip = "\(side)_trip_ref"
            try checks.flagRows(
                of: "transfers", matching: fields,
                condition: "\(stop) IN (SELECT id FROM stops WHERE coalesce(location_type, 0) NOT IN (0, 1))",
                field: "\(side)_stop_id", kind: kind, code: NoticeCode.transferWithInvalidStopLocationType,
                message: "is not a stop or a station (location_type 0 or 1)")
            try checks.flagRows(
                of: "transfers", matching: fields,
                condition:
                    """
                    \(trip) IS NOT NULL AND \(side)_route_ref IS NOT NULL \
                    AND \(side)_route_ref <> (SELECT route_ref FROM trips WHERE id = \(trip))
                    """,
                field: "\(side)_trip_id", kind: kind, code: NoticeCode.transferWithInvalidTripAndRoute,
                message: "is a trip of another route than \(side)_route_id")
            guard checks.has(table: "stop_times"), checks.isWhole("stop_times") else { continue }
            try checks.flagRows(
                of: "transfers", matching: fields,
                condition:
                    """
                    \(trip) IS NOT NULL AND \(stop) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM stop_times st \
                    WHERE st.trip_ref = \(trip) AND (st.stop_ref = \(stop) OR st.stop_ref IN \
                    (SELECT id FROM stops WHERE parent_station_ref = \(stop))))
                    """,
                field: "\(side)_stop_id", kind: kind, code: NoticeCode.transferWithInvalidTripAndStop,
                message: "is not served by \(side)_trip_id (itself or a platform of it)")
        }
    }
}

extension StopTimeChecks {
    /// `location_with_unexpected_stop_time`: each stop of stops.txt that is not a stop or
    /// platform (location_type 1 to 4) whose row id is marked in `served`.
    func reportUnexpectedStops(served: [Bool]) throws {
        guard checks.has(table: "stops", column: "location_type"), let table = checks.schema.table(named: "stops")
        else { return }
        let rows = try checks.connection.rows(
            "SELECT \(quoted(table.rowID)) FROM stops WHERE coalesce(location_type, 0) <> 0")
        let ids = rows.compactMap { $0[0].integer }.filter { $0 >= 0 && Int($0) < served.count && served[Int($0)] }
        guard !ids.isEmpty else { return }
        try checks.flagRows(
            of: "stops", key: "stop_id", columns: ["location_type"],
            condition: "\(quoted(table.rowID)) IN (\(ids.map(String.init).joined(separator: ", ")))",
            field: "location_type", kind: .misleading(strict: checks.options.strict),
            code: NoticeCode.locationWithUnexpectedStopTime
        ) { _, _ in "is not 0 (a stop or platform), yet stop times serve this location: riders board at stops" }
    }
}
