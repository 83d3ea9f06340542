import Foundation
import SeedArchive
import SeedDeltas
import SeedInstaller
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit
@testable import SeedShip

/// Issue 19, part 2: `seedgen delta OLD NEW` writes the source rows that changed (not what the
/// seed derives); applying it to OLD gives NEW's content: the content digest NEW records.
@Suite("Seed deltas")
struct SeedDeltaTests {
    let folder = TemporaryFolder()

    /// Writes the delta from `old` to `new` and applies it to a copy of `old` with the
    /// installer's code (the base's digest checked, as when no record vouches for it).
    /// - Returns: the delta's summary and the path of the patched seed.
    func roundTrip(_ old: String, _ new: String, name: String = "a.delta") throws -> (summary: SeedDeltaWriter.Summary, result: String) {
        let summary = try SeedDeltaWriter().write(old: old, new: new, to: folder.file(name))
        let patch = try DeltaPatch(path: summary.output)
        let tables = try patch.checkBody()
        #expect(tables == Set(summary.tables.map(\.name)), "checkBody names the tables the delta changes")
        let result = folder.file(name + ".result")
        try patch.apply(base: old, baseIsProven: false, changedTables: tables, output: result)
        return (summary, result)
    }

    /// The content digest a seed records (`seedgen_metadata.content_sha256`).
    func recordedDigest(_ seed: String) throws -> String? {
        try Connection(path: seed, mode: .readOnly).text("SELECT value FROM seedgen_metadata WHERE key = 'content_sha256'")
    }

    /// Expects the patched seed `result` to have NEW's content: the digest NEW records, which
    /// is also what NEW's content gives.
    func expectContent(of result: String, is new: String, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let recorded = try #require(try recordedDigest(new), sourceLocation: sourceLocation)
        #expect(try ContentDigest.compute(path: new) == recorded, "NEW's record is its content", sourceLocation: sourceLocation)
        #expect(try ContentDigest.compute(path: result) == recorded, comment, sourceLocation: sourceLocation)
        #expect(try Connection(path: result, mode: .readOnly).text("PRAGMA integrity_check") == "ok", sourceLocation: sourceLocation)
    }

    /// Records the content digest of the hand-made seed `db` in its `seedgen_metadata` (after
    /// `ANALYZE`, with `analyze`) and copies it, compacted, to `path`, as a build finishes a seed.
    func seal(_ db: Connection, into path: String, analyze: Bool = false) throws {
        if analyze { try db.execute("ANALYZE") }
        try db.execute("DELETE FROM seedgen_metadata WHERE key = 'content_sha256'")
        try db.prepare("INSERT INTO seedgen_metadata VALUES ('content_sha256', ?)").run([.text(try ContentDigest.compute(db))])
        try db.execute("VACUUM INTO '\(path)'")
    }

    /// The tables a delta never carries for `seed`: its recipes' targets (but the loaded tables
    /// of `rows` recipes) and the shadow tables of its search and spatial indexes.
    func derivedTables(_ seed: String) throws -> Set<String> {
        let db = try Connection(path: seed, mode: .readOnly)
        let recipes = try DeriveRecipe.read(db)
        let shadows = try db.rows("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'").compactMap { $0[0].text }
        return Set(recipes.filter { $0.kind != .rows }.map(\.target) + shadows)
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

    @Test("Cairns: the delta gives the new seed's content, derives again what it feeds, and is a small part of the full .gz")
    func cairnsRoundTrip() throws {
        let old = folder.file("cairns-1.sqlite"), new = folder.file("cairns-2.sqlite")
        _ = try SeedBuilder.build([Repository.path("examples/cairns")], to: old)
        var options = BuildOptions(inputs: [try changedCairns()], output: new)
        options.previous = old
        let built = try SeedBuilder(options: options).build()

        let (summary, result) = try roundTrip(old, new)
        try expectContent(of: result, is: new)
        let (oldDigest, newDigest) = (try recordedDigest(old), try recordedDigest(new))
        #expect(summary.verified && summary.header.to.contentSHA256 == built.contentDigest && built.contentDigest == newDigest)
        #expect(summary.header.from.contentSHA256 == oldDigest)
        let trips = try #require(summary.tables.first { $0.name == "trips" })
        #expect(trips.removed == 79 && trips.added == 79 && trips.changed == 0, "\(trips)")
        #expect(summary.tables.contains { $0.name == "stops" && $0.changed == 1 })
        // What the seed derives is not in the delta: service_days, the stops' search and
        // spatial indexes (their shadow tables); the installer derives them again.
        let derived = try derivedTables(new)
        #expect(derived.isSuperset(of: ["service_days"]) && derived.contains { $0.hasPrefix("stops_") }, "\(derived.sorted())")
        #expect(summary.tables.allSatisfy { !derived.contains($0.name) }, "\(summary.tables.map(\.name))")
        #expect(!summary.tables.contains { $0.name == DeriveRecipe.tableName }, "the recipes did not change")
        // The renamed stop is found by its new name in the patched seed's search index.
        let patched = try Connection(path: result, mode: .readOnly)
        let search = try #require(try Schema.load(path: Repository.path("Schema/transit.yaml")).table(named: "stops")?.search?.name)
        #expect(try patched.int("SELECT count(*) FROM \(search) WHERE \(search) MATCH 'esplanade AND north'") == 1)
        #expect(try patched.int("SELECT count(*) FROM \(search) WHERE \(search) MATCH 'N201'") == 0)
        let full = try packedSize(new)
        #expect(summary.size * 10 < full, "the delta (\(summary.size) bytes) is under 10 % of the full .gz (\(full) bytes)")

        // The same seeds give the same delta, byte for byte.
        let again = try SeedDeltaWriter().write(old: old, new: new, to: folder.file("b.delta"))
        #expect(FileManager.default.contents(atPath: again.output) == FileManager.default.contents(atPath: summary.output))
    }

    @Test("two real days of a national rail feed (a quarter of the trips replaced): service_days is derived, not carried")
    func renfeRoundTrip() throws {
        let data = "/work/shared/data/gtfs-daily-renfe-ld/"
        try #require(FileManager.default.fileExists(atPath: data), "the renfe archive is in /work/shared/data")
        let old = folder.file("16.sqlite"), new = folder.file("17.sqlite")
        _ = try SeedBuilder.build([data + "renfe-ld-2026-03-16.zip"], to: old)
        var options = BuildOptions(inputs: [data + "renfe-ld-2026-03-17.zip"], output: new)
        options.previous = old
        _ = try SeedBuilder(options: options).build()
        let (summary, result) = try roundTrip(old, new)
        try expectContent(of: result, is: new)
        let full = try packedSize(new)

        // Renfe's service ids carry their dates ("2026-03-162026-03-17718211"), so a day renames
        // a quarter of the services, and service_days (the dates of each service) changes more
        // than a third of its dates. Those rows are derived from calendar and calendar_dates: the
        // delta carries the calendars that changed, the installer derives the dates again.
        #expect(!summary.tables.contains { $0.name == "service_days" }, "\(summary.tables.map(\.name))")
        #expect(summary.tables.contains { $0.name == "calendar" || $0.name == "calendar_dates" })
        #expect(summary.size * 5 < full, "the delta (\(summary.size) bytes) is under 20 % of the full .gz (\(full) bytes)")
        let dates = "SELECT count(*) FROM (\(ServiceDays.expanded))"
        let newDB = try Connection(path: new, mode: .readOnly)
        let newDates = Set(try newDB.rows(ServiceDays.expanded).map { "\($0[0]) \($0[1])" })
        let oldDates = Set(try Connection(path: old, mode: .readOnly).rows(ServiceDays.expanded).map { "\($0[0]) \($0[1])" })
        let changedDates = newDates.subtracting(oldDates).count
        #expect(changedDates * 3 > newDates.count, "over a third of the service dates change (\(changedDates))")
        #expect(try Connection(path: result, mode: .readOnly).int(dates) == newDB.int(dates), "derived again on the patched seed")
    }

    @Test("every kind of table: recipes of each kind derived again, sqlite_stat1, WITHOUT ROWID, every storage class")
    func everyKindOfTable() throws {
        let old = folder.file("old.sqlite"), new = folder.file("new.sqlite")
        let scratch = folder.file("scratch.sqlite")
        let db = try Connection(path: scratch)
        // As seedgen builds them: an FTS5 index over items and an R*Tree (shadow tables), a
        // derived table, the derived rows of a loaded table (marker column), their recipes.
        let recipes = [
            DeriveRecipe(kind: .table, target: "weights", reads: ["items"],
                         fill: "INSERT INTO weights (bucket, n) SELECT CAST(weight AS INTEGER) / 10, count(*) FROM items WHERE weight IS NOT NULL GROUP BY 1 ORDER BY 1"),
            DeriveRecipe(kind: .rows, target: "notes", reads: ["items", "weights"], rows: "\"derived\" = 1",
                         fill: "INSERT INTO notes (item_ref, text, derived) SELECT i.id, 'bucket ' || w.n, 1 FROM items AS i JOIN weights AS w ON w.bucket = CAST(i.weight AS INTEGER) / 10 WHERE i.id % 25 = 0 ORDER BY i.id"),
            DeriveRecipe(kind: .search, target: "docs", reads: ["items"], fill: "INSERT INTO docs(docs) VALUES('rebuild')"),
            DeriveRecipe(kind: .spatial, target: "boxes", reads: ["items"], fill: "INSERT INTO boxes SELECT id, weight, weight + 1 FROM items WHERE weight < 1000 ORDER BY id"),
        ]
        try db.execute("""
            PRAGMA application_id = \(0x53454544);
            PRAGMA user_version = 1;
            CREATE TABLE seedgen_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO seedgen_metadata VALUES ('schema_name', 'kinds'), ('schema_version', '1'), ('seed_version', 'v1');
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT UNIQUE, weight REAL, data BLOB, note);
            CREATE TABLE pairs (a INTEGER NOT NULL, b TEXT NOT NULL, c, PRIMARY KEY (a, b)) WITHOUT ROWID;
            CREATE TABLE weights (bucket INTEGER PRIMARY KEY, n INTEGER NOT NULL);
            CREATE TABLE notes (id INTEGER PRIMARY KEY, item_ref INTEGER, text TEXT, derived INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX items_weight ON items (weight);
            CREATE VIRTUAL TABLE docs USING fts5 (name, note, content='items', content_rowid='id');
            CREATE VIRTUAL TABLE boxes USING rtree (id, x0, x1);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
              INSERT INTO items SELECT i, 'item ' || i, i * 0.5, randomblob(i % 40), CASE i % 3 WHEN 0 THEN i WHEN 1 THEN 'text' ELSE NULL END FROM n;
            INSERT INTO pairs SELECT id, name, weight FROM items;
            INSERT INTO notes (item_ref, text) SELECT id, 'loaded ' || id FROM items WHERE id % 30 = 1;
            """)
        try DeriveRecipe.write(recipes, to: db)
        for recipe in recipes { try recipe.derive(db) }
        func finish(_ path: String) throws { try seal(db, into: path, analyze: true) }
        try finish(old)
        // Rows added, removed and changed in each kind of table, including unique-value swaps,
        // a number of another storage class in an untyped column (6 becomes 6.0), and loaded
        // rows of the table with derived rows; what is derived follows with the recipes.
        try db.execute("""
            UPDATE seedgen_metadata SET value = 'v2' WHERE key = 'seed_version';
            DELETE FROM items WHERE id % 10 = 0;
            UPDATE items SET name = 'swap' WHERE id = 1;
            UPDATE items SET name = 'item 1' WHERE id = 2;
            UPDATE items SET name = 'item 2' WHERE id = 1;
            UPDATE items SET weight = 77.25, data = x'00ff00', note = 'nul' || char(0) || 'inside' WHERE id = 3;
            UPDATE items SET note = 6.0 WHERE id = 6;
            INSERT INTO items VALUES (1000, 'new', 1e300, x'', 42), (-5, 'negative', NULL, NULL, 1.5), (1001, 'a new document', 3.5, NULL, 'zebra');
            UPDATE pairs SET c = 'changed' WHERE a < 20;
            DELETE FROM pairs WHERE a > 290;
            DELETE FROM notes WHERE derived = 0 AND id % 2 = 0;
            UPDATE notes SET text = 'loaded, changed' WHERE derived = 0 AND item_ref = 61;
            """)
        for recipe in DeriveRecipe.affected(recipes, byChangesTo: ["items"]).reversed() { try recipe.clear(db) }
        for recipe in DeriveRecipe.affected(recipes, byChangesTo: ["items"]) { try recipe.derive(db) }
        try finish(new)

        let (summary, result) = try roundTrip(old, new)
        try expectContent(of: result, is: new)
        let names = Set(summary.tables.map(\.name))
        for table in ["items", "pairs", "notes", "seedgen_metadata", "sqlite_stat1"] {
            #expect(names.contains(table), "\(table) has changes: \(names.sorted())")
        }
        #expect(names.isDisjoint(with: try derivedTables(new)) && !names.contains { $0.hasPrefix("docs") || $0.hasPrefix("boxes") } && !names.contains("weights"),
                "derived tables, virtual tables and their shadow tables are never written: \(names.sorted())")
        #expect(summary.tables.first { $0.name == "notes" }.map { $0.removed + $0.changed } == 6, "only the loaded rows of notes: \(summary.tables)")
        #expect(summary.tables.first { $0.name == "items" }.map { $0.changed >= 3 } == true, "6 -> 6.0 is a change: \(summary.tables)")

        // The indexes, derived again, answer as NEW's do.
        let patched = try Connection(path: result, mode: .readOnly), expected = try Connection(path: new, mode: .readOnly)
        for query in ["SELECT group_concat(rowid) FROM docs WHERE docs MATCH 'document OR zebra OR inside'",
                      "SELECT group_concat(id) FROM (SELECT id FROM boxes WHERE x0 >= 70 AND x1 <= 80 ORDER BY id)",
                      "SELECT group_concat(text, '|') FROM (SELECT text FROM notes ORDER BY id)",
                      "SELECT typeof(note) FROM items WHERE id = 6"] {
            let value = try patched.text(query), wanted = try expected.text(query)
            #expect(value != nil && value == wanted, "\(query)")
        }
        // FTS5's own check of the index against its content table (throws when they differ).
        try Connection(path: result, mode: .readWrite).execute("INSERT INTO docs(docs) VALUES('integrity-check')")
    }

    @Test("values SQL calls equal but stored apart are changes: 0.0 and -0.0, a key's case under NOCASE; keys of every storage class in SQLite's order")
    func storedApart() throws {
        let old = folder.file("old.sqlite"), new = folder.file("new.sqlite")
        let db = try Connection(path: folder.file("scratch.sqlite"))
        try db.execute("""
            PRAGMA application_id = \(0x53454544);
            PRAGMA user_version = 1;
            CREATE TABLE seedgen_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO seedgen_metadata VALUES ('schema_name', 'apart'), ('schema_version', '1'), ('seed_version', 'v1');
            CREATE TABLE readings (id INTEGER PRIMARY KEY, level);  -- untyped: a REAL column stores -0.0 as 0
            INSERT INTO readings VALUES (1, 0.0), (2, 1.5), (3, -0.0);
            CREATE TABLE names (name TEXT PRIMARY KEY COLLATE NOCASE, note TEXT) WITHOUT ROWID;
            INSERT INTO names VALUES ('Alpha', 'a'), ('beta', 'b'), ('Gamma', 'g');
            CREATE TABLE mixed (k PRIMARY KEY, v) WITHOUT ROWID;
            INSERT INTO mixed VALUES (-7, 'int'), (2.5, 'real'), (3, 'three'), ('B', 'upper'), ('a', 'lower'), (x'00', 'blob'), (x'0001', 'longer blob');
            """)
        func finish(_ path: String) throws { try seal(db, into: path) }
        try finish(old)
        // Each of these compares equal in SQL (0.0 = -0.0; 'alpha' = 'Alpha' under NOCASE), yet
        // the content digest tells them apart: a delta that missed them could not give NEW.
        try db.execute("""
            UPDATE seedgen_metadata SET value = 'v2' WHERE key = 'seed_version';
            UPDATE readings SET level = -0.0 WHERE id = 1;
            UPDATE readings SET level = 0.0 WHERE id = 3;
            DELETE FROM names WHERE name = 'Alpha';
            INSERT INTO names VALUES ('alpha', 'a');
            UPDATE names SET note = 'B' WHERE name = 'beta';
            DELETE FROM mixed WHERE k IN (3, 'a', x'00');
            UPDATE mixed SET v = 'changed' WHERE k IN (2.5, x'0001');
            INSERT INTO mixed VALUES (2, 'two'), (2.75, 'real'), ('A', 'upper a'), (x'', 'empty blob'), ('', 'empty text');
            """)
        try finish(new)

        let (summary, result) = try roundTrip(old, new)
        try expectContent(of: result, is: new, "the patched seed has NEW's content")
        let changes = Dictionary(uniqueKeysWithValues: summary.tables.map { ($0.name, $0) })
        #expect(changes["readings"]?.changed == 2, "0.0 -> -0.0 and back: \(summary.tables)")
        #expect(changes["names"].map { [$0.removed, $0.added, $0.changed] } == [1, 1, 1], "'Alpha' goes, 'alpha' comes: \(summary.tables)")
        #expect(changes["mixed"].map { [$0.removed, $0.added, $0.changed] } == [3, 5, 2], "\(summary.tables)")
        let keys = try Connection(path: result, mode: .readOnly).text("SELECT group_concat(quote(k), ' ') FROM mixed")
        #expect(keys == "-7 2 2.5 2.75 '' 'A' 'B' X'' X'0001'")
    }

    /// A chain of three small seeds, each built with `--previous` of the one before: stop S2
    /// renamed in version 2 and named back in version 3; T1's second stop time dropped in
    /// version 2 and back in version 3 (a `WITHOUT ROWID` row deleted and added again under its
    /// key).
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

    @Test("a row changed and changed back, or removed and added back, in a chain: not in the delta from its first seed, which gives the last seed's content both ways")
    func changedBackAcrossChain() throws {
        let seeds = try changedBackChain()
        let (v1, v3) = (seeds[0], seeds[2])
        let (summary, result) = try roundTrip(v1, v3)
        try expectContent(of: result, is: v3)
        // The same values at both ends: the rows are not in it, however they are stored.
        #expect(summary.verified && !summary.tables.contains { $0.name == "stops" || $0.name == "stop_times" }, "\(summary.tables)")

        // Installed over version 1 as an app would: version 3's content.
        let installed = folder.file("installed.sqlite")
        try SeedInstaller(source: v1, destination: installed, expectedSchemaVersion: 4).install()
        #expect(try SeedInstaller(source: summary.output, destination: installed, expectedSchemaVersion: 4).install().status == .patched)
        #expect(try ContentDigest.compute(path: installed) == (try recordedDigest(v3)))

        // Backwards too (stored record forms no longer matter).
        let (back, backResult) = try roundTrip(v3, v1, name: "back.delta")
        #expect(back.verified)
        try expectContent(of: backResult, is: v1)
    }

    @Test("scratch files a killed seedgen delta left beside its output are removed by the next; other files are not")
    func abandonedScratchFiles() throws {
        let seeds = try changedBackChain()
        let output = folder.file("out/1-2.delta")
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        // pid 2^22+1 is above Linux's pid_max default, so no such process is running.
        let abandoned = ["delta", "stored", "spool", "check"].map { ".1-2.delta.seedgen-\($0)-4194305-7" }
        let kept = [".1-2.delta.seedgen-spool-\(getpid())-1", ".other.delta.seedgen-spool-4194305-1", ".1-2.delta.seedgen-build-x", "notes.txt"]
        for name in abandoned + kept { try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file("out/" + name))) }
        _ = try SeedDeltaWriter().write(old: seeds[0], new: seeds[1], to: output)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.file("out")).sorted()
        #expect(left == (kept + ["1-2.delta"]).sorted())
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

    @Test("publish removes the scratch file a killed publish left beside the channel's index; other files are not")
    func publishRemovesAbandonedScratch() throws {
        let seeds = try changedBackChain()
        let channel = folder.file("channel")
        try FileManager.default.createDirectory(atPath: channel, withIntermediateDirectories: true)
        // pid 2^22+1 is above Linux's pid_max default, so no such process is running.
        let abandoned = ".index.json.seedgen-publish-4194305-3", kept = ".index.json.seedgen-publish-\(getpid())-1"
        for name in [abandoned, kept] { FileManager.default.createFile(atPath: channel + "/" + name, contents: Data("x".utf8)) }
        _ = try ChannelPublisher(channel: channel, keep: 3).publish(seed: seeds[0])
        let left = try FileManager.default.contentsOfDirectory(atPath: channel)
        #expect(!left.contains(abandoned) && left.contains(kept) && left.contains("index.json"), "\(left)")
    }

    @Test("a schema change gives no delta")
    func schemaChangeRefused() throws {
        let old = folder.file("v1.sqlite")
        _ = try SeedBuilder.build([Repository.path("examples/cairns")], to: old)
        let schemaText = try String(contentsOfFile: Repository.path("Schema/transit.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "schemaVersion: 4", with: "schemaVersion: 5")
        let otherVersion = folder.file("v3.sqlite")
        _ = try SeedBuilder.build([Repository.path("examples/cairns")], to: otherVersion, schema: folder.write("transit-3.yaml", schemaText))
        let refused = #expect(throws: ShipError.self) { try SeedDeltaWriter().write(old: old, new: otherVersion, to: folder.file("x.delta")) }
        #expect(refused?.code == .noDelta && refused?.message.contains("a schema change gives no delta; ship the full seed") == true, "\(String(describing: refused))")

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
