import ArgumentParser
import Foundation
import SeedRouter

extension SeedGen {
    struct Journeys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Plan journeys over a transit seed, offline: the earliest arrival for each number of transfers.",
            discussion: """
                Reads the seed with SeedRouter (RAPTOR over the trips' patterns and footpaths; see \
                Documentation/querying.md, "Journeys") and prints the Pareto set of (arrival, transfers): \
                for each number of transfers, the earliest arrival when it is earlier than with fewer.

                A PLACE is a stop_id (in a region seed FEED:STOP_ID; a station is its platforms) or \
                LAT,LON (the rider walks to or from the stops within \(Int(Footpaths.walkingDistance)) m). \
                --at is a local time on the clock of the origin's time zone (its feed's agency_timezone; \
                for a coordinate, that of the nearest stop's feed).

                --json prints an array of journeys, each {"departure", "arrival", "transfers", "legs"}, \
                each leg {"mode": "walk" or "ride", "from", "to", "departure", "arrival"} and for a ride \
                "route_id" and "trip_id"; times are ISO 8601 with the UTC offset of the place's time zone.

                Examples:
                  seedgen journeys cairns.sqlite --from 750118 --to 750053 \\
                    --at 2014-06-02T07:50
                  seedgen journeys city.sqlite --from metro:A1 --to bus:B7 \\
                    --at 2026-03-29T01:30
                  seedgen journeys cairns.sqlite --from 750118 --to -16.835,145.6925 \\
                    --at 2014-06-02T07:50 --json
                """)

        @Argument(help: ArgumentHelp("A transit seed (.sqlite).", valueName: "seed"))
        var seed: String

        @Option(help: ArgumentHelp("Where the journey starts: STOP_ID, FEED:STOP_ID or LAT,LON.", valueName: "place"))
        var from: String

        @Option(help: ArgumentHelp("Where it ends: STOP_ID, FEED:STOP_ID or LAT,LON.", valueName: "place"))
        var to: String

        @Option(help: ArgumentHelp("When the rider leaves, on the origin's clock.", valueName: "YYYY-MM-DDTHH:MM"))
        var at: String

        @Option(help: ArgumentHelp("The most changes between rides.", valueName: "n"))
        var maxTransfers = 5

        @OptionGroup var output: JSONOutput

        func run() throws {
            let planner: JourneyPlanner
            do { planner = try JourneyPlanner(path: seed) } catch { throw ShipText.fail(error, code: 2) }
            let (origin, destination) = (Place(from), Place(to))
            let journeys: [Journey]
            do {
                let zone = try planner.timeZone(of: origin)
                guard let departure = Self.instant(at, in: zone) else {
                    throw ValidationError("--at '\(at)' is not YYYY-MM-DDTHH:MM")
                }
                journeys = try planner.journeys(
                    from: origin, to: destination, departingAt: departure,
                    maxTransfers: maxTransfers)
            } catch let error as ValidationError {
                throw error
            } catch {
                throw ShipText.fail(error)
            }
            if output.json {
                print(ShipText.json(journeys.map(JourneyJSON.init)), terminator: "")
                return
            }
            if journeys.isEmpty { print("no journey from \(from) to \(to) leaving at \(at)") }
            for journey in journeys {
                print(JourneyText.line(journey))
                for leg in journey.legs { print("  " + JourneyText.line(leg)) }
            }
        }

        /// `YYYY-MM-DDTHH:MM` (or with `:SS`) on the clock of `zone`.
        static func instant(_ text: String, in zone: TimeZone) -> Date? {
            let parts = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0) }
            guard text.count >= 16, parts.count == 5 || parts.count == 6, parts.allSatisfy({ $0 != nil }) else {
                return nil
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let components = DateComponents(
                year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
                second: parts.count == 6 ? parts[5] : 0)
            guard components.isValidDate(in: calendar) else { return nil }
            return calendar.date(from: components)
        }
    }
}

/// A journey as `seedgen journeys --json` prints it (the names are a contract).
private struct JourneyJSON: Encodable {
    struct LegJSON: Encodable {
        var mode: String
        var from: String
        var to: String
        var departure: String
        var arrival: String
        var route_id: String?
        var trip_id: String?

        init(_ leg: Leg) {
            mode = leg.mode.rawValue
            from = leg.from
            to = leg.to
            departure = JourneyText.iso(leg.departure, in: leg.departureZone)
            arrival = JourneyText.iso(leg.arrival, in: leg.arrivalZone)
            route_id = leg.routeID
            trip_id = leg.tripID
        }
    }

    var departure: String
    var arrival: String
    var transfers: Int
    var legs: [LegJSON]

    init(_ journey: Journey) {
        departure = JourneyText.iso(journey.departure, in: journey.legs.first?.departureZone ?? .gmt)
        arrival = JourneyText.iso(journey.arrival, in: journey.legs.last?.arrivalZone ?? .gmt)
        transfers = journey.transfers
        legs = journey.legs.map(LegJSON.init)
    }
}

enum JourneyText {
    /// `instant` on the clock of `zone`, ISO 8601 with the offset: `2026-03-29T03:10:00+02:00`.
    static func iso(_ instant: Date, in zone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime, .withColonSeparatorInTimeZone]
        let text = formatter.string(from: instant)
        // ISO8601DateFormatter writes "Z" for UTC; the contract is an offset.
        return text.hasSuffix("Z") ? String(text.dropLast()) + "+00:00" : text
    }

    static func line(_ journey: Journey) -> String {
        let changes = journey.transfers == 1 ? "1 transfer" : "\(journey.transfers) transfers"
        let first = journey.legs.first, last = journey.legs.last
        return "\(iso(journey.departure, in: first?.departureZone ?? .gmt)) -> "
            + "\(iso(journey.arrival, in: last?.arrivalZone ?? .gmt)), \(changes)"
    }

    static func line(_ leg: Leg) -> String {
        let times =
            """
            \(iso(leg.departure, in: leg.departureZone)) \(leg.from) -> \(iso(leg.arrival, in: leg.arrivalZone)) \
            \(leg.to)
            """
        switch leg.mode {
        case .walk: return "walk  \(times)"
        case .ride: return "ride  \(times)  route \(leg.routeID ?? "") trip \(leg.tripID ?? "")"
        }
    }
}
