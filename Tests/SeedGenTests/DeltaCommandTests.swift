import Foundation
import SeedSQLite
import SeedTestSupport
import Testing

/// Issue 19 end to end: `seedgen build --previous`, `seedgen delta`, `seedgen install DELTA`.
@Suite("seedgen delta")
struct DeltaCommandTests {
    let scratch = TemporaryFolder()

    /// A small feed; `day` replaces trip T2 by T3 and renames a stop.
    func writeFeed(_ name: String, day: Int) {
        let trip = day == 1 ? "T2" : "T3"
        scratch.write("\(name)/agency.txt", "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,http://a.example,Europe/Berlin\n")
        scratch.write("\(name)/stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.4\nS2,\(day == 1 ? "Two" : "Two Bis"),52.6,13.5\n")
        scratch.write("\(name)/routes.txt", "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\n")
        scratch.write("\(name)/calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20260101,20261231\n")
        scratch.write("\(name)/trips.txt", "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,\(trip)\n")
        scratch.write("\(name)/stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\n\(trip),09:00:00,09:00:00,S2,1\n\(trip),09:10:00,09:10:00,S1,2\n")
    }

    /// The content digest a seed records.
    func recordedDigest(_ seed: String) throws -> String? {
        try Connection(path: seed, mode: .readOnly).scalar("SELECT value FROM seedgen_metadata WHERE key = 'content_sha256'")?.text
    }

    @Test("build --previous, delta, install: the installed seed gets the new one's content (its content digest, which verify checks)")
    func deltaFlow() throws {
        writeFeed("day1", day: 1)
        writeFeed("day2", day: 2)
        let one = scratch.file("one.sqlite"), two = scratch.file("two.sqlite"), delta = scratch.file("one-two.delta")
        #expect(try SeedgenTool.run(["build", scratch.file("day1"), "--out", one, "-q"]).status == 0)
        let built = try SeedgenTool.run(["build", scratch.file("day2"), "--previous", one, "--out", two, "-q"])
        #expect(built.status == 0, "\(built.stderr)")

        let written = try SeedgenTool.run(["delta", one, two, "--out", delta])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.contains("trips: 1 removed, 1 added, 0 changed"), "\(written.stdout)")
        #expect(written.stdout.contains("stops: 0 removed, 0 added, 1 changed"), "\(written.stdout)")
        let newDigest = try #require(try recordedDigest(two)), oldDigest = try #require(try recordedDigest(one))
        #expect(written.stdout.contains("verified:") && written.stdout.contains("gives the new seed's content \(newDigest)"), "\(written.stdout)")
        #expect(!written.stdout.contains("service_days") && !written.stdout.contains("stops_search") && !written.stdout.contains("shapes_rtree"),
                "what the seed derives is not in the delta: \(written.stdout)")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.contains(".seedgen-") }
        #expect(left.isEmpty, "no scratch file (the spools, the stored body, the check's copy) is left: \(left)")
        // Checked, the body is written stored and deflated on another thread: the same bytes as
        // deflated while written.
        let unchecked = scratch.file("unchecked.delta")
        #expect(try SeedgenTool.run(["delta", one, two, "--out", unchecked, "--no-verify", "-q"]).status == 0)
        #expect(FileManager.default.contents(atPath: unchecked) == FileManager.default.contents(atPath: delta))
        // `head` shows which seeds it joins: format 2, by content digest.
        let head = String(decoding: try #require(FileManager.default.contents(atPath: delta)).prefix(400), as: UTF8.self)
        #expect(head.hasPrefix("seedgen-delta 2\n") && head.contains("\nfrom-content-sha256=\(oldDigest)\n") && head.contains("\nto-content-sha256=\(newDigest)\n"), "\(head)")

        let destination = scratch.file("installed/seed.sqlite")
        #expect(try SeedgenTool.run(["install", one, "--to", destination]).status == 0)
        let patched = try SeedgenTool.run(["install", delta, "--to", destination])
        #expect(patched.status == 0 && patched.stdout.hasPrefix("patched seed-version="), "\(patched.stdout) \(patched.stderr)")
        // The new seed's content: it records the new digest, and verify (which computes it
        // again) passes; the file itself is this SQLite's, not the builder's bytes.
        #expect(try recordedDigest(destination) == newDigest)
        let verified = try SeedgenTool.run(["verify", destination, "--json"])
        let checks = try #require(try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])["checks"] as? [[String: Any]]
        let content = checks?.first { $0["name"] as? String == "content_digest" }
        #expect(content?["passed"] as? Bool == true && content?["detail"] as? String == newDigest, "\(verified.stdout)")
        #expect(checks?.filter { $0["passed"] as? Bool != true && $0["name"] as? String != "vacuumed" }.isEmpty == true,
                "only free pages may be left (no VACUUM on the device): \(verified.stdout)")
        let inspected = try SeedgenTool.run(["inspect", destination, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any])
        #expect(report["contentSha256"] as? String == newDigest, "\(inspected.stdout)")
        let search = try Connection(path: destination, mode: .readOnly).scalar("SELECT count(*) FROM stops_search WHERE stops_search MATCH 'bis'")?.integer
        #expect(search == 1, "the renamed stop is found: the search index was derived again")

        // Installing it again: up to date. On another seed: refused, exit 1, nothing changed.
        #expect(try SeedgenTool.run(["install", delta, "--to", destination]).stdout.hasPrefix("up-to-date"))
        // Another seed: day 2 built without --previous (other ids, another seed version).
        let fresh = scratch.file("fresh.sqlite"), other = scratch.file("other/seed.sqlite")
        #expect(try SeedgenTool.run(["build", scratch.file("day2"), "--out", fresh, "-q"]).status == 0)
        #expect(try SeedgenTool.run(["install", fresh, "--to", other]).status == 0)
        let refused = try SeedgenTool.run(["install", delta, "--to", other])
        #expect(refused.status == 1 && refused.stderr.contains("delta-base-mismatch"), "\(refused.stderr)")
        #expect(FileManager.default.contents(atPath: other) == FileManager.default.contents(atPath: fresh))

        // The new seed, installed in full where the delta was applied: the same content, so up
        // to date (a manifest names the content; the file SHA-256s differ).
        let packed = scratch.file("two.sqlite.gz")
        #expect(try SeedgenTool.run(["pack", two, "--out", packed]).status == 0)
        let full = try SeedgenTool.run(["install", packed, "--to", destination])
        #expect(full.status == 0 && full.stdout.hasPrefix("up-to-date"), "\(full.stdout) \(full.stderr)")
    }

    @Test("refusals: no seed, another schema; the delta's output is left untouched")
    func refusals() throws {
        writeFeed("day1", day: 1)
        let one = scratch.file("one.sqlite")
        #expect(try SeedgenTool.run(["build", scratch.file("day1"), "--out", one, "-q"]).status == 0)
        let schema = try String(contentsOfFile: Repository.path("Schema/transit.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "schemaVersion: 4", with: "schemaVersion: 7")
        let other = scratch.file("other.sqlite")
        let built = try SeedgenTool.run(["build", scratch.file("day1"), "--schema", scratch.write("transit7.yaml", schema), "--out", other, "-q"])
        #expect(built.status == 0, "\(built.stderr)")

        let existing = scratch.write("out.delta", "previous content")
        let refused = try SeedgenTool.run(["delta", one, other, "--out", existing])
        #expect(refused.status == 1 && refused.stderr.contains("a schema change gives no delta; ship the full seed"), "\(refused.stderr)")
        let notASeed = try SeedgenTool.run(["delta", one, scratch.file("day1/stops.txt"), "--out", existing])
        #expect(notASeed.status == 1 && notASeed.stderr.contains("stops.txt"), "\(notASeed.stderr)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "previous content")

        let previous = try SeedgenTool.run(["build", scratch.file("day1"), "--previous", other, "--out", scratch.file("x.sqlite"), "-q"])
        #expect(previous.status == 1 && previous.stderr.contains("--previous") && previous.stderr.contains("version 7"), "\(previous.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x.sqlite")))
    }
}
