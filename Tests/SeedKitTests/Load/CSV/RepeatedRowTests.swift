import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// A build of the minimal feed with `changes`: whether it built, its notices (`--notices`)
/// and the seed.
private struct Build {
    var built: Bool
    var notices: [[String: Any]]
    var folder: TemporaryFolder

    init(_ changes: [String: String?], lenient: Bool = false, strict: Bool = false) throws {
        folder = TemporaryFolder()
        MinimalFeed.write(into: folder, changes)
        var options = BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite"), lenient: lenient, strict: strict)
        options.notices = folder.file("notices.json")
        do { _ = try SeedBuilder(options: options).build(); built = true } catch { built = false }
        let data = try #require(FileManager.default.contents(atPath: folder.file("notices.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        notices = report["notices"] as? [[String: Any]] ?? []
    }

    /// The notices of `code` in `file` (of the feed).
    func notices(_ code: String, in file: String) -> [[String: Any]] {
        notices.filter { $0["code"] as? String == code && $0["file"] as? String == folder.file("feed/" + file) }
    }

    var seed: Connection { get throws { try Connection(path: folder.file("seed.sqlite"), mode: .readOnly) } }

    /// `rows` and `rejected` of an input file in `seedgen_inputs`.
    func counts(_ file: String) throws -> [Int64] {
        try seed.rows("SELECT rows, rejected FROM seedgen_inputs WHERE name = ?", [.text(file)]).first?.compactMap(\.integer) ?? []
    }
}

private let fares = "fare_id,price,currency_type,payment_method,transfers\nF,1,EUR,0,\nG,2,EUR,0,\n"

@Suite("A row repeated whole is a copy: left out, one warning per file; the same key with other values is an error")
struct RepeatedRowTests {
    @Test("fare rules repeated whole build with no flags: kept once, one warning for the file with the count and the first two lines; --strict fails")
    func fareRules() throws {
        // Line 4 and 5 repeat line 2, line 6 repeats line 3 (padding aside: values are trimmed).
        let rules = "fare_id,route_id,origin_id,destination_id,contains_id\nF,R1,,,\nG,R1,,,\nF,R1,,,\n F , R1 ,,,\nG,R1,,,\n"
        let build = try Build(["fare_attributes.txt": fares, "fare_rules.txt": rules])
        #expect(build.built, "\(build.notices)")
        let notices = build.notices(NoticeCode.duplicateKey, in: "fare_rules.txt")
        #expect(notices.count == 1, "one notice for the file: \(notices)")
        let notice = try #require(notices.first)
        #expect(notice["severity"] as? String == "WARNING")
        #expect(notice["line"] as? Int == 4 && notice["column"] as? Int == 1)
        #expect(notice["field"] as? String == "fare_id+route_id+origin_id+destination_id+contains_id")
        #expect(notice["value"] as? String == "fare_id=F, route_id=R1, origin_id=, destination_id=, contains_id=")
        #expect(notice["message"] as? String == "repeats line 2 in every field: 3 rows of this file repeat an earlier row whole (this is the first); "
            + "each copy is left out, the row it repeats is kept")
        let db = try build.seed
        #expect(try db.rows("SELECT fare_id, route_id FROM fare_rules ORDER BY id").map { $0.map(\.description) } == [["F", "R1"], ["G", "R1"]])
        #expect(try build.counts("fare_rules.txt") == [2, 3], "rows + rejected are the file's records")

        let strict = try Build(["fare_attributes.txt": fares, "fare_rules.txt": rules], strict: true)
        #expect(!strict.built)
        let error = try #require(strict.notices(NoticeCode.duplicateKey, in: "fare_rules.txt").first)
        #expect(error["severity"] as? String == "ERROR" && error["line"] as? Int == 4)
        #expect((error["message"] as? String)?.contains("repeats line 2 in every field") == true)
    }

    @Test("exact copies in stops.txt (rows with ids) and stop_times.txt (WITHOUT ROWID: the first line found again in the file)")
    func otherFiles() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,One,52.5,13.4,\nS2,Two,52.6,13.5,\nS1,One ,52.5,13.4,\n"
        let stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\n"
            + "T2,25:10:00,25:10:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT1,08:10:00,08:10:00,S2,2\n"
        let build = try Build(["stops.txt": stops, "stop_times.txt": stopTimes])
        #expect(build.built, "\(build.notices)")
        let stop = try #require(build.notices(NoticeCode.duplicateKey, in: "stops.txt").first)
        #expect(stop["severity"] as? String == "WARNING" && stop["line"] as? Int == 4 && stop["value"] as? String == "stop_id=S1")
        #expect(stop["message"] as? String == "repeats line 2 in every field: it is the only row of this file that repeats an earlier one whole; "
            + "each copy is left out, the row it repeats is kept")
        let times = build.notices(NoticeCode.duplicateKey, in: "stop_times.txt")
        #expect(times.count == 1)
        #expect(times.first?["line"] as? Int == 5 && times.first?["value"] as? String == "trip_id=T1, stop_sequence=2")
        #expect((times.first?["message"] as? String)?.hasPrefix("repeats line 3 in every field: 2 rows of this file repeat an earlier row whole") == true,
                "\(times)")
        #expect(try build.seed.int("SELECT count(*) FROM stops") == 2)
        #expect(try build.seed.int("SELECT count(*) FROM stop_times") == 3)
        #expect(try build.counts("stops.txt") == [2, 1])
        #expect(try build.counts("stop_times.txt") == [3, 2])
        #expect(!(try Build(["stops.txt": stops], strict: true)).built)
    }

    @Test("the same key with other values is an error naming both lines; --lenient keeps the first and says so")
    func otherValues() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,One,52.5,13.4,\nS2,Two,52.6,13.5,\nS1,Uno,52.5,13.4,\n"
        let failed = try Build(["stops.txt": stops])
        #expect(!failed.built)
        let error = try #require(failed.notices(NoticeCode.duplicateKey, in: "stops.txt").first)
        #expect(error["severity"] as? String == "ERROR" && error["line"] as? Int == 4 && error["column"] as? Int == 1)
        #expect(error["message"] as? String == "appears twice: the key of 'stops' must be unique; first copy at \(failed.folder.file("feed/stops.txt")):2")

        let lenient = try Build(["stops.txt": stops], lenient: true)
        #expect(lenient.built)
        let warning = try #require(lenient.notices(NoticeCode.duplicateKey, in: "stops.txt").first)
        #expect(warning["severity"] as? String == "WARNING")
        #expect((warning["message"] as? String)?.hasSuffix("feed/stops.txt:2; the later row is left out") == true, "\(warning)")
        #expect(try lenient.seed.text("SELECT stop_name FROM stops WHERE stop_id = 'S1'") == "One")
        #expect(try lenient.counts("stops.txt") == [2, 1])

        // stop_times (WITHOUT ROWID, no places kept): the first line is found in the file again.
        let stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\n"
            + "T2,25:10:00,25:10:00,S1,1\nT1,8:11:00,08:11:00,S2,2\n"
        let times = try Build(["stop_times.txt": stopTimes], lenient: true)
        let time = try #require(times.notices(NoticeCode.duplicateKey, in: "stop_times.txt").first)
        #expect(time["line"] as? Int == 5 && time["value"] as? String == "trip_id=T1, stop_sequence=2")
        #expect(time["message"] as? String == "appears twice: the key of 'stop_times' must be unique; first copy at \(times.folder.file("feed/stop_times.txt")):3; "
            + "the later row is left out")
        #expect(try times.seed.int("SELECT arrival_time FROM stop_times WHERE stop_sequence = 2") == 8 * 3600 + 600, "the first is kept")
    }

    @Test("fare rules with the same five fields and other values: an error naming both lines; --lenient keeps the first")
    func fareRulesWithOtherValues() throws {
        let rules = "fare_id,route_id,fare_note\nF,R1,day\nG,R1,day\nF,R1,night\n"
        let failed = try Build(["fare_attributes.txt": fares, "fare_rules.txt": rules])
        #expect(!failed.built)
        let error = try #require(failed.notices(NoticeCode.duplicateKey, in: "fare_rules.txt").first)
        #expect(error["severity"] as? String == "ERROR" && error["line"] as? Int == 4)
        #expect(error["message"] as? String == "appears twice: no two rows of 'fare_rules' may have the same fare_id, route_id, origin_id, destination_id, contains_id; "
            + "first copy at \(failed.folder.file("feed/fare_rules.txt")):2")

        let lenient = try Build(["fare_attributes.txt": fares, "fare_rules.txt": rules], lenient: true)
        #expect(lenient.built)
        #expect(try lenient.seed.rows("SELECT fare_id, extras ->> '$.fare_note' FROM fare_rules ORDER BY id").map { $0.map(\.description) }
            == [["F", "day"], ["G", "day"]])
        #expect(try lenient.counts("fare_rules.txt") == [2, 1])
    }

    @Test("a row equal in the schema's columns but not in a column kept in extras is no copy")
    func otherExtra() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,parent_station,platform_note\nS1,One,52.5,13.4,,north\nS2,Two,52.6,13.5,,\nS1,One,52.5,13.4,,south\n"
        let build = try Build(["stops.txt": stops])
        #expect(!build.built)
        let error = try #require(build.notices(NoticeCode.duplicateKey, in: "stops.txt").first)
        #expect(error["severity"] as? String == "ERROR" && error["line"] as? Int == 4)
        // The same extra value twice is a copy again.
        let copy = try Build(["stops.txt": stops.replacingOccurrences(of: "south", with: "north")])
        #expect(copy.built)
        #expect(copy.notices(NoticeCode.duplicateKey, in: "stops.txt").first?["severity"] as? String == "WARNING")
    }

    @Test("a field the table does not keep (a column without a name) cannot be compared: no copy")
    func fieldNotKept() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,parent_station,\nS1,One,52.5,13.4,,a\nS2,Two,52.6,13.5,,\nS1,One,52.5,13.4,,a\n"
        let build = try Build(["stops.txt": stops])
        #expect(!build.built)
        #expect(build.notices(NoticeCode.duplicateKey, in: "stops.txt").first?["severity"] as? String == "ERROR")
    }
}
