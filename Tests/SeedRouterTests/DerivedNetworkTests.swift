import Foundation
import SeedSQLite
import SeedTestSupport
import Testing

@testable import SeedRouter

/// Issue 43, item 1: the planner reads its patterns and footpaths from the tables the schema
/// derives (`trip_patterns`, `pattern_stops`, `footpaths`), and gets the network it computed in
/// memory before them; a seed without them (built before schema version 4) is computed as before.
@Suite("Journeys: the derived patterns and footpaths give the network computed in memory")
struct DerivedNetworkTests {
    let folder = TemporaryFolder()

    /// The arrays of the network that patterns and footpaths fill, and the trips' events (read
    /// with their stops from `stop_times`, or with their patterns' stops).
    struct Shape: Equatable {
        let patternStops, patternStopStart, patternTrips, patternTripStart, patternFeed: [Int32]
        let patternIsFrequency: [Bool]
        let footStart, footTo, footTime, changeTime: [Int32]
        let tripEventStart, tripEventEnd, eventStop, eventArrival, eventDeparture: [Int32]
        let eventFlags: [UInt8]

        init(_ net: TransitNetwork) {
            (tripEventStart, tripEventEnd, eventStop) = (net.tripEventStart, net.tripEventEnd, net.eventStop)
            (eventArrival, eventDeparture, eventFlags) = (net.eventArrival, net.eventDeparture, net.eventFlags)
            (patternStops, patternStopStart, patternTrips) = (net.patternStops, net.patternStopStart, net.patternTrips)
            (patternTripStart, patternFeed, patternIsFrequency) = (net.patternTripStart, net.patternFeed, net.patternIsFrequency)
            (footStart, footTo, footTime, changeTime) = (net.footStart, net.footTo, net.footTime, net.changeTime)
        }
    }

    /// Checks the network read with the derived tables against the one computed in memory.
    func compare(_ path: String, footpaths: Int? = nil) throws {
        let db = try Connection(path: path, mode: .readOnly)
        #expect(try TransitNetwork.hasDerivedTables(db))
        let derived = try TransitNetwork(reading: db)
        let computed = try TransitNetwork(reading: db, derived: false)
        #expect(derived.patternCount > 0)
        #expect(Shape(derived) == Shape(computed), "\(path)")
        if let footpaths { #expect(derived.footTo.count == footpaths) }
        // Each trip's pattern (trip_patterns) has the trip's timed stops in order (pattern_stops),
        // and every trip of two timed stops or more has one: the planner never had to group by stops.
        var stops: [Int64: [Int64]] = [:]
        for row in try db.rows("SELECT pattern, stop_ref FROM pattern_stops ORDER BY pattern, position") {
            stops[row[0].integer ?? -1, default: []].append(row[1].integer ?? -1)
        }
        var tripIndex: [Int64: Int32] = [:]
        for row in try db.rows("SELECT id FROM trips ORDER BY id") { tripIndex[row[0].integer ?? -1] = Int32(tripIndex.count) }
        let patterns = try derived.loadTripPatterns(db, tripIndex: tripIndex)
        var (checked, wrong) = (0, 0)
        for trip in 0..<derived.tripIDs.count {
            let events = derived.eventStop[Int(derived.tripEventStart[trip])..<Int(derived.tripEventEnd[trip])]
            guard events.count >= 2 || patterns[trip] >= 0 else { continue }
            checked += 1
            if stops[patterns[trip]] != events.map({ derived.stopSeedIDs[Int($0)] }) { wrong += 1 }
        }
        #expect(checked > 0 && wrong == 0, "\(path): \(wrong) of \(checked) trips' patterns differ from their stops")
    }

    func build(_ name: String, _ inputs: [String], feeds: Bool = false) throws -> String {
        let output = folder.file("\(name).sqlite")
        let arguments = ["build"] + (feeds ? inputs.flatMap { ["--feed", $0] } : inputs) + ["--lenient", "--out", output]
        let run = try ChildProcess.run(SeedgenTool.path, arguments)
        try #require(run.status == 0, "\(run.stderr)")
        return output
    }

    @Test("the fixtures: Cairns, the sample feed (headways), the DST fixture, the two-operator region")
    func fixtures() throws {
        let gtfs = Repository.path("Tests/Fixtures/gtfs")
        try compare(try build("cairns", [Repository.path("examples/cairns")]), footpaths: 1176)
        try compare(try build("sample", ["\(gtfs)/sample-feed"]))
        try compare(try build("berlin", ["\(gtfs)/dst-berlin"]))
        let two = "\(gtfs)/two-operators"
        try compare(try build("region", ["north=\(two)/north", "south=\(two)/south"], feeds: true))
    }

    @Test("a region seed: the walks between feeds are read from footpaths, measured only in a seed without them")
    func walksAcrossFeeds() throws {
        let two = Repository.path("Tests/Fixtures/gtfs/two-operators")
        let seed = try build("region", ["north=\(two)/north", "south=\(two)/south"], feeds: true)
        func walk(_ path: String) throws -> (derived: Bool, time: Int32?) {
            let db = try Connection(path: path, mode: .readOnly)
            let net = try TransitNetwork(reading: db)
            let (n2, s1) = (Int(net.stopIndex["north:N2"]!), net.stopIndex["south:S1"]!)
            let time = (Int(net.footStart[n2])..<Int(net.footStart[n2 + 1])).first { net.footTo[$0] == s1 }
            return (try TransitNetwork.derivesWalksAcrossFeeds(db), time.map { net.footTime[$0] })
        }
        // N2 and S1 are 222 m apart: 186 s at 1.2 m/s.
        #expect(try walk(seed) == (true, 186))
        // Without the row the planner does not walk it: it reads the walk, it does not measure it.
        let without = folder.file("without.sqlite")
        try FileManager.default.copyItem(atPath: seed, toPath: without)
        let db = try Connection(path: without)
        try db.execute("DELETE FROM footpaths WHERE feed_ref <> (SELECT feed_ref FROM stops WHERE id = to_stop_ref)")
        #expect(db.changes == 1)
        #expect(try walk(without) == (true, nil))
        // A region seed built before the walks were derived (no recipe for them): measured.
        try db.execute("DELETE FROM seedgen_derive WHERE target = 'footpaths' AND kind = 'rows'")
        #expect(try walk(without) == (false, 186))
    }

    @Test("transfers.txt: times, walks, a forbidden way, a change time, the last row of a pair, route rows aside")
    func transfers() throws {
        let feed = folder.file("transfers-feed")
        try FileManager.default.copyItem(atPath: Repository.path("Tests/Fixtures/gtfs/sample-feed"), toPath: feed)
        // NADAV2 is 50 m from NADAV (served); U1 and U2, 30 m apart, no trip serves.
        let stops = try String(contentsOfFile: "\(feed)/stops.txt", encoding: .utf8)
        let added = "NADAV2,Near NADAV,,36.915343,-116.76821,,\nU1,Unserved 1,,36.5,-116.5,,\nU2,Unserved 2,,36.50027,-116.5,,\n"
        try (stops + added).write(toFile: "\(feed)/stops.txt", atomically: true, encoding: .utf8)
        let rows = [
            "from_stop_id,to_stop_id,from_route_id,to_route_id,from_trip_id,to_trip_id,transfer_type,min_transfer_time",
            "STAGECOACH,BEATTY_AIRPORT,,,,,2,300", "BULLFROG,BEATTY_AIRPORT,,,,,0,", "BEATTY_AIRPORT,BULLFROG,,,,,2,",
            "EMSI,EMSI,,,,,2,120", "NADAV2,NADAV,,,,,1,", "NADAV2,NADAV,,,,,3,", "STAGECOACH,AMV,AB,,,,2,500",
            "U1,U2,,,,,3,",
        ]
        try (rows.joined(separator: "\n") + "\n").write(toFile: "\(feed)/transfers.txt", atomically: true, encoding: .utf8)
        let seed = try build("transfers", [feed])
        try compare(seed)
        let db = try Connection(path: seed, mode: .readOnly)
        let kinds = try db.rows("SELECT kind, count(*) FROM footpaths GROUP BY kind ORDER BY kind").map { $0.map(\.integer) }
        #expect(kinds == [[0, 1], [2, 4], [3, 2]])
        let net = try TransitNetwork(reading: db)
        func path(_ a: String, _ b: String) -> Int32? {
            let (i, j) = (Int(net.stopIndex[a]!), net.stopIndex[b]!)
            return (Int(net.footStart[i])..<Int(net.footStart[i + 1])).first { net.footTo[$0] == j }.map { net.footTime[$0] }
        }
        #expect(path("STAGECOACH", "BEATTY_AIRPORT") == 300 && path("STAGECOACH", "AMV") == nil)
        #expect(path("NADAV", "NADAV2") == 42 && path("NADAV2", "NADAV") == nil)
        #expect(path("U2", "U1") == 26 && path("U1", "U2") == nil)
        #expect(net.changeTime[Int(net.stopIndex["EMSI"]!)] == 120)
    }

    @Test("every gtfs-world feed, and the ten as a region seed", .realData("gtfs-world/SOURCES.tsv"))
    func world() throws {
        let world = RealData.path("gtfs-world")
        let feeds = try FileManager.default.contentsOfDirectory(atPath: world)
            .filter { FileManager.default.fileExists(atPath: "\(world)/\($0)/feed") }.sorted()
        try #require(feeds.count == 10)
        for feed in feeds { try compare(try build(feed, ["\(world)/\(feed)/feed"])) }
        try compare(try build("world", feeds.map { "\($0)=\(world)/\($0)/feed" }, feeds: true))
    }

    @Test("a seed whose stop_times changed after deriving (a trip's timed stop removed) is read from stop_times")
    func changedAfterDeriving() throws {
        let seed = try build("sample", [Repository.path("Tests/Fixtures/gtfs/sample-feed")])
        let db = try Connection(path: seed)
        let trip = try #require(try db.scalar("SELECT min(trip_ref) FROM trip_patterns")?.integer)
        try db.execute(
            """
            DELETE FROM stop_times WHERE trip_ref = \(trip) AND stop_sequence = \
            (SELECT max(stop_sequence) FROM stop_times WHERE trip_ref = \(trip))
            """)
        #expect(db.changes == 1)
        let readOnly = try Connection(path: seed, mode: .readOnly)
        let (derived, computed) = (try TransitNetwork(reading: readOnly), try TransitNetwork(reading: db, derived: false))
        #expect(derived.eventStop == computed.eventStop && derived.eventArrival == computed.eventArrival)
        #expect(derived.tripEventStart == computed.tripEventStart && derived.tripEventEnd == computed.tripEventEnd)
        #expect(Set(derived.patternStops) == Set(computed.patternStops) && derived.patternCount == computed.patternCount)
    }

    @Test("a seed without the derived tables (an older seedgen's) is computed in memory, with the same journeys")
    func olderSeed() throws {
        let seed = try build("sample", [Repository.path("Tests/Fixtures/gtfs/sample-feed")])
        let older = folder.file("older.sqlite")
        try FileManager.default.copyItem(atPath: seed, toPath: older)
        let db = try Connection(path: older)
        for table in TransitNetwork.derivedTables { try db.execute("DROP TABLE \(table)") }
        let readOnly = try Connection(path: older, mode: .readOnly)
        #expect(try !TransitNetwork.hasDerivedTables(readOnly))
        #expect(Shape(try TransitNetwork(reading: readOnly)) == Shape(try TransitNetwork(reading: db, derived: false)))
        let (new, old) = (try JourneyPlanner(path: seed), try JourneyPlanner(path: older))
        let at = try #require(ISO8601DateFormatter().date(from: "2008-03-03T06:10:00Z"))
        var journeys = 0
        for (from, to) in [("STAGECOACH", "BEATTY_AIRPORT"), ("FUR_CREEK_RES", "AMV"), ("BULLFROG", "STAGECOACH")] {
            let a = try new.journeys(from: .stop(from), to: .stop(to), departingAt: at)
            let b = try old.journeys(from: .stop(from), to: .stop(to), departingAt: at)
            #expect(a.map(\.arrival) == b.map(\.arrival) && a.map(\.transfers) == b.map(\.transfers))
            journeys += a.count
        }
        #expect(journeys > 0)
    }
}
