extension Raptor {
    /// The first trip of `pattern` a rider at position `position` can board at or after `time`
    /// on any service date: the trip, the instant its times count from, and when it leaves.
    func earliest(_ pattern: Int, at position: Int, after time: Int) -> (Int32, Int, Int)? {
        let net = network
        var found: (Int32, Int, Int)? = nil
        let first = Int(net.patternTripStart[pattern]), end = Int(net.patternTripStart[pattern + 1])
        for day in days[Int(net.patternFeed[pattern])] {
            if net.patternIsFrequency[pattern] {
                if let trip = repeated(Int(net.patternTrips[first]), at: position, after: time, on: day),
                    trip.2 < found?.2 ?? Raptor.never
                {
                    found = trip
                }
                continue
            }
            // The trips of a pattern leave every stop in the order they leave the first.
            var (lo, hi) = (first, end)
            let target = time - day.origin
            while lo < hi {
                let mid = (lo + hi) / 2
                let event = Int(net.tripEventStart[Int(net.patternTrips[mid])]) + position
                if Int(net.eventDeparture[event]) < target { lo = mid + 1 } else { hi = mid }
            }
            for j in lo..<end {
                let trip = net.patternTrips[j]
                let event = Int(net.tripEventStart[Int(trip)]) + position
                let leaves = day.origin + Int(net.eventDeparture[event])
                if leaves >= found?.2 ?? Raptor.never { break }
                if net.eventFlags[event] & 1 == 0 && net.runs(net.tripService[Int(trip)], on: day.julianDay) {
                    found = (trip, day.origin, leaves)
                    break
                }
            }
        }
        return found
    }

    /// The first run of a trip defined by headways that leaves position `position` at or
    /// after `time` on `day`: its start every `headway_secs` from `start_time` while before
    /// `end_time`, its times shifted from those of its first stop.
    private func repeated(_ trip: Int, at position: Int, after time: Int, on day: ServiceDay) -> (Int32, Int, Int)? {
        let net = network
        let base = Int(net.tripEventStart[trip])
        guard net.eventFlags[base + position] & 1 == 0, net.runs(net.tripService[trip], on: day.julianDay) else {
            return nil
        }
        let offset = Int(net.eventDeparture[base + position]) - Int(net.eventDeparture[base])
        var found: (Int32, Int, Int)? = nil
        for w in Int(net.tripFrequencyStart[trip])..<Int(net.tripFrequencyStart[trip + 1]) {
            let (start, end, headway) = (
                Int(net.frequencies[w].start), Int(net.frequencies[w].end), Int(net.frequencies[w].headway)
            )
            let wait = time - day.origin - offset - start
            let runs = wait <= 0 ? 0 : (wait + headway - 1) / headway
            let begins = start + runs * headway
            guard begins < end else { continue }
            let leaves = day.origin + begins + offset
            if leaves < found?.2 ?? Raptor.never {
                found = (Int32(trip), day.origin + begins - Int(net.eventDeparture[base]), leaves)
            }
        }
        return found
    }
}
