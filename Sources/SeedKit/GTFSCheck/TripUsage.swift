import SeedSQLite

/// How many stop times each trip has (0, 1, or 2 for two or more), counted in `StopTimeChecks`'
/// pass. That pass meets the trips in row id order (stop_times is ordered by `trip_ref`), so the
/// trips table is read beside it in the same order: a trip the pass steps over has none. Only
/// the trips with fewer than two are kept (memory grows with them, not with the feed), and the
/// ends of the trips with a block_id (`blockEnds`, for `TripOverlapChecks`: read here, the
/// pass has them, instead of two seeks of stop_times a trip).
struct TripUsage {
    /// The trips with fewer than two stop times, by row id.
    private var few: [Int64: UInt8] = [:]
    /// The ends of each trip with a block_id whose first and last stop times have both times, in
    /// row id order, 16 bytes a trip (an array searched by halves, reserved to the count of
    /// blocked trips: a dictionary of a city's blocked trips would raise the build's peak memory
    /// by megabytes, and at 1.2M trips a growing array of 24 bytes a trip did by 19 MB).
    private var blockEnds: [PackedEnds] = []
    /// The few trips whose ends do not pack (a row id past 2^32, a dwell past 18 hours).
    private var unpackedEnds: [Int64: TripEnds] = [:]
    /// Every trip's row id and whether it has a block_id, in order; nil once read to the end.
    private var trips: Statement?
    /// The row id `trips` stands on.
    private var next: Int64 = 0

    /// Reads the row ids of `table` (trips) on `connection`, and whether each has a block_id
    /// when the table has the column (`blocks`).
    init(trips table: Table, blocks: Bool, on connection: Connection) throws {
        let rowID = quoted(table.rowID)
        if blocks, let count = try connection.scalar("SELECT count(*) FROM trips WHERE coalesce(block_id, '') <> ''") {
            blockEnds.reserveCapacity(Int(clamping: count.integer ?? 0))
        }
        let trips = try connection.prepare(
            "SELECT \(rowID), \(blocks ? "coalesce(block_id, '') <> ''" : "0") FROM trips ORDER BY \(rowID)")
        self.trips = trips
        try advance()
    }

    /// Notes that trip `trip` has `count` stop times, with `ends`; trips come in increasing row id.
    mutating func note(trip: Int64, stopTimes count: Int, ends: TripEnds?) throws {
        while trips != nil, next < trip {
            few[next] = 0
            try advance()
        }
        guard let trips, next == trip else { return }
        if count < 2 { few[trip] = UInt8(count) }
        if let ends, trips.int64(at: 1) != 0 {
            if let packed = PackedEnds(trip: trip, ends) { blockEnds.append(packed) } else { unpackedEnds[trip] = ends }
        }
        try advance()
    }

    /// Notes that the pass has ended: the trips not met have no stop time.
    mutating func finish() throws {
        while trips != nil {
            few[next] = 0
            try advance()
        }
    }

    /// The ends of trip `id`, when it has a block_id and its ends have times (after `finish`).
    func blockEnds(of id: Int64) -> TripEnds? {
        if let ends = unpackedEnds[id] { return ends }
        guard let trip = UInt32(exactly: id) else { return nil }
        var (low, high) = (0, blockEnds.count)
        while low < high {
            let middle = (low + high) / 2
            if blockEnds[middle].trip < trip { low = middle + 1 } else { high = middle }
        }
        return low < blockEnds.count && blockEnds[low].trip == trip ? blockEnds[low].ends : nil
    }

    /// The stop times of trip `id`, up to 2 (after `finish`).
    func count(of id: Int64) -> Int { few[id].map(Int.init) ?? 2 }

    private mutating func advance() throws {
        guard let trips else { return }
        if try trips.step() { next = trips.int64(at: 0) } else { self.trips = nil }
    }
}

/// A blocked trip's row id and ends in 16 bytes: the arrivals, and each departure as the dwell
/// after its arrival (0 to 65,535 seconds).
struct PackedEnds {
    let trip: UInt32
    let firstArrival: Int32, lastArrival: Int32
    let firstDwell: UInt16, lastDwell: UInt16

    /// Nil when the trip's row id or a dwell does not fit.
    init?(trip: Int64, _ ends: TripEnds) {
        guard let trip = UInt32(exactly: trip),
            let firstDwell = UInt16(exactly: Int64(ends.firstDeparture) - Int64(ends.firstArrival)),
            let lastDwell = UInt16(exactly: Int64(ends.lastDeparture) - Int64(ends.lastArrival))
        else { return nil }
        (self.trip, self.firstArrival, self.lastArrival) = (trip, ends.firstArrival, ends.lastArrival)
        (self.firstDwell, self.lastDwell) = (firstDwell, lastDwell)
    }

    var ends: TripEnds {
        TripEnds(
            firstArrival: firstArrival, firstDeparture: Int32(Int64(firstArrival) + Int64(firstDwell)),
            lastArrival: lastArrival, lastDeparture: Int32(Int64(lastArrival) + Int64(lastDwell)))
    }
}

/// A trip's first arrival and departure and last arrival and departure (its first and last
/// stop times by stop_sequence).
struct TripEnds {
    /// Seconds (32 bits: a blocked trip's ends are kept for the whole pass).
    var firstArrival: Int32, firstDeparture: Int32
    var lastArrival: Int32, lastDeparture: Int32

    init(firstArrival: Int32, firstDeparture: Int32, lastArrival: Int32, lastDeparture: Int32) {
        (self.firstArrival, self.firstDeparture) = (firstArrival, firstDeparture)
        (self.lastArrival, self.lastDeparture) = (lastArrival, lastDeparture)
    }

    /// The ends of a trip whose first and last stop times are `first` and `last`; nil when
    /// one of them lacks a time.
    init?(_ first: (arrival: Int64?, departure: Int64?), _ last: (sequence: Int64, arrival: Int64?, departure: Int64?)?)
    {
        guard let firstArrival = first.arrival, let firstDeparture = first.departure, let lastArrival = last?.arrival,
            let lastDeparture = last?.departure
        else { return nil }
        (self.firstArrival, self.firstDeparture) = (Int32(clamping: firstArrival), Int32(clamping: firstDeparture))
        (self.lastArrival, self.lastDeparture) = (Int32(clamping: lastArrival), Int32(clamping: lastDeparture))
    }
}
