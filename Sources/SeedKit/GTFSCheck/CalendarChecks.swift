import SeedSQLite

/// The canonical validator's date-relative rules, against the day `--today` names (default
/// the build's date; `BuildOptions.effectiveToday`), both WARNINGs there and warnings here
/// whatever the flags:
///
/// - `expired_calendar`: a service (of calendar.txt, or added by calendar_dates.txt) whose
///   last day is before today, placed at its calendar.txt row, or its first calendar_dates.txt
///   row when calendar.txt does not define it.
/// - `trip_coverage_not_active_for_next7_days`: the days the trips' services run, from the
///   first to the last, do not cover today and the 7 days after it.
/// - `feed_expiration_date7_days`, `feed_expiration_date30_days`: feed_info.txt's
///   feed_end_date is at most 7 (or 30) days after today.
/// - `service_has_no_active_day_of_the_week` (not date-relative): a calendar.txt row whose
///   seven days are all 0, placed at its service_id.
struct CalendarChecks {
    let checks: GTFSChecks
    /// Today, `YYYY-MM-DD` (dates are stored so).
    let today: String

    func run() throws {
        try checkFeedExpiration()
        try checkWeekdays()
        let calendar = checks.has(table: "calendar") && checks.file(of: "calendar") != nil
        let dates = checks.has(table: "calendar_dates") && checks.file(of: "calendar_dates") != nil
        guard calendar || dates, ["calendar", "calendar_dates"].allSatisfy(checks.isWhole) else { return }
        try checkExpired(calendar: calendar, dates: dates)
        try checkCoverage(calendar: calendar, dates: dates)
    }

    /// The service_id and date of each day a service is said to run on: calendar.txt's first
    /// and last (when `calendar`), calendar_dates.txt's additions (when `dates`).
    private func serviceDays(calendar: Bool, dates: Bool, ends: Bool) -> String {
        var parts: [String] = []
        if calendar {
            parts.append("SELECT service_id, end_date AS day FROM calendar")
            if !ends { parts.append("SELECT service_id, start_date AS day FROM calendar") }
        }
        if dates { parts.append("SELECT service_id, date AS day FROM calendar_dates WHERE exception_type = 1") }
        return parts.joined(separator: " UNION ALL ")
    }

    private func checkExpired(calendar: Bool, dates: Bool) throws {
        let expired = try checks.connection.rows(
            """
            SELECT service_id, max(day) FROM (\(serviceDays(calendar: calendar, dates: dates, ends: true))) \
            WHERE service_id IS NOT NULL GROUP BY service_id HAVING max(day) < ?
            """, [.text(today)])
        guard !expired.isEmpty else { return }
        let lastDay = Dictionary(
            expired.map { (CSVRowLocator.key($0[0]), CSVRowLocator.key($0[1])) }, uniquingKeysWith: { a, _ in a })
        var placed = Set<String>()
        for table in [calendar ? "calendar" : nil, dates ? "calendar_dates" : nil].compactMap({ $0 }) {
            guard let file = checks.file(of: table) else { continue }
            let keys = Set(lastDay.keys.filter { !placed.contains($0) }.map { [$0] })
            try checks.places.locate(table, matching: ["service_id"], keys: keys, showing: ["service_id"]) {
                key, row in
                guard placed.insert(key[0]).inserted else { return }
                checks.issues.record(
                    row.issue(
                        .bestPractice, file: file, field: "service_id", value: key[0],
                        message:
                            "runs last on \(lastDay[key[0]] ?? "?"), before today (--today): the service has expired",
                        code: NoticeCode.expiredCalendar))
            }
        }
    }

    private func checkCoverage(calendar: Bool, dates: Bool) throws {
        guard checks.has(table: "trips", column: "service_id") else { return }
        let window = try checks.connection.rows(
            """
            SELECT min(day), max(day), date(?, '+7 days') FROM \
            (\(serviceDays(calendar: calendar, dates: dates, ends: false))) \
            WHERE service_id IN (SELECT service_id FROM trips)
            """, [.text(today)])
        guard let row = window.first, case .text(let first) = row[0], case .text(let last) = row[1],
            case .text(let weekLater) = row[2], first > today || last < weekLater
        else { return }
        let file = checks.file(of: calendar ? "calendar" : "calendar_dates")
        checks.issues.record(
            BuildIssue(
                kind: .bestPractice, file: file ?? "calendar.txt",
                message:
                    """
                    the trips run from \(first) to \(last), which does not cover today (--today) and the 7 days \
                    after it
                    """,
                code: NoticeCode.tripCoverageNotActiveForNext7Days))
    }

    private func checkWeekdays() throws {
        let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        try checks.flagRows(
            of: "calendar", key: "service_id", columns: days,
            condition: days.map { "coalesce(\($0), 0) = 0" }.joined(separator: " AND "), field: "service_id",
            kind: .bestPractice, code: NoticeCode.serviceHasNoActiveDayOfTheWeek
        ) { _, _ in "runs on no day of the week (all seven are 0): only calendar_dates.txt gives it days" }
    }

    private func checkFeedExpiration() throws {
        guard checks.has(table: "feed_info", column: "feed_end_date"), let file = checks.file(of: "feed_info") else {
            return
        }
        let rows = try checks.connection.rows(
            """
            SELECT DISTINCT feed_end_date, feed_end_date <= date(?, '+7 days') FROM feed_info \
            WHERE feed_end_date <= date(?, '+30 days')
            """, [.text(today), .text(today)])
        let soon = Dictionary(
            rows.map { (CSVRowLocator.key($0[0]), $0[1].integer == 1) }, uniquingKeysWith: { a, _ in a })
        try checks.places.locate(
            "feed_info", matching: ["feed_end_date"], keys: Set(soon.keys.map { [$0] }), showing: ["feed_end_date"]
        ) { key, row in
            let week = soon[key[0]] ?? false
            checks.issues.record(
                row.issue(
                    .bestPractice, file: file, field: "feed_end_date", value: row.fields["feed_end_date"]?.text,
                    message: "is at most \(week ? 7 : 30) days after today (--today): the feed expires soon",
                    code: week ? NoticeCode.feedExpirationDate7Days : NoticeCode.feedExpirationDate30Days))
        }
    }
}
