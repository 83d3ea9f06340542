import Foundation
import SeedArchive
import SeedDeltas
import SeedKitTestSupport
import SeedSQLite
import SeedSystem
import SeedTestSupport
import Testing
@testable import SeedKit
@testable import SeedShip

/// A seed built from the minimal feed (with `changes`) into `folder/name`.
private func minimalSeed(in folder: TemporaryFolder, _ name: String = "seed.sqlite", _ changes: [String: String?] = [:]) throws -> String {
    let feed = TemporaryFolder()
    MinimalFeed.write(into: feed, changes)
    let output = folder.file(name)
    _ = try SeedBuilder.build([feed.file("feed")], to: output)
    return output
}

/// Runs SQL on a seed, as a damaged or careless build would.
private func tamper(_ path: String, _ sql: String) throws {
    try Connection(path: path, mode: .readWrite).execute(sql)
}

private func checks(_ path: String, schema: Schema? = nil) throws -> [String: SeedCheck] {
    let results = SeedVerifier(schema: schema).verify(try SeedFile(path: path))
    return Dictionary(results.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
}

private func failures(_ path: String, schema: Schema? = nil) throws -> [String] {
    try checks(path, schema: schema).values.filter { !$0.passed }.map(\.name).sorted()
}

@Suite("Packing a seed")
struct ShipPackTests {
    @Test("packing twice gives identical bytes, stamped, with a manifest that tells the truth")
    func deterministic() throws {
        let folder = TemporaryFolder()
        let seed = try minimalSeed(in: folder)
        let first = try SeedPacker().pack(seed: seed, to: folder.file("a.sqlite.gz"))
        let second = try SeedPacker().pack(seed: seed, to: folder.file("b.sqlite.gz"))
        let a = try Data(contentsOf: URL(fileURLWithPath: first.gzipPath))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: second.gzipPath))))
        #expect(first.manifestPath == folder.file("a.sqlite.manifest.json"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.manifestPath)) == (try Data(contentsOf: URL(fileURLWithPath: second.manifestPath))))

        // The manifest against digests computed here, from the files' bytes.
        let manifest = try SeedManifest.read(path: first.manifestPath)
        let seedBytes = try Data(contentsOf: URL(fileURLWithPath: seed))
        #expect(manifest.sha256 == SHA256.hex(of: seedBytes))
        #expect(manifest.size == Int64(seedBytes.count))
        #expect(manifest.gzipSha256 == SHA256.hex(of: a))
        #expect(manifest.gzipSize == Int64(a.count))
        #expect(manifest.schemaVersion == 4 && manifest.schemaName == "transit" && manifest.toolVersion == toolVersion)
        let db = try Connection(path: seed, mode: .readOnly)
        #expect(manifest.seedVersion == (try db.text("SELECT value FROM seedgen_metadata WHERE key = 'seed_version'")))
        #expect(manifest.tables["stop_times"] == 3 && manifest.tables["stops"] == 2 && manifest.tables["feed_info"] == 0)
        #expect(manifest.tables["seedgen_metadata"] == nil)
        // The content digest: recorded by the build, what the content gives, in the manifest
        // and in what inspect reports (from the seed and from its manifest).
        let recorded = try #require(try db.text("SELECT value FROM seedgen_metadata WHERE key = 'content_sha256'"))
        #expect(try recorded.count == 64 && recorded == ContentDigest.compute(path: seed))
        #expect(manifest.contentSHA256 == recorded)
        #expect(try SeedInspector.report(for: SeedFile(path: seed)).contentSha256 == recorded)
        #expect(try SeedInspector.report(for: SeedFile(path: first.gzipPath)).contentSha256 == recorded)

        // No time stamp or file name; the stamp in the comment.
        #expect(Array(a.prefix(10)) == [0x1f, 0x8b, 8, 0x10, 0, 0, 0, 0, 2, 255])
        let header = try GzipHeader.read(path: first.gzipPath)
        #expect(header.fileName == nil && header.stamp == manifest.stamp)
    }

    @Test("the scratch file of a killed pack is removed by the next pack of that output; other files are not")
    func abandonedScratchFile() throws {
        let folder = TemporaryFolder()
        let seed = try minimalSeed(in: folder)
        // pid 2^22+1 is above Linux's pid_max default, so no such process is running.
        folder.write(".seed.sqlite.gz.seedgen-pack-4194305-7", "x")
        let kept = [".seed.sqlite.gz.seedgen-pack-\(getpid())-1", ".other.sqlite.gz.seedgen-pack-4194305-1"]
        for name in kept { folder.write(name, "x") }
        let before = Set(folder.contents)
        _ = try SeedPacker().pack(seed: seed, to: folder.file("seed.sqlite.gz"))
        #expect(Set(folder.contents) == before.subtracting([".seed.sqlite.gz.seedgen-pack-4194305-7"])
            .union(["seed.sqlite.gz", "seed.sqlite.manifest.json"]))
    }

    @Test("reading a .gz removes the copy a killed reader of that name left in the temporary folder")
    func abandonedReadCopy() throws {
        let folder = TemporaryFolder()
        let name = "abandoned-\(UUID().uuidString).sqlite.gz"
        let packed = try SeedPacker().pack(seed: try minimalSeed(in: folder), to: folder.file(name))
        // pid 2^22+1 is above Linux's pid_max default, so no such process is running.
        let abandoned = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(".\(name).seedgen-read-4194305-5").path
        FileManager.default.createFile(atPath: abandoned, contents: Data("x".utf8))
        let file = try SeedFile(path: packed.gzipPath)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(file.databasePath != nil)
    }

    @Test("a file that is not a seed is refused")
    func notASeed() throws {
        let folder = TemporaryFolder()
        let path = folder.write("x.sqlite", "hello")
        let refused = #expect(throws: ShipError.self) { try SeedPacker().pack(seed: path) }
        #expect(refused?.code == .notASeed, "\(String(describing: refused))")
        #expect(!FileManager.default.fileExists(atPath: path + ".gz"))
    }

    @Test("a full disk is told from a bad seed by its code, with the failed call underneath", .enabled(if: Tmpfs.canMount, Tmpfs.unavailable))
    func diskFullHasACodeAndACause() throws {
        let folder = TemporaryFolder()
        let seed = folder.file("seed.sqlite")
        _ = try SeedBuilder.build([Repository.path("examples/cairns")], to: seed)
        let mount = folder.file("mnt")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        try #require(try ChildProcess.shell("mount -t tmpfs -o size=64k tmpfs '\(mount)'").status == 0)
        defer { _ = try? ChildProcess.shell("umount '\(mount)'") }
        let refused = #expect(throws: ShipError.self) { try SeedPacker().pack(seed: seed, to: mount + "/seed.sqlite.gz") }
        #expect(refused?.code == .diskFull, "\(String(describing: refused))")
        #expect((refused?.cause as? SystemCallError)?.errno == ENOSPC, "\(String(describing: refused?.cause))")
    }
}

@Suite("Verifying a seed")
struct ShipVerifyTests {
    static let transit = try! SchemaLocator.builtIns[0].load()

    @Test("a good seed passes every check, as .sqlite, .sqlite.gz and through its manifest")
    func good() throws {
        let folder = TemporaryFolder()
        let seed = try minimalSeed(in: folder)
        #expect(try failures(seed, schema: Self.transit) == [])
        let packed = try SeedPacker().pack(seed: seed)
        for path in [seed, packed.gzipPath, packed.manifestPath] {
            let results = try checks(path, schema: Self.transit)
            #expect(results.values.allSatisfy { $0.passed }, "\(path): \(results.values.filter { !$0.passed })")
            #expect(results["manifest_checksums"] != nil && results["schema"] != nil)
        }
        #expect(try checks(packed.gzipPath)["gzip_stamp"]?.passed == true)
    }

    @Test("a broken foreign key fails foreign_key_check, saying where")
    func brokenForeignKey() throws {
        let folder = TemporaryFolder()
        let seed = try minimalSeed(in: folder)
        try tamper(seed, "UPDATE stop_times SET trip_ref = trip_ref + 90")
        #expect(try failures(seed) == ["content_digest", "foreign_key_check"], "changed after it was built, too")
        #expect(try checks(seed)["foreign_key_check"]?.detail == "3 rows in stop_times reference missing trips")
    }

    @Test("a WAL-mode seed fails journal_mode")
    func wal() throws {
        let folder = TemporaryFolder()
        let seed = try minimalSeed(in: folder)
        try tamper(seed, "PRAGMA journal_mode = WAL")
        #expect(try failures(seed) == ["journal_mode"])
        #expect(folder.contents == ["seed.sqlite"], "verifying writes nothing beside the seed")
    }

    @Test("a wrong version fails versions, and a schema mismatch fails schema")
    func wrongVersion() throws {
        let folder = TemporaryFolder()
        let seed = try minimalSeed(in: folder)
        try tamper(seed, "PRAGMA user_version = 7")
        #expect(try failures(seed) == ["versions"])
        #expect(try checks(seed)["versions"]?.detail == "PRAGMA user_version is 7 but seedgen_metadata says schema_version 4")
        #expect(try failures(seed, schema: Self.transit) == ["versions"])

        let other = try minimalSeed(in: folder, "other.sqlite")
        var newer = Self.transit
        newer.schemaVersion = 5
        newer.tables[1].columns.append(Column(name: "stop_color"))
        #expect(try failures(other, schema: newer) == ["schema", "versions"])
        let results = try checks(other, schema: newer)
        #expect(results["versions"]?.detail == "the schema version is 4, expected 5")
        #expect(results["schema"]?.detail == "stops.stop_color is missing")
        #expect(try failures(other) == [], "without a schema the seed is consistent")
        #expect(SeedVerifier(schemaVersion: 5).verify(try SeedFile(path: other)).filter { !$0.passed }.map(\.name) == ["versions"])
    }

    @Test("a manifest whose checksum is off fails manifest_checksums")
    func manifestChecksum() throws {
        let folder = TemporaryFolder()
        let seed = try minimalSeed(in: folder)
        let packed = try SeedPacker().pack(seed: seed)
        var manifest = packed.manifest
        manifest.sha256 = String(repeating: "0", count: 64)
        manifest.gzipSize += 1
        try manifest.write(path: packed.manifestPath)
        #expect(try failures(packed.gzipPath) == ["manifest_checksums"])
        let detail = try checks(packed.gzipPath)["manifest_checksums"]?.detail ?? ""
        #expect(detail.contains("sha256 is 0000") && detail.contains("gzipSize is \(manifest.gzipSize) in the manifest"))

        manifest = packed.manifest
        manifest.tables["stops"] = 5
        try manifest.write(path: packed.manifestPath)
        #expect(try checks(packed.gzipPath)["manifest_contents"]?.detail == "stops: 5 rows in the manifest, 2 in the seed")
    }

    @Test("a seed whose content changed after the build fails content_digest, and pack refuses it")
    func contentChangedAfterBuild() throws {
        let folder = TemporaryFolder()
        let seed = try minimalSeed(in: folder)
        let recorded = try #require(try Connection(path: seed, mode: .readOnly).text("SELECT value FROM seedgen_metadata WHERE key = 'content_sha256'"))
        let passing = try checks(seed)["content_digest"]
        #expect(passing?.passed == true && passing?.detail == recorded)
        // Only the layout changes (another page size, VACUUM): the same content, still passes.
        try tamper(seed, "PRAGMA page_size = 1024; VACUUM")
        #expect(try failures(seed) == [])

        // One value changed, nothing else wrong: only content_digest fails, saying so.
        try tamper(seed, "UPDATE stop_times SET stop_headsign = 'Eins' WHERE stop_sequence = 1")
        #expect(try failures(seed) == ["content_digest"])
        let detail = try checks(seed)["content_digest"]?.detail ?? ""
        let actual = try ContentDigest.compute(path: seed)
        #expect(actual != recorded && detail.contains("records content digest \(recorded)") && detail.contains("changed after it was built") && detail.contains(actual), "\(detail)")
        let refused = #expect(throws: ShipError.self) { try SeedPacker().pack(seed: seed, to: folder.file("x.sqlite.gz")) }
        #expect(refused?.code == .damaged && refused?.message.contains("changed after it was built") == true, "\(String(describing: refused))")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.sqlite.gz")) && !FileManager.default.fileExists(atPath: folder.file("x.sqlite.manifest.json")))

        // A schema entry is content too; a seed without a recorded digest fails.
        let other = try minimalSeed(in: folder, "other.sqlite")
        try tamper(other, "CREATE VIEW stop_names AS SELECT stop_name FROM stops")
        #expect(try failures(other) == ["content_digest"])
        let unrecorded = try minimalSeed(in: folder, "unrecorded.sqlite")
        try tamper(unrecorded, "DELETE FROM seedgen_metadata WHERE key = 'content_sha256'")
        #expect(try checks(unrecorded)["content_digest"]?.detail.contains("records no content digest") == true)

        // A manifest that names other content fails it too.
        let good = try minimalSeed(in: folder, "good.sqlite")
        let packed = try SeedPacker().pack(seed: good)
        var manifest = packed.manifest
        manifest.contentSHA256 = String(repeating: "a", count: 64)
        try manifest.write(path: packed.manifestPath)
        #expect(try checks(packed.gzipPath)["content_digest"]?.detail.contains("the manifest says contentSha256 \(String(repeating: "a", count: 64))") == true)
    }

    @Test("a tampered chunk hash in seedgen_content_chunks fails content_digest (the rows unchanged), as does a dropped record")
    func tamperedChunkHash() throws {
        let folder = TemporaryFolder()
        let seed = try minimalSeed(in: folder)
        #expect(try failures(seed) == [])
        try tamper(seed, "UPDATE seedgen_content_chunks SET sha256 = zeroblob(32) WHERE table_name = 'stops' AND position = 0")
        #expect(try failures(seed) == ["content_digest"])
        let detail = try checks(seed)["content_digest"]?.detail ?? ""
        #expect(detail.contains("chunk 0 of table 'stops'") && detail.contains(String(repeating: "0", count: 64)), "\(detail)")
        #expect(!detail.contains("changed after it was built"), "the rows and the root are unchanged: \(detail)")
        let dropped = try minimalSeed(in: folder, "dropped.sqlite")
        try tamper(dropped, "DROP TABLE seedgen_content_chunks; VACUUM")
        #expect(try failures(dropped) == ["content_digest"])
        #expect(try checks(dropped)["content_digest"]?.detail.contains("has no chunk record") == true)
    }

    @Test("free pages fail vacuumed; a foreign file fails application_id")
    func vacuumedAndApplicationID() throws {
        let folder = TemporaryFolder()
        let seed = try minimalSeed(in: folder)
        try tamper(seed, "CREATE TABLE filler AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) SELECT i, zeroblob(100) AS b FROM n; DROP TABLE filler")
        #expect(try failures(seed) == ["vacuumed"])
        try tamper(seed, "VACUUM; PRAGMA application_id = 0")
        #expect(try failures(seed) == ["application_id"])
    }
}

@Suite("Comparing seeds")
struct ShipDiffTests {
    @Test("reports exactly the rows added, removed and changed, by natural key, ignoring ids")
    func knownChanges() throws {
        let folder = TemporaryFolder()
        let old = try minimalSeed(in: folder, "old.sqlite")
        let new = try minimalSeed(in: folder, "new.sqlite", [
            // S2 removed, S3 added, S1 renamed: every id after S1 shifts.
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,One (renamed),52.5,13.4,\nS3,Three,52.7,13.6,\n",
            // T3 added.
            "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,T2\nR1,WD,T3\n",
            // (T1,1) later, (T1,2) gone with S2, (T3,1) added, (T2,1) unchanged.
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:01:00,08:01:00,S1,1\nT2,25:10:00,25:10:00,S1,1\nT3,09:00:00,09:00:00,S3,1\n",
        ])
        let diff = try SeedDiff.compare(old: SeedFile(path: old), new: SeedFile(path: new))
        let changed = diff.tables.filter { $0.value.hasChanges }
        // The trips' patterns, derived from stop_times, change with them (T1 has one stop left).
        #expect(Set(changed.keys) == ["stops", "trips", "stop_times", "trip_patterns", "pattern_stops"])

        let stops = try #require(diff.tables["stops"])
        #expect(stops.key == ["stop_id"])
        #expect((stops.added, stops.removed, stops.changed) == (1, 1, 1))
        #expect(stops.changedColumns == ["stop_name": 1])
        #expect(stops.examples == SeedDiff.Examples(added: [["S3"]], removed: [["S2"]], changed: [["S1"]]))

        let trips = try #require(diff.tables["trips"])
        #expect((trips.added, trips.removed, trips.changed) == (1, 0, 0))
        #expect(trips.examples.added == [["T3"]])

        let stopTimes = try #require(diff.tables["stop_times"])
        #expect(stopTimes.key == ["trip_ref.trip_id", "stop_sequence"], "trip_ref in the key is matched by the trip_id it points to")
        #expect((stopTimes.added, stopTimes.removed, stopTimes.changed) == (1, 1, 1))
        #expect(stopTimes.changedColumns == ["arrival_time": 1, "departure_time": 1])
        #expect(stopTimes.examples == SeedDiff.Examples(added: [["T3", "1"]], removed: [["T1", "2"]], changed: [["T1", "1"]]))
        #expect((stopTimes.oldRows, stopTimes.newRows) == (3, 3))
        #expect(diff.new.seedVersion != diff.old.seedVersion)

        let same = try SeedDiff.compare(old: SeedFile(path: old), new: SeedFile(path: old))
        #expect(!same.hasChanges)
    }

    @Test("with the schema, keys come from it; tables only in one seed are reported whole")
    func schemaKeysAndTables() throws {
        let folder = TemporaryFolder()
        let old = try minimalSeed(in: folder, "old.sqlite")
        let new = try minimalSeed(in: folder, "new.sqlite", ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,One,52.5,13.4,\nS2,Two,52.6,13.5,S1\n"])
        try tamper(new, "CREATE TABLE extra (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO extra (name) VALUES ('a'), ('b')")
        let diff = try SeedDiff.compare(old: SeedFile(path: old), new: SeedFile(path: new), schema: ShipVerifyTests.transit)
        #expect(diff.tables["stops"]?.changedColumns == ["parent_station": 1, "parent_station_ref.stop_id": 1],
                "the reference is compared by the stop_id it points to")
        #expect(diff.tables["extra"]?.presence == "added" && diff.tables["extra"]?.added == 2)
        let reverse = try SeedDiff.compare(old: SeedFile(path: new), new: SeedFile(path: old))
        #expect(reverse.tables["extra"]?.presence == "removed" && reverse.tables["extra"]?.removed == 2)
    }
}

@Suite("Generating Swift from a schema")
struct ShipSwiftSchemaTests {
    @Test("names become Swift identifiers")
    func identifiers() {
        #expect(SwiftSchemaGenerator.upperCamel("stop_times") == "StopTimes")
        #expect(SwiftSchemaGenerator.lowerCamel("stop_id") == "stopID")
        #expect(SwiftSchemaGenerator.lowerCamel("parent_station_ref") == "parentStationRef")
        #expect(SwiftSchemaGenerator.identifier("default") == "`default`")
        #expect(SwiftSchemaGenerator.identifier("3d") == "_3d")
    }

    @Test("the source carries the version and the names, and depends only on the schema")
    func source() throws {
        let schema = try SchemaLocator.builtIns[0].load()
        let source = SwiftSchemaGenerator(schema: schema).source
        #expect(source.contains("public enum TransitSchema {"))
        #expect(source.contains("public static let schemaVersion = 4"))
        #expect(source.contains("public enum StopTimes {") && source.contains("public static let table = \"stop_times\""))
        #expect(source.contains("public static let stopID = ColumnInfo(name: \"stop_id\""))
        #expect(source == SwiftSchemaGenerator(schema: schema).source)
        #expect(SwiftSchemaGenerator(schema: schema, typeName: "Transit", accessLevel: "internal").source.contains("\nenum Transit {"))
    }

    @Test("each column carries its SQL and Swift types, nullability and reference; no type is named Column")
    func typesAndReferences() throws {
        let schema = try SchemaLocator.builtIns[0].load()
        let source = SwiftSchemaGenerator(schema: schema).source
        func column(_ member: String, _ fields: String) -> String { "public static let \(member) = ColumnInfo(\(fields))" }
        #expect(source.contains(column("tripRef", #"name: "trip_ref", sqlType: "INTEGER", swiftType: "Int64", schemaType: "integer", isNullable: false, references: ForeignKey(table: "trips", column: "id")"#)))
        #expect(source.contains(column("parentStationRef", #"name: "parent_station_ref", sqlType: "INTEGER", swiftType: "Int64", schemaType: "integer", isNullable: true, references: ForeignKey(table: "stops", column: "id")"#)))
        #expect(source.contains(column("arrivalTime", #"name: "arrival_time", sqlType: "INTEGER", swiftType: "Int64", schemaType: "time", isNullable: true, references: nil"#)))
        #expect(source.contains(column("stopLat", #"name: "stop_lat", sqlType: "REAL", swiftType: "Double", schemaType: "real", isNullable: true, references: nil"#)))
        #expect(source.contains(column("monday", #"name: "monday", sqlType: "INTEGER", swiftType: "Bool", schemaType: "boolean", isNullable: false, references: nil"#)))
        #expect(source.contains(column("startDate", #"name: "start_date", sqlType: "TEXT", swiftType: "String", schemaType: "date", isNullable: false, references: nil"#)))
        #expect(source.contains(#"public static let primaryKey: [String] = ["trip_ref", "stop_sequence"]"#), "a WITHOUT ROWID table's key")
        #expect(source.contains(#"public static let primaryKey: [String] = ["id"]"#))
        #expect(!source.contains("enum Column ") && !source.contains("struct Column ") && !source.contains("import GRDB"))
    }

    @Test("--grdb adds record structs with belongsTo and hasMany from the references, deterministically")
    func grdbRecords() throws {
        let schema = try SchemaLocator.builtIns[0].load()
        let source = SwiftSchemaGenerator(schema: schema, grdb: true).source
        #expect(source.contains("\nimport GRDB\n"))
        #expect(source.contains("extension TransitSchema.StopTimes {\n    /// A row of `stop_times`, read with GRDB (`try Record.fetchAll(db)`).\n    public struct Record: Codable, Sendable, Hashable, FetchableRecord, TableRecord {"))
        #expect(source.contains(#"public static let trip = belongsTo(TransitSchema.Trips.Record.self, key: "trip", using: ForeignKey(["trip_ref"]))"#))
        #expect(source.contains(#"public static let stopTimes = hasMany(TransitSchema.StopTimes.Record.self, key: "stopTimes", using: ForeignKey(["trip_ref"]))"#))
        #expect(source.contains(#"public static let parentStationRow = belongsTo(TransitSchema.Stops.Record.self, key: "parentStationRow", using: ForeignKey(["parent_station_ref"]))"#))
        #expect(source.contains(#"public static let stopsByParentStation = hasMany(TransitSchema.Stops.Record.self, key: "stopsByParentStation", using: ForeignKey(["parent_station_ref"]))"#))
        #expect(source.contains("        public var arrivalTime: Int64?\n") && source.contains("        public var stopSequence: Int64\n"))
        #expect(source.contains(#"            case stopSequence = "stop_sequence""#))
        #expect(source == SwiftSchemaGenerator(schema: schema, grdb: true).source)
    }
}

