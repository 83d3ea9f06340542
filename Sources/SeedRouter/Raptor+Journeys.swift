import Foundation

/// How a journey's ends are named and shown.
struct Names {
    let origin: String
    let destination: String
    let originIsStop: Bool
    let destinationStop: Int32?
    let zone: TimeZone
    let destinationZone: TimeZone

    init(origin: Place, destination: Place, network: TransitNetwork, zone: TimeZone, destinationZone: TimeZone) {
        func name(_ place: Place) -> String {
            switch place {
            case .stop(let id): return id
            case .coordinate(let lat, let lon): return "\(lat),\(lon)"
            }
        }
        self.origin = name(origin)
        self.destination = name(destination)
        if case .stop = origin { originIsStop = true } else { originIsStop = false }
        if case .stop(let id) = destination { destinationStop = network.stopIndex[id] } else { destinationStop = nil }
        self.zone = zone
        self.destinationZone = destinationZone
    }
}

extension Raptor {
    /// The journey that reached the destination in round `k`, leg by leg from its end.
    func journey(round k: Int, names: Names) -> Journey {
        let net = network
        var legs: [Leg] = []
        func instant(_ t: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(t)) }
        func walk(_ from: String, _ fromZone: TimeZone, _ to: String, _ toZone: TimeZone, _ leaves: Int, _ arrives: Int)
        {
            legs.append(
                Leg(
                    mode: .walk, from: from, to: to, departure: instant(leaves), arrival: instant(arrives),
                    departureZone: fromZone, arrivalZone: toZone, routeID: nil, tripID: nil))
        }
        var stop = destinationStop[k]
        if stop != names.destinationStop ?? -1 {
            let at = arrival[k][Int(stop)]
            walk(
                net.name(ofStop: stop), net.zone(ofStop: stop), names.destination, names.destinationZone,
                at, at + Int(final[stop] ?? 0))
        }
        var round = k
        var taken = 0
        while true {
            let ride = self.rides[round][Int(stop)]
            let event = Int(net.tripEventStart[Int(ride.trip)])
            let boardStop = net.eventStop[event + Int(ride.board)]
            let leaves = ride.shift + Int(net.eventDeparture[event + Int(ride.board)])
            let arrives = ride.shift + Int(net.eventArrival[event + Int(ride.alight)])
            legs.append(
                Leg(
                    mode: .ride, from: net.name(ofStop: boardStop), to: net.name(ofStop: stop),
                    departure: instant(leaves), arrival: instant(arrives), departureZone: net.zone(ofStop: boardStop),
                    arrivalZone: net.zone(ofStop: stop), routeID: net.tripRouteIDs[Int(ride.trip)],
                    tripID: net.tripIDs[Int(ride.trip)]))
            taken += 1
            let before = Int(readyRound[round - 1][Int(boardStop)]), from = readyStop[round - 1][Int(boardStop)]
            let walked = ready[round - 1][Int(boardStop)]
            if before < 0 {
                let seconds = walked - departure
                if !names.originIsStop {
                    walk(
                        names.origin, names.zone, net.name(ofStop: boardStop), net.zone(ofStop: boardStop),
                        leaves - seconds, leaves)
                } else if from >= 0 {
                    walk(
                        net.name(ofStop: from), net.zone(ofStop: from), net.name(ofStop: boardStop),
                        net.zone(ofStop: boardStop), leaves - seconds, leaves)
                }
                break
            }
            let alighted = arrival[before][Int(from)]
            if from != boardStop {
                walk(
                    net.name(ofStop: from), net.zone(ofStop: from), net.name(ofStop: boardStop),
                    net.zone(ofStop: boardStop), alighted, walked)
            }
            round = before
            stop = from
        }
        legs.reverse()
        return Journey(
            departure: legs[0].departure, arrival: legs[legs.count - 1].arrival,
            transfers: taken - 1, legs: legs)
    }
}
