import Foundation
import SeedArchive
import SeedInstaller
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Issue 19, part 2: `seedgen delta OLD NEW` writes the rows that changed; applying it to OLD
/// gives NEW byte for byte.
@Suite("Seed deltas")
struct SeedDeltaTests {
    let folder = TemporaryFolder()

    /// Writes the delta from `old` to `new` and applies it to `old` with the installer's code.
    /// - Returns: the delta's summary and the bytes the apply produced.
    func roundTrip(_ old: String, _ new: String, name: String = "a.delta") throws -> (summary: SeedDeltaWriter.Summary, result: Data?) {
        let summary = try SeedDeltaWriter().write(old: old, new: new, to: folder.file(name))
        let patch = DeltaPatch(delta: try SeedDelta.read(path: summary.output))
        try patch.checkBody()
        let result = folder.file(name + ".result")
        try patch.apply(base: old, working: folder.file(name + ".working"), output: result)
        #expect(!FileManager.default.fileExists(atPath: folder.file(name + ".working")), "the working copy is removed")
        return (summary, FileManager.default.contents(atPath: result))
    }

    func packedSize(_ seed: String) throws -> Int64 {
        try SeedPacker().pack(seed: seed, to: folder.file((seed as NSString).lastPathComponent + ".gz")).manifest.gzipSize
    }

    /// The Cairns feed with every 17th trip replaced by a new one (new trip_id, its stop_times
    /// moved by two minutes) and one stop renamed: about 6 % of the trips.
    func changedCairns() throws -> String {
        let source = Repository.path("examples/cairns")
        let feed = folder.file("cairns-2")
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: feed + "/" + name)
        }
        // CRLF files: "\r\n" is one Character, so lines are split on any newline.
        let trips = try String(contentsOfFile: feed + "/trips.txt", encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        let replaced = Set(trips.dropFirst().enumerated().filter { $0.offset % 17 == 0 }.map { $0.element.split(separator: ",")[2] })
        func rewrite(_ file: String, tripColumn: Int, _ change: (inout [Substring]) -> Void = { _ in }) throws {
            let lines = try String(contentsOfFile: feed + "/" + file, encoding: .utf8).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            let out = lines.enumerated().map { index, line -> String in
                var fields = line.split(separator: ",", omittingEmptySubsequences: false)
                guard index > 0, fields.count > tripColumn, replaced.contains(fields[tripColumn]) else { return String(line) }
                fields[tripColumn] += "-b"
                change(&fields)
                return fields.joined(separator: ",")
            }
            try out.joined(separator: "\n").write(toFile: feed + "/" + file, atomically: true, encoding: .utf8)
        }
        try rewrite("trips.txt", tripColumn: 2)
        try rewrite("stop_times.txt", tripColumn: 0) { fields in
            for column in [1, 2] where fields[column].count == 8 {
                let parts = fields[column].split(separator: ":").compactMap { Int($0) }
                let minutes = parts[0] * 60 + parts[1] + 2
                fields[column] = Substring(String(format: "%02d:%02d:%02d", minutes / 60, minutes % 60, parts[2]))
            }
        }
        let stops = try String(contentsOfFile: feed + "/stops.txt", encoding: .utf8)
        try stops.replacingOccurrences(of: "Williams Esplanade N201", with: "Williams Esplanade North 201").write(toFile: feed + "/stops.txt", atomically: true, encoding: .utf8)
        return feed
    }

    @Test("Cairns: the delta gives the new seed byte for byte, and is a small part of the full .gz")
    func cairnsRoundTrip() throws {
        let old = folder.file("cairns-1.sqlite"), new = folder.file("cairns-2.sqlite")
        _ = try SeedBuilder.build([Repository.path("examples/cairns")], to: old)
        var options = BuildOptions(inputs: [try changedCairns()], output: new)
        options.previous = old
        _ = try SeedBuilder(options: options).build()

        let (summary, result) = try roundTrip(old, new)
        #expect(result == FileManager.default.contents(atPath: new))
        let newDigest = try FileDigest(path: new).sha256
        #expect(summary.verified && summary.header.to.sha256 == newDigest)
        let trips = try #require(summary.tables.first { $0.name == "trips" })
        #expect(trips.removed == 79 && trips.added == 79 && trips.changed == 0, "\(trips)")
        #expect(summary.tables.contains { $0.name == "stops" && $0.changed == 1 })
        let full = try packedSize(new)
        #expect(summary.size * 10 < full, "the delta (\(summary.size) bytes) is under 10 % of the full .gz (\(full) bytes)")

        // The same seeds give the same delta, byte for byte.
        let again = try SeedDeltaWriter().write(old: old, new: new, to: folder.file("b.delta"))
        #expect(FileManager.default.contents(atPath: again.output) == FileManager.default.contents(atPath: summary.output))
    }

    @Test("two real days of a national rail feed (a quarter of the trips replaced)")
    func renfeRoundTrip() throws {
        let data = "/work/shared/data/gtfs-daily-renfe-ld/"
        try #require(FileManager.default.fileExists(atPath: data), "the renfe archive is in /work/shared/data")
        let old = folder.file("16.sqlite"), new = folder.file("17.sqlite")
        _ = try SeedBuilder.build([data + "renfe-ld-2026-03-16.zip"], to: old)
        var options = BuildOptions(inputs: [data + "renfe-ld-2026-03-17.zip"], output: new)
        options.previous = old
        _ = try SeedBuilder(options: options).build()
        let (summary, result) = try roundTrip(old, new)
        #expect(result == FileManager.default.contents(atPath: new))
        let full = try packedSize(new)

        // Renfe's service ids carry their dates ("2026-03-162026-03-17718211"), so a day renames
        // a quarter of the services, and service_dates (every date of each service) changes
        // more than half of its rows: 106,477 removed and 105,911 added of 179,240. Those rows
        // really change. The same delta from OLD with NEW's service_dates already in place
        // holds everything else, and stays under the 20 % bound (6 %: 138 KB of 2.2 MB); the
        // service_dates rows cost 605 KB more (27 % of the .gz), under 3 bytes each.
        let sameDates = folder.file("16-with-17-dates.sqlite")
        try FileManager.default.copyItem(atPath: old, toPath: sameDates)
        try Connection(path: sameDates).execute("""
            ATTACH '\(new)' AS new; DELETE FROM service_dates; INSERT INTO service_dates SELECT * FROM new.service_dates
            """)
        let rest = try SeedDeltaWriter().write(old: sameDates, new: new, to: folder.file("rest.delta"))
        #expect(!rest.tables.contains { $0.name == "service_dates" })
        #expect(rest.size * 5 < full, "the delta without service_dates (\(rest.size) bytes) is under 20 % of the full .gz (\(full) bytes)")
        let dates = try #require(summary.tables.first { $0.name == "service_dates" })
        let changedDates = Int64(dates.removed + dates.added)
        let allDates = try Connection(path: new, mode: .readOnly).int("SELECT count(*) FROM service_dates")
        #expect(changedDates * 3 > allDates, "over a third of service_dates changes")
        #expect(summary.size - rest.size < changedDates * 3,
                "service_dates adds \(summary.size - rest.size) bytes to the delta for its \(changedDates) changed rows: under 3 bytes a row")
    }

    @Test("shadow tables of FTS5 and R*Tree, sqlite_stat1, WITHOUT ROWID, every storage class")
    func everyKindOfTable() throws {
        let old = folder.file("old.sqlite"), new = folder.file("new.sqlite")
        let scratch = folder.file("scratch.sqlite")
        let db = try Connection(path: scratch)
        try db.execute("""
            PRAGMA application_id = \(0x53454544);
            PRAGMA user_version = 1;
            CREATE TABLE seedgen_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO seedgen_metadata VALUES ('schema_name', 'kinds'), ('schema_version', '1'), ('seed_version', 'v1');
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT UNIQUE, weight REAL, data BLOB, note);
            CREATE TABLE pairs (a INTEGER NOT NULL, b TEXT NOT NULL, c, PRIMARY KEY (a, b)) WITHOUT ROWID;
            CREATE INDEX items_weight ON items (weight);
            CREATE VIRTUAL TABLE docs USING fts5 (body);
            CREATE VIRTUAL TABLE boxes USING rtree (id, x0, x1);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
              INSERT INTO items SELECT i, 'item ' || i, i * 0.5, randomblob(i % 40), CASE i % 3 WHEN 0 THEN i WHEN 1 THEN 'text' ELSE NULL END FROM n;
            INSERT INTO pairs SELECT id, name, weight FROM items;
            INSERT INTO docs (rowid, body) SELECT id, 'the body of ' || name FROM items;
            INSERT INTO boxes SELECT id, id, id + 1 FROM items;
            ANALYZE;
            VACUUM INTO '\(old)';
            """)
        // Rows added, removed and changed in each kind of table, including unique-value swaps.
        try db.execute("""
            UPDATE seedgen_metadata SET value = 'v2' WHERE key = 'seed_version';
            DELETE FROM items WHERE id % 10 = 0;
            UPDATE items SET name = 'swap' WHERE id = 1;
            UPDATE items SET name = 'item 1' WHERE id = 2;
            UPDATE items SET name = 'item 2' WHERE id = 1;
            UPDATE items SET weight = -0.0, data = x'00ff00', note = 'nul' || char(0) || 'inside' WHERE id = 3;
            INSERT INTO items VALUES (1000, 'new', 1e300, x'', 42), (-5, 'negative', NULL, NULL, 1.5);
            UPDATE pairs SET c = 'changed' WHERE a < 20;
            DELETE FROM pairs WHERE a > 290;
            DELETE FROM docs WHERE rowid % 7 = 0;
            INSERT INTO docs (rowid, body) VALUES (5000, 'a new document');
            DELETE FROM boxes WHERE id % 5 = 0;
            ANALYZE;
            VACUUM INTO '\(new)';
            """)
        let (summary, result) = try roundTrip(old, new)
        #expect(result == FileManager.default.contents(atPath: new))
        let names = Set(summary.tables.map(\.name))
        for table in ["items", "pairs", "seedgen_metadata", "docs_data", "boxes_node", "sqlite_stat1"] {
            #expect(names.contains(table), "\(table) has changes: \(names.sorted())")
        }
        #expect(!names.contains("docs") && !names.contains("boxes"), "virtual tables are never written, their shadow tables are")
    }

    /// A chain of three small seeds, each built with `--previous` of the one before: stop S2
    /// renamed in version 2 and named back in version 3; T1's second stop time dropped in
    /// version 2 and back in version 3 (a `WITHOUT ROWID` row deleted and added again under its
    /// key). No input fills the trailing columns of stops and stop_times (`stop_access`, the
    /// GTFS-Flex ones), so version 1 stores their rows without them, as a fresh build does.
    func changedBackChain() throws -> [String] {
        let stops = try #require(MinimalFeed.files["stops.txt"]), stopTimes = try #require(MinimalFeed.files["stop_times.txt"])
        let versions: [[String: String?]] = [
            [:],
            ["stops.txt": stops.replacingOccurrences(of: "S2,Two,", with: "S2,Deux,"),
             "stop_times.txt": stopTimes.replacingOccurrences(of: "T1,08:10:00,08:10:00,S2,2\n", with: "")],
            [:],
        ]
        var seeds: [String] = []
        for (index, changes) in versions.enumerated() {
            let feed = TemporaryFolder()
            MinimalFeed.write(into: feed, changes)
            var options = BuildOptions(inputs: [feed.file("feed")], output: folder.file("v\(index + 1).sqlite"))
            options.previous = seeds.last
            _ = try SeedBuilder(options: options).build()
            seeds.append(options.output)
        }
        return seeds
    }

    /// The number of columns the row of `table` with `key` is stored with.
    func storedColumns(_ seed: String, _ table: String, key: [DeltaValue]) throws -> Int? {
        let root = try Connection(path: seed, mode: .readOnly).int("SELECT rootpage FROM sqlite_schema WHERE name = '\(table)'")
        var cursor = try RecordFormReader(path: seed).forms(rootPage: Int(root), table: table, isRowID: key.count == 1, keyCount: key.count)
        while let form = try cursor.next() {
            if form.key == key { return form.columnCount }
        }
        return nil
    }

    @Test("a row changed and changed back, or removed and added back, in a chain: the delta from its first seed gives the last byte for byte")
    func changedBackAcrossChain() throws {
        let seeds = try changedBackChain()
        let (v1, v3) = (seeds[0], seeds[2])
        // The premise: same values at both ends, other forms (version 1 short, version 3 whole).
        for (table, key) in [("stops", [DeltaValue.integer(2)]), ("stop_times", [.integer(1), .integer(2)])] {
            let short = try #require(try storedColumns(v1, table, key: key)), whole = try #require(try storedColumns(v3, table, key: key))
            #expect(short < whole, "\(table) \(key): \(short) columns in v1, \(whole) in v3")
        }

        let (summary, result) = try roundTrip(v1, v3)
        #expect(summary.verified && result == FileManager.default.contents(atPath: v3))
        #expect(summary.tables.first { $0.name == "stops" }?.changed == 1, "\(summary.tables)")
        #expect(summary.tables.first { $0.name == "stop_times" }?.changed == 1, "\(summary.tables)")

        // Installed over version 1 as an app would: version 3, byte for byte.
        let installed = folder.file("installed.sqlite")
        try SeedInstaller(source: v1, destination: installed, expectedSchemaVersion: 2).install()
        #expect(try SeedInstaller(source: summary.output, destination: installed, expectedSchemaVersion: 2).install().status == .patched)
        #expect(FileManager.default.contents(atPath: installed) == FileManager.default.contents(atPath: v3))

        // Backwards, NEW (version 1) stores rows shorter than any delta writes them: refused.
        let refused = #expect(throws: ShipError.self) { try SeedDeltaWriter().write(old: v3, new: v1, to: folder.file("back.delta")) }
        #expect(refused?.message.contains("a delta writes a row whole, so it cannot give this form") == true && refused?.message.hasSuffix("ship the full seed") == true,
                "\(String(describing: refused))")
        #expect(!FileManager.default.fileExists(atPath: folder.file("back.delta")))
    }

    @Test("publish keeps the delta from two versions back when rows changed back in between")
    func publishKeepsDeltaAcrossChain() throws {
        let seeds = try changedBackChain()
        let channel = folder.file("channel")
        var results: [ChannelPublisher.Result] = []
        for seed in seeds { results.append(try ChannelPublisher(channel: channel, keep: 3).publish(seed: seed)) }
        let first = try #require(try Connection(path: seeds[0], mode: .readOnly).text("SELECT value FROM seedgen_metadata WHERE key = 'seed_version'"))
        let last = try #require(results.last)
        #expect(last.skippedDeltas.isEmpty, "\(last.skippedDeltas)")
        #expect(last.entry.deltas.count == 2 && last.entry.deltas.contains { $0.from == first }, "\(last.entry.deltas)")
    }

    @Test("a schema change gives no delta")
    func schemaChangeRefused() throws {
        let old = folder.file("v1.sqlite")
        _ = try SeedBuilder.build([Repository.path("examples/cairns")], to: old)
        let schemaText = try String(contentsOfFile: Repository.path("Schema/transit.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "schemaVersion: 2", with: "schemaVersion: 3")
        let otherVersion = folder.file("v3.sqlite")
        _ = try SeedBuilder.build([Repository.path("examples/cairns")], to: otherVersion, schema: folder.write("transit-3.yaml", schemaText))
        let refused = #expect(throws: ShipError.self) { try SeedDeltaWriter().write(old: old, new: otherVersion, to: folder.file("x.delta")) }
        #expect(refused?.message.contains("a schema change gives no delta; ship the full seed") == true, "\(String(describing: refused))")

        // The same schema, but a file no table reads: NEW has one more table (extra_notes).
        let feed = folder.file("extra")
        try FileManager.default.copyItem(atPath: Repository.path("examples/cairns"), toPath: feed)
        try "note_id,text\n1,hello\n".write(toFile: feed + "/notes.txt", atomically: true, encoding: .utf8)
        let withExtra = folder.file("extra.sqlite")
        var options = BuildOptions(inputs: [feed], output: withExtra)
        options.previous = old
        _ = try SeedBuilder(options: options).build()
        let other = #expect(throws: ShipError.self) { try SeedDeltaWriter().write(old: old, new: withExtra, to: folder.file("y.delta")) }
        #expect(other?.message.contains("table 'extra_notes' is only in") == true && other?.message.contains("ship the full seed") == true,
                "\(String(describing: other))")
        #expect(!folder.contents.contains { $0.hasSuffix(".delta") || $0.contains("seedgen-delta") }, "nothing written: \(folder.contents)")
    }
}
