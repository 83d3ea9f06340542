import Foundation
import SeedTestSupport
import Testing

/// `seedgen report` and `seedgen build --report`, each page opened in headless Chromium by
/// scripts/report-check.py: no console message, nothing fetched, the stops' dots and the
/// calendar's days as the seed has them, and a screenshot in .build/report-screenshots/.
@Suite("Report command in Chromium", .serialized)
struct ReportCommandTests {
    static let screenshots = Repository.path(".build/report-screenshots")

    /// Runs scripts/report-check.py on `report`; returns what it checked (its JSON line).
    @discardableResult
    static func check(_ report: String, seed: String, name: String, diff: String? = nil) throws -> [String: Any] {
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        #expect(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
            "Chromium is missing: make test-deps installs it")
        var arguments = [
            Repository.path("scripts/report-check.py"), report, "--seed", seed, "--screenshot",
            screenshots + "/\(name).png",
        ]
        if let diff { arguments += ["--diff-json", diff] }
        let result = try ChildProcess.run("/usr/bin/python3", arguments, timeout: .seconds(300))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func seedgen(_ arguments: [String]) throws -> String {
        let result = try SeedgenTool.run(arguments)
        #expect(result.status == 0, "seedgen \(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout
    }

    @Test("Cairns, written by build --report with the build's notices", .realData("gtfs-cairns-2014/feed"))
    func cairns() throws {
        let scratch = TemporaryFolder()
        let seed = scratch.file("cairns.sqlite"), report = scratch.file("cairns.html")
        let out = try Self.seedgen([
            "build", RealData.path("gtfs-cairns-2014/feed"), "--out", seed, "--report", report, "--quiet",
        ])
        #expect(out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: report + ".notices.json"), "the notices kept for the page")
        let facts = try Self.check(report, seed: seed, name: "cairns")
        #expect(facts["stop_marks"] as? Int == 416)
        #expect(facts["calendar_dates_checked"] as? Int == 3)
        let html = try String(contentsOfFile: report, encoding: .utf8)
        for section in ["summary", "map", "calendar", "notices", "changes", "samples"] {
            #expect(html.contains("<section id=\"\(section)\""), "section \(section)")
        }
        #expect(html.contains("0 errors, 34 warnings in 5 codes"), "the build's notices: Cairns has best-practice warnings")

        // Notices grouped by severity and code, errors first, each with its meaning and first rows.
        let notices = scratch.write(
            "notices.json",
            """
            {"built": false, "errors": 2, "warnings": 1, "counts": {}, "notices": [
              {"code": "unknown_column", "severity": "WARNING", "file": "stops.txt", "line": 1, "column": 9,
               "field": "platform", "value": null, "message": "not read"},
              {"code": "foreign_key_violation", "severity": "ERROR", "file": "trips.txt", "line": 7, "column": 2,
               "field": "route_id", "value": "R<9>", "message": "no route R<9>"},
              {"code": "foreign_key_violation", "severity": "ERROR", "file": "trips.txt", "line": 8, "column": 2,
               "field": "route_id", "value": "R10", "message": "no route R10"}]}
            """)
        let grouped = scratch.file("grouped.html")
        _ = try Self.seedgen(["report", seed, "--notices", notices, "--out", grouped, "--quiet"])
        let page = try String(contentsOfFile: grouped, encoding: .utf8)
        let error = try #require(page.range(of: "<td>ERROR</td><td>foreign_key_violation</td><td class=\"num\">2</td>"))
        let warning = try #require(page.range(of: "<td>WARNING</td><td>unknown_column</td><td class=\"num\">1</td>"))
        #expect(error.lowerBound < warning.lowerBound)
        #expect(page.contains("A reference to a row that does not exist."))
        #expect(page.contains("<td>R&lt;9&gt;</td>"))
        #expect(page.contains("the build failed"))
        try Self.check(grouped, seed: seed, name: "cairns-notices")
    }

    /// The ten gtfs-world feeds in one region seed (--lenient: udine has an impossible date): a
    /// map and a calendar per feed, and the build's notices grouped by code.
    @Test("A region seed of the ten gtfs-world feeds: a map and a calendar per feed", .realData("gtfs-world/SOURCES.tsv"))
    func region() throws {
        let scratch = TemporaryFolder()
        let seed = scratch.file("region.sqlite"), report = scratch.file("region.html")
        let notices = scratch.file("notices.json")
        let sources = try String(contentsOfFile: RealData.path("gtfs-world/SOURCES.tsv"), encoding: .utf8)
        let names = sources.split(separator: "\n").dropFirst().compactMap { $0.split(separator: "\t").first }
        #expect(names.count == 10)
        let feeds = names.flatMap { ["--feed", "\($0)=" + RealData.path("gtfs-world/\($0)/feed")] }
        _ = try Self.seedgen(["build"] + feeds + ["--out", seed, "--lenient", "--notices", notices, "--quiet"])
        _ = try Self.seedgen(["report", seed, "--notices", notices, "--out", report, "--quiet"])
        let facts = try Self.check(report, seed: seed, name: "region")
        #expect(facts["maps"] as? Int == 10)
        #expect(facts["calendar_dates_checked"] as? Int ?? 0 >= 20, "\(facts)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("<h3>Feed zakroczym</h3>"))
        #expect(html.contains("<caption>Notices by severity and code</caption>"))

        // Against a previous seed of three of the feeds: the other feeds' stops are added, drawn
        // on their own feed's map.
        let old = scratch.file("old.sqlite"), changes = scratch.file("changes.html")
        let three = ["lagos-rail", "detroit-people-mover", "zakroczym"].flatMap {
            ["--feed", "\($0)=" + RealData.path("gtfs-world/\($0)/feed")]
        }
        _ = try Self.seedgen(["build"] + three + ["--out", old, "--quiet"])
        _ = try Self.seedgen(["report", seed, "--previous", old, "--out", changes, "--quiet"])
        let diff = scratch.write("diff.json", try Self.seedgen(["diff", old, seed, "--json"]))
        try Self.check(changes, seed: seed, name: "region-previous", diff: diff)
        let page = try String(contentsOfFile: changes, encoding: .utf8)
        let added = page.components(separatedBy: "<g class=\"added\" data-count=\"").dropFirst().compactMap {
            Int($0.prefix { $0.isNumber })
        }
        #expect(added.count == 10 && added.filter { $0 > 0 }.count == 7, "\(added)")
    }

    /// A stop far from all others is marked and listed as an outlier; a shape point off its
    /// route's stops is drawn dashed; names are escaped; a day without service is marked; the page
    /// of a small feed is small.
    @Test("Outliers, escaped names and days without service")
    func outliers() throws {
        let scratch = TemporaryFolder()
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Transit,http://a,UTC\n",
            "routes.txt": "route_id,agency_id,route_type,route_color\nR1,A,3,FF8800\n",
            "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WD,T1,S1\nR1,WD,T2,S2\n",
            // S2's second point is at the Station, among the other lines: no outlier of the map, but
            // off T2's route (Park and Harbour, some 2 km south).
            "shapes.txt": """
                shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
                S1,52.52,13.40,1
                S1,52.53,13.41,2
                S2,52.51,13.42,1
                S2,52.53,13.41,2
                S2,52.50,13.39,3

                """,
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                1,Main <Square>,52.52,13.40
                2,Station,52.53,13.41
                3,Park,52.51,13.42
                4,Harbour,52.50,13.39
                5,Lost at sea,10.0,-30.0

                """,
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,1,1
                T1,08:05:00,08:05:00,2,2
                T2,09:00:00,09:00:00,3,1
                T2,09:05:00,09:05:00,4,2

                """,
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                WD,1,1,1,1,1,0,0,20250106,20250119

                """,
            "calendar_dates.txt": "service_id,date,exception_type\nWD,20250108,2\n",
        ]
        for (name, text) in files { scratch.write("feed/\(name)", text) }
        let seed = scratch.file("seed.sqlite"), report = scratch.file("seed.html")
        _ = try Self.seedgen(["build", scratch.file("feed"), "--out", seed, "--quiet"])
        _ = try Self.seedgen(["report", seed, "--out", report, "--quiet"])
        let facts = try Self.check(report, seed: seed, name: "outliers")
        #expect(facts["stop_marks"] as? Int == 5)
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("<title>Main &lt;Square&gt;</title>"))
        #expect(html.components(separatedBy: "<circle class=\"o\"").count == 2, "one outlier")
        #expect(html.contains("<td>Lost at sea</td><td>10.0</td><td>-30.0</td>"))
        let lines = html.components(separatedBy: "\n").first { $0.contains("<g class=\"lines\"") }
        #expect(lines?.contains("data-outliers=\"1\"") == true, "\(lines ?? "no lines")")
        #expect(html.components(separatedBy: "<path class=\"off\"").count == 2, "S2 only, drawn dashed")
        #expect(html.contains("1 points of 1 lines are outliers or off their route"))
        // 2025-01-08 removed, the weekends without service: 14 days, 9 with 2 trips each.
        #expect(html.contains("data-date=\"2025-01-08\" data-services=\"0\" data-trips=\"0\""))
        #expect(html.contains("class=\"l4\" x=") && html.contains("class=\"l0 none x\""))
        #expect(facts["calendar_days"] as? Int == 14)
        #expect(html.utf8.count < 60_000)
    }

    /// The NeTEx fixtures hold no coordinates and no calendar: Entur's Nordic sample (shapes and
    /// a calendar) stands in for them; the OSM fixture's nodes are drawn as points.
    @Test(
        "A NeTEx seed (Nordic sample: shapes, calendar) and an OSM seed (fixture: nodes)",
        .realData("xml-transit/netex-nordic-flb/rb_flb-aggregated-netex.zip"))
    func netexAndOSM() throws {
        let scratch = TemporaryFolder()
        for (name, input) in [
            ("netex", RealData.path("xml-transit/netex-nordic-flb/rb_flb-aggregated-netex.zip")),
            ("osm", Repository.path("Tests/Fixtures/xml/osm")),
        ] {
            let seed = scratch.file("\(name).sqlite"), report = scratch.file("\(name).html")
            _ = try SeedgenTool.run(["build", input, "--out", seed, "--quiet", "--lenient"])
            #expect(FileManager.default.fileExists(atPath: seed), "\(name) seed")
            _ = try Self.seedgen(["report", seed, "--out", report, "--quiet"])
            let facts = try Self.check(report, seed: seed, name: name)
            let html = try String(contentsOfFile: report, encoding: .utf8)
            if name == "osm" {
                #expect((facts["layers"] as? [String: Int])?["node"] ?? 0 > 0, "\(facts)")
                #expect(html.contains("No service calendar: it needs the transit tables"))
            } else {
                #expect(html.contains("<g class=\"lines\" data-table=\"shapes\""))
                #expect(facts["calendar_dates_checked"] as? Int ?? 0 >= 2, "\(facts)")
            }
        }
    }

    /// Renfe's 03-17 against 03-16: the page's rows added, removed and changed per table equal
    /// `seedgen diff`'s (two builds of 60,000 stop_times: 28 s under load).
    @Test(
        "Renfe 03-17 with --previous 03-16 equals seedgen diff",
        .realData("gtfs-daily-renfe-ld/renfe-ld-2026-03-16.zip", "gtfs-daily-renfe-ld/renfe-ld-2026-03-17.zip"))
    func renfePrevious() throws {
        let scratch = TemporaryFolder()
        let old = scratch.file("0316.sqlite"), new = scratch.file("0317.sqlite"), report = scratch.file("renfe.html")
        for (day, seed) in [("16", old), ("17", new)] {
            _ = try Self.seedgen([
                "build", RealData.path("gtfs-daily-renfe-ld/renfe-ld-2026-03-\(day).zip"), "--out", seed, "--quiet",
            ])
        }
        let diff = scratch.write("diff.json", try Self.seedgen(["diff", old, new, "--json"]))
        _ = try Self.seedgen(["report", new, "--previous", old, "--out", report, "--quiet"])
        let facts = try Self.check(report, seed: new, name: "renfe-previous", diff: diff)
        let changed = try #require(facts["changed"] as? [String: [String: Int]])
        #expect(changed["trips"] != nil && changed["stop_times"] != nil, "\(changed)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains(" routes added</caption>") && html.contains(" stops removed</caption>"))
    }
}
