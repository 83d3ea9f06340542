/// One ride as a search found it: the pattern, the trip, the instant its times count from
/// (`shift`), and where it was boarded and left (positions in the pattern).
struct Ride {
    var pattern: Int32 = -1
    var trip: Int32 = -1
    var shift = 0
    var board: Int32 = 0
    var alight: Int32 = 0
}

/// RAPTOR (Delling, Pajor, Werneck: "Round-Based Public Transit Routing", 2012): round k finds
/// the earliest arrival at every stop with k rides, scanning only the patterns at stops that
/// improved in round k - 1; between rounds, one footpath (or the change time at the stop).
struct Raptor {
    static let never = Int.max / 4

    let network: TransitNetwork
    /// Per feed, the service dates the search looks at.
    let days: [[ServiceDay]]
    /// Seconds to walk from each stop to the destination, for the stops that reach it.
    let final: [Int32: Int32]
    /// The instant the rider leaves the origin.
    var departure = 0

    /// Per round: the earliest instant a rider can board at each stop, and where that came
    /// from (the round and stop of the ride before it; round -1: the origin).
    var ready: [[Int]] = []
    var readyRound: [[Int8]] = []
    var readyStop: [[Int32]] = []
    /// Per round: the earliest arrival at each stop by that round's ride, and the ride.
    var arrival: [[Int]] = []
    var rides: [[Ride]] = []
    /// Per round: the earliest arrival at the destination, and the stop it was reached from.
    var destination: [Int] = []
    var destinationStop: [Int32] = []
    private var best: [Int]
    private var bestDestination = Raptor.never
    private var marked: [Int32] = []
    private var isMarked: [Bool]

    init(network: TransitNetwork, days: [[ServiceDay]], final: [Int32: Int32]) {
        self.network = network
        self.days = days
        self.final = final
        best = Array(repeating: Raptor.never, count: network.stopCount)
        isMarked = Array(repeating: false, count: network.stopCount)
    }

    /// Round 0: the origin's stops and when they are reached on foot (`from`: the stop walked
    /// from, -1 for a coordinate); `walkOnly`: the arrival by walking alone, if any.
    mutating func run(start: [(stop: Int32, at: Int, from: Int32)], walkOnly: Int?, rounds: Int) {
        let n = network.stopCount
        ready = [Array(repeating: Raptor.never, count: n)]
        readyRound = [Array(repeating: -1, count: n)]
        readyStop = [Array(repeating: -1, count: n)]
        arrival = [Array(repeating: Raptor.never, count: n)]
        rides = [[]]
        destination = [walkOnly ?? Raptor.never]
        destinationStop = [-1]
        bestDestination = walkOnly ?? Raptor.never
        for (stop, at, from) in start where at < ready[0][Int(stop)] {
            ready[0][Int(stop)] = at
            readyStop[0][Int(stop)] = from
            if !isMarked[Int(stop)] {
                isMarked[Int(stop)] = true
                marked.append(stop)
            }
        }
        var k = 1
        while k <= rounds && !marked.isEmpty {
            round(k)
            k += 1
        }
    }

    private mutating func round(_ k: Int) {
        let n = network.stopCount
        ready.append(ready[k - 1])
        readyRound.append(readyRound[k - 1])
        readyStop.append(readyStop[k - 1])
        arrival.append(Array(repeating: Raptor.never, count: n))
        rides.append(Array(repeating: Ride(), count: n))
        destination.append(Raptor.never)
        destinationStop.append(-1)
        var queue: [Int32: Int32] = [:]
        for stop in marked {
            let s = Int(stop)
            isMarked[s] = false
            for entry in network.stopPatterns[Int(network.stopPatternStart[s])..<Int(network.stopPatternStart[s + 1])] {
                queue[entry.pattern] = min(queue[entry.pattern] ?? .max, entry.position)
            }
        }
        marked.removeAll(keepingCapacity: true)
        var improved: [Int32] = []
        for (pattern, position) in queue.sorted(by: { $0.key < $1.key }) {
            scan(Int(pattern), from: Int(position), round: k, improved: &improved)
        }
        relax(improved, round: k)
    }

    /// Rides `pattern` from `position` on, boarding the first trip it can at each stop
    /// reached in the round before.
    private mutating func scan(_ pattern: Int, from position: Int, round k: Int, improved: inout [Int32]) {
        let net = network
        let first = Int(net.patternStopStart[pattern]), count = Int(net.patternStopStart[pattern + 1]) - first
        var current: Ride? = nil
        for i in position..<count {
            let stop = Int(net.patternStops[first + i])
            var departure = Raptor.never
            if let ride = current {
                let event = Int(net.tripEventStart[Int(ride.trip)]) + i
                departure = ride.shift + Int(net.eventDeparture[event])
                let at = ride.shift + Int(net.eventArrival[event])
                if net.eventFlags[event] & 2 == 0 && at < min(best[stop], bestDestination) {
                    if arrival[k][stop] == Raptor.never { improved.append(Int32(stop)) }
                    arrival[k][stop] = at
                    best[stop] = at
                    var found = ride
                    found.alight = Int32(i)
                    rides[k][stop] = found
                }
            }
            let readyAt = ready[k - 1][stop]
            if readyAt < Raptor.never && readyAt <= departure,
                let found = earliest(pattern, at: i, after: readyAt), found.2 < departure
            {
                current = Ride(pattern: Int32(pattern), trip: found.0, shift: found.1, board: Int32(i))
            }
        }
    }

    /// One footpath (or the change time) from each stop reached in round `k`; the destination.
    private mutating func relax(_ improved: [Int32], round k: Int) {
        for stop in improved {
            let s = Int(stop), at = arrival[k][s]
            if let walk = final[stop], at + Int(walk) < destination[k] {
                destination[k] = at + Int(walk)
                destinationStop[k] = stop
                bestDestination = min(bestDestination, destination[k])
            }
            reach(s, at: at + Int(network.changeTime[s]), from: stop, round: k)
            for f in Int(network.footStart[s])..<Int(network.footStart[s + 1]) {
                reach(Int(network.footTo[f]), at: at + Int(network.footTime[f]), from: stop, round: k)
            }
        }
    }

    private mutating func reach(_ stop: Int, at: Int, from: Int32, round k: Int) {
        guard at < ready[k][stop], at < bestDestination else { return }
        if !isMarked[stop] {
            isMarked[stop] = true
            marked.append(Int32(stop))
        }
        ready[k][stop] = at
        readyRound[k][stop] = Int8(k)
        readyStop[k][stop] = from
    }
}
