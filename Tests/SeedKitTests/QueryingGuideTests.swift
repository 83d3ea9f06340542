import Foundation
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Builds each gtfs-world feed once per test (udine with --lenient) and runs a script of
/// scripts/gtfs_reference.py, the independent answer computed from the raw CSV.
private enum Reference {
    static func build(_ feed: String, into folder: TemporaryFolder) throws -> Connection {
        let output = folder.file("\(feed).sqlite")
        _ = try SeedBuilder(options: BuildOptions(inputs: ["\(GTFSWorld.root)/\(feed)/feed"], output: output,
                                                  lenient: GTFSWorld.withDataErrors.contains(feed))).build()
        return try Connection(path: output, mode: .readOnly)
    }

    /// The script's output lines, split at tabs.
    static func run(_ arguments: [String]) throws -> [[String]] {
        let script = try ChildProcess.run("/usr/bin/env", ["python3", Repository.path("scripts/gtfs_reference.py")] + arguments)
        #expect(script.status == 0, "gtfs_reference.py \(arguments.joined(separator: " ")): \(script.stderr)")
        return script.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}

@Suite("Querying a transit seed: the guide's SQL on the gtfs-world feeds", .realData("gtfs-world/SOURCES.tsv"))
struct QueryingGuideTests {
    @Test("the guide has the four queries")
    func guideHasQueries() {
        #expect(Set(QueryingGuide.queries.keys) == ["services-on-a-date", "departures", "stops-matching", "nearest-stops"])
    }

    @Test("service_dates equals an independent expansion of calendar and calendar_dates", arguments: GTFSWorld.feeds)
    func serviceDates(feed: String) throws {
        let folder = TemporaryFolder()
        let db = try Reference.build(feed, into: folder)
        let seed = Set(try db.rows("SELECT service_id, date FROM service_dates").map { "\($0[0])\t\($0[1])" })
        let reference = Set(try Reference.run(["service-dates", "\(GTFSWorld.root)/\(feed)/feed"]).map { $0.joined(separator: "\t") })
        #expect(seed == reference, "\(feed): only in the seed \(seed.subtracting(reference).sorted().prefix(5)), only in the reference \(reference.subtracting(seed).sorted().prefix(5))")
        // The guide's query agrees with the table, date by date.
        if let date = try db.scalar("SELECT date FROM service_dates ORDER BY date LIMIT 1 OFFSET (SELECT count(*) / 2 FROM service_dates)")?.text {
            let services = try QueryingGuide.run("services-on-a-date", on: db, ["date": .text(date)]).map { $0[0].description }
            #expect(services == reference.filter { $0.hasSuffix("\t" + date) }.map { String($0.prefix { $0 != "\t" }) }.sorted())
        }
    }

    @Test("departures at the busiest stop, two two-hour windows on a weekday, equal an independent reference", arguments: GTFSWorld.feeds)
    func departures(feed: String) throws {
        let folder = TemporaryFolder()
        let db = try Reference.build(feed, into: folder)
        guard let busiest = try db.rows("""
            SELECT stops.id, stops.stop_id FROM stop_times JOIN stops ON stops.id = stop_ref
             GROUP BY stop_ref ORDER BY count(*) DESC, stop_ref LIMIT 1
            """).first else { Issue.record("\(feed) has no stop_times"); return }
        // The weekday with the most services (the day after, when the feed has such a day, so
        // that yesterday's trips are in service too).
        let weekday = try db.text("""
            SELECT date FROM service_dates WHERE strftime('%w', date) BETWEEN '1' AND '5'
             GROUP BY date ORDER BY count(*) DESC, date LIMIT 1
            """)
        guard let weekday else {
            #expect(GTFSWorld.withDataErrors.contains(feed), "\(feed) runs on no weekday")
            return
        }
        for (from, to) in [(7 * 3600, 9 * 3600), (0, 2 * 3600)] {
            let seed = try QueryingGuide.run("departures", on: db, ["stop": busiest[0], "date": .text(weekday),
                                                                    "from": .integer(Int64(from)), "to": .integer(Int64(to))])
                .map { [$0[0].description, $0[1].description, $0[2].description, $0[3].description] }
            let reference = try Reference.run(["departures", "\(GTFSWorld.root)/\(feed)/feed", busiest[1].description, weekday, String(from), String(to)])
            #expect(seed.sorted { $0.lexicographicallyPrecedes($1) } == reference.sorted { $0.lexicographicallyPrecedes($1) },
                    "\(feed) stop \(busiest[1]) on \(weekday) \(from)-\(to): \(seed.count) departures in the seed, \(reference.count) in the reference")
            let times = seed.map { Int($0[0]) ?? -1 }
            #expect(times == times.sorted(), "in time order")
        }
    }

    @Test("departures include yesterday's trips after midnight and trips expanded from frequencies.txt")
    func departuresPastMidnightAndHeadways() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, [
            "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,T2\nR1,WD,F1\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:10:00,08:10:00,S2,2
                T2,25:10:00,25:10:00,S1,1
                F1,00:00:00,00:00:00,S2,1
                F1,00:07:00,00:07:00,S1,2

                """,
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nF1,06:00:00,07:00:00,1200\n",
        ])
        let output = folder.file("seed.sqlite")
        _ = try SeedBuilder.build([folder.file("feed")], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        let stop = try db.int("SELECT id FROM stops WHERE stop_id = 'S1'")
        func departures(_ date: String, _ from: Int, _ to: Int) throws -> [String] {
            try QueryingGuide.run("departures", on: db, ["stop": .integer(stop), "date": .text(date), "from": .integer(Int64(from)), "to": .integer(Int64(to))])
                .map { "\($0[0]) \($0[1]) \($0[3])" }
        }
        // 2026-01-06 is a Tuesday: Monday's T2 leaves at 01:10 (25:10 of Monday's service day).
        #expect(try departures("2026-01-06", 0, 2 * 3600) == ["4200 T2 2026-01-05"])
        // Sunday's service does not run: nothing after midnight on Monday.
        #expect(try departures("2026-01-05", 0, 2 * 3600) == [])
        // F1 starts at 06:00, 06:20, 06:40 (not 07:00: end_time is exclusive), 7 minutes before S1.
        #expect(try departures("2026-01-06", 6 * 3600, 9 * 3600) == ["22020 F1 2026-01-06", "23220 F1 2026-01-06", "24420 F1 2026-01-06", "28800 T1 2026-01-06"])
        #expect(try departures("2026-01-06", 6 * 3600 + 1000, 6 * 3600 + 2500) == ["23220 F1 2026-01-06"])
    }

    @Test("stops match typed prefixes without regard to case or accents, best first")
    func search() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, ["stops.txt": """
            stop_id,stop_name,stop_code,stop_desc,stop_lat,stop_lon
            S1,Žirmūnai,Z1,,54.70,25.30
            S2,Zürich HB,,Hauptbahnhof,47.37,8.54
            S3,Gare du Nord,GDN,,48.88,2.35
            S4,Antakalnis,,near Žirmūnai,54.71,25.31
            S5,Søndre Åsen,,,59.9,10.7

            """, "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\n"])
        let output = folder.file("seed.sqlite")
        _ = try SeedBuilder.build([folder.file("feed")], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        func matching(_ typed: String) throws -> [String] {
            try QueryingGuide.run("stops-matching", on: db, ["typed": .text(typed)]).map { $0[1].description }
        }
        #expect(try matching("zirmunai") == ["S1", "S4"], "the name ranks above the description")
        #expect(try matching("zirm") == ["S1", "S4"])
        #expect(try matching("Žirmūnai") == ["S1", "S4"])
        #expect(try matching("ŽIRMŪ") == ["S1", "S4"])
        #expect(try matching("zurich") == ["S2"])
        #expect(try matching("zür") == ["S2"])
        #expect(try matching("sondre asen") == [], "ø is a letter of its own, not o with a diacritic")
        #expect(try matching("søndre asen") == ["S5"])
        #expect(try matching("gare du n") == ["S3"])
        #expect(try matching("gdn") == ["S3"], "codes are searched")
        #expect(try matching("hauptbahn") == ["S2"], "descriptions are searched")
        #expect(try matching("nord gare") == [], "a phrase: words in order")
        #expect(try matching("\") OR *") == [], "typed punctuation is not query syntax")
        #expect(try matching("x") == [])
    }

    @Test("the nearest 5 stops from the R*Tree equal a brute-force search, for 100 random points", arguments: ["chisinau", "donanbus"])
    func nearest(feed: String) throws {
        let folder = TemporaryFolder()
        let db = try Reference.build(feed, into: folder)
        let stops = try db.rows("SELECT id, stop_lat, stop_lon FROM stops WHERE stop_lat IS NOT NULL AND stop_lon IS NOT NULL")
            .map { (id: $0[0].integer!, lat: $0[1].double, lon: $0[2].double) }
        #expect(stops.count > 100)
        let lats = stops.map(\.lat), lons = stops.map(\.lon)
        var random = SplitMix(seed: 20)
        for _ in 0..<100 {
            // Points over the feed's extent and a margin around it.
            let lat = lats.min()! - 0.05 + random.unit() * (lats.max()! - lats.min()! + 0.1)
            let lon = lons.min()! - 0.05 + random.unit() * (lons.max()! - lons.min()! + 0.1)
            let scale = cos(lat * .pi / 180)
            let found = try QueryingGuide.run("nearest-stops", on: db, ["lat": .real(lat), "lon": .real(lon), "lon_scale": .real(scale), "limit": .integer(5)])
                .map { $0[0].integer! }
            func distance2(_ stop: (id: Int64, lat: Double, lon: Double)) -> Double {
                let dLat = stop.lat - lat, dLon = (stop.lon - lon) * scale
                return dLat * dLat + dLon * dLon
            }
            let ranked: [(id: Int64, distance: Double)] = stops.map { ($0.id, distance2($0)) }
            let brute = ranked.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }.prefix(5).map(\.id)
            #expect(found == Array(brute), "\(feed) near \(lat), \(lon)")
        }
    }
}

extension Value {
    /// A number as a double (0 for anything else).
    var double: Double {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return 0
        }
    }
}
