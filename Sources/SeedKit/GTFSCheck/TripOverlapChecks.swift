import SeedSQLite

/// The canonical validator's ERRORs about trips whose times overlap, reported as warnings
/// (errors under `--strict`): the seed keeps every trip as written, only a vehicle would be in
/// two places at once.
///
/// - `overlapping_frequency`: two frequencies.txt rows of one trip whose times overlap (sorted by
///   start_time, end_time, headway_secs: a row that starts before the previous one ends).
/// - `block_trips_with_overlapping_stop_times`: two trips of one block_id, on a day both run,
///   whose first arrival to last departure overlap (unless the one ends with the times the
///   other starts with: a block's transfer written twice). A trip's first and last stop times
///   are those `StopTimeChecks`' pass met (`TripUsage.blockEnds`), the trips read one block at
///   a time; what is found is placed in trips.txt in batches of `StopTimeChecks.batchSize` trips.
struct TripOverlapChecks {
    let checks: GTFSChecks
    /// What the pass over stop_times found of each trip, when stop_times.txt was read.
    let trips: TripUsage?

    func run() throws {
        try checkFrequencies()
        try checkBlocks()
    }

    // MARK: frequencies.txt

    private func checkFrequencies() throws {
        guard checks.has(table: "frequencies", column: "start_time"), checks.has(table: "trips"),
            let file = checks.file(of: "frequencies")
        else { return }
        let rows = try checks.connection.rows(
            """
            SELECT trips.trip_id, f.start_time, f.end_time FROM frequencies f JOIN trips ON trips.id = f.trip_ref \
            WHERE f.start_time IS NOT NULL AND f.end_time IS NOT NULL \
            ORDER BY f.trip_ref, f.start_time, f.end_time, f.headway_secs
            """)
        var found: [[String]: (previousEnd: Int64, message: String)] = [:]
        for (previous, row) in zip(rows, rows.dropFirst()) {
            guard previous[0] == row[0], let start = row[1].integer, let end = previous[2].integer, start < end,
                let previousStart = previous[1].integer
            else { continue }
            found[[CSVRowLocator.key(row[0]), String(start)]] = (
                end,
                "is before end_time \(SourceText.time(end)) of the trip's frequency from "
                    + "\(SourceText.time(previousStart)) (trip_id '\(CSVRowLocator.key(row[0]))'): frequencies overlap"
            )
        }
        try checks.places.locate(
            "frequencies", matching: ["trip_id", "start_time"], keys: Set(found.keys), showing: ["start_time"]
        ) { key, row in
            guard let finding = found[key] else { return }
            checks.issues.record(
                row.issue(
                    .misleading(strict: checks.options.strict), file: file, field: "start_time",
                    value: row.fields["start_time"]?.text, message: finding.message,
                    code: NoticeCode.overlappingFrequency))
        }
    }

    // MARK: Blocks

    /// A blocked trip's first arrival and departure and last arrival and departure.
    private struct Interval {
        var trip: String
        var service: String
        var firstArrival: Int64, firstDeparture: Int64
        var lastArrival: Int64, lastDeparture: Int64
    }

    private func checkBlocks() throws {
        guard checks.has(table: "trips", column: "block_id"), checks.has(table: "stop_times"),
            checks.isWhole("stop_times"), let file = checks.file(of: "trips"), let trips
        else { return }
        let statement = try checks.connection.prepare(
            "SELECT block_id, trip_id, service_id, id FROM trips t WHERE coalesce(block_id, '') <> '' ORDER BY block_id"
        )
        var services = ServiceDays(connection: checks.connection, checks: checks)
        var block: String? = nil
        var intervals: [Interval] = []
        var found: [String: Overlap] = [:]
        func endBlock() throws {
            for (a, b) in Self.overlaps(
                intervals.sorted { ($0.firstArrival, $0.lastDeparture) < ($1.firstArrival, $1.lastDeparture) })
            {
                guard found[a.trip] == nil, let day = try services.commonDay(a.service, b.service) else { continue }
                found[a.trip] = Overlap(
                    lastDeparture: a.lastDeparture, other: b.trip, otherStart: b.firstArrival, block: block ?? "",
                    day: day)
            }
            intervals.removeAll(keepingCapacity: true)
            // A trip is of one block: what is found so far is placed in batches (memory stays bounded).
            if found.count >= StopTimeChecks.batchSize {
                try report(found, file: file)
                found.removeAll()
            }
        }
        while try statement.step() {
            let blockID = CSVRowLocator.key(statement.value(at: 0))
            if blockID != block { try endBlock(); block = blockID }
            guard let end = trips.blockEnds(of: statement.int64(at: 3)) else { continue }
            intervals.append(
                Interval(
                    trip: CSVRowLocator.key(statement.value(at: 1)), service: CSVRowLocator.key(statement.value(at: 2)),
                    firstArrival: Int64(end.firstArrival), firstDeparture: Int64(end.firstDeparture),
                    lastArrival: Int64(end.lastArrival), lastDeparture: Int64(end.lastDeparture)))
        }
        try endBlock()
        try report(found, file: file)
    }

    /// What a blocked trip overlaps, kept as found and put into words when reported (a batch of
    /// messages took 6 MB at the 30M stop_times feed's peak).
    private struct Overlap {
        var lastDeparture: Int64
        var other: String
        var otherStart: Int64
        var block: String
        var day: Int
    }

    /// Places each trip of `found` (trip_id: what the trip overlaps) in trips.txt and records it.
    private func report(_ found: [String: Overlap], file: String) throws {
        guard !found.isEmpty else { return }
        try checks.places.locate(
            "trips", matching: ["trip_id"], keys: Set(found.keys.map { [$0] }), showing: ["block_id"]
        ) { key, row in
            guard let overlap = found[key[0]] else { return }
            checks.issues.record(
                row.issue(
                    .misleading(strict: checks.options.strict), file: file, field: "block_id",
                    value: row.fields["block_id"]?.text,
                    message: """
                        of trip_id '\(key[0])': the trip runs until \(SourceText.time(overlap.lastDeparture)), after \
                        trip_id '\(overlap.other)' of the same block_id '\(overlap.block)' starts \
                        (\(SourceText.time(overlap.otherStart))), on \(CivilDate.text(overlap.day)): one vehicle \
                        cannot run both
                        """,
                    code: NoticeCode.blockTripsWithOverlappingStopTimes))
        }
    }

    /// The pairs of `sorted` (by first arrival, then last departure) whose times overlap, as the
    /// validator finds them: each trip against the later ones until one starts after it ends.
    private static func overlaps(_ sorted: [Interval]) -> [(Interval, Interval)] {
        var pairs: [(Interval, Interval)] = []
        for i in sorted.indices {
            for j in sorted.indices.dropFirst(i + 1) {
                let (a, b) = (sorted[i], sorted[j])
                if a.lastDeparture <= b.firstArrival { break }
                if a.lastArrival == b.firstArrival && a.lastDeparture == b.firstDeparture { continue }
                pairs.append((a, b))
            }
        }
        return pairs
    }
}

/// The days each service runs (calendar.txt's weekdays from start_date to end_date, with
/// calendar_dates.txt's exceptions), read when first asked for, as days since 1970-01-01.
struct ServiceDays {
    let connection: Connection
    let checks: GTFSChecks
    private var days: [String: Set<Int>] = [:]
    private var common: [[String]: Int?] = [:]

    init(connection: Connection, checks: GTFSChecks) {
        self.connection = connection
        self.checks = checks
    }

    /// The first day both services run, if any.
    mutating func commonDay(_ a: String, _ b: String) throws -> Int? {
        if let known = common[[a, b]] { return known }
        let first = try of(a)
        let day = try of(b).intersection(first).min()
        common[[a, b]] = day
        return day
    }

    private mutating func of(_ service: String) throws -> Set<Int> {
        if let known = days[service] { return known }
        var set = Set<Int>()
        if checks.has(table: "calendar", column: "start_date") {
            let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            for row in try connection.rows(
                "SELECT start_date, end_date, \(weekdays.joined(separator: ", ")) FROM calendar WHERE service_id = ?",
                [.text(service)])
            {
                guard let start = CivilDate.days(CSVRowLocator.key(row[0])),
                    let end = CivilDate.days(CSVRowLocator.key(row[1])), end >= start, end - start < 366 * 20
                else { continue }
                for day in start...end where row[2 + CivilDate.weekday(day)].integer == 1 { set.insert(day) }
            }
        }
        if checks.has(table: "calendar_dates", column: "exception_type") {
            for row in try connection.rows(
                "SELECT date, exception_type FROM calendar_dates WHERE service_id = ?", [.text(service)])
            {
                guard let day = CivilDate.days(CSVRowLocator.key(row[0])) else { continue }
                if row[1].integer == 1 { set.insert(day) } else if row[1].integer == 2 { set.remove(day) }
            }
        }
        days[service] = set
        return set
    }
}
