import Foundation
import SeedSQLite

/// Plans journeys offline over a transit seed (one feed, or a region's several): the Pareto
/// set of (arrival, transfers) from one place to another, leaving at an instant.
///
/// Opening reads the seed's stops, trips, stop times, service days and frequencies once, with
/// the route patterns and footpaths the seed derives (`trip_patterns`, `footpaths`; the rule is
/// ``Footpaths``), or, in a seed built before them, computes those from `stop_times`, `stops` and
/// `transfers`; each question then runs RAPTOR in memory. Not thread-safe: use one planner per
/// thread, or one at a time.
public final class JourneyPlanner {
    let network: TransitNetwork

    /// Opens the seed at `path` (read-only) and reads what the router needs.
    public init(path: String) throws(RouterError) {
        let db: Connection
        do {
            db = try Connection(path: path, mode: .readOnly)
        } catch {
            throw RouterError(.unreadableSeed, "cannot open '\(path)'", cause: error)
        }
        network = try TransitNetwork(reading: db)
    }

    /// The time zone of a place's clock: a stop's feed's (its first agency's `agency_timezone`),
    /// for a coordinate that of the nearest stop's feed.
    public func timeZone(of place: Place) throws(RouterError) -> TimeZone {
        network.feedZones[Int(network.stopFeed[Int(try anchor(place))])]
    }

    /// The journeys from `origin` to `destination` leaving at or after `departure`, with at most
    /// `maxTransfers` changes between rides: for each number of transfers, the earliest arrival,
    /// when it is earlier than with fewer (the Pareto set; fewest transfers first). Empty when
    /// no journey arrives within the service dates searched (up to the day after `departure`).
    public func journeys(
        from origin: Place, to destination: Place, departingAt departure: Date,
        maxTransfers: Int = 5
    ) throws(RouterError) -> [Journey] {
        let net = network
        let start = Int(departure.timeIntervalSince1970.rounded(.up))
        let origins = try reach(origin, outward: true)
        let finals = try reach(destination, outward: false)
        var final: [Int32: Int32] = [:]
        for (stop, walk) in finals { final[stop] = min(final[stop] ?? .max, Int32(walk)) }
        // Walking alone: one footpath from the origin to the destination.
        var walkOnly: Int? = nil
        switch (origin, destination) {
        case (.coordinate(let a, let b), .coordinate(let c, let d)):
            let metres = Footpaths.metres(a, b, c, d)
            if metres <= Footpaths.walkingDistance { walkOnly = start + Int(Footpaths.seconds(metres)) }
        case (.stop, _):
            if let walk = final[try anchor(origin)] { walkOnly = start + Int(walk) }
        case (.coordinate, .stop):
            let target = try anchor(destination)
            if let walk = origins.first(where: { $0.stop == target })?.walk { walkOnly = start + walk }
        }
        let days = net.feedZones.map { ServiceDay.around(start, in: $0, latestTime: net.latestTime) }
        var search = Raptor(network: net, days: days, final: final)
        search.departure = start
        let from: Int32 = if case .stop = origin { try anchor(origin) } else { -1 }
        search.run(
            start: origins.map { (stop: $0.stop, at: start + $0.walk, from: $0.stop == from ? -1 : from) },
            walkOnly: walkOnly, rounds: max(0, maxTransfers) + 1)
        let names = Names(
            origin: origin, destination: destination, network: net, zone: try timeZone(of: origin),
            destinationZone: try timeZone(of: destination))
        var result: [Journey] = []
        var earliest = Raptor.never
        for k in 0..<search.destination.count where search.destination[k] < earliest {
            earliest = search.destination[k]
            if k == 0 {
                let walk = Leg(
                    mode: .walk, from: names.origin, to: names.destination, departure: departure,
                    arrival: Date(timeIntervalSince1970: TimeInterval(earliest)),
                    departureZone: names.zone, arrivalZone: names.destinationZone, routeID: nil, tripID: nil)
                result.append(Journey(departure: walk.departure, arrival: walk.arrival, transfers: 0, legs: [walk]))
            } else {
                // Round k may arrive earlier with fewer rides than k (a stop's label from an
                // earlier round): it then dominates the journeys found before with as many.
                let journey = search.journey(round: k, names: names)
                result.removeAll { $0.transfers >= journey.transfers }
                result.append(journey)
            }
        }
        return result
    }

    /// The stops a place starts or ends at and the seconds walked to (or from) each: a stop
    /// itself and its footpaths; a coordinate's stops within the walking distance.
    private func reach(_ place: Place, outward: Bool) throws(RouterError) -> [(stop: Int32, walk: Int)] {
        let net = network
        switch place {
        case .stop:
            let stop = try anchor(place)
            var out: [(stop: Int32, walk: Int)] = [(stop, 0)]
            if outward {
                for f in Int(net.footStart[Int(stop)])..<Int(net.footStart[Int(stop) + 1]) {
                    out.append((net.footTo[f], Int(net.footTime[f])))
                }
            } else {
                for s in 0..<net.stopCount {
                    for f in Int(net.footStart[s])..<Int(net.footStart[s + 1]) where net.footTo[f] == stop {
                        out.append((Int32(s), Int(net.footTime[f])))
                    }
                }
            }
            return out
        case .coordinate(let lat, let lon):
            return (0..<net.stopCount).compactMap { s in
                guard !net.stopLat[s].isNaN, !net.stopLon[s].isNaN else { return nil }
                let metres = Footpaths.metres(lat, lon, net.stopLat[s], net.stopLon[s])
                return metres <= Footpaths.walkingDistance ? (Int32(s), Int(Footpaths.seconds(metres))) : nil
            }
        }
    }

    /// A place's stop: the stop itself, or the stop nearest to a coordinate.
    private func anchor(_ place: Place) throws(RouterError) -> Int32 {
        let net = network
        switch place {
        case .stop(let name):
            guard let stop = net.stopIndex[name] else {
                throw RouterError(
                    .unknownPlace, "'\(name)' is no stop_id of the seed (a region seed's are FEED:STOP_ID) nor LAT,LON")
            }
            return stop
        case .coordinate(let lat, let lon):
            var best: (Double, Int32)? = nil
            for s in 0..<net.stopCount where !net.stopLat[s].isNaN && !net.stopLon[s].isNaN {
                let metres = Footpaths.metres(lat, lon, net.stopLat[s], net.stopLon[s])
                if metres < best?.0 ?? .infinity { best = (metres, Int32(s)) }
            }
            guard let best else { throw RouterError(.noStops, "the seed has no stop with a position") }
            return best.1
        }
    }
}
