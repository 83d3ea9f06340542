import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// The real feeds of `gtfs-world` in the real data (see its SOURCES.tsv), each with quirks that
/// other GTFS consumers accept.
enum GTFSWorld {
    static let root = RealData.path("gtfs-world")
    /// The feeds with real data errors: they fail by default and build with --lenient.
    static let withDataErrors: Set<String> = ["udine"]

    static var feeds: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { FileManager.default.fileExists(atPath: "\(root)/\($0)/feed") }.sorted()
    }

    /// Data records per file of `folder`, counted by Python's csv module (blank lines are no
    /// records; the header is not counted) and, for `.geojson`, the features by Python's json.
    static func pythonCounts(_ folder: String) throws -> [String: Int] {
        let script = """
            import csv, json, os, sys
            folder = sys.argv[1]
            csv.field_size_limit(sys.maxsize)
            for name in sorted(os.listdir(folder)):
                path = os.path.join(folder, name)
                if name.lower().endswith('.geojson'):
                    print(name, len(json.load(open(path, encoding='utf-8-sig'))['features']))
                elif name.lower().endswith(('.txt', '.csv')) and os.path.getsize(path) > 0:
                    with open(path, newline='', encoding='utf-8-sig', errors='replace') as f:
                        rows = [row for row in csv.reader(f) if row]
                    print(name, max(0, len(rows) - 1))
            """
        let python = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, folder])
        #expect(python.status == 0, "python3 counts the records: \(python.stderr)")
        var counts: [String: Int] = [:]
        for line in python.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            counts[String(parts[0])] = Int(parts[1])
        }
        return counts
    }
}

@Suite("Real GTFS feeds from around the world", .realData("gtfs-world/SOURCES.tsv"))
struct GTFSWorldTests {
    @Test("every feed builds without --lenient, except those with data errors", arguments: GTFSWorld.feeds)
    func buildsStrictly(feed: String) throws {
        let folder = TemporaryFolder()
        let output = folder.file("seed.sqlite")
        do {
            _ = try SeedBuilder(options: BuildOptions(inputs: ["\(GTFSWorld.root)/\(feed)/feed"], output: output)).build()
            #expect(!GTFSWorld.withDataErrors.contains(feed), "\(feed) has data errors and should fail without --lenient")
        } catch {
            #expect(GTFSWorld.withDataErrors.contains(feed), "\(feed): \(error)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test("udine fails with clear messages, and builds with --lenient, leaving out the bad rows")
    func udine() throws {
        let folder = TemporaryFolder()
        let feed = "\(GTFSWorld.root)/udine/feed"
        do {
            _ = try SeedBuilder.build([feed], to: folder.file("seed.sqlite"))
            Issue.record("udine has data errors")
        } catch {
            let text = error.description
            #expect(text.contains("calendar.txt:2:27: end_date: '20160931' is not a valid date: 31 September does not exist"), "\(text)")
        }
        let options = BuildOptions(inputs: [feed], output: folder.file("seed.sqlite"), lenient: true)
        let summary = try SeedBuilder(options: options).build()
        #expect(summary.rejected == ["calendar": 2, "stop_times": 40])
        #expect(summary.warningReport.contains("40 × row left out [duplicate_key] (trip_id+stop_sequence)"))
        #expect(summary.warningReport.contains("stop_times.txt:1322:1: trip_id+stop_sequence: 'trip_id=4_SWD40, stop_sequence=1' appears twice"))
        #expect(summary.warningReport.contains("must be unique; first copy at \(feed)/stop_times.txt:1282; the later row is left out"), "\(summary.warningReport)")
        #expect(!summary.warningReport.contains("in every field"), "none of the 40 is a copy: each has other times")
        let db = try Connection(path: folder.file("seed.sqlite"), mode: .readOnly)
        #expect(try db.int("SELECT rejected FROM seedgen_inputs WHERE name = 'stop_times.txt'") == 40)
        #expect(try db.text("SELECT extras FROM stops WHERE extras IS NOT NULL LIMIT 1")?.hasPrefix("{\"OSM_ref\":") == true)
    }

    @Test("for every file, the seed's rows plus rejected equal the records Python's csv module reads", arguments: GTFSWorld.feeds)
    func rowCounts(feed: String) throws {
        let folder = TemporaryFolder()
        let input = "\(GTFSWorld.root)/\(feed)/feed"
        let output = folder.file("seed.sqlite")
        _ = try SeedBuilder(options: BuildOptions(inputs: [input], output: output, lenient: true)).build()
        let expected = try GTFSWorld.pythonCounts(input)
        #expect(!expected.isEmpty)
        let db = try Connection(path: output, mode: .readOnly)
        let schema = try Schema.load(path: Repository.path("Schema/transit.yaml"))
        for (name, records) in expected.sorted(by: { $0.key < $1.key }) {
            let row = try db.rows("SELECT rows, rejected FROM seedgen_inputs WHERE name = '\(name)'")
            guard let recorded = row.first else { Issue.record("\(feed)/\(name) is not in seedgen_inputs"); continue }
            let rows = Int(recorded[0].integer ?? -1), rejected = Int(recorded[1].integer ?? -1)
            #expect(rows + rejected == records, "\(feed)/\(name): \(rows) rows + \(rejected) rejected, Python reads \(records)")
            let table = schema.tables.first { $0.file?.lowercased() == name.lowercased() }?.name
                ?? "extra_" + ExtraFiles.identifier(String(name.prefix { $0 != "." })).lowercased()
            #expect(try db.int("SELECT count(*) FROM \(quoted(table))") == Int64(rows), "\(feed)/\(name) -> \(table)")
            if !GTFSWorld.withDataErrors.contains(feed) { #expect(rejected == 0, "\(feed)/\(name)") }
        }
    }

    @Test("extension files are extra_* tables, undeclared columns are in extras")
    func nothingDropped() throws {
        let folder = TemporaryFolder()
        _ = try SeedBuilder.build(["\(GTFSWorld.root)/donanbus/feed"], to: folder.file("jp.sqlite"))
        let jp = try Connection(path: folder.file("jp.sqlite"), mode: .readOnly)
        #expect(try jp.int("SELECT count(*) FROM extra_agency_jp") == 1)
        #expect(try jp.int("SELECT count(*) FROM extra_routes_jp") == 74)
        #expect(try jp.int("SELECT count(*) FROM extra_fare_rider_categories") == 46)
        #expect(try jp.int("SELECT count(*) FROM routes WHERE extras ->> '$.jp_parent_route_id' IS NOT NULL") == 74)
        #expect(try jp.text("SELECT translations.extras ->> '$.lang' FROM translations LIMIT 1") == "ja")

        _ = try SeedBuilder.build(["\(GTFSWorld.root)/rideconnection-flex/feed"], to: folder.file("flex.sqlite"))
        let flex = try Connection(path: folder.file("flex.sqlite"), mode: .readOnly)
        #expect(try flex.int("SELECT count(*) FROM stop_times WHERE extras ->> '$.start_service_area_id' IS NOT NULL") > 0)
        #expect(try flex.int("SELECT count(*) FROM extra_stop_attributes") == 106)
        #expect(try flex.int("SELECT count(*) FROM seedgen_inputs WHERE name = 'runcut.txt'") == 1)
        #expect(try flex.text("SELECT agency_name FROM agency WHERE agency_name <> trim(agency_name)") == nil, "values are trimmed")
    }

    @Test("a published zip and its folder give the same seed", arguments: ["abidjan", "aguascalientes", "rideconnection-flex", "zakroczym"])
    func zipAndFolder(feed: String) throws {
        let folder = TemporaryFolder()
        let zip = try #require(try FileManager.default.contentsOfDirectory(atPath: "\(GTFSWorld.root)/\(feed)").first { $0.hasSuffix(".zip") })
        _ = try SeedBuilder.build(["\(GTFSWorld.root)/\(feed)/feed"], to: folder.file("a.sqlite"))
        _ = try SeedBuilder.build(["\(GTFSWorld.root)/\(feed)/\(zip)"], to: folder.file("b.sqlite"))
        #expect(FileManager.default.contents(atPath: folder.file("a.sqlite")) == FileManager.default.contents(atPath: folder.file("b.sqlite")))
    }
}
