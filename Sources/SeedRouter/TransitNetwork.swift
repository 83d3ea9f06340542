import Foundation

/// What the router reads from a seed, in flat arrays indexed by small integers: stops, trips
/// with their timed stops, route patterns, footpaths and service days. Built once when a
/// planner opens a seed; read-only afterwards.
struct TransitNetwork {
    // Feeds: one in a seed of one feed (name ""), else the region's `feeds`.
    var feedNames: [String] = []
    var feedZones: [TimeZone] = []

    // Stops, by index.
    var stopSeedIDs: [Int64] = []
    var stopNames: [String] = []
    var stopFeed: [Int32] = []
    var stopLat: [Double] = []
    var stopLon: [Double] = []
    var stopParent: [Int32] = []
    var stopZone: [TimeZone?] = []
    var stopIndex: [String: Int32] = [:]

    // Trips, by index, and their timed stops (events) from `tripEventStart[t]` to `tripEventEnd[t]`.
    var tripIDs: [String] = []
    var tripRouteIDs: [String] = []
    var tripService: [Int32] = []
    var tripFeed: [Int32] = []
    var tripEventStart: [Int32] = []
    var tripEventEnd: [Int32] = []
    var eventStop: [Int32] = []
    var eventArrival: [Int32] = []
    var eventDeparture: [Int32] = []
    /// Bit 0: no pickup (`pickup_type` 1); bit 1: no drop-off (`drop_off_type` 1).
    var eventFlags: [UInt8] = []
    /// A trip's headway windows (start, end, headway) from `tripFrequencyStart[t]` on.
    var tripFrequencyStart: [Int32] = []
    var frequencies: [(start: Int32, end: Int32, headway: Int32)] = []

    // Patterns: trips with the same stops in order that do not overtake one another.
    var patternStopStart: [Int32] = [0]
    var patternStops: [Int32] = []
    var patternTripStart: [Int32] = [0]
    var patternTrips: [Int32] = []
    var patternFeed: [Int32] = []
    var patternIsFrequency: [Bool] = []
    /// For each stop, the (pattern, position) pairs that serve it, from `stopPatternStart[s]` on.
    var stopPatternStart: [Int32] = []
    var stopPatterns: [(pattern: Int32, position: Int32)] = []

    // Footpaths from each stop, from `footStart[s]` on, and the time to change trips at a stop.
    var footStart: [Int32] = []
    var footTo: [Int32] = []
    var footTime: [Int32] = []
    var changeTime: [Int32] = []

    // Service days: per service, its blocks of 256 days (see `service_days`).
    var services: [[Int64: (UInt64, UInt64, UInt64, UInt64)]] = []
    /// The latest time of day (seconds) any trip reaches, frequencies included.
    var latestTime: Int32 = 0

    var stopCount: Int { stopSeedIDs.count }
    var patternCount: Int { patternFeed.count }

    /// Whether `service` runs on the day with Julian day number `day`.
    func runs(_ service: Int32, on day: Int64) -> Bool {
        guard service >= 0, let days = services[Int(service)][day / 256] else { return false }
        let word: UInt64
        switch day / 64 % 4 {
        case 0: word = days.0
        case 1: word = days.1
        case 2: word = days.2
        default: word = days.3
        }
        return (word >> UInt64(day % 64)) & 1 == 1
    }

    /// The place name of a stop: its `stop_id`, in a region seed `FEED:STOP_ID`.
    func name(ofStop stop: Int32) -> String { stopNames[Int(stop)] }

    /// The time zone to show a stop's times in.
    func zone(ofStop stop: Int32) -> TimeZone {
        stopZone[Int(stop)] ?? feedZones[Int(stopFeed[Int(stop)])]
    }
}
