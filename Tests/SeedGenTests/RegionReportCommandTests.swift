import Foundation
import SeedSQLite
import SeedTestSupport
import Testing

/// Three tiny GTFS feeds whose ids overlap (each has stop `1` and trip `T1`), and a later
/// edition of `south`: stop 1 renamed, stop 3 gone, stop 4 new, trip T1 calling at 4 for 3.
private func writeFeeds(_ scratch: TemporaryFolder) {
    let agency = "agency_id,agency_name,agency_url,agency_timezone\nA,Transit,http://a,UTC\n"
    let routes = "route_id,agency_id,route_type\nR1,A,3\n"
    let trips = "route_id,service_id,trip_id\nR1,WD,T1\n"
    func stopTimes(_ stops: [String]) -> String {
        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
            + stops.enumerated().map { "T1,08:0\($0.offset):00,08:0\($0.offset):00,\($0.element),\($0.offset + 1)\n" }.joined()
    }
    let feeds: [String: [String: String]] = [
        "north": [
            "agency.txt": agency, "routes.txt": routes, "trips.txt": trips,
            "stops.txt": "stop_id,stop_name\n1,North One\n2,North Two\n",
            "stop_times.txt": stopTimes(["1", "2"]),
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20250101,20251231\n",
            "feed_info.txt": "feed_publisher_name,feed_publisher_url,feed_lang,feed_version\nNorth Transit,http://n,en,v7\n",
        ],
        "south": [
            "agency.txt": agency, "routes.txt": routes, "trips.txt": trips,
            "stops.txt": "stop_id,stop_name\n1,South One\n2,South Two\n3,South Three\n",
            "stop_times.txt": stopTimes(["1", "2", "3"]),
            "calendar_dates.txt": "service_id,date,exception_type\nWD,20250301,1\nWD,20250302,1\n",
        ],
        "south-2": [
            "agency.txt": agency, "routes.txt": routes, "trips.txt": trips,
            "stops.txt": "stop_id,stop_name\n1,South One Renamed\n2,South Two\n4,South Four\n",
            "stop_times.txt": stopTimes(["1", "2", "4"]),
            "calendar_dates.txt": "service_id,date,exception_type\nWD,20250301,1\nWD,20250302,1\n",
        ],
        "east": [
            "agency.txt": agency, "routes.txt": routes, "trips.txt": trips,
            "stops.txt": "stop_id,stop_name\n1,East One\n",
            "stop_times.txt": stopTimes(["1"]),
            "calendar_dates.txt": "service_id,date,exception_type\nWD,20250401,1\n",
        ],
    ]
    for (feed, files) in feeds {
        for (name, text) in files { scratch.write("\(feed)/\(name)", text) }
    }
}

/// Builds `feeds` (NAME=FOLDER) into `seed`; returns what `seedgen build` printed.
@discardableResult
private func build(_ scratch: TemporaryFolder, _ seed: String, _ feeds: [String]) throws -> String {
    let result = try SeedgenTool.run(["build"] + feeds.flatMap { ["--feed", $0.replacingOccurrences(of: "=", with: "=" + scratch.path + "/")] }
                                     + ["--out", scratch.file(seed)])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout
}

private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

private func lines(_ text: String) -> [String] { text.components(separatedBy: "\n") }

@Suite("A region seed's feeds in the build summary, inspect, verify and diff")
struct RegionReportCommandTests {
    @Test("the build summary lists each feed: name, rows, validity, source, then its biggest tables")
    func summary() throws {
        let scratch = TemporaryFolder()
        writeFeeds(scratch)
        let output = lines(try build(scratch, "region.sqlite", ["north=north", "south=south"]))
        let start = try #require(output.firstIndex(of: "  feeds:"), "\(output)")
        #expect(Array(output[start + 1 ... start + 5]) == [
            "    north  14 rows  2025-01-01 to 2025-12-31  source north",
            "           publisher North Transit, version v7",
            "           pattern_stops 2, service_days 2, stop_times 2, stops 2 and 6 more tables",
            "    south  16 rows  2025-03-01 to 2025-03-02  source south",
            "           pattern_stops 3, stop_times 3, stops 3, calendar_dates 2 and 5 more tables",
        ])
        // The feed block follows the table lines.
        #expect(output[start - 1].hasPrefix("  attributions "))

        let one = try build(scratch, "north.sqlite", ["north=north"])
        #expect(!one.contains("feeds"), "\(one)")
    }

    @Test("feeds named after their folders (gtfs/*/feed) record their path below the folder holding every feed")
    func sourceBelowCommonFolder() throws {
        let scratch = TemporaryFolder()
        writeFeeds(scratch)
        for feed in ["north", "south"] {
            try FileManager.default.createDirectory(atPath: scratch.file("world/\(feed)"), withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: scratch.file(feed), toPath: scratch.file("world/\(feed)/feed"))
        }
        let result = try SeedgenTool.run(["build", "world/north/feed", "world/south/feed", "--out", "region.sqlite"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(result.stdout).contains("    north  14 rows  2025-01-01 to 2025-12-31  source north/feed"), "\(result.stdout)")
        let sources = try Connection(path: scratch.file("region.sqlite")).rows("SELECT name, source FROM feeds ORDER BY id")
        #expect(sources.map { "\($0[0].description) \($0[1].description)" } == ["north north/feed", "south south/feed"])
        // Given from elsewhere, by absolute paths: the same seed.
        let again = try SeedgenTool.run(["build", scratch.file("world/north/feed"), scratch.file("world/south/feed"), "--out", scratch.file("again.sqlite")])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.contents(atPath: scratch.file("again.sqlite")) == FileManager.default.contents(atPath: scratch.file("region.sqlite")))
    }

    @Test("inspect lists the feeds with their rows per table, and --json has a feeds array; a seed of one feed has none")
    func inspect() throws {
        let scratch = TemporaryFolder()
        writeFeeds(scratch)
        try build(scratch, "region.sqlite", ["north=north", "south=south"])
        let text = try SeedgenTool.run(["inspect", scratch.file("region.sqlite")])
        #expect(text.status == 0, "\(text.stderr)")
        let output = lines(text.stdout)
        let start = try #require(output.firstIndex(of: "feeds"), "\(text.stdout)")
        #expect(Array(output[start + 1 ... start + 6]) == [
            "  north  14 rows  2025-01-01 to 2025-12-31  source north",
            "         publisher North Transit, version v7",
            "         pattern_stops 2, service_days 2, stop_times 2, stops 2, agency 1, calendar 1, feed_info 1, routes 1, trip_patterns 1, trips 1",
            "  south  16 rows  2025-03-01 to 2025-03-02  source south",
            "         pattern_stops 3, stop_times 3, stops 3, calendar_dates 2, agency 1, routes 1, service_days 1, trip_patterns 1, trips 1",
            "",
        ])

        let report = try json(try SeedgenTool.run(["inspect", scratch.file("region.sqlite"), "--json"]).stdout)
        let feeds = try #require(report["feeds"] as? [[String: Any]])
        #expect(feeds.map { $0["name"] as? String } == ["north", "south"])
        #expect(feeds[0]["source"] as? String == "north")
        #expect(feeds[0]["publisher"] as? String == "North Transit" && feeds[0]["version"] as? String == "v7")
        #expect(feeds[0]["startDate"] as? String == "2025-01-01" && feeds[0]["endDate"] as? String == "2025-12-31")
        #expect(feeds[1]["publisher"] == nil && feeds[1]["startDate"] as? String == "2025-03-01")
        #expect(feeds[1]["rows"] as? [String: Int] == ["agency": 1, "calendar_dates": 2, "routes": 1, "service_days": 1, "stop_times": 3, "stops": 3, "trips": 1,
                                                       "trip_patterns": 1, "pattern_stops": 3])
        // The rows of the feeds are the tables' rows.
        let tables = try #require(report["tables"] as? [String: Int])
        #expect(tables["stops"] == 5 && tables["stop_times"] == 5 && tables["feeds"] == 2)

        try build(scratch, "north.sqlite", ["north=north"])
        let one = try SeedgenTool.run(["inspect", scratch.file("north.sqlite"), "--json"])
        #expect(try json(one.stdout)["feeds"] == nil)
        #expect(try !lines(SeedgenTool.run(["inspect", scratch.file("north.sqlite")]).stdout).contains("feeds"))

        // Tables by name, in a region seed as in a seed of one feed (whose empty tables the build creates first).
        for seed in ["region.sqlite", "north.sqlite"] {
            let output = lines(try SeedgenTool.run(["inspect", scratch.file(seed)]).stdout)
            let start = try #require(output.firstIndex(of: "tables"))
            let rows = output[(start + 1)...].prefix { !$0.isEmpty }
            let names = rows.map { String($0.split(separator: " ")[0]) }
            #expect(names.count > 20 && names == names.sorted(), "\(seed): \(names)")
            if seed == "north.sqlite" { #expect(rows.contains { $0.hasPrefix("  agency ") && $0.contains(" 1 row ") }, "\(rows)") }
        }
    }

    @Test("verify checks each feed's row_counts against its rows, and every feed_ref against the feeds")
    func verify() throws {
        let scratch = TemporaryFolder()
        writeFeeds(scratch)
        try build(scratch, "region.sqlite", ["north=north", "south=south"])
        let passed = try SeedgenTool.run(["verify", scratch.file("region.sqlite")])
        #expect(passed.status == 0, "\(passed.stdout)")
        #expect(lines(passed.stdout).contains("ok   feed_rows north  (14 rows in 10 tables, as row_counts records)"), "\(passed.stdout)")
        #expect(lines(passed.stdout).contains("ok   feed_rows south  (16 rows in 9 tables, as row_counts records)"))
        let checks = try #require(try json(try SeedgenTool.run(["verify", scratch.file("region.sqlite"), "--json"]).stdout)["checks"] as? [[String: Any]])
        #expect(checks.filter { $0["name"] as? String == "feed_rows" }.map { $0["feed"] as? String } == ["north", "south"])

        // row_counts that lie about a table.
        try FileManager.default.copyItem(atPath: scratch.file("region.sqlite"), toPath: scratch.file("counts.sqlite"))
        try Connection(path: scratch.file("counts.sqlite")).execute("""
            UPDATE feeds SET row_counts = replace(row_counts, '"stops":3', '"stops":9') WHERE name = 'south'
            """)
        let counts = try SeedgenTool.run(["verify", scratch.file("counts.sqlite")])
        #expect(counts.status == 1)
        #expect(lines(counts.stdout).contains("FAIL feed_rows south: stops: row_counts says 9 rows of feed south, the seed has 3"), "\(counts.stdout)")
        #expect(lines(counts.stdout).contains("ok   feed_rows north  (14 rows in 10 tables, as row_counts records)"))
        #expect(lines(counts.stdout).contains("ok   foreign_key_check"))
        try Connection(path: scratch.file("counts.sqlite")).execute("UPDATE feeds SET row_counts = 'many' WHERE name = 'north'")
        let garbled = try SeedgenTool.run(["verify", scratch.file("counts.sqlite")])
        #expect(lines(garbled.stdout).contains("FAIL feed_rows north: row_counts is not a JSON object of table -> rows: \"many\""), "\(garbled.stdout)")

        // A row whose feed_ref names no feed.
        try FileManager.default.copyItem(atPath: scratch.file("region.sqlite"), toPath: scratch.file("orphan.sqlite"))
        try Connection(path: scratch.file("orphan.sqlite")).execute("""
            UPDATE stops SET feed_ref = 99 WHERE stop_id = '2' AND feed_ref = (SELECT id FROM feeds WHERE name = 'north')
            """)
        let orphan = try SeedgenTool.run(["verify", scratch.file("orphan.sqlite")])
        #expect(orphan.status == 1)
        #expect(lines(orphan.stdout).contains("FAIL foreign_key_check: 1 row in stops references missing feeds"), "\(orphan.stdout)")
        #expect(lines(orphan.stdout).contains("FAIL feed_rows north: stops: row_counts says 2 rows of feed north, the seed has 1"))

        // A seed of one feed has no feed checks.
        try build(scratch, "north.sqlite", ["north=north"])
        let one = try SeedgenTool.run(["verify", scratch.file("north.sqlite")])
        #expect(one.status == 0 && !one.stdout.contains("feed_rows"), "\(one.stdout)")
    }

    @Test("README's CI check (verify --schema Schema/transit.yaml) passes on a region seed and its .gz")
    func verifySchema() throws {
        let scratch = TemporaryFolder()
        writeFeeds(scratch)
        try build(scratch, "region.sqlite", ["north=north", "south=south"])
        #expect(try SeedgenTool.run(["pack", scratch.file("region.sqlite")]).status == 0)
        let matched = "ok   schema  (tables and columns match schema 'transit' v4 as a region seed (feeds, feed_ref))"
        for seed in ["region.sqlite", "region.sqlite.gz"] {
            let result = try SeedgenTool.run(["verify", scratch.file(seed), "--schema", "Schema/transit.yaml"])
            #expect(result.status == 0, "\(result.stdout)")
            #expect(lines(result.stdout).contains(matched), "\(result.stdout)")
        }
        // Built with --schema, checked against the built-in schema by name.
        let named = try SeedgenTool.run(["build", "--feed", "north=" + scratch.file("north"), "--feed", "east=" + scratch.file("east"),
                                         "--schema", "Schema/transit.yaml", "--out", scratch.file("named.sqlite"), "--quiet"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try SeedgenTool.run(["verify", scratch.file("named.sqlite"), "--schema", "transit"]).status == 0)
        // What a region does not add is still found.
        try Connection(path: scratch.file("named.sqlite")).execute("ALTER TABLE stops ADD COLUMN surprise TEXT")
        let changed = try SeedgenTool.run(["verify", scratch.file("named.sqlite"), "--schema", "Schema/transit.yaml"])
        #expect(changed.status == 1)
        #expect(lines(changed.stdout).contains("FAIL schema: stops.surprise is not in the schema"), "\(changed.stdout)")
    }

    @Test("diff matches feeds by name: a feed added, one removed, and one changed with its rows per table")
    func diff() throws {
        let scratch = TemporaryFolder()
        writeFeeds(scratch)
        // Ids differ: south is feed 2 in the old seed, feed 1 in the new one.
        try build(scratch, "old.sqlite", ["north=north", "south=south"])
        try build(scratch, "new.sqlite", ["south=south-2", "east=east"])
        let result = try SeedgenTool.run(["diff", scratch.file("old.sqlite"), scratch.file("new.sqlite")])
        #expect(result.status == 0, "\(result.stderr)")
        let output = lines(result.stdout)
        let start = try #require(output.firstIndex(of: "feeds"), "\(result.stdout)")
        #expect(Array(output[start + 1 ..< output.count]) == [
            "+ feed east (east): 7 rows",
            "- feed north (north): 14 rows",
            "~ feed south: 16 rows -> 16 rows, source south -> south-2",
            // A pattern's stops are stop ids, which the new seed numbers otherwise.
            "    pattern_stops  0 added, 0 removed, 3 changed; 3 rows -> 3 rows",
            "    stop_times     0 added, 0 removed, 1 changed; 3 rows -> 3 rows",
            "    stops          1 added, 1 removed, 1 changed; 3 rows -> 3 rows",
            "",
            "12 of 37 tables changed; feeds: 1 added, 1 removed, 1 changed, 0 unchanged",
            "",
        ])
        // Rows are matched within their feed: stop 1 of south is changed, not north's stop 1.
        #expect(output.contains("    changed: south/1"), "\(result.stdout)")

        let report = try json(try SeedgenTool.run(["diff", scratch.file("old.sqlite"), scratch.file("new.sqlite"), "--json"]).stdout)
        let feeds = try #require(report["feeds"] as? [[String: Any]])
        #expect(feeds.map { [$0["name"] as? String, $0["presence"] as? String] } == [["east", "added"], ["north", "removed"], ["south", "both"]])
        let south = try #require(feeds[2]["tables"] as? [String: [String: Int]])
        #expect(south["stops"] == ["oldRows": 3, "newRows": 3, "added": 1, "removed": 1, "changed": 1])
        #expect(south["trips"] == ["oldRows": 1, "newRows": 1, "added": 0, "removed": 0, "changed": 0])
        #expect((feeds[1]["tables"] as? [String: [String: Int]])?["stop_times"] == ["oldRows": 2, "newRows": 0, "added": 0, "removed": 2, "changed": 0])

        // Two seeds of one feed: no feeds, as before.
        try build(scratch, "north.sqlite", ["north=north"])
        let one = try SeedgenTool.run(["diff", scratch.file("north.sqlite"), scratch.file("north.sqlite"), "--json"])
        #expect(try json(one.stdout)["feeds"] == nil)
        #expect(try !lines(SeedgenTool.run(["diff", scratch.file("north.sqlite"), scratch.file("north.sqlite")]).stdout).contains("feeds"))
    }
}
