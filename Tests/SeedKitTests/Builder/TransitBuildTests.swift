import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Data rows of a CSV file counted without seedgen's reader: non-empty lines minus the header
/// (valid for files without quoted newlines, like the Cairns feed).
func dataRows(_ path: String) throws -> Int {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count - 1
}

@Suite("Building the Cairns GTFS feed")
struct TransitBuildTests {
    static let feed = Repository.path("examples/cairns")

    @Test("as a folder and as a zip: every row, typed, related, checked")
    func cairns() throws {
        let folder = TemporaryFolder()
        let fromFolder = folder.file("folder.sqlite"), fromZip = folder.file("zip.sqlite")
        let summary = try SeedBuilder.build([Self.feed], to: fromFolder)
        _ = try SeedBuilder.build([Repository.path("examples/cairns_gtfs.zip")], to: fromZip)

        let db = try Connection(path: fromFolder, mode: .readOnly)
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.feed) where file.hasSuffix(".txt") {
            let table = String(file.dropLast(4))
            #expect(try db.int("SELECT count(*) FROM \(table)") == Int64(try dataRows(Self.feed + "/" + file)), "\(table)")
        }
        #expect(summary.totalRows == 62_365 + 8 + 1_339 + 1_360 + 588) // the feed's rows, service_days' 8, the patterns and footpaths
        // Times past midnight, blank times of non-timepoint stops, dates, reals.
        #expect(try db.int("SELECT max(arrival_time) FROM stop_times") == 29 * 3600 + 39 * 60)
        #expect(try db.int("SELECT count(*) FROM stop_times WHERE arrival_time IS NULL") == 65)
        #expect(try db.int("SELECT count(*) FROM stop_times WHERE departure_time IS NULL") == 65)
        #expect(try db.text("SELECT typeof(arrival_time) FROM stop_times LIMIT 1") == "integer")
        #expect(try db.int("""
            SELECT arrival_time FROM stop_times JOIN trips ON trips.id = trip_ref
            WHERE trips.trip_id = 'CNS2014-CNS_MUL-Weekday-00-4165878' AND stop_sequence = 1
            """) == 5 * 3600 + 50 * 60)
        #expect(try db.text("SELECT start_date FROM calendar WHERE service_id = 'CNS2014-CNS_MUL-Weekday-00'") == "2014-05-26")
        #expect(try db.text("SELECT typeof(stop_lat) FROM stops LIMIT 1") == "real")
        // References resolve to the row with the same GTFS id: the source's (trip_id, stop_id,
        // stop_sequence) triples come back exactly through the joins.
        let source = try String(contentsOfFile: Self.feed + "/stop_times.txt", encoding: .utf8)
            .split(whereSeparator: \.isNewline).dropFirst().map { line -> String in
                let f = line.split(separator: ",", omittingEmptySubsequences: false)
                return "\(f[0])|\(f[3])|\(f[4])"
            }.sorted()
        let joined = try db.rows("""
            SELECT t.trip_id || '|' || s.stop_id || '|' || st.stop_sequence FROM stop_times st
            JOIN trips t ON t.id = st.trip_ref JOIN stops s ON s.id = st.stop_ref
            """).compactMap { $0[0].text }.sorted()
        #expect(joined == source)
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
        #expect(try db.text("PRAGMA integrity_check") == "ok")
        #expect(try db.int("PRAGMA freelist_count") == 0)
        #expect(try db.int("PRAGMA user_version") == 4)
        #expect(try db.text("SELECT value FROM seedgen_metadata WHERE key = 'seed_version'") == summary.seedVersion)
        #expect(try db.int("SELECT count(*) FROM seedgen_inputs") == 8)
        // Page 1 header: file format read/write versions 1 = rollback journal (2 would be WAL).
        let header = try #require(FileHandle(forReadingAtPath: fromFolder)?.readData(ofLength: 20))
        #expect(Array(header[18...19]) == [1, 1])
        // The zip holds the same files: the same seed, byte for byte.
        #expect(FileManager.default.contentsEqual(atPath: fromFolder, andPath: fromZip))
        #expect(folder.contents == ["folder.sqlite", "zip.sqlite"], "no scratch files are left behind")
    }

    @Test("scratch files of a killed build are removed by the next build; other files are not")
    func abandonedScratchFiles() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder)
        // pid 2^22+1 is above Linux's pid_max default, so no such process is running.
        let abandoned = [
            ".seed.sqlite.seedgen-build-4194305-12345", ".seed.sqlite.seedgen-final-4194305-678",
            ".seed.sqlite.seedgen-chunks-4194305-9", ".notices.json.seedgen-notices-4194305-1",
            ".notices.json.seedgen-report-4194305-2"
        ]
        let kept = [".seed.sqlite.seedgen-build-\(getpid())-1", ".other.sqlite.seedgen-build-4194305-1", "seed.sqlite.seedgen-build-x", "seed.sqlite.bak"]
        for name in abandoned + kept { folder.write(name, "x") }
        var options = BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite"))
        options.notices = folder.file("notices.json")
        _ = try SeedBuilder(options: options).build()
        #expect(folder.contents == (kept + ["feed", "notices.json", "seed.sqlite"]).sorted())
    }

    @Test("two builds of the same inputs are byte-identical")
    func deterministic() throws {
        let folder = TemporaryFolder()
        _ = try SeedBuilder.build([Self.feed], to: folder.file("a.sqlite"))
        _ = try SeedBuilder.build([Self.feed], to: folder.file("b.sqlite"))
        #expect(FileManager.default.contentsEqual(atPath: folder.file("a.sqlite"), andPath: folder.file("b.sqlite")))
    }

    @Test("the seed version follows the content: another input, another version")
    func seedVersion() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder)
        let first = try SeedBuilder.build([folder.file("feed")], to: folder.file("a.sqlite")).seedVersion
        let again = try SeedBuilder.build([folder.file("feed")], to: folder.file("b.sqlite")).seedVersion
        folder.write("feed/stops.txt", "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,One,52.5,13.4,\nS2,Deux,52.6,13.5,\n")
        let changed = try SeedBuilder.build([folder.file("feed")], to: folder.file("c.sqlite")).seedVersion
        #expect(first == again)
        #expect(first != changed)
        let explicit = try SeedBuilder(options: BuildOptions(inputs: [folder.file("feed")], output: folder.file("d.sqlite"), seedVersion: "2026.11")).build()
        #expect(explicit.seedVersion == "2026.11")
    }

    @Test("input checksums recorded in a seed equal sha256sum's")
    func inputChecksums() throws {
        let sha256sum = try ChildProcess.run("/usr/bin/env", ["sha256sum", Repository.path("examples/cairns/stop_times.txt")])
        try #require(sha256sum.status == 0, "\(sha256sum)")
        let expected = sha256sum.stdout.prefix(64)
        let folder = TemporaryFolder()
        let summary = try SeedBuilder.build([Self.feed], to: folder.file("s.sqlite"))
        #expect(summary.inputs.first { $0.name == "stop_times.txt" }?.sha256 == String(expected))
    }
}

@Suite("What real feeds do")
struct FeedQuirkTests {
    @Test("BOM, CRLF, spaces around header names, quoted fields, no final newline, unknown columns, optional files missing")
    func quirks() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, [
            "stops.txt": "\u{FEFF}stop_id , stop_name,stop_lat,stop_lon,parent_station,platform_colour\r\n"
                + "S1,\"Main St, \"\"North\"\"\",52.5,13.4,P,red\r\n"
                + "S2,\"Two\r\nlines\",52.6,13.5,,\r\n"
                + "P,Station,52.55,13.45,,",
            "calendar.txt": nil, // optional
        ])
        folder.write("feed/calendar_dates.txt", "service_id,date,exception_type\nWD,20260101,1\n")
        let summary = try SeedBuilder.build([folder.file("feed")], to: folder.file("seed.sqlite"))
        let db = try Connection(path: folder.file("seed.sqlite"), mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM stops") == 3)
        #expect(try db.text("SELECT stop_name FROM stops WHERE stop_id = 'S1'") == "Main St, \"North\"")
        #expect(try db.text("SELECT stop_name FROM stops WHERE stop_id = 'S2'") == "Two\r\nlines")
        // S1 names its parent station P before P appears: a forward reference, resolved.
        #expect(try db.int("SELECT parent_station_ref FROM stops WHERE stop_id = 'S1'") == (try db.int("SELECT id FROM stops WHERE stop_id = 'P'")))
        #expect(try db.int("SELECT count(*) FROM calendar") == 0)
        #expect(try db.text("SELECT extras FROM stops WHERE stop_id = 'S1'") == "{\"platform_colour\":\"red\"}", "kept in extras")
        #expect(try db.text("SELECT extras FROM stops WHERE stop_id = 'S2'") == nil, "empty undeclared values are left out")
        #expect(!summary.warningReport.contains("platform_colour"), "nothing is dropped, so no warning")
    }
}
