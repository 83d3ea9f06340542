import SeedSQLite

/// The canonical validator's rules on stop_times.txt's timepoint, made in `StopTimeChecks`' pass:
///
/// - `stop_time_timepoint_without_times` (an ERROR; a warning here, an error under `--strict`:
///   consumers interpolate the time): timepoint 1 without arrival_time or departure_time.
/// - `missing_timepoint_value` (a WARNING, whatever the flags): a stop time with a time but no
///   timepoint, in a file whose header has the column. A built seed keeps no header (`seedgen
///   report`), so there a file has the column when a row gives a value: findings before the
///   first such row are held (up to `held` of them) until one does, and dropped if none does.
struct TimepointRule<Finding> {
    /// Findings held before the first row with a timepoint; later ones are not reported.
    static var held: Int { 20_000 }

    /// Whether the file is known to have the column (its header, or a row with a value).
    private var seen: Bool
    /// The header lacks the column: nothing is missing.
    private let absent: Bool
    private var pending: [Finding] = []

    /// A rule for a file whose header has the column (`hasColumn`), lacks it, or is not known (nil).
    init(hasColumn: Bool?) {
        seen = hasColumn == true
        absent = hasColumn == false
    }

    /// Adds to `findings` what is wrong with a stop time's `timepoint` and times (`finding(missing)`
    /// makes it); a missing timepoint is held until the file is known to have the column, and the
    /// held findings are added at the first timepoint given.
    mutating func check(
        _ timepoint: Int64?, arrival: Int64?, departure: Int64?, into findings: inout [Finding],
        finding: (_ missing: Bool) -> Finding
    ) {
        guard let timepoint else {
            guard !absent, arrival != nil || departure != nil else { return }
            if seen {
                findings.append(finding(true))
            } else if pending.count < Self.held {
                pending.append(finding(true))
            }
            return
        }
        if !seen {
            seen = true
            findings += pending
            pending = []
        }
        if timepoint == 1 && (arrival == nil || departure == nil) { findings.append(finding(false)) }
    }
}

/// What a `TimepointRule` finding says.
enum TimepointNotice {
    /// The field, value, code and message of a timepoint finding.
    static func notice(
        missing: Bool, trip: String, sequence: Int64, timepoint: String?
    ) -> (field: String, value: String?, code: String, message: String) {
        missing
            ? (
                "timepoint", nil, NoticeCode.missingTimepointValue,
                "is empty for a stop time with times (trip_id '\(trip)', stop_sequence \(sequence)): "
                    + "say whether they are exact (1) or approximate (0)"
            )
            : (
                "timepoint", timepoint, NoticeCode.stopTimeTimepointWithoutTimes,
                "is 1 (exact times) but arrival_time or departure_time is empty (trip_id '\(trip)', "
                    + "stop_sequence \(sequence))"
            )
    }
}

/// The canonical validator's `unusable_trip` (a WARNING, whatever the flags here): a trip with
/// fewer than two stop times (none too: it is also `unused_trip`), found with `UsageChecks`'
/// unused trips, from the counts of `StopTimeChecks`' pass.
enum UnusableTrip {
    static func notice(_ trip: String, stopTimes: Int, row: PlacedRow, file: String) -> BuildIssue {
        row.issue(
            .bestPractice, file: file, field: "trip_id", value: trip,
            message: "has \(stopTimes == 0 ? "no stop time" : "one stop time"): riders cannot board and alight on it",
            code: NoticeCode.unusableTrip)
    }
}

/// A row of `StopTimeChecks`' pass, read with as few calls into SQLite as it takes (a call a
/// value at millions of rows is most of the pass): a value other than 0 is not NULL, so only a
/// 0 is asked its storage class.
struct StopTimeRow {
    var trip: Int64
    var sequence: Int64
    var arrival: Int64?
    var departure: Int64?
    var stop: Int64?
    var distance: Double?
    var timepoint: Int64?

    /// The row `statement` (the pass's selection) stands on.
    init(_ statement: Statement) {
        func integer(_ index: Int) -> Int64? {
            let value = statement.int64(at: index)
            return value != 0 || statement.storageClass(at: index) != .null ? value : nil
        }
        (trip, sequence) = (statement.int64(at: 0), statement.int64(at: 1))
        (arrival, departure) = (integer(2), integer(3))
        stop = integer(4)
        let distance = statement.double(at: 5)
        self.distance = distance != 0 || statement.storageClass(at: 5) != .null ? distance : nil
        timepoint = integer(6)
    }
}

/// Whether a stop time has a GTFS-Flex pickup window (start_pickup_drop_off_window or
/// end_pickup_drop_off_window), looked up by its key: `missing_trip_edge` asks it only of a
/// trip's first and last stop times without both times, so the pass reads no row's windows.
struct PickupWindows {
    private let lookup: Statement?

    /// Prepares the lookup in `table` (stop_times); none when the table stores no window.
    init(table: Table, on connection: Connection) throws {
        let stored = ["start_pickup_drop_off_window", "end_pickup_drop_off_window"].filter { name in
            table.columns.contains { $0.name == name && $0.stored } || table.references.contains { $0.column == name }
        }
        guard !stored.isEmpty else {
            lookup = nil
            return
        }
        let windowed = stored.map { "\(quoted($0)) IS NOT NULL" }.joined(separator: " OR ")
        lookup = try connection.prepare(
            "SELECT 1 FROM stop_times WHERE trip_ref = ? AND stop_sequence = ? AND (\(windowed))")
    }

    /// Whether stop time (`trip`, `sequence`) has a window.
    func has(trip: Int64, sequence: Int64) throws -> Bool {
        guard let lookup else { return false }
        try lookup.bind([.integer(trip), .integer(sequence)])
        defer { lookup.reset() }
        return try lookup.step()
    }
}
