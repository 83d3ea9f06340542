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
        BuildIssue(
            kind: .bestPractice, file: file, line: row.line, row: row.key, column: row.fields["trip_id"]?.column,
            field: "trip_id", value: trip,
            message: "has \(stopTimes == 0 ? "no stop time" : "one stop time"): riders cannot board and alight on it",
            code: NoticeCode.unusableTrip)
    }
}
