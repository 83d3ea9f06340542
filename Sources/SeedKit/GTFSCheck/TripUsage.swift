import SeedSQLite

/// How many stop times each trip has (0, 1, or 2 for two or more), counted in `StopTimeChecks`'
/// pass. That pass meets the trips in row id order (stop_times is ordered by `trip_ref`), so the
/// trips table is read beside it in the same order: a trip the pass steps over has none. Only
/// the trips with fewer than two are kept (memory grows with them, not with the feed).
struct TripUsage {
    /// The trips with fewer than two stop times, by row id.
    private var few: [Int64: UInt8] = [:]
    /// Every trip's row id, in order; nil once read to the end.
    private var trips: Statement?
    /// The row id `trips` stands on.
    private var next: Int64 = 0

    /// Reads the row ids of `table` (trips) on `connection`.
    init(trips table: Table, on connection: Connection) throws {
        let trips = try connection.prepare(
            "SELECT \(quoted(table.rowID)) FROM trips ORDER BY \(quoted(table.rowID))")
        self.trips = trips
        try advance()
    }

    /// Notes that trip `trip` has `count` stop times; trips come in increasing row id.
    mutating func note(trip: Int64, stopTimes count: Int) throws {
        while trips != nil, next < trip {
            few[next] = 0
            try advance()
        }
        guard trips != nil, next == trip else { return }
        if count < 2 { few[trip] = UInt8(count) }
        try advance()
    }

    /// Notes that the pass has ended: the trips not met have no stop time.
    mutating func finish() throws {
        while trips != nil {
            few[next] = 0
            try advance()
        }
    }

    /// The stop times of trip `id`, up to 2 (after `finish`).
    func count(of id: Int64) -> Int { few[id].map(Int.init) ?? 2 }

    private mutating func advance() throws {
        guard let trips else { return }
        if try trips.step() { next = trips.int64(at: 0) } else { self.trips = nil }
    }
}
