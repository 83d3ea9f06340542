import SeedSQLite

/// The canonical validator's ERRORs on GTFS-Flex pickup windows (start_pickup_drop_off_window,
/// end_pickup_drop_off_window) of stop_times.txt, reported as warnings (errors under
/// `--strict`): the stop time is kept as written, only when riders may board is off.
///
/// - `forbidden_arrival_or_departure_time`: a window beside arrival_time or departure_time.
/// - `missing_pickup_or_drop_off_window`: one end of the window without the other.
/// - `invalid_pickup_drop_off_window`: a window whose end is not after its start.
/// - `forbidden_pickup_type`: a window with pickup_type 0 (or empty) or 3;
///   `forbidden_drop_off_type`: a window with drop_off_type 0 (or empty).
/// - `forbidden_continuous_pickup_drop_off`: a window on a trip of a route whose
///   continuous_pickup or continuous_drop_off is 0, 2 or 3 (continuous stopping along a zone).
/// - `missing_stop_times_record`: a window with pickup_type and drop_off_type 2 (must phone) on
///   a trip of that one stop time: travel within a zone needs two records, as the validator reads it.
/// - `missing_pickup_drop_off_booking_rule_id` (a WARNING there, a warning here whatever the
///   flags): a window with pickup_type 2 (must phone) and a start but no pickup_booking_rule_id,
///   or drop_off_type 2 and an end but no drop_off_booking_rule_id, in a feed with booking_rules.txt.
///
/// Read only when the file's header has a window column (in a built seed, whose header is not
/// kept, always): a scan of stop_times for the windowed rows, so a feed without windows pays nothing.
struct FlexWindowChecks {
    let checks: GTFSChecks

    private static let windows = ["start_pickup_drop_off_window", "end_pickup_drop_off_window"]

    /// A finding: its code, the field it is at and what it says.
    private struct Finding {
        var code: String
        var field: String
        var message: String
        /// A best practice (a warning whatever the flags), not an error `--strict` makes.
        var advice = false
    }

    func run() throws {
        let columns = Self.windows + ["arrival_time", "departure_time", "pickup_type", "drop_off_type"]
        guard columns.allSatisfy({ checks.has(table: "stop_times", column: $0) }), checks.has(table: "trips"),
            let file = checks.file(of: "stop_times")
        else { return }
        if let header = try? checks.places.header(of: "stop_times"), !Self.windows.contains(where: header.contains) {
            return
        }
        let continuous = ["continuous_pickup", "continuous_drop_off"].allSatisfy {
            checks.has(table: "routes", column: $0)
        }
        // The route's continuous stopping (a route left out while loading reads as none), and
        // whether the trip has another stop time (read through the key, for windowed rows only).
        let route =
            continuous
            ? """
            coalesce((SELECT coalesce(r.continuous_pickup, 1) IN (0, 2, 3) OR coalesce(r.continuous_drop_off, 1) \
            IN (0, 2, 3) FROM routes r WHERE r.id = trips.route_ref), 0)
            """ : "0"
        let booking = try bookingFlags()
        let rows = try checks.connection.rows(
            """
            SELECT trips.trip_id, st.stop_sequence, st.arrival_time IS NOT NULL, st.departure_time IS NOT NULL, \
            st.start_pickup_drop_off_window IS NOT NULL, st.end_pickup_drop_off_window IS NOT NULL, \
            st.start_pickup_drop_off_window >= st.end_pickup_drop_off_window, \
            coalesce(st.pickup_type, 0) IN (0, 3), coalesce(st.drop_off_type, 0) = 0, \(route), \
            st.pickup_type = 2 AND st.drop_off_type = 2 AND NOT EXISTS (SELECT 1 FROM stop_times o \
            WHERE o.trip_ref = st.trip_ref AND o.stop_sequence <> st.stop_sequence), \(booking) \
            FROM stop_times st JOIN trips ON trips.id = st.trip_ref \
            WHERE st.start_pickup_drop_off_window IS NOT NULL OR st.end_pickup_drop_off_window IS NOT NULL
            """)
        var found: [[String]: [Finding]] = [:]
        for row in rows {
            let flags = row[2...].map { $0.integer == 1 }
            found[[CSVRowLocator.key(row[0]), CSVRowLocator.key(row[1])]] = Self.findings(flags)
        }
        let shown = columns + ["trip_id"] + Self.bookingFields
        try checks.places.locate(
            "stop_times", matching: ["trip_id", "stop_sequence"], keys: Set(found.keys), showing: shown
        ) {
            key, row in
            for finding in found[key] ?? [] {
                let value = row.fields[finding.field]?.text
                // A booking rule id given but naming no rule is a foreign key error, reported while loading.
                if finding.advice, value?.isEmpty == false { continue }
                checks.issues.record(
                    row.issue(
                        finding.advice ? .bestPractice : .misleading(strict: checks.options.strict), file: file,
                        field: finding.field,
                        value: value?.isEmpty == false ? value : nil,
                        message: "\(finding.message) (trip_id '\(key[0])', stop_sequence \(key[1]))", code: finding.code
                    ))
            }
        }
    }

    private static let bookingFields = ["pickup_booking_rule_id", "drop_off_booking_rule_id"]

    /// The SQL of two flags of a windowed stop time: a phoned pickup with a start and no pickup
    /// booking rule, a phoned drop-off with an end and no drop-off booking rule; "0, 0" in a
    /// feed without booking_rules.txt (the validator checks only beside it).
    private func bookingFlags() throws -> String {
        let references = checks.schema.table(named: "stop_times")?.references.map(\.column) ?? []
        guard checks.has(table: "booking_rules"), checks.file(of: "booking_rules") != nil,
            ["pickup_booking_rule_ref", "drop_off_booking_rule_ref"].allSatisfy(references.contains)
        else { return "0, 0" }
        return """
            st.pickup_type = 2 AND st.start_pickup_drop_off_window IS NOT NULL \
            AND st.pickup_booking_rule_ref IS NULL, st.drop_off_type = 2 \
            AND st.end_pickup_drop_off_window IS NOT NULL AND st.drop_off_booking_rule_ref IS NULL
            """
    }

    /// What is wrong with a windowed stop time whose flags are: arrival, departure, start and
    /// end given, start not before end, a pickup_type and a drop_off_type that forbid a window,
    /// a route with continuous stopping, a phoned window alone on its trip, a phoned pickup and a
    /// phoned drop-off without their booking rules.
    private static func findings(_ flags: [Bool]) -> [Finding] {
        let (arrival, departure, start, end, backwards, pickup, dropOff) =
            (flags[0], flags[1], flags[2], flags[3], flags[4], flags[5], flags[6])
        var findings: [Finding] = []
        if flags[7] {
            findings.append(
                Finding(
                    code: NoticeCode.forbiddenContinuousPickupDropOff, field: windows[start ? 0 : 1],
                    message: """
                        is given on a trip of a route whose continuous_pickup or continuous_drop_off is 0, 2 or 3: \
                        a route with continuous stopping has no pickup windows
                        """))
        }
        if flags[8], start, end {
            findings.append(
                Finding(
                    code: NoticeCode.missingStopTimesRecord, field: "trip_id",
                    message: """
                        has this one stop time, a window to phone for: travel within a zone needs two stop times \
                        at it
                        """))
        }
        if arrival || departure {
            findings.append(
                Finding(
                    code: NoticeCode.forbiddenArrivalOrDepartureTime,
                    field: arrival ? "arrival_time" : "departure_time",
                    message: "is given beside a pickup window: a stop time has times or a window, not both"))
        }
        if start != end {
            findings.append(
                Finding(
                    code: NoticeCode.missingPickupOrDropOffWindow, field: windows[start ? 1 : 0],
                    message: "is empty, but \(windows[start ? 0 : 1]) is given: a window needs both ends"))
        } else if backwards {
            findings.append(
                Finding(
                    code: NoticeCode.invalidPickupDropOffWindow, field: windows[1],
                    message: "is not after start_pickup_drop_off_window: the window is empty"))
        }
        for (flag, side) in [(flags[9], "pickup"), (flags[10], "drop_off")] where flag {
            findings.append(
                Finding(
                    code: NoticeCode.missingPickupDropOffBookingRuleID, field: "\(side)_booking_rule_id",
                    message: "is empty, but \(side)_type is 2 (phone): the rule says how riders book", advice: true))
        }
        if pickup {
            findings.append(
                Finding(
                    code: NoticeCode.forbiddenPickupType, field: "pickup_type",
                    message: "is 0 (regular, also when empty) or 3 beside a pickup window: riders book or call"))
        }
        if dropOff {
            findings.append(
                Finding(
                    code: NoticeCode.forbiddenDropOffType, field: "drop_off_type",
                    message: "is 0 (regular, also when empty) beside a pickup window: riders book or call"))
        }
        return findings
    }
}
