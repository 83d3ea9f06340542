import Foundation
import SeedSQLite
import SeedTestSupport
import Testing

@Suite("seedgen build, run as a user would")
struct BuildCommandTests {
    @Test("builds the bundled Cairns feed and prints a summary")
    func cairns() throws {
        let scratch = TemporaryFolder()
        let result = try SeedgenTool.run(["build", "examples/cairns", "--out", scratch.file("cairns.sqlite")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("stop_times") && result.stdout.contains("37,790"))
        #expect(result.stdout.contains("36 tables, 65,660 rows"))
        #expect(result.stderr.isEmpty, "no progress display when not on a terminal")
        let db = try Connection(path: scratch.file("cairns.sqlite"), mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM stop_times") == .integer(37_790))
    }

    @Test("on a terminal, a progress line per file, then the summary", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressOnTerminal() throws {
        let scratch = TemporaryFolder()
        // script(1) runs seedgen on a pseudo-terminal, as a person at a shell would.
        let command = "\(SeedgenTool.path) build examples/cairns --out \(scratch.file("s.sqlite"))"
        let result = try ChildProcess.run("/usr/bin/script", ["-qec", command, "/dev/null"])
        let screen = result.stdout
        #expect(result.status == 0)
        #expect(screen.contains("stop_times.txt → stop_times"))
        #expect(screen.contains("stop_times.txt → stop_times: 37,790 rows"))
        #expect(screen.contains("\u{1B}[K"), "the line is redrawn in place")
        #expect(screen.contains("36 tables, 65,660 rows"))
    }

    @Test("--quiet prints nothing on success")
    func quiet() throws {
        let scratch = TemporaryFolder()
        let result = try SeedgenTool.run(["build", "examples/cairns_gtfs.zip", "--out", scratch.file("s.sqlite"), "--quiet"])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
    }

    @Test("--timings prints each stage's wall and CPU time and peak memory, in order, and their total")
    func timings() throws {
        let scratch = TemporaryFolder()
        let result = try SeedgenTool.run(["build", "examples/cairns_gtfs.zip", "--out", scratch.file("s.sqlite"), "--quiet", "--timings"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let stages = lines.map { $0.prefix { !"0123456789".contains($0.first!) }.joined(separator: " ") }
        // The checks of a feed that loaded without errors run beside the digest, on another thread.
        #expect(stages == ["prepare", "load", "stable ids", "derive", "feeds", "index", "digest", "checks", "finish", "total"], "\(result.stdout)")
        let beside = lines.map { $0.joined(separator: " ").hasSuffix("MB peak (beside digest, on another thread)") }
        #expect(beside == stages.map { $0 == "checks" }, "\(result.stdout)")
        // Per line: wall "s", CPU "CPU-s", peak "MB peak"; the total adds the stages up (the wall time of
        // a stage beside another is within that one's), its peak is the last one's.
        let figures = lines.map { line in line.compactMap { Double($0) } }
        try #require(figures.allSatisfy { $0.count == 3 }, "\(result.stdout)")
        let walls = figures.dropLast().map { $0[0] }, cpus = figures.dropLast().map { $0[1] }
        let peaks = figures.dropLast().map { $0[2] }
        let digest = try #require(stages.firstIndex(of: "digest")), checks = try #require(stages.firstIndex(of: "checks"))
        #expect(abs(walls.reduce(0, +) - walls[checks] - figures.last![0]) < 0.05)
        #expect(abs(cpus.reduce(0, +) - figures.last![1]) < 0.05)
        #expect(walls[checks] <= walls[digest] + 0.01, "the checks ran within the digest's time")
        #expect(peaks == peaks.sorted() && peaks.last == figures.last![2] && peaks.last! > 1, "peak memory never goes down")
        #expect(walls[1] > 0, "loading Cairns takes time")
        #expect(cpus[checks] > 0, "checking Cairns takes time")
    }

    @Test("bad input: exit code 1, the place on stderr, the old output kept")
    func badInput() throws {
        let scratch = TemporaryFolder()
        for (name, text) in [
            "agency.txt": "agency_name,agency_url,agency_timezone\nA,http://a,UTC\n",
            "stops.txt": "stop_id,stop_name\nS1,One\n",
            "routes.txt": "route_id,route_type\nR1,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,one\n",
        ] { scratch.write("feed/" + name, text) }
        scratch.write("seed.sqlite", "old")
        let result = try SeedgenTool.run(["build", scratch.file("feed"), "--out", scratch.file("seed.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("stop_times.txt:2:25: stop_sequence: 'one' is not a valid integer"))
        #expect(result.stderr.contains("no seed was written"))
        #expect(try String(contentsOfFile: scratch.file("seed.sqlite"), encoding: .utf8) == "old")
        #expect(scratch.contents == ["feed", "seed.sqlite"])
    }

    @Test("a date that does not exist says so, and how to build anyway; an error --lenient does not lift has no such hint")
    func missingDay() throws {
        let scratch = TemporaryFolder()
        try FileManager.default.copyItem(atPath: Repository.path("examples/cairns"), toPath: scratch.file("feed"))
        let calendar = try String(contentsOfFile: scratch.file("feed/calendar.txt"), encoding: .utf8)
        let row = "CNS2014-CNS_MUL-Weekday-00,1,1,1,1,1,0,0,20140526,"
        #expect(calendar.contains(row + "20141226\r\n"))
        scratch.write("feed/calendar.txt", calendar.replacingOccurrences(of: row + "20141226\r\n", with: row + "20140931\r\n"))
        let result = try SeedgenTool.run(["build", scratch.file("feed"), "--out", scratch.file("seed.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("calendar.txt:2:51: end_date: '20140931' is not a valid date: 31 September does not exist [invalid_date]"),
                "\(result.stderr)")
        // The counts by code end the error (calendar.txt had an error: no date-relative rule ran).
        #expect(result.stderr.hasSuffix("""
            1 error; no seed was written.
            errors: invalid_date 1; warnings: missing_recommended_field 23, missing_recommended_file 1, stop_too_far_from_shape 5
            To build the seed anyway, add --lenient: each of these errors becomes a warning, its value stored as NULL \
            (or kept as written) or its row left out (counted in the summary).

            """))
        #expect(try SeedgenTool.run(["build", scratch.file("feed"), "--out", scratch.file("seed.sqlite"), "--lenient", "--quiet"]).status == 0)

        try FileManager.default.removeItem(atPath: scratch.file("feed/trips.txt"))
        let missing = try SeedgenTool.run(["build", scratch.file("feed"), "--out", scratch.file("seed.sqlite")])
        #expect(missing.status == 1 && missing.stderr.contains("trips.txt") && !missing.stderr.contains("--lenient"), "\(missing.stderr)")
    }

    @Test("a folder of feed folders names the feeds below it and the command that builds them as one region seed")
    func folderOfFeedFolders() throws {
        let scratch = TemporaryFolder()
        for city in ["lima", "oslo", "pune"] {
            try FileManager.default.createDirectory(atPath: scratch.file("world/\(city)"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Repository.path("examples/cairns"), toPath: scratch.file("world/\(city)/feed"))
        }
        scratch.write("world/SOURCES.tsv", "city\turl\n")
        let expected = "world: schema error: no schema: the folder is not a feed itself, but holds 3 feed folders below it "
            + "(lima/feed, oslo/feed, pune/feed); build them as one region seed: seedgen build world/*/feed --out region.sqlite\n"
        let result = try SeedgenTool.run(["build", "world", "--out", "region.sqlite"], in: scratch.path)
        #expect(result.status == 1 && result.stderr == expected, "\(result.stderr)")
        // Without SOURCES.tsv, world/ holds only folders: a feed each, each with no files of its own.
        try FileManager.default.removeItem(atPath: scratch.file("world/SOURCES.tsv"))
        let folders = try SeedgenTool.run(["build", "world/", "--out", "region.sqlite"], in: scratch.path)
        #expect(folders.status == 1 && folders.stderr == "world/" + expected.dropFirst(5), "\(folders.stderr)")
        let region = try SeedgenTool.run(["build", "world/lima/feed", "world/oslo/feed", "--out", "region.sqlite", "--quiet"], in: scratch.path)
        #expect(region.status == 0, "\(region.stderr)")
    }

    @Test("--lenient builds past data errors and prints what it left out; --strict fails on repaired syntax")
    func lenientAndStrict() throws {
        let scratch = TemporaryFolder()
        for (name, text) in [
            "agency.txt": "agency_name,agency_url,agency_timezone\nA,\"http://a\" ,UTC\n",
            "stops.txt": "stop_id,stop_name\nS1,One\n",
            "routes.txt": "route_id,route_type\nR1,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,one\nT1,08:00:00,08:00:00,S1,2\n",
        ] { scratch.write("feed/" + name, text) }
        let strict = try SeedgenTool.run(["build", scratch.file("feed"), "--out", scratch.file("seed.sqlite")])
        #expect(strict.status == 1 && strict.stderr.contains("'one' is not a valid integer"))
        let lenient = try SeedgenTool.run(["build", scratch.file("feed"), "--out", scratch.file("seed.sqlite"), "--lenient"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stdout.contains("stop_times.txt:2:25: stop_sequence: 'one' is not a valid integer: expected a whole number; the row is left out"))
        #expect(lenient.stdout.contains("agency.txt:2:3: '\"http://a\" ' text after a closing quote is kept in the value"))
        #expect(lenient.stdout.contains("stop_times                       1  (1 rejected)"), "\(lenient.stdout)")
        let inspected = try SeedgenTool.run(["inspect", scratch.file("seed.sqlite"), "--json"])
        let inputs = try #require((try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any])?["inputs"] as? [[String: Any]])
        #expect(inputs.first { $0["name"] as? String == "stop_times.txt" }?["rejected"] as? Int == 1)
        #expect(try SeedgenTool.run(["inspect", scratch.file("seed.sqlite")]).stdout.contains("(1 rejected)"))
        let both = try SeedgenTool.run(["build", scratch.file("feed"), "--out", scratch.file("seed.sqlite"), "--lenient", "--strict"])
        #expect(both.status == 1 && both.stderr.contains("agency.txt:2:3: unexpected character after a closing quote"), "\(both.stderr)")
        let help = try SeedgenTool.run(["build", "--help"])
        #expect(help.stdout.contains("--lenient") && help.stdout.contains("--strict") && help.stdout.contains("seedgen_inputs.rejected"))
    }

    @Test("a missing input and a missing output folder are clear errors")
    func missingPaths() throws {
        let missingInput = try SeedgenTool.run(["build", "no/such/feed", "--out", "/tmp/x.sqlite"])
        #expect(missingInput.status != 0 && missingInput.stderr.contains("no/such/feed: no such file or folder"))
        let missingFolder = try SeedgenTool.run(["build", "examples/cairns", "--out", "/no/such/folder/x.sqlite"])
        #expect(missingFolder.status != 0 && missingFolder.stderr.contains("does not exist"))
    }

    @Test("--help teaches the lookup order and shows examples")
    func help() throws {
        let result = try SeedgenTool.run(["build", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("seedgen.yaml") && result.stdout.contains("Examples:"))
    }
}

@Suite("seedgen build --notices, run as CI would")
struct NoticesCommandTests {
    @Test("the sample feed builds with its short rows reported; --notices writes every notice, also when the build fails")
    func notices() throws {
        let scratch = TemporaryFolder()
        let sample = "Tests/Fixtures/gtfs/sample-feed"
        let built = try SeedgenTool.run(["build", sample, "--out", scratch.file("s.sqlite"), "--notices", scratch.file("n.json"), "--today", "2026-06-01"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.contains("stop_times.txt: 13 × repaired CSV syntax [invalid_row_length]; first 5:"), "\(built.stdout)")
        #expect(built.stdout.contains("stop_times.txt:17:40: 'AB2,12:15:00,12:15:00,BEATTY_AIRPORT,2' has 5 fields, the header has 9"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.file("n.json")))) as? [String: Any])
        #expect(report["built"] as? Bool == true && report["today"] as? String == "2026-06-01")
        #expect(report["counts"] as? [String: Int] == ["invalid_row_length": 13, "expired_calendar": 2, "missing_recommended_file": 1, "missing_recommended_field": 2,
                                                      "trip_coverage_not_active_for_next7_days": 1], "\(report)")

        for (name, text) in [
            "agency.txt": "agency_name,agency_url,agency_timezone\nA,http://a,Nowhere/Nowhere\n",
            "stops.txt": "stop_id,stop_name\nS1,One\n",
            "routes.txt": "route_id,route_type\nR1,3\n",
            "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH1\n",
            "calendar_dates.txt": "service_id,date,exception_type\nWD,20260101,1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\n",
        ] { scratch.write("feed/" + name, text) }
        let failed = try SeedgenTool.run(["build", scratch.file("feed"), "--out", scratch.file("f.sqlite"), "--notices", scratch.file("f.json"), "--today", "2026-01-01"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("trips.txt:2:10: shape_id: 'SH1' names no shape_id in shapes.txt"), "\(failed.stderr)")
        let failure = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.file("f.json")))) as? [String: Any])
        #expect(failure["built"] as? Bool == false)
        #expect(failure["counts"] as? [String: Int] == ["foreign_key_violation": 1, "invalid_timezone": 1, "missing_recommended_file": 1, "missing_recommended_field": 2,
                                                       "route_both_short_and_long_name_missing": 1, "stop_without_location": 1,
                                                       "trip_coverage_not_active_for_next7_days": 1, "unusable_trip": 1], "\(failure)")
        #expect(failed.stderr.contains("no seed was written.\nerrors: foreign_key_violation 1; warnings: invalid_timezone 1, missing_recommended_field 2, missing_recommended_file 1, "
                                           + "route_both_short_and_long_name_missing 1, stop_without_location 1, "
                                           + "trip_coverage_not_active_for_next7_days 1, unusable_trip 1\n"), "\(failed.stderr)")
        let badDay = try SeedgenTool.run(["build", sample, "--out", scratch.file("d.sqlite"), "--today", "2026-02-30"])
        #expect(badDay.status != 0 && badDay.stderr.contains("--today needs a date as YYYY-MM-DD"), "\(badDay.stderr)")
        let notices = try #require(failure["notices"] as? [[String: Any]])
        #expect(notices.contains { $0["code"] as? String == "invalid_timezone" && $0["severity"] as? String == "WARNING" && $0["line"] as? Int == 2
                    && $0["column"] as? Int == 12 && $0["field"] as? String == "agency_timezone" && $0["value"] as? String == "Nowhere/Nowhere" })
        #expect(!FileManager.default.fileExists(atPath: scratch.file("f.sqlite")))

        let help = try SeedgenTool.run(["build", "--help"])
        #expect(help.stdout.contains("--notices") && help.stdout.contains("foreign_key_violation"))
        let same = try SeedgenTool.run(["build", sample, "--out", scratch.file("s.sqlite"), "--notices", scratch.file("s.sqlite")])
        #expect(same.status != 0 && same.stderr.contains("--notices"))
    }
}
