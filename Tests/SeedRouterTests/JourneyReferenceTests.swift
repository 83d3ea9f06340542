import Foundation
import SeedRouter
import SeedTestSupport
import Testing

/// The seeds built once for the suite.
private final class Seeds: Sendable {
    static let built = Result { try Seeds() }

    let folder = TemporaryFolder()
    let cairns: JourneySeed
    let sample: JourneySeed
    let berlin: JourneySeed
    let region: JourneySeed
    let north: JourneySeed

    private init() throws {
        let fixtures = Repository.path("Tests/Fixtures/gtfs")
        cairns = try .build("cairns", [Repository.path("examples/cairns")],
                            dates: ["2014-05-26", "2014-05-30", "2014-05-31", "2014-06-01"], in: folder)
        sample = try .build("sample", ["\(fixtures)/sample-feed"], dates: ["2008-03-03", "2008-03-08"], in: folder)
        berlin = try .build("berlin", ["\(fixtures)/dst-berlin"],
                            dates: ["2026-03-28", "2026-03-29", "2026-10-25", "2026-10-26"], in: folder)
        let two = "\(fixtures)/two-operators"
        region = try .build("region", ["north=\(two)/north", "south=\(two)/south"], dates: ["2026-05-04"], in: folder)
        north = try .build("north", ["\(two)/north"], dates: ["2026-05-04"], in: folder)
    }
}

@Suite("Journeys: SeedRouter against an independent connection scan (scripts/journey_reference.py)")
struct JourneyReferenceTests {
    /// Plans every case, compares the earliest arrival with the reference's, checks each
    /// journey's rides against the feed's stop_times (the reference's `check`) and that no
    /// journey of a Pareto set is dominated by another.
    func compare(_ seed: JourneySeed, cases count: Int, seed state: UInt64, folder: TemporaryFolder? = nil) throws {
        let folder = try folder ?? Seeds.built.get().folder
        let planner = try JourneyPlanner(path: seed.seed)
        let cases = try seed.cases(count, seed: state)
        let expected = try seed.reference(cases, in: folder)
        try #require(expected.count == cases.count)
        var lines: [String] = []
        var found = 0
        for (i, c) in cases.enumerated() {
            let origin = Place(c.from), destination = Place(c.to)
            let zone = try planner.timeZone(of: origin)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = c.at.split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
            let at = try #require(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2],
                                                                     hour: parts[3], minute: parts[4])))
            let journeys = try planner.journeys(from: origin, to: destination, departingAt: at, maxTransfers: 30)
            let earliest = journeys.map { Int($0.arrival.timeIntervalSince1970) }.min()
            #expect(earliest == expected[i], "case \(i): \(c.from) -> \(c.to) at \(c.at)")
            if earliest != nil { found += 1 }
            for (a, b) in zip(journeys, journeys.dropFirst()) {
                #expect(a.transfers < b.transfers && a.arrival > b.arrival, "case \(i): a dominated journey")
            }
            for journey in journeys {
                #expect(journey.departure >= at, "case \(i): leaves before \(c.at)")
                for (a, b) in zip(journey.legs, journey.legs.dropFirst()) {
                    #expect(a.to == b.from && a.arrival <= b.departure, "case \(i): legs do not join")
                }
            }
            let json = try JSONSerialization.data(withJSONObject: ["journeys": journeys.map(referenceJSON)])
            lines.append(String(decoding: json, as: UTF8.self))
        }
        let checks = try seed.run("check", folder.write("journeys-\(state).jsonl", lines.joined(separator: "\n") + "\n"))
        for (i, line) in checks.split(separator: "\n").enumerated() {
            #expect(line == "ok", "case \(i): \(line)")
        }
        // The draw must reach something: at least some cases have a journey.
        #expect(found > 0)
        print("journeys: \(URL(fileURLWithPath: seed.seed).lastPathComponent): \(cases.count) cases, \(found) with a journey")
    }

    @Test("Cairns: 100 random cases")
    func cairns() throws { try compare(try Seeds.built.get().cairns, cases: 100, seed: 1) }

    @Test("the sample feed (headways, a station, pickup and drop-off rules): 100 random cases")
    func sample() throws { try compare(try Seeds.built.get().sample, cases: 100, seed: 2) }

    @Test("the DST fixture, around both changes of the clocks: 100 random cases")
    func daylightSaving() throws { try compare(try Seeds.built.get().berlin, cases: 100, seed: 3) }

    @Test("the two-operator region: 50 random cases across both feeds")
    func region() throws { try compare(try Seeds.built.get().region, cases: 50, seed: 4) }

    @Test("a rider changes operators: only the region seed finds it (T1, a walk of 186 s, U1; not U2, no pickup)")
    func acrossOperators() throws {
        let seeds = try Seeds.built.get()
        let region = try JourneyPlanner(path: seeds.region.seed)
        let zone = try region.timeZone(of: .stop("north:N1"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let at = try #require(calendar.date(from: DateComponents(year: 2026, month: 5, day: 4, hour: 7, minute: 50)))
        let journeys = try region.journeys(from: .stop("north:N1"), to: .stop("south:S2"), departingAt: at)
        let journey = try #require(journeys.first)
        #expect(journeys.count == 1)
        #expect(journey.transfers == 1)
        #expect(journey.legs.map(\.mode) == [.ride, .walk, .ride])
        #expect(journey.legs.map(\.tripID) == ["T1", nil, "U1"])
        #expect(journey.legs[1].arrival.timeIntervalSince(journey.legs[1].departure) == 186)
        #expect(calendar.dateComponents([.hour, .minute], from: journey.arrival) == DateComponents(hour: 8, minute: 50))

        // Alone, the north feed knows no way to S2's position.
        let north = try JourneyPlanner(path: seeds.north.seed)
        #expect(try north.journeys(from: .stop("N1"), to: .coordinate(latitude: 52.52, longitude: 13.36), departingAt: at).isEmpty)
    }

    @Test("seedgen journeys --json prints the contract's names; past midnight it takes the day before's trips")
    func command() throws {
        let seeds = try Seeds.built.get()
        let result = try SeedgenTool.run(["journeys", seeds.region.seed, "--from", "north:N1", "--to", "south:S2",
                                          "--at", "2026-05-05T00:20", "--json"])
        #expect(result.status == 0, "\(result)")
        let array = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [[String: Any]])
        let journey = try #require(array.first)
        #expect(Set(journey.keys) == ["departure", "arrival", "transfers", "legs"])
        #expect(journey["departure"] as? String == "2026-05-05T00:30:00+02:00")
        #expect(journey["arrival"] as? String == "2026-05-05T01:20:00+02:00")
        let legs = try #require(journey["legs"] as? [[String: Any]])
        #expect(Set(legs[0].keys) == ["mode", "from", "to", "departure", "arrival", "route_id", "trip_id"])
        #expect(Set(legs[1].keys) == ["mode", "from", "to", "departure", "arrival"])
        #expect(legs.map { $0["mode"] as? String } == ["ride", "walk", "ride"])
        #expect(legs.map { $0["trip_id"] as? String } == ["T2", nil, "U3"])
        #expect(legs[0]["route_id"] as? String == "R1")
    }
}
