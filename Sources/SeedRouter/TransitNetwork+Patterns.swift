extension TransitNetwork {
    /// A pattern's identity before splitting: the feed, the stops in order (or the pattern the
    /// seed's `trip_patterns` names, which stands for them), and for a trip run by headways, the
    /// trip itself (each such trip is a pattern of its own).
    private struct PatternKey: Hashable {
        let feed: Int32
        let stops: [Int32]
        let derived: Int64
        let frequencyTrip: Int32
    }

    /// Groups trips into patterns: the same stops in the same order (`derived`: each trip's
    /// pattern as the seed's `trip_patterns` has it, -1 for none; nil: compared here), then split
    /// so that no trip of a pattern overtakes another (sorted by their first departure, every
    /// later trip is at least as late at every stop), which lets a search take the first trip it
    /// can board. Patterns are in the order of their first trips either way.
    mutating func buildPatterns(derived: [Int64]?) {
        var groups: [PatternKey: Int] = [:]
        var members: [[Int32]] = []
        var firstTrip: [Int64: Int] = [:]
        for trip in 0..<tripIDs.count {
            let begin = Int(tripEventStart[trip]), end = Int(tripEventEnd[trip])
            guard end - begin >= 2 else { continue }
            let headways = tripFrequencyStart[trip + 1] > tripFrequencyStart[trip]
            var pattern = derived?[trip] ?? -1
            if derived != nil && pattern < 0 { continue }
            // A pattern the table names stands for its first trip's stops; a trip whose stops
            // differ (a seed changed after deriving) is grouped by its stops instead.
            if pattern >= 0 {
                let first = firstTrip[pattern, default: trip]
                firstTrip[pattern] = first
                if !sameStops(trip, first) { pattern = -2 }
            }
            let key = PatternKey(
                feed: tripFeed[trip], stops: pattern >= 0 ? [] : Array(eventStop[begin..<end]), derived: pattern,
                frequencyTrip: headways ? Int32(trip) : -1)
            if let group = groups[key] {
                members[group].append(Int32(trip))
            } else {
                groups[key] = members.count
                members.append([Int32(trip)])
            }
        }
        for trips in members {
            let first = Int(tripEventStart[Int(trips[0])])
            let stops = Array(eventStop[first..<Int(tripEventEnd[Int(trips[0])])])
            let isFrequency = tripFrequencyStart[Int(trips[0]) + 1] > tripFrequencyStart[Int(trips[0])]
            for chain in nonOvertaking(trips) {
                patternStops.append(contentsOf: stops)
                patternStopStart.append(Int32(patternStops.count))
                patternTrips.append(contentsOf: chain)
                patternTripStart.append(Int32(patternTrips.count))
                patternFeed.append(tripFeed[Int(trips[0])])
                patternIsFrequency.append(isFrequency)
            }
        }
        indexStopPatterns()
    }

    /// Whether two trips have the same timed stops in the same order.
    private func sameStops(_ a: Int, _ b: Int) -> Bool {
        eventStop[Int(tripEventStart[a])..<Int(tripEventEnd[a])]
            == eventStop[Int(tripEventStart[b])..<Int(tripEventEnd[b])]
    }

    /// Splits trips of the same stops into chains in which none overtakes another.
    private func nonOvertaking(_ trips: [Int32]) -> [[Int32]] {
        let sorted = trips.sorted { a, b in
            let (ea, eb) = (Int(tripEventStart[Int(a)]), Int(tripEventStart[Int(b)]))
            if eventDeparture[ea] != eventDeparture[eb] { return eventDeparture[ea] < eventDeparture[eb] }
            if eventArrival[ea + 1] != eventArrival[eb + 1] { return eventArrival[ea + 1] < eventArrival[eb + 1] }
            return a < b
        }
        var chains: [[Int32]] = []
        for trip in sorted {
            if let i = chains.firstIndex(where: { notBefore(trip, $0[$0.count - 1]) }) {
                chains[i].append(trip)
            } else {
                chains.append([trip])
            }
        }
        return chains
    }

    /// Whether `trip` is at or after `earlier` at every stop, arriving and departing.
    private func notBefore(_ trip: Int32, _ earlier: Int32) -> Bool {
        let (a, b) = (Int(tripEventStart[Int(trip)]), Int(tripEventStart[Int(earlier)]))
        for i in 0..<(Int(tripEventEnd[Int(trip)]) - a) {
            if eventArrival[a + i] < eventArrival[b + i] || eventDeparture[a + i] < eventDeparture[b + i] {
                return false
            }
        }
        return true
    }

    private mutating func indexStopPatterns() {
        var counts = [Int32](repeating: 0, count: stopCount + 1)
        for stop in patternStops { counts[Int(stop) + 1] += 1 }
        for i in 0..<stopCount { counts[i + 1] += counts[i] }
        stopPatternStart = counts
        var next = counts
        stopPatterns = Array(repeating: (0, 0), count: patternStops.count)
        for pattern in 0..<patternCount {
            let begin = Int(patternStopStart[pattern])
            for position in begin..<Int(patternStopStart[pattern + 1]) {
                let stop = Int(patternStops[position])
                stopPatterns[Int(next[stop])] = (Int32(pattern), Int32(position - begin))
                next[stop] += 1
            }
        }
    }
}
