import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Builds the minimal feed with `changes` over an existing output and expects failure:
/// returns the issues, after checking the output was left exactly as it was.
func failingBuild(_ changes: [String: String?], allowDangling: Bool = false, strict: Bool = false) throws -> [BuildIssue] {
    let folder = TemporaryFolder()
    MinimalFeed.write(into: folder, changes)
    let output = folder.write("seed.sqlite", "previous seed")
    do {
        _ = try SeedBuilder(options: BuildOptions(inputs: [folder.file("feed")], output: output, allowDangling: allowDangling, strict: strict)).build()
        Issue.record("the build should have failed")
        return []
    } catch {
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous seed", "the previous output is untouched")
        #expect(folder.contents == ["feed", "seed.sqlite"], "no scratch file is left")
        return error.issues
    }
}

@Suite("Bad input fails the build, names the place and keeps the old output")
struct BadInputTests {
    @Test("with --strict, a malformed row names file, line and column")
    func malformedRow() throws {
        let issues = try failingBuild(["stops.txt": "stop_id,stop_name\nS1,One\nS2,\"Two\" x\n"], strict: true)
        let issue = try #require(issues.first)
        #expect(issue.kind == .malformedRow)
        #expect(issue.file.hasSuffix("feed/stops.txt"))
        #expect(issue.line == 3 && issue.column == 4, "the character column where the offending field begins")
    }

    @Test("a row with too few fields is read with empty fields: a required one missing fails at its line")
    func shortRow() throws {
        let issues = try failingBuild(["trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD\n"])
        #expect(issues.contains { $0.kind == .repairedSyntax && $0.line == 3 && $0.message.contains("has 2 fields, the header has 3") })
        #expect(issues.contains { $0.kind == .missingValue && $0.line == 3 && $0.field == "trip_id" })
    }

    @Test("a value of the wrong type names file, line, column, field and value")
    func badValue() throws {
        let issues = try failingBuild(["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,8h10,08:10:00,S2,2\n"])
        let issue = try #require(issues.first)
        #expect(issue.kind == .invalidValue)
        #expect(issue.line == 3 && issue.column == 4 && issue.field == "arrival_time" && issue.value == "8h10")
        #expect(issue.description.contains("stop_times.txt:3:4: arrival_time: '8h10'"))
    }

    @Test("a missing required column is named")
    func missingColumn() throws {
        let issues = try failingBuild(["routes.txt": "route_id,agency_id,route_short_name\nR1,A,1\n"])
        #expect(issues.contains { $0.kind == .missingColumn && $0.field == "route_type" && $0.line == 1 })
    }

    @Test("a missing required file is named")
    func missingFile() throws {
        let issues = try failingBuild(["stop_times.txt": nil, "trips.txt": nil])
        #expect(Set(issues.filter { $0.kind == .missingFile }.map(\.file)) == ["stop_times.txt", "trips.txt"])
    }

    @Test("an empty required value is named")
    func missingValue() throws {
        let issues = try failingBuild(["trips.txt": "route_id,service_id,trip_id\nR1,,T1\nR1,WD,T2\n"])
        #expect(issues.contains { $0.kind == .missingValue && $0.line == 2 && $0.field == "service_id" })
    }

    @Test("a duplicate natural key is named with its value")
    func duplicateKey() throws {
        let issues = try failingBuild(["stops.txt": "stop_id,stop_name\nS1,One\nS2,Two\nS1,Again\n"])
        let issue = try #require(issues.first { $0.kind == .duplicateKey })
        #expect(issue.line == 4 && issue.value == "stop_id=S1")
    }

    @Test("dangling references are counted, with the first examples")
    func danglingReference() throws {
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for i in 1...12 { stopTimes += "T1,08:00:00,08:00:00,NOPE\(i),\(i)\n" }
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, ["stop_times.txt": stopTimes])
        do {
            _ = try SeedBuilder.build([folder.file("feed")], to: folder.file("seed.sqlite"))
            Issue.record("the build should have failed")
        } catch {
            guard error.code == .invalidInput, let log = error.issueLog else { Issue.record("unexpected \(error)"); return }
            let group = try #require(log.groups.first { $0.kind == .danglingReference })
            #expect(group.count == 12)
            #expect(group.examples.count == 5)
            #expect(group.examples[0].line == 2 && group.examples[0].value == "NOPE1" && group.examples[0].field == "stop_id")
            let report = error.description
            #expect(report.contains("12 × dangling reference (stop_id)"))
            #expect(report.components(separatedBy: "NOPE").count - 1 == 5, "grouped: only the first examples are printed")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("seed.sqlite")))
    }

    @Test("a dangling self-reference (parent_station) names its line")
    func danglingParent() throws {
        let issues = try failingBuild(["stops.txt": "stop_id,stop_name,parent_station\nS1,One,\nS2,Two,GONE\n"])
        #expect(issues.contains { $0.kind == .danglingReference && $0.line == 3 && $0.value == "GONE" })
    }

    @Test("--allow-dangling keeps such rows with a NULL reference")
    func allowDangling() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,NOPE,1\nT1,08:00:00,08:00:00,S1,2\n"])
        let summary = try SeedBuilder.build([folder.file("feed")], to: folder.file("seed.sqlite"), allowDangling: true)
        // The row kept, and the validator's best practice: no feed_info.txt, stop S2 served by no stop time,
        // trip T2 named by no stop time (unused_trip, and unusable_trip: fewer than two).
        #expect(summary.warnings == 5, "\(summary.warningReport)")
        #expect(summary.warningReport.contains("[unused_trip]"), "\(summary.warningReport)")
        #expect(summary.warningReport.contains("[stop_without_stop_time]") && summary.warningReport.contains("[missing_recommended_file]"))
        #expect(summary.warningReport.contains("stop_times.txt:2:22: stop_id: 'NOPE' names no stop_id in stops.txt; the row is kept, referring to nothing"))
        let db = try SeedSQLite.Connection(path: folder.file("seed.sqlite"), mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM stop_times WHERE stop_ref IS NULL") == 1)
        #expect(try db.int("SELECT count(*) FROM stop_times") == 2)
    }

    @Test("a corrupt zip is an input error")
    func corruptZip() throws {
        let folder = TemporaryFolder()
        var zip = Array(try Data(contentsOf: URL(fileURLWithPath: Repository.path("examples/cairns_gtfs.zip"))))
        for i in 5_000..<5_100 { zip[i] ^= 0x5A }
        let path = folder.write("feed.zip", bytes: zip)
        #expect { try SeedBuilder.build([path], to: folder.file("seed.sqlite")) } throws: { error in
            "\(error)".contains("feed.zip:")
        }
        #expect(folder.contents == ["feed.zip"])
    }
}
