import Foundation
import SeedDeltas
import SeedInstaller
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit
@testable import SeedShip

/// Issue 31: several feeds in one seed, each feed's ids its own, each updated on its own.
@Suite("Region seeds: several feeds in one build")
struct RegionSeedTests {
    let folder = TemporaryFolder()

    /// Two copies of the GTFS sample feed, whose ids are the same, as feeds `a` and `b`.
    func twoFeeds() throws -> (a: String, b: String) {
        let source = Repository.path("Tests/Fixtures/gtfs/sample-feed")
        for name in ["a", "b"] {
            try FileManager.default.copyItem(atPath: source, toPath: folder.file(name))
        }
        return (folder.file("a"), folder.file("b"))
    }

    func build(_ inputs: [String], feeds: [String] = [], to name: String, previous: String? = nil, lenient: Bool = false) throws -> BuildSummary {
        var options = BuildOptions(inputs: inputs, output: folder.file(name), lenient: lenient)
        options.feeds = feeds
        options.previous = previous
        return try SeedBuilder(options: options).build()
    }

    @Test("two feeds with the same ids build side by side: each feed's rows are its own seed's, references stay in their feed")
    func sameIDs() throws {
        let (a, b) = try twoFeeds()
        _ = try build([a, b], to: "region.sqlite")
        _ = try build([a], to: "a.sqlite")
        let region = try Connection(path: folder.file("region.sqlite"), mode: .readOnly)
        #expect(try region.rows("SELECT id, name, source FROM feeds ORDER BY id").map { $0.map(\.description) } == [["1", "a", "a"], ["2", "b", "b"]])
        #expect(try region.rows("PRAGMA foreign_key_check").isEmpty)
        let single = try Connection(path: folder.file("a.sqlite"), mode: .readOnly)
        for feed: Int64 in [1, 2] {
            #expect(try RegionRows.expectEqual(region: region, feed: feed, single: single, name: "feed \(feed)") > 50)
        }
        // The same stop_id in both feeds is two stops; each stop time names its own feed's stop.
        #expect(try region.scalar("SELECT count(*) FROM stops WHERE stop_id = 'FUR_CREEK_RES'")?.integer == 2)
        #expect(try region.scalar("""
            SELECT count(*) FROM stop_times JOIN stops ON stops.id = stop_times.stop_ref JOIN trips ON trips.id = stop_times.trip_ref
             WHERE stops.feed_ref <> stop_times.feed_ref OR trips.feed_ref <> stop_times.feed_ref
            """)?.integer == 0)
        // The copies' stops are at the same places: a walk from each stop of a to every stop of b
        // within 400 m, stored once, of feed a (the smaller ids); the same rule as within a feed.
        let within = try #require(try single.scalar("SELECT count(*) FROM footpaths WHERE kind = 0")?.integer)
        let served = try #require(try single.scalar("SELECT count(DISTINCT stop_ref) FROM pattern_stops")?.integer)
        let across = try RegionRows.crossFeedFootpaths(region)
        #expect(served > 0 && across == Int(2 * within + served))
        #expect(try region.scalar("SELECT count(*) FROM footpaths WHERE \(CrossFeedFootpaths.rows) AND feed_ref <> 1")?.integer == 0)
        // Derived per feed: each feed's services on its own.
        #expect(try region.scalar("SELECT count(DISTINCT feed_ref) FROM service_days")?.integer == 2)
        #expect(try region.scalar("SELECT row_counts FROM feeds WHERE name = 'a'")?.text?.contains("\"stop_times\":28") == true)
        #expect(try region.scalar("SELECT start_date || ' ' || end_date FROM feeds WHERE name = 'b'")?.text == "2007-01-01 2010-12-31")
    }

    @Test("one feed builds the same bytes as before, named or not: no feeds table, no feed_ref")
    func oneFeedUnchanged() throws {
        let (a, _) = try twoFeeds()
        _ = try build([a], to: "plain.sqlite")
        _ = try build([], feeds: ["metro=\(a)"], to: "named.sqlite")
        #expect(FileManager.default.contents(atPath: folder.file("plain.sqlite")) == FileManager.default.contents(atPath: folder.file("named.sqlite")))
        let db = try Connection(path: folder.file("plain.sqlite"), mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'feeds'")?.integer == 0)
        #expect(try db.scalar("SELECT count(*) FROM pragma_table_info('stops') WHERE name = 'feed_ref'")?.integer == 0)
    }

    @Test("the same feeds give the same bytes, wherever they are and in whatever order they are given")
    func deterministic() throws {
        let (a, b) = try twoFeeds()
        try FileManager.default.createDirectory(atPath: folder.file("elsewhere"), withIntermediateDirectories: true)
        for name in ["a", "b"] { try FileManager.default.copyItem(atPath: folder.file(name), toPath: folder.file("elsewhere/" + name)) }
        _ = try build([a, b], to: "one.sqlite")
        _ = try build([folder.file("elsewhere/b"), folder.file("elsewhere/a")], to: "two.sqlite")
        #expect(FileManager.default.contents(atPath: folder.file("one.sqlite")) == FileManager.default.contents(atPath: folder.file("two.sqlite")))
    }

    @Test("one feed given as several paths finds a seedgen.yaml in any of them, as before")
    func folderSchemaInAnyPath() throws {
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        _ = folder.write("in/seedgen.yaml", "name: places\nschemaVersion: 1\nformat: csv\ntables:\n  - name: places\n    file: places.txt\n    columns:\n      - { name: place_id }\n")
        _ = folder.write("in/places.txt", "place_id\np1\n")
        let summary = try build([folder.write("notes.txt", "note\nx\n"), folder.file("in")], to: "places.sqlite")
        #expect(summary.schemaName == "places" && summary.tables.first { $0.name == "places" }?.rows == 1)
    }

    @Test("feeds are named by --feed NAME=PATH, else by their file or folder; a folder of feeds is a feed per entry")
    func naming() throws {
        let (a, b) = try twoFeeds()
        let zip = folder.file("feeds/ferry.zip")
        try FileManager.default.createDirectory(atPath: folder.file("feeds"), withIntermediateDirectories: true)
        let zipped = try ChildProcess.run("/usr/bin/env", ["python3", "-c", """
            import os, sys, zipfile
            with zipfile.ZipFile(sys.argv[2], 'w') as z:
                for name in sorted(os.listdir(sys.argv[1])): z.write(os.path.join(sys.argv[1], name), name)
            """, a, zip])
        try #require(zipped.status == 0, "python3 zips the feed: \(zipped.stderr)")
        try FileManager.default.copyItem(atPath: b, toPath: folder.file("feeds/buses"))
        _ = try build([folder.file("feeds")], to: "folder.sqlite")
        var db = try Connection(path: folder.file("folder.sqlite"), mode: .readOnly)
        #expect(try db.rows("SELECT name FROM feeds ORDER BY id").map { $0[0].description } == ["buses", "ferry"])
        _ = try build([zip], feeds: ["metro=\(b)"], to: "named.sqlite")
        db = try Connection(path: folder.file("named.sqlite"), mode: .readOnly)
        #expect(try db.rows("SELECT name FROM feeds ORDER BY id").map { $0[0].description } == ["ferry", "metro"])
        #expect(try db.rows("SELECT name FROM seedgen_inputs WHERE name LIKE '%/stops.txt' ORDER BY name").map { $0[0].description }
            == ["ferry/stops.txt", "metro/stops.txt"])
        // gtfs/*/feed: each named after the folder it is in.
        for name in ["north", "south"] {
            try FileManager.default.createDirectory(atPath: folder.file("gtfs/\(name)"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: a, toPath: folder.file("gtfs/\(name)/feed"))
        }
        _ = try build([folder.file("gtfs/north/feed"), folder.file("gtfs/south/feed")], to: "parents.sqlite")
        db = try Connection(path: folder.file("parents.sqlite"), mode: .readOnly)
        #expect(try db.rows("SELECT name, source FROM feeds ORDER BY id").map { $0.map(\.description) } == [["north", "north/feed"], ["south", "south/feed"]])
    }

    @Test("clashing names, a bad --feed, a file beside several feeds: clear errors, nothing written")
    func inputErrors() throws {
        let (a, b) = try twoFeeds()
        let cases: [(inputs: [String], feeds: [String], message: String)] = [
            ([a], ["a=\(b)"], "is a feed named 'a', and so is"),
            ([a], ["b"], "--feed takes NAME=PATH"),
            ([a], ["=\(b)"], "--feed takes NAME=PATH"),
            ([a], ["two words=\(b)"], "cannot name a feed"),
            ([a, b, folder.write("notes.txt", "x")], [], "is a file given beside several feeds"),
        ]
        for (inputs, feeds, message) in cases {
            let output = folder.file("bad.sqlite")
            #expect(performing: { _ = try build(inputs, feeds: feeds, to: "bad.sqlite") }, throws: { error in
                "\(error)".contains(message)
            })
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test("a schema with its own table 'feeds' or column 'feed_ref' builds one feed, and refuses several with a clear error")
    func namesTaken() throws {
        let (a, b) = try twoFeeds()
        for (name, yaml) in [("feeds", "name: t\nschemaVersion: 1\nformat: csv\ntables:\n  - name: feeds\n    file: stops.txt\n    columns:\n      - { name: stop_id }\n"),
                             ("feed_ref", "name: t\nschemaVersion: 1\nformat: csv\ntables:\n  - name: stops\n    columns:\n      - { name: stop_id }\n      - { name: feed_ref, source: zone_id }\n")] {
            let schema = folder.write("\(name).yaml", yaml)
            _ = try SeedBuilder(options: BuildOptions(inputs: [a], output: folder.file("one.sqlite"), schemaPath: schema)).build()
            #expect(performing: {
                _ = try SeedBuilder(options: BuildOptions(inputs: [a, b], output: folder.file("two.sqlite"), schemaPath: schema)).build()
            }, throws: { error in
                "\(error)".contains("which a seed of several feeds adds itself") && "\(error)".contains("\(name).yaml:")
            })
        }
    }

    @Test("an error in one feed names the feed, the file, the line and the column")
    func errorsNameTheFeed() throws {
        let (a, b) = try twoFeeds()
        let stops = b + "/stops.txt"
        let text = try String(contentsOfFile: stops, encoding: .utf8)
        try text.replacingOccurrences(of: "36.425288", with: "north").write(toFile: stops, atomically: true, encoding: .utf8)
        do {
            _ = try build([a, b], to: "region.sqlite")
            Issue.record("the build should fail on a bad latitude in feed b")
        } catch {
            let message = "\(error)"
            #expect(message.contains("\(b)/stops.txt:"), "\(message)")
            #expect(message.contains("'north'") && message.contains("(feed 'b')"), "\(message)")
        }
        let summary = try build([a, b], to: "lenient.sqlite", lenient: true)
        #expect(summary.warningReport.contains("(feed 'b')"))
    }

    @Test("with --previous, feeds that did not change keep every row and id; an added feed gets new ids, a removed one's rows go")
    func previous() throws {
        let (a, b) = try twoFeeds()
        try FileManager.default.copyItem(atPath: a, toPath: folder.file("c"))
        _ = try build([a, b], to: "v1.sqlite")
        // b changes a stop's name, c is added.
        let stops = b + "/stops.txt"
        try (try String(contentsOfFile: stops, encoding: .utf8)).replacingOccurrences(of: "Furnace Creek Resort", with: "Furnace Creek")
            .write(toFile: stops, atomically: true, encoding: .utf8)
        _ = try build([a, b, folder.file("c")], to: "v2.sqlite", previous: folder.file("v1.sqlite"))
        let v1 = try Connection(path: folder.file("v1.sqlite"), mode: .readOnly)
        let v2 = try Connection(path: folder.file("v2.sqlite"), mode: .readOnly)
        #expect(try v2.rows("SELECT id, name FROM feeds ORDER BY id").map { $0.map(\.description) } == [["1", "a"], ["2", "b"], ["3", "c"]])
        for table in try RegionRows.tables(v1) {
            // Its own: not the walks to the stops of other feeds, which c adds (a copy of a).
            let own = table == CrossFeedFootpaths.table ? " AND NOT (\(CrossFeedFootpaths.rows))" : ""
            let sql = "SELECT * FROM \"\(table)\" WHERE feed_ref = 1\(own) ORDER BY 1, 2, 3"
            #expect(try v1.rows(sql) == v2.rows(sql), "feed a's \(table) rows and ids are kept exactly")
        }
        let across = "SELECT count(*) FROM footpaths WHERE \(CrossFeedFootpaths.rows)"
        #expect(try v2.scalar(across)?.integer ?? 0 > v1.scalar(across)?.integer ?? 0)
        #expect(try v2.scalar("SELECT min(id) FROM stops WHERE feed_ref = 3")?.integer ?? 0 > v1.scalar("SELECT max(id) FROM stops")?.integer ?? 0)
        #expect(try v2.scalar("SELECT stop_name FROM stops WHERE feed_ref = 2 AND stop_id = 'FUR_CREEK_RES'")?.text == "Furnace Creek (Demo)")
        // Then a is removed: b and c keep theirs.
        _ = try build([b, folder.file("c")], to: "v3.sqlite", previous: folder.file("v2.sqlite"))
        let v3 = try Connection(path: folder.file("v3.sqlite"), mode: .readOnly)
        #expect(try v3.rows("SELECT id, name FROM feeds ORDER BY id").map { $0.map(\.description) } == [["2", "b"], ["3", "c"]])
        #expect(try v3.rows("SELECT * FROM stops ORDER BY id") == v2.rows("SELECT * FROM stops WHERE feed_ref <> 1 ORDER BY id"))
        #expect(try v3.rows("PRAGMA foreign_key_check").isEmpty)
    }
}

/// The Done-when of issue 31 on real data.
@Suite("Region seeds of real feeds", .realData("gtfs-world/SOURCES.tsv"), .serialized)
struct RegionSeedRealDataTests {
    let folder = TemporaryFolder()

    static func feedOptions(_ names: [String]) -> [String] {
        names.map { "\($0)=\(GTFSWorld.root)/\($0)/feed" }
    }

    @Test("the ten gtfs-world feeds as one seed: each feed's rows equal its own seed's (references through their keys), foreign keys hold")
    func tenFeeds() throws {
        let feeds = GTFSWorld.feeds
        try #require(feeds.count == 10)
        var options = BuildOptions(inputs: [], output: folder.file("region.sqlite"), lenient: true)
        options.feeds = Self.feedOptions(feeds)
        let summary = try SeedBuilder(options: options).build()
        let region = try Connection(path: folder.file("region.sqlite"), mode: .readOnly)
        #expect(try region.rows("PRAGMA foreign_key_check").isEmpty)
        #expect(try region.rows("SELECT name FROM feeds ORDER BY id").map { $0[0].description } == feeds)
        var total = 0
        for (index, feed) in feeds.enumerated() {
            let output = folder.file("\(feed).sqlite")
            _ = try SeedBuilder(options: BuildOptions(inputs: ["\(GTFSWorld.root)/\(feed)/feed"], output: output, lenient: true)).build()
            let single = try Connection(path: output, mode: .readOnly)
            total += try RegionRows.expectEqual(region: region, feed: Int64(index + 1), single: single, name: feed)
            // The feed's row counts as the feeds table records them.
            let counts = try #require(try region.scalar("SELECT row_counts FROM feeds WHERE name = ?", [.text(feed)])?.text)
            let stopTimes = try single.scalar("SELECT count(*) FROM stop_times")?.integer ?? 0
            #expect(stopTimes == 0 || counts.contains("\"stop_times\":\(stopTimes)"), "\(feed): \(counts)")
        }
        // Every row of the region seed is a row of one feed's own seed.
        let regionRows = try RegionRows.tables(region).reduce(0) { sum, table in
            sum + Int(try region.scalar("SELECT count(*) FROM \"\(table)\"")?.integer ?? 0)
        }
        // The feeds are cities apart: no walk from one feed's stops to another's.
        #expect(try RegionRows.crossFeedFootpaths(region) == 0)
        #expect(total == regionRows, "rows compared \(total), rows in the region seed \(regionRows)")
        #expect(summary.tables.first { $0.name == "feeds" }?.rows == 10)
    }

    @Test("the Swiss NeTEx examples, which reuse ids, build side by side as feeds, each as its file alone", .realData(XMLTransitData.swissData))
    func swissNeTEx() throws {
        let files = XMLTransitData.swissExamples
        try #require(files.count >= 17)
        let names = files.map { String(($0 as NSString).lastPathComponent.prefix(2)) }
        var options = BuildOptions(inputs: [], output: folder.file("swiss.sqlite"))
        options.feeds = zip(names, files).map { "ch\($0)=\($1)" }
        _ = try SeedBuilder(options: options).build()
        let region = try Connection(path: folder.file("swiss.sqlite"), mode: .readOnly)
        #expect(try region.rows("PRAGMA foreign_key_check").isEmpty)
        for (index, file) in files.enumerated() {
            let output = folder.file("ch\(index).sqlite")
            _ = try SeedBuilder(options: BuildOptions(inputs: [file], output: output)).build()
            let id = try #require(try region.scalar("SELECT id FROM feeds WHERE name = ?", [.text("ch" + names[index])])?.integer)
            try RegionRows.expectEqual(region: region, feed: id, single: try Connection(path: output, mode: .readOnly), name: file)
        }
        // Built as one export, the examples' ids are unique per document: it builds, each
        // example's objects its own where they differ.
        _ = try SeedBuilder(options: BuildOptions(inputs: [RealData.path(XMLTransitData.swissData)], output: folder.file("one.sqlite"))).build()
        #expect(try Connection(path: folder.file("one.sqlite"), mode: .readOnly).rows("PRAGMA foreign_key_check").isEmpty)
        // The examples reuse ids: the same id is a row of each example that has it.
        #expect(try region.scalar("SELECT max(n) FROM (SELECT count(*) AS n FROM stops GROUP BY stop_id)")?.integer ?? 0 > 1)
    }

    @Test("NeTEx exports of three producers, and two TransXChange exports, as feeds: each equal to its export built alone",
          .realData(XMLTransitData.germanData, XMLTransitData.frenchData, XMLTransitData.dutchData, XMLTransitData.somersetData,
                    XMLTransitData.stagecoachData),
          arguments: [[("de", XMLTransitData.germanData), ("fr", XMLTransitData.frenchData), ("nl", XMLTransitData.dutchData)],
                      [("somerset", XMLTransitData.somersetData), ("stagecoach", XMLTransitData.stagecoachData)]])
    func xmlExports(_ exports: [(name: String, data: String)]) throws {
        let region = folder.file("\(exports[0].name)-region.sqlite")
        var options = BuildOptions(inputs: [], output: region)
        options.feeds = exports.map { "\($0.name)=" + RealData.path($0.data) }
        _ = try SeedBuilder(options: options).build()
        let db = try Connection(path: region, mode: .readOnly)
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
        for (index, export) in exports.sorted(by: { $0.name < $1.name }).enumerated() {
            let single = folder.file("\(export.name).sqlite")
            _ = try SeedBuilder(options: BuildOptions(inputs: [RealData.path(export.data)], output: single)).build()
            #expect(try RegionRows.expectEqual(region: db, feed: Int64(index + 1), single: Connection(path: single, mode: .readOnly), name: export.name) > 0)
        }
    }

    @Test("Renfe's next day beside the other nine feeds: the region's delta is at most 1.1 × the feed's own; the others keep every row and id",
          .realData("gtfs-daily-renfe-ld"))
    func dailyDeltaOfOneFeed() throws {
        let days = DailyArchives.renfe
        try #require(days.count >= 2)
        let others = Self.feedOptions(GTFSWorld.feeds.filter { $0 != "udine" }) // nine with rideconnection, zakroczym, ...
        func region(_ day: String, _ name: String, previous: String?) throws -> String {
            var options = BuildOptions(inputs: [], output: folder.file(name))
            options.feeds = others + ["renfe=\(day)"]
            options.previous = previous.map(folder.file)
            _ = try SeedBuilder(options: options).build()
            return folder.file(name)
        }
        func single(_ day: String, _ name: String, previous: String?) throws -> String {
            var options = BuildOptions(inputs: [day], output: folder.file(name))
            options.previous = previous.map(folder.file)
            _ = try SeedBuilder(options: options).build()
            return folder.file(name)
        }
        let r0 = try region(days[0], "r0.sqlite", previous: nil), r1 = try region(days[1], "r1.sqlite", previous: "r0.sqlite")
        let s0 = try single(days[0], "s0.sqlite", previous: nil), s1 = try single(days[1], "s1.sqlite", previous: "s0.sqlite")
        let own = try SeedDeltaWriter().write(old: s0, new: s1, to: folder.file("own.delta")).size
        let regional = try SeedDeltaWriter().write(old: r0, new: r1, to: folder.file("region.delta")).size
        let ratio = Double(regional) / Double(own)
        print("region delta \(regional) bytes, the feed's own \(own) bytes: \(String(format: "%.3f", ratio)) ×")
        #expect(ratio <= 1.1, "the region's delta is \(regional) bytes, \(ratio) × the feed's own \(own)")
        let old = try Connection(path: r0, mode: .readOnly), new = try Connection(path: r1, mode: .readOnly)
        let renfe = try #require(try new.scalar("SELECT id FROM feeds WHERE name = 'renfe'"))
        #expect(try old.scalar("SELECT id FROM feeds WHERE name = 'renfe'") == renfe)
        for table in try RegionRows.tables(old) {
            let sql = "SELECT * FROM \"\(table)\" WHERE feed_ref <> ? ORDER BY 1, 2, 3"
            #expect(try old.rows(sql, [renfe]) == new.rows(sql, [renfe]), "\(table): the other feeds' rows and ids are kept")
        }
        // Applied by the installer (which derives each feed's service days again), it gives the seed CI built.
        let installed = folder.file("installed/seed.sqlite")
        _ = try SeedInstaller(source: r0, destination: installed).install()
        #expect(try SeedInstaller(source: folder.file("region.delta"), destination: installed).install().status == .patched)
        #expect(try ContentDigest.compute(path: installed) == new.scalar("SELECT value FROM seedgen_metadata WHERE key = 'content_sha256'")?.text)
    }
}
