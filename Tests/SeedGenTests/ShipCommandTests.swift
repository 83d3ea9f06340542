import Foundation
import SeedArchive
import SeedSQLite
import SeedTestSupport
import Testing

/// The Cairns feed built once with `--gzip` for the tests that only read it.
private let cairns: (scratch: TemporaryFolder, seed: String) = {
    let scratch = TemporaryFolder()
    let seed = scratch.file("cairns.sqlite")
    let result = try! SeedgenTool.run(["build", "examples/cairns", "--out", seed, "--gzip"])
    precondition(result.status == 0, result.stderr)
    return (scratch, seed)
}()

private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

@Suite("seedgen pack, inspect, verify, diff and schema, run as CI would")
struct ShipCommandTests {
    @Test("build --gzip and pack give the same bytes; the manifest's checksums are the files'")
    func pack() throws {
        let gzip = cairns.seed + ".gz"
        let again = cairns.scratch.file("again.sqlite.gz")
        let result = try SeedgenTool.run(["pack", cairns.seed, "--out", again])
        #expect(result.status == 0 && result.stdout.contains("packed \(again)"), "\(result.stderr)")
        #expect(try bytes(gzip) == bytes(again))
        #expect(try bytes(cairns.scratch.file("cairns.sqlite.manifest.json")) == bytes(cairns.scratch.file("again.sqlite.manifest.json")))

        let manifest = try json(String(decoding: try bytes(cairns.scratch.file("cairns.sqlite.manifest.json")), as: UTF8.self))
        let seed = try bytes(cairns.seed), packed = try bytes(gzip)
        #expect(manifest["sha256"] as? String == SHA256.hex(of: seed))
        #expect(manifest["size"] as? Int == seed.count)
        #expect(manifest["gzipSha256"] as? String == SHA256.hex(of: packed))
        #expect(manifest["gzipSize"] as? Int == packed.count)
        #expect(manifest["schemaVersion"] as? Int == 4)
        #expect((manifest["tables"] as? [String: Int])?["stop_times"] == 37_790)

        // gzip itself restores the seed byte for byte.
        let unzipped = try ChildProcess.run("/bin/sh", ["-c", "gzip -dc '\(gzip)' > restored.sqlite"], in: cairns.scratch.path)
        #expect(unzipped.status == 0)
        #expect(try bytes(cairns.scratch.file("restored.sqlite")) == seed)
    }

    @Test("inspect --json matches the seed, for .sqlite, .sqlite.gz and the manifest")
    func inspect() throws {
        let db = try Connection(path: cairns.seed, mode: .readOnly)
        let seedVersion = try db.scalar("SELECT value FROM seedgen_metadata WHERE key = 'seed_version'")?.text
        var counts: [String: Int] = [:]
        // Data tables: the search and spatial indexes (virtual tables and the shadow tables
        // that hold them) are reported as indexes, one each, not as tables.
        for row in try db.rows("""
            SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'
              AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'seedgen_%'
            """) {
            counts[row[0].description] = Int(try db.scalar("SELECT count(*) FROM \"\(row[0])\"")?.integer ?? -1)
        }
        #expect(counts.count == 36) // GTFS's 32, service_days, trip_patterns, pattern_stops and footpaths
        let content = try #require(try db.scalar("SELECT value FROM seedgen_metadata WHERE key = 'content_sha256'")?.text)
        for path in [cairns.seed, cairns.seed + ".gz", cairns.scratch.file("cairns.sqlite.manifest.json")] {
            let result = try SeedgenTool.run(["inspect", path, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try json(result.stdout)
            #expect(report["schemaVersion"] as? Int == 4, "\(path)")
            #expect(report["seedVersion"] as? String == seedVersion, "\(path)")
            #expect(report["tables"] as? [String: Int] == counts, "\(path)")
            #expect(report["toolVersion"] as? String != nil && report["schemaName"] as? String == "transit")
            #expect(report["contentSha256"] as? String == content, "\(path)")
        }
        let report = try json(try SeedgenTool.run(["inspect", cairns.seed, "--json"]).stdout)
        #expect(report["journalMode"] as? String == "delete" && report["pageSize"] as? Int == 4096 && report["freelistCount"] as? Int == 0)
        #expect((report["inputs"] as? [[String: Any]])?.count == 8)
        #expect((report["indexes"] as? [[String: Any]])?.contains { $0["name"] as? String == "stops_key" && $0["unique"] as? Bool == true } == true)
        let queryIndexes = try #require(report["queryIndexes"] as? [[String: Any]])
        #expect(queryIndexes.map { [$0["name"] as? String, $0["kind"] as? String, $0["table"] as? String] }
                == [["shapes_rtree", "spatial", "shapes"], ["stops_search", "search", "stops"],
                    ["stops_location", "spatial", "stops"], ["service_days", "derived", "service_days"],
                    ["trip_patterns", "derived", "trip_patterns"], ["pattern_stops", "derived", "pattern_stops"],
                    ["footpaths", "derived", "footpaths"], ["stop_times_departures", "index", "stop_times"]])
        #expect(queryIndexes.map { $0["rows"] as? Int } == [
            Int(try db.scalar("SELECT count(DISTINCT shape_id) FROM shapes")?.integer ?? -1), counts["stops"], counts["stops"],
            counts["service_days"], counts["trip_patterns"], counts["pattern_stops"], counts["footpaths"], counts["stop_times"],
        ])
        // The departures index: what it adds beyond the stop_ref index it replaces, and its size.
        #expect(queryIndexes[7]["replaces"] as? String == "stop_ref" && (queryIndexes[7]["bytes"] as? Int ?? 0) < (queryIndexes[7]["indexBytes"] as? Int ?? 0))
        // Each index's size is that of all its shadow tables, which dbstat measures one by one.
        let shadowBytes = try db.scalar("""
            SELECT sum(pgsize) FROM dbstat WHERE name IN
              (SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow' AND name LIKE 'stops\\_search\\_%' ESCAPE '\\')
            """)?.integer
        #expect(queryIndexes[1]["bytes"] as? Int == shadowBytes.map(Int.init))
        #expect(queryIndexes.allSatisfy { ($0["bytes"] as? Int ?? 0) > 0 })

        let text = try SeedgenTool.run(["inspect", cairns.seed + ".gz"])
        #expect(text.stdout.contains("seed version   \(seedVersion ?? "")") && text.stdout.contains("seedgen-seed schema-version=4"))
        #expect(text.stdout.contains("content sha256 \(content)"), "\(text.stdout)")
        #expect(text.stdout.contains("stop_times") && text.stdout.contains("37,790 rows"))
        #expect(text.stdout.contains("query features") && text.stdout.contains("search  stops_search") && text.stdout.contains("on stops  416 rows, "))
        let missing = try SeedgenTool.run(["inspect", "no/such.sqlite"])
        #expect(missing.status != 0 && missing.stderr.contains("no/such.sqlite: no such file"))
    }

    @Test("verify: exit 0 and one ok line per check on a good seed; exit 1 and the reason on a bad one")
    func verify() throws {
        let good = try SeedgenTool.run(["verify", cairns.seed + ".gz", "--schema", "Schema/transit.yaml"])
        #expect(good.status == 0, "\(good.stdout)")
        for name in ["journal_mode", "integrity_check", "foreign_key_check", "vacuumed", "versions", "content_digest", "schema", "gzip_stamp", "manifest_checksums"] {
            #expect(good.stdout.contains("ok   \(name)"), "\(name)")
        }

        let scratch = TemporaryFolder()
        let broken = scratch.file("broken.sqlite")
        try FileManager.default.copyItem(atPath: cairns.seed, toPath: broken)
        try Connection(path: broken, mode: .readWrite).execute("UPDATE stop_times SET stop_ref = 100000 + stop_sequence WHERE trip_ref = 1 AND stop_sequence <= 3")
        let bad = try SeedgenTool.run(["verify", broken])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("FAIL foreign_key_check: 3 rows in stop_times reference missing stops"))
        #expect(bad.stdout.contains("FAIL content_digest: the seed records content digest"), "a row changed after the build: \(bad.stdout)")
        #expect(bad.stdout.contains("ok   integrity_check") && bad.stdout.contains("2 of "))

        let wrong = try SeedgenTool.run(["verify", cairns.seed, "--schema-version", "5", "--json"])
        #expect(wrong.status == 1)
        let report = try json(wrong.stdout)
        #expect(report["passed"] as? Bool == false)
        #expect((report["checks"] as? [[String: Any]])?.filter { $0["passed"] as? Bool == false }.map { $0["name"] as? String } == ["versions"])

        let unreadable = try SeedgenTool.run(["verify", scratch.write("notes.txt", "not a seed")])
        #expect(unreadable.status == 2 && unreadable.stderr.contains("not a seed"))
    }

    @Test("a seed changed after it was built: verify fails content_digest, pack refuses it; a relaid-out copy passes")
    func contentChangedAfterBuild() throws {
        let scratch = TemporaryFolder()
        let relaid = scratch.file("relaid.sqlite"), changed = scratch.file("changed.sqlite")
        try FileManager.default.copyItem(atPath: cairns.seed, toPath: relaid)
        try Connection(path: relaid, mode: .readWrite).execute("PRAGMA page_size = 8192; VACUUM")
        let same = try SeedgenTool.run(["verify", relaid, "--json"])
        #expect(same.status == 0, "another page layout, the same content: \(same.stdout)")
        try FileManager.default.copyItem(atPath: cairns.seed, toPath: changed)
        try Connection(path: changed, mode: .readWrite).execute("UPDATE routes SET route_long_name = coalesce(route_long_name, '') || ' (renamed)' WHERE id = 1")

        let verify = try SeedgenTool.run(["verify", changed, "--json"])
        #expect(verify.status == 1)
        let failed = (try json(verify.stdout)["checks"] as? [[String: Any]])?.filter { $0["passed"] as? Bool == false }
        #expect(failed?.map { $0["name"] as? String } == ["content_digest"], "\(verify.stdout)")
        #expect((failed?.first?["detail"] as? String)?.contains("changed after it was built") == true)

        let pack = try SeedgenTool.run(["pack", changed, "--out", scratch.file("changed.sqlite.gz")])
        #expect(pack.status != 0 && pack.stderr.contains("changed after it was built") && pack.stderr.contains("build it again"), "\(pack.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("changed.sqlite.gz")) && !FileManager.default.fileExists(atPath: scratch.file("changed.sqlite.manifest.json")))
        let packRelaid = try SeedgenTool.run(["pack", relaid, "--out", scratch.file("relaid.sqlite.gz"), "--json"])
        #expect(packRelaid.status == 0, "\(packRelaid.stderr)")
        let original = try json(String(decoding: try bytes(cairns.scratch.file("cairns.sqlite.manifest.json")), as: UTF8.self))
        let manifest = try json(packRelaid.stdout)
        #expect(manifest["contentSha256"] as? String != nil && manifest["contentSha256"] as? String == original["contentSha256"] as? String)
        #expect(manifest["sha256"] as? String != original["sha256"] as? String, "other bytes, the same content")
    }

    @Test("diff reports the known changes, in text and JSON")
    func diff() throws {
        let scratch = TemporaryFolder()
        let feed: [String: String] = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,http://a.example,Europe/Berlin\n",
            "stops.txt": "stop_id,stop_name\nS1,One\nS2,Two\nS3,Three\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\n",
        ]
        var changed = feed
        changed["stops.txt"] = "stop_id,stop_name\nS0,Zero\nS1,One\nS3,Third\nS4,Four\n"   // +S0 +S4 -S2 ~S3
        changed["routes.txt"] = "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2X,0\n" // ~R2 (2 columns)
        for (name, text) in feed { scratch.write("old/" + name, text) }
        for (name, text) in changed { scratch.write("new/" + name, text) }
        for side in ["old", "new"] {
            let built = try SeedgenTool.run(["build", scratch.file(side), "--out", scratch.file(side + ".sqlite"), "--quiet"])
            #expect(built.status == 0, "\(built.stderr)")
        }

        let result = try SeedgenTool.run(["diff", scratch.file("old.sqlite"), scratch.file("new.sqlite"), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let tables = try #require(try json(result.stdout)["tables"] as? [String: [String: Any]])
        func counts(_ table: String) -> [Int] { ["added", "removed", "changed"].map { tables[table]?[$0] as? Int ?? -1 } }
        #expect(counts("stops") == [2, 1, 1])
        #expect(counts("routes") == [0, 0, 1])
        for table in ["agency", "trips", "stop_times", "calendar", "shapes"] { #expect(counts(table) == [0, 0, 0], "\(table)") }
        #expect(tables["routes"]?["changedColumns"] as? [String: Int] == ["route_short_name": 1, "route_type": 1])
        let examples = try #require(tables["stops"]?["examples"] as? [String: [[String]]])
        #expect(examples == ["added": [["S0"], ["S4"]], "removed": [["S2"]], "changed": [["S3"]]])

        let text = try SeedgenTool.run(["diff", scratch.file("old.sqlite"), scratch.file("new.sqlite"), "--exit-code"])
        #expect(text.status == 1)
        #expect(text.stdout.contains("2 of 36 tables changed") && text.stdout.contains("changed columns: route_short_name 1, route_type 1"))
        let same = try SeedgenTool.run(["diff", scratch.file("old.sqlite"), scratch.file("old.sqlite"), "--exit-code"])
        #expect(same.status == 0 && same.stdout.contains("no changes in 36 tables"))
    }

    @Test("schema sql prints the DDL the build runs")
    func schemaSQL() throws {
        let result = try SeedgenTool.run(["schema", "sql", "Schema/transit.yaml"])
        #expect(result.status == 0, "\(result.stderr)")
        let db = try Connection(path: ":memory:")
        try db.execute(result.stdout)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table'") == .integer(36)) // with the derived tables
        #expect(try SeedgenTool.run(["schema", "sql", "transit"]).stdout == result.stdout, "a built-in schema by name")
    }

    @Test("schema swift generates source that compiles into a program carrying the schema version")
    func schemaSwift() throws {
        let scratch = TemporaryFolder()
        let generated = try SeedgenTool.run(["schema", "swift", "Schema/transit.yaml", "--out", scratch.file("TransitSchema.swift")])
        #expect(generated.status == 0, "\(generated.stderr)")
        scratch.write("main.swift", """
            print(TransitSchema.schemaVersion, TransitSchema.Stops.table, TransitSchema.StopTimes.Columns.stopRef, TransitSchema.tables.count)
            let tripRef = TransitSchema.StopTimes.Columns.tripRef
            print(tripRef.sqlType, tripRef.swiftType, tripRef.isNullable, tripRef.references!.table, tripRef.references!.column)
            """)
        let swiftc = ProcessInfo.processInfo.environment["SWIFTC"]
            ?? ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc", "/usr/local/bin/swiftc"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let compiler = try #require(swiftc, "swiftc not found; set SWIFTC")
        let compiled = try ChildProcess.run(compiler, ["-swift-version", "6", "-Onone", "TransitSchema.swift", "main.swift", "-o", "app"], in: scratch.path)
        #expect(compiled.status == 0, "\(compiled.stderr)")
        let run = try ChildProcess.run(scratch.file("app"), [], in: scratch.path)
        #expect(run.stdout == "4 stops stop_ref 36\nINTEGER Int64 false trips id\n")
    }

    @Test("every ship command's --help teaches with an example")
    func help() throws {
        for command in [["pack"], ["inspect"], ["verify"], ["diff"], ["schema"], ["schema", "swift"], ["schema", "sql"]] {
            let result = try SeedgenTool.run(command + ["--help"])
            #expect(result.status == 0 && result.stdout.contains("Example"), "\(command)")
        }
    }
}
