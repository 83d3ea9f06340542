import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit
@testable import SeedShip

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
    @Test("the guide prints the transit schema's queries, each block as the schema has it")
    func guidePrintsTheSchemasQueries() throws {
        let schema = try Schema.load(path: Repository.path("Schema/transit.yaml"))
        #expect(schema.queries.map(\.name) == ["services-on-a-date", "departures", "arrivals", "route-trips", "trip-stops", "shapes-in-box", "stops-matching", "nearest-stops"])
        let oneFeed = Set(schema.queries.map { QueryingGuide.oneFeed($0.name) })
        #expect(Set(QueryingGuide.queries.keys.filter { !oneFeed.contains($0) }) == Set(schema.queries.map(\.name)))
        for query in schema.queries {
            #expect(QueryingGuide.queries[query.name] == query.guideText, "the guide's \(query.name) differs from Schema/transit.yaml's")
            // The region section prints some one-feed forms: each as SeedKit makes it.
            guard let printed = QueryingGuide.queries[QueryingGuide.oneFeed(query.name)] else { continue }
            let form = try #require(try schema.oneFeedQuery(query))
            #expect(printed == "-- \(QueryingGuide.oneFeed(query.name)): \(form.summary)\n" + form.sql.trimmingTrailingNewlines,
                    "the guide's one-feed form of \(query.name) differs from Schema.oneFeedQuery's")
        }
        #expect(QueryingGuide.queries.keys.filter(oneFeed.contains).sorted() == ["departures (one feed)", "services-on-a-date (one feed)"])
    }

    @Test("service_days holds every date of the whole calendar, as an independent expansion of calendar and calendar_dates", arguments: GTFSWorld.feeds)
    func serviceDays(feed: String) throws {
        let folder = TemporaryFolder()
        let db = try Reference.build(feed, into: folder)
        let seed = Set(try db.rows(ServiceDays.expanded).map { "\($0[0])\t\($0[1])" })
        let reference = Set(try Reference.run(["service-dates", "\(GTFSWorld.root)/\(feed)/feed"]).map { $0.joined(separator: "\t") })
        #expect(seed == reference, "\(feed): only in the seed \(seed.subtracting(reference).sorted().prefix(5)), only in the reference \(reference.subtracting(seed).sorted().prefix(5))")
        // The guide's query agrees, date by date, on every date of the feed's validity.
        let dates = Set(reference.map { String($0.split(separator: "\t")[1]) })
        for date in dates.sorted() {
            let services = try QueryingGuide.run("services-on-a-date", on: db, ["date": .text(date)]).map { $0[0].description }
            #expect(services == reference.filter { $0.hasSuffix("\t" + date) }.map { String($0.prefix { $0 != "\t" }) }.sorted(), "\(feed) on \(date)")
        }
    }

    @Test("the query features, as inspect reports them (the departures index beyond the stop_ref index it replaces), add at most 15 % to the seed", arguments: GTFSWorld.feeds)
    func queryFeatureCost(feed: String) throws {
        let folder = TemporaryFolder()
        _ = try Reference.build(feed, into: folder)
        let report = try SeedInspector.report(for: SeedFile(path: folder.file("\(feed).sqlite")))
        let costs = try #require(report.queryIndexes)
        #expect(Set(costs.map(\.name)).isSuperset(of: ["service_days", "stop_times_departures", "stops_search", "stops_location"]), "\(costs.map(\.name))")
        let departures = try #require(costs.first { $0.name == "stop_times_departures" })
        #expect(departures.kind == .index && departures.replaces == "stop_ref" && (departures.bytes ?? 0) > 0 && (departures.bytes ?? 0) < (departures.indexBytes ?? 0))
        // The journey planner's tables (issue 43) are held apart: together at most 10 % of the seed
        // without them (1.1 to 4.1 % on the shared feeds, most of it each table's first pages).
        let planner: Set<String> = ["trip_patterns", "pattern_stops", "footpaths"]
        #expect(Set(costs.map(\.name)).isSuperset(of: planner), "\(costs.map(\.name))")
        let journeys = costs.filter { planner.contains($0.name) }.compactMap(\.bytes).reduce(0, +)
        let total = costs.filter { !planner.contains($0.name) }.compactMap(\.bytes).reduce(0, +)
        let size = try #require(report.size)
        #expect(costs.allSatisfy { $0.bytes != nil } && total * 100 <= size * 15, "\(feed): \(total) of \(size) bytes (\(total * 100 / max(size, 1)) %)")
        #expect(journeys * 100 <= (size - journeys) * 10, "\(feed): the planner's tables \(journeys) of \(size) bytes")
    }

    @Test("departures and arrivals at the busiest stop and station: a morning, across midnight, three days; equal an independent reference", arguments: GTFSWorld.feeds)
    func departures(feed: String) throws {
        let folder = TemporaryFolder()
        let db = try Reference.build(feed, into: folder)
        var places = try db.rows("""
            SELECT stops.id, stops.stop_id FROM stop_times JOIN stops ON stops.id = stop_ref
             GROUP BY stop_ref ORDER BY count(*) DESC, stop_ref LIMIT 1
            """)
        guard !places.isEmpty else { Issue.record("\(feed) has no stop_times"); return }
        places += try db.rows("""
            SELECT station.id, station.stop_id FROM stops AS station JOIN stops AS platform ON platform.parent_station_ref = station.id
              JOIN stop_times ON stop_times.stop_ref = platform.id GROUP BY station.id ORDER BY count(*) DESC, station.id LIMIT 1
            """)
        // The weekday with the most services.
        let weekday = try db.text("""
            SELECT date FROM (\(ServiceDays.expanded)) WHERE strftime('%w', date) BETWEEN '1' AND '5'
             GROUP BY date ORDER BY count(*) DESC, date LIMIT 1
            """)
        guard let weekday else {
            #expect(GTFSWorld.withDataErrors.contains(feed), "\(feed) runs on no weekday")
            return
        }
        for place in places {
            for (from, to) in [(7 * 3600, 9 * 3600), (22 * 3600, 26 * 3600), (0, 3 * 86400)] {
                for kind in ["departures", "arrivals"] where kind == "departures" || from == 7 * 3600 {
                    let seed = try QueryingGuide.run(kind, on: db, ["stop": place[0], "date": .text(weekday),
                                                                    "from": .integer(Int64(from)), "to": .integer(Int64(to))])
                        .map { [$0[0].description, $0[1].description, $0[2].description, $0[3].description, $0[6].description] }
                    let reference = try Reference.run([kind, "\(GTFSWorld.root)/\(feed)/feed", place[1].description, weekday, String(from), String(to)])
                    #expect(seed.sorted { $0.lexicographicallyPrecedes($1) } == reference.sorted { $0.lexicographicallyPrecedes($1) },
                            "\(feed) \(kind) at \(place[1]) on \(weekday) \(from)-\(to): \(seed.count) in the seed, \(reference.count) in the reference")
                    let times = seed.map { Int($0[0]) ?? -1 }
                    #expect(times == times.sorted(), "in time order")
                }
            }
        }
    }

    @Test("a route's trips on its busiest weekday, a trip's stops, the shapes in 50 boxes: equal independent answers", arguments: GTFSWorld.feeds)
    func routesTripsAndShapes(feed: String) throws {
        let folder = TemporaryFolder()
        let db = try Reference.build(feed, into: folder)
        // udine's calendar rows are its data errors, left out under --lenient: no day runs.
        guard let weekday = try db.text("""
            SELECT date FROM (\(ServiceDays.expanded)) WHERE strftime('%w', date) BETWEEN '1' AND '5'
             GROUP BY date ORDER BY count(*) DESC, date LIMIT 1
            """) else {
            #expect(GTFSWorld.withDataErrors.contains(feed), "\(feed) runs on no weekday")
            return
        }
        let route = try #require(try db.rows("SELECT routes.id, routes.route_id FROM trips JOIN routes ON routes.id = trips.route_ref GROUP BY routes.id ORDER BY count(*) DESC, routes.id LIMIT 1").first,
                                 "\(feed) has trips")
        let trips = try QueryingGuide.run("route-trips", on: db, ["route": route[0], "date": .text(weekday)])
        let reference = try Reference.run(["route-trips", "\(GTFSWorld.root)/\(feed)/feed", route[1].description, weekday])
        #expect(trips.map { [$0[1].description, $0[4] == .null ? "" : $0[4].description] } == reference, "\(feed) route \(route[1]) on \(weekday)")
        if let trip = trips.first {
            let stops = try QueryingGuide.run("trip-stops", on: db, ["trip": trip[0]])
                .map { [$0[0], $0[2], $0[4], $0[5]].map { $0 == .null ? "" : $0.description } }
            #expect(stops == (try Reference.run(["trip-stops", "\(GTFSWorld.root)/\(feed)/feed", trip[1].description])), "\(feed) trip \(trip[1])")
        }
        // Shapes: the extent of each, from its points; a box query returns the shapes meeting it
        // (and, from the R*Tree's 32-bit rounding outwards, perhaps one a hair outside).
        let extents = try db.rows("SELECT shape_id, min(shape_pt_lat), max(shape_pt_lat), min(shape_pt_lon), max(shape_pt_lon) FROM shapes GROUP BY shape_id")
        // A feed without shapes has nothing to box: say so rather than pass in silence.
        guard let first = extents.first else {
            #expect(!FileManager.default.fileExists(atPath: "\(GTFSWorld.root)/\(feed)/feed/shapes.txt"), "\(feed) has shapes.txt but no shapes were built")
            return
        }
        var random = SplitMix(seed: 7)
        let lats = extents.flatMap { [$0[1].double, $0[2].double] }, lons = extents.flatMap { [$0[3].double, $0[4].double] }
        _ = first
        for _ in 0..<50 {
            let lat = lats.min()! + random.unit() * (lats.max()! - lats.min()!), lon = lons.min()! + random.unit() * (lons.max()! - lons.min()!)
            let half = 0.001 + random.unit() * 0.02
            let box: [String: Value] = ["min_lat": .real(lat - half), "max_lat": .real(lat + half), "min_lon": .real(lon - half), "max_lon": .real(lon + half)]
            let rows = try QueryingGuide.run("shapes-in-box", on: db, box)
            func meets(_ extent: [Value], margin: Double) -> Bool {
                extent[1].double <= lat + half + margin && extent[2].double >= lat - half - margin && extent[3].double <= lon + half + margin && extent[4].double >= lon - half - margin
            }
            let found = Set(rows.map { $0[0].description })
            #expect(Set(extents.filter { meets($0, margin: 0) }.map { $0[0].description }).isSubset(of: found), "\(feed): every shape meeting the box")
            #expect(found.isSubset(of: Set(extents.filter { meets($0, margin: 1e-4) }.map { $0[0].description })), "\(feed): only shapes meeting the box")
            let points = try db.int("SELECT count(*) FROM shapes WHERE shape_id IN (\(found.map(quotedLiteral).joined(separator: ",").isEmpty ? "NULL" : found.map(quotedLiteral).joined(separator: ",")))")
            #expect(Int64(rows.count) == points, "every point of each shape, once")
        }
    }

    @Test("departures: yesterday's trips after midnight, tomorrow's in a late window, headways; no last stops, no drop-off-only stops; a station's platforms")
    func departuresAsRidersMeanThem() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, [
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\nST,Station,52.5,13.4,1,\nS1,One,52.5,13.4,0,ST\nS2,Two,52.6,13.5,0,\nS3,Three,52.6,13.5,0,ST\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,T2\nR1,WD,F1\nR1,WD,T3\nR1,WD,T4\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type
                T1,08:00:00,08:00:00,S1,1,,
                T1,08:10:00,08:10:00,S2,2,,
                T2,25:10:00,25:10:00,S1,1,,
                T2,25:20:00,25:20:00,S2,2,,
                F1,00:00:00,00:00:00,S2,1,,
                F1,00:07:00,00:07:00,S1,2,,
                F1,00:15:00,00:15:00,S2,3,,
                T3,08:30:00,08:30:00,S2,1,,
                T3,08:40:00,08:40:00,S1,2,,
                T4,09:00:00,09:00:00,S1,1,1,
                T4,09:05:00,09:05:00,S3,2,0,1
                T4,09:10:00,09:10:00,S2,3,,

                """,
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nF1,06:00:00,07:00:00,1200\n",
        ])
        let output = folder.file("seed.sqlite")
        _ = try SeedBuilder.build([folder.file("feed")], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        func stop(_ id: String) throws -> Value { .integer(try db.int("SELECT id FROM stops WHERE stop_id = '\(id)'")) }
        func events(_ date: String, _ from: Int, _ to: Int, _ kind: String = "departures", at id: String = "S1") throws -> [String] {
            try QueryingGuide.run(kind, on: db, ["stop": try stop(id), "date": .text(date), "from": .integer(Int64(from)), "to": .integer(Int64(to))])
                .map { "\($0[0]) \($0[1]) \($0[3])" }
        }
        // 2026-01-06 is a Tuesday: Monday's T2 leaves at 01:10 (25:10 of Monday's service day).
        #expect(try events("2026-01-06", 0, 2 * 3600) == ["4200 T2 2026-01-05"])
        // Sunday's service does not run: nothing after midnight on Monday.
        #expect(try events("2026-01-05", 0, 2 * 3600) == [])
        // A window past midnight reaches Tuesday's T2 (at 01:10 of Wednesday) from Monday's clock.
        #expect(try events("2026-01-05", 23 * 3600, 26 * 3600) == ["90600 T2 2026-01-05"])
        #expect(try events("2026-01-05", 24 * 3600 + 1, 48 * 3600).contains("115200 T1 2026-01-06"), "Tuesday's T1 at 08:00, on Monday's clock")
        // F1 starts at 06:00, 06:20, 06:40 (not 07:00: end_time is exclusive), 7 minutes before S1.
        // T3 ends at S1 and T4 takes no one at S1: neither departs there.
        #expect(try events("2026-01-06", 6 * 3600, 9 * 3600 + 600) == ["22020 F1 2026-01-06", "23220 F1 2026-01-06", "24420 F1 2026-01-06", "28800 T1 2026-01-06"])
        #expect(try events("2026-01-06", 6 * 3600 + 1000, 6 * 3600 + 2500) == ["23220 F1 2026-01-06"])
        // Arrivals: T3 at its last stop, F1's pattern, not T4 (no drop off at S3) nor first stops.
        #expect(try events("2026-01-06", 6 * 3600, 9 * 3600 + 600, "arrivals") == ["22020 F1 2026-01-06", "23220 F1 2026-01-06", "24420 F1 2026-01-06", "31200 T3 2026-01-06"])
        // The station is its platforms S1 and S3: T4 departs from S3 (no pickup at S1), where no one gets off.
        #expect(try events("2026-01-06", 8 * 3600, 9 * 3600 + 600, at: "ST") == ["28800 T1 2026-01-06", "32700 T4 2026-01-06"])
        #expect(try events("2026-01-06", 8 * 3600, 9 * 3600 + 600, "arrivals", at: "ST") == ["31200 T3 2026-01-06"])
    }

    @Test("departures on the days the clocks change (Berlin, 2026) equal an independent reference, on the service day's clock")
    func departuresWhenTheClocksChange() throws {
        let folder = TemporaryFolder()
        let feed = Repository.path("Tests/Fixtures/gtfs/dst-berlin")
        let output = folder.file("berlin.sqlite")
        _ = try SeedBuilder.build([feed], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        let station = try db.int("SELECT id FROM stops WHERE stop_id = 'HBF'")
        for date in ["2026-03-28", "2026-03-29", "2026-10-25"] {
            for (from, to) in [(0, 4 * 3600), (22 * 3600, 30 * 3600)] {
                let seed = try QueryingGuide.run("departures", on: db, ["stop": .integer(station), "date": .text(date), "from": .integer(Int64(from)),
                                                                         "to": .integer(Int64(to))])
                    .map { [$0[0].description, $0[1].description, $0[2].description, $0[3].description, $0[6].description] }
                let reference = try Reference.run(["departures", feed, "HBF", date, String(from), String(to)])
                #expect(!reference.isEmpty && seed.sorted { $0.lexicographicallyPrecedes($1) } == reference.sorted { $0.lexicographicallyPrecedes($1) }, "\(date) \(from)-\(to)")
            }
        }
    }

    @Test("stops match typed prefixes without regard to case, accents or letters without a base letter; inside names in scripts without spaces")
    func search() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, ["stops.txt": """
            stop_id,stop_name,stop_code,stop_desc,stop_lat,stop_lon
            S1,Žirmūnai,Z1,,54.70,25.30
            S2,Zürich HB,,Hauptbahnhof,47.37,8.54
            S3,Gare du Nord,GDN,,48.88,2.35
            S4,Antakalnis,,near Žirmūnai,54.71,25.31
            S5,Søndre Åsen,,,59.9,10.7
            S6,Dworzec Główny,,,53.13,18.0
            S7,Große Straße,,,52.5,13.4
            S8,甲府駅バスターミナル(4番),,,35.66,138.57
            S9,甲府駅北口,,,35.67,138.57
            S10,ตลาดนัดจตุจักร,,,13.8,100.55

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
        #expect(try matching("sondre asen") == ["S5"], "ø folds to o")
        #expect(try matching("søndre asen") == ["S5"])
        #expect(try matching("dworzec glowny") == ["S6"], "ł folds to l")
        #expect(try matching("Dworzec Główny") == ["S6"])
        #expect(try matching("DWORZEC GŁÓW") == ["S6"])
        #expect(try matching("strasse") == ["S7"], "ß folds to ss")
        #expect(try matching("große straße") == ["S7"])
        #expect(try matching("gare du n") == ["S3"])
        #expect(try matching("gdn") == ["S3"], "codes are searched")
        #expect(try matching("hauptbahn") == ["S2"], "descriptions are searched")
        #expect(try matching("nord gare") == [], "a phrase: words in order")
        #expect(try matching("\") OR *") == [], "typed punctuation is not query syntax")
        #expect(try matching("x") == [])
        #expect(try matching("bahnhof") == [], "inside a word only for scripts written without spaces")
        #expect(try matching("バスターミナル") == ["S8"], "inside a Japanese name")
        #expect(try matching("北口") == ["S9"], "two characters inside a name")
        #expect(try matching("駅北") == ["S9"])
        #expect(try matching("北バス") == [], "letters in order, next to each other")
        #expect(Set(try matching("甲府駅")) == ["S8", "S9"], "a prefix: a word match")
        #expect(try matching("จตุจักร") == ["S10"], "inside a Thai name")
        #expect(try matching("\"北口") == ["S9"], "a typed quote is not query syntax")
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
