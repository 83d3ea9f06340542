import Foundation
import SeedTestSupport
import Testing

/// A feed with one of nearly every notice the GTFS checks find, and two the loader finds in
/// the files (a short row, a stray quote): its seed's report without `--notices` shows the
/// checks' notices recomputed from the tables, each code with the count `seedgen build
/// --notices` wrote, and lists the loader's as not recomputed.
@Suite("Report notices recomputed from the seed", .serialized)
struct ReportNoticesCommandTests {
    static let today = "2026-03-20"

    static let files = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\n,Metro Transit,http://example.com,UTC\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,,Express Line Number One,3\n",
        "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WD,T1,\nR1,WD,T2,NOSHAPE\n",
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,stop_url,stop_timezone,platform
            S1,Main Square,52.52,13.40,http://example.com/s1,,1
            S2,CENTRAL STATION,52.53,13.41,not a url,,2
            S3,Park,52.51,13.42,,Mars/Olympus,
            S4,Unserved "North",52.50,13.39,,,

            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
            T1,08:00:00,08:00:00,S1,1,0
            T1,08:10:00,08:10:00,S2,2,5
            T1,08:05:00,08:06:00,S3,3,4
            T1,08:20:00,,S1,4,9
            T2,09:00:00,09:00:00,S1,-1,
            T2,09:10:00,09:10:00,S2,2,
            T2,09:20:00,09:20:00,S3,3

            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WD,1,1,1,1,1,0,0,20250101,20251231

            """,
    ]

    /// The notices report's counts by code (and by feed and code, for the notices that name one).
    static func counts(_ path: String) throws -> (byCode: [String: Int], byFeed: [String: Int]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let notices = try #require(json["notices"] as? [[String: Any]])
        var byCode: [String: Int] = [:], byFeed: [String: Int] = [:]
        for notice in notices {
            let code = try #require(notice["code"] as? String)
            byCode[code, default: 0] += 1
            if let feed = notice["feed"] as? String { byFeed[feed + " " + code, default: 0] += 1 }
        }
        #expect(byCode == (json["counts"] as? [String: Int]))
        return (byCode, byFeed)
    }

    /// The page's rows of `pattern` (captures: a key and a count).
    static func rows(_ html: String, _ pattern: String) throws -> [String: Int] {
        let regex = try NSRegularExpression(pattern: pattern)
        var found: [String: Int] = [:]
        for match in regex.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let groups = (1..<match.numberOfRanges).map { String(html[Range(match.range(at: $0), in: html)!]) }
            found[groups.dropLast().joined(separator: " ")] = Int(groups.last!.replacingOccurrences(of: ",", with: ""))
        }
        return found
    }

    /// The summary table's count of each code.
    static func summary(_ html: String) throws -> [String: Int] {
        try rows(html, "<tr><td>(?:ERROR|WARNING)</td><td>([a-z0-9_]+)</td><td class=\"num\">([0-9,]+)</td>")
    }

    /// The codes of the table of notices not recomputed.
    static func notRecomputed(_ html: String) throws -> Set<String> {
        let start = try #require(html.range(of: "<caption>Notices not recomputed from a seed</caption>"))
        let rest = html[start.upperBound...]
        let table = String(rest[..<(try #require(rest.range(of: "</table>"))).lowerBound])
        let regex = try NSRegularExpression(pattern: "<tr><td>([a-z0-9_]+)</td>")
        return Set(
            regex.matches(in: table, range: NSRange(table.startIndex..., in: table)).map {
                String(table[Range($0.range(at: 1), in: table)!])
            })
    }

    @Test("A seed of one feed: each recomputed code's count equals the build's notices")
    func oneFeed() throws {
        let scratch = TemporaryFolder()
        for (name, text) in Self.files { scratch.write("feed/\(name)", text) }
        let seed = scratch.file("seed.sqlite"), notices = scratch.file("notices.json")
        let report = scratch.file("report.html")
        _ = try ReportCommandTests.seedgen([
            "build", scratch.file("feed"), "--out", seed, "--notices", notices, "--today", Self.today,
            "--allow-dangling", "--quiet",
        ])
        _ = try ReportCommandTests.seedgen(["report", seed, "--out", report, "--today", Self.today, "--quiet"])
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("recomputed from the seed&#39;s tables, with --today \(Self.today)"))
        let built = try Self.counts(notices).byCode
        let page = try Self.summary(html)
        let skipped = try Self.notRecomputed(html)
        for code in ["invalid_row_length", "repaired_csv_syntax"] {
            #expect(built[code] ?? 0 > 0, "the fixture's \(code)")
            #expect(page[code] == nil && skipped.contains(code), "\(code) is listed as not recomputed")
        }
        let recomputable = built.filter { !skipped.contains($0.key) }
        #expect(recomputable.count == 15, "\(recomputable.keys.sorted())")
        #expect(page == recomputable, "page \(page) != build \(recomputable)")
        // Placed by table and row key, not by line.
        #expect(html.contains("<td>stops</td><td>stop_id &#39;S4&#39;</td><td>stop_id</td><td>S4</td>"))
        #expect(html.contains("<td>stop_times</td><td>trip_id &#39;T1&#39;, stop_sequence &#39;3&#39;</td>"))
        try ReportCommandTests.check(report, seed: seed, name: "recomputed-notices")

        // Another --today: the date-relative rules follow it.
        let before = scratch.file("before.html")
        _ = try ReportCommandTests.seedgen(["report", seed, "--out", before, "--today", "2025-06-02", "--quiet"])
        let earlier = try Self.summary(try String(contentsOfFile: before, encoding: .utf8))
        #expect(earlier["expired_calendar"] == nil && earlier["trip_coverage_not_active_for_next7_days"] == nil)
        #expect(earlier["stop_without_stop_time"] == 1)
        let refused = try SeedgenTool.run(["report", seed, "--out", before, "--today", "2025-02-30"])
        #expect(refused.status != 0 && refused.stderr.contains("--today needs a date"), "\(refused.stderr)")
    }

    @Test("A region seed: notices per feed, equal to the build's")
    func region() throws {
        let scratch = TemporaryFolder()
        for (name, text) in Self.files { scratch.write("feed/\(name)", text) }
        let seed = scratch.file("region.sqlite"), notices = scratch.file("notices.json")
        let report = scratch.file("region.html")
        _ = try ReportCommandTests.seedgen([
            "build", "--feed", "broken=" + scratch.file("feed"), "--feed", "cairns=" + Repository.path("examples/cairns"),
            "--out", seed, "--notices", notices, "--today", Self.today, "--allow-dangling", "--quiet",
        ])
        _ = try ReportCommandTests.seedgen(["report", seed, "--out", report, "--today", Self.today, "--quiet"])
        let html = try String(contentsOfFile: report, encoding: .utf8)
        let (built, builtByFeed) = try Self.counts(notices)
        let skipped = try Self.notRecomputed(html)
        #expect(try Self.summary(html) == built.filter { !skipped.contains($0.key) })
        let perFeed = try Self.rows(
            html, "<tr><td>(broken|cairns)</td><td>(?:ERROR|WARNING)</td><td>([a-z0-9_]+)</td><td class=\"num\">([0-9,]+)</td>")
        // A notice of a file the feed lacks (feed_info.txt) names no feed in the build's report.
        for (key, count) in builtByFeed where !skipped.contains(String(key.split(separator: " ")[1])) {
            #expect(perFeed[key] == count, "\(key)")
        }
        #expect(perFeed["cairns expired_calendar"] == 4 && perFeed["broken expired_calendar"] == 1, "\(perFeed)")
        try ReportCommandTests.check(report, seed: seed, name: "recomputed-notices-region")
    }

    @Test("A seed of another schema says why it has no recomputed notices")
    func otherSchema() throws {
        let scratch = TemporaryFolder()
        let seed = scratch.file("osm.sqlite"), report = scratch.file("osm.html")
        _ = try ReportCommandTests.seedgen([
            "build", Repository.path("Tests/Fixtures/xml/osm"), "--out", seed, "--quiet", "--lenient",
        ])
        _ = try ReportCommandTests.seedgen(["report", seed, "--out", report, "--quiet"])
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("no notices are recomputed: the GTFS checks apply to seeds of the transit schema"))
    }
}
