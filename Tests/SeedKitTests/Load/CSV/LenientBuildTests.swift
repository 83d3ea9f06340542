import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Builds the minimal feed with `changes`, with the given options.
private func build(_ changes: [String: String?], lenient: Bool = false, strict: Bool = false, schema: String? = nil,
                   in folder: TemporaryFolder = TemporaryFolder()) throws -> (BuildSummary, Connection, TemporaryFolder) {
    MinimalFeed.write(into: folder, changes)
    let options = BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite"), schemaPath: schema,
                               lenient: lenient, strict: strict)
    let summary = try SeedBuilder(options: options).build()
    return (summary, try Connection(path: folder.file("seed.sqlite"), mode: .readOnly), folder)
}

@Suite("Whitespace, tolerant CSV, --lenient, --strict")
struct LenientBuildTests {
    @Test("values are trimmed before typing, key matching and storing")
    func trimmed() throws {
        let (_, db, _) = try build([
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1  ,A,\t1 , 3 \n",
            "trips.txt": "route_id, service_id, trip_id\n R1, WD, T1\nR1,WD,T2\n",
        ])
        #expect(try db.int("SELECT count(*) FROM trips WHERE route_ref = 1") == 2)
        #expect(try db.text("SELECT route_id || '|' || route_short_name FROM routes") == "R1|1")
        #expect(try db.int("SELECT route_type FROM routes") == 3)
    }

    @Test("trim: false keeps a value exactly")
    func trimFalse() throws {
        let folder = TemporaryFolder()
        let schema = NotesSchema.write(into: folder, columns: ["{ name: kept, trim: false }", "{ name: trimmed }"])
        folder.write("in/notes.txt", "kept,trimmed\n  a  ,  b  \n")
        _ = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: folder.file("s.sqlite"), schemaPath: schema)).build()
        let db = try Connection(path: folder.file("s.sqlite"), mode: .readOnly)
        #expect(try db.text("SELECT kept || '|' || trimmed FROM notes") == "  a  |b")
    }

    @Test("repairs are warnings, once per file with examples; --strict makes them errors")
    func repairs() throws {
        let stops = "stop_id,stop_name\nS1,\"One\" \nS2,\"Two\"x\nP,5\" Avenue\n"
        let (summary, db, _) = try build(["stops.txt": stops])
        #expect(try db.text("SELECT group_concat(stop_name, '|') FROM stops") == "One|Twox|5\" Avenue")
        #expect(summary.warningReport.contains("stops.txt: 3 × repaired CSV syntax; first 3:"), "\(summary.warningReport)")
        #expect(summary.warningReport.contains("feed/stops.txt:2:4: '\"One\" ' text after a closing quote is kept in the value"))
        do {
            _ = try build(["stops.txt": stops], strict: true)
            Issue.record("--strict fails on a repair")
        } catch let error as BuildError {
            #expect(error.issues.first?.kind == .malformedRow && error.issues.first?.line == 2)
        }
    }

    @Test("a 0-byte file is absent (warning); a header-only file is an empty table")
    func emptyFiles() throws {
        let (summary, db, _) = try build(["shapes.txt": "", "frequencies.txt": "trip_id,start_time,end_time,headway_secs\n"])
        #expect(summary.warningReport.contains("feed/shapes.txt: is empty (0 bytes); treated as absent"))
        #expect(try db.int("SELECT count(*) FROM seedgen_inputs WHERE name = 'shapes.txt'") == 0)
        #expect(try db.int("SELECT rows FROM seedgen_inputs WHERE name = 'frequencies.txt'") == 0)
        do {
            _ = try build(["stops.txt": ""])
            Issue.record("an empty required file is a missing file")
        } catch let error as BuildError {
            #expect(error.issues.contains { $0.kind == .missingFile && $0.file == "stops.txt" })
        }
    }

    static let bad: [String: String?] = [
        // S2's latitude is bad (nullable: NULL); S3 has no id (required: left out).
        "stops.txt": "stop_id,stop_name,stop_lat\nS1,One,52.5\nS2,Two,north\n,Three,1\n",
        // T1 twice, repeated whole (a copy, left out: a warning even without --lenient), T3's route is not in the feed (NULL).
        "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,T1\nR9,WD,T3\nR1,WD\n",
        // T9 is no trip: the key column trip_ref cannot be NULL, so the row is left out.
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT9,08:00:00,08:00:00,S1,1\n",
    ]

    @Test("by default data errors fail the build")
    func strictByDefault() throws {
        #expect(throws: BuildError.self) { try build(Self.bad) }
    }

    @Test("--lenient: bad values become NULL, rows that cannot be kept are left out and counted, each a warning")
    func lenient() throws {
        let (summary, db, _) = try build(Self.bad, lenient: true)
        #expect(try db.int("SELECT count(*) FROM stops") == 2)
        #expect(try db.scalar("SELECT stop_lat FROM stops WHERE stop_id = 'S2'") == .null)
        #expect(try db.text("SELECT group_concat(trip_id) FROM trips") == "T1,T3")
        #expect(try db.scalar("SELECT route_ref FROM trips WHERE trip_id = 'T3'") == .null)
        #expect(try db.int("SELECT count(*) FROM stop_times") == 1)
        let rejected = try db.rows("SELECT name, rows, rejected FROM seedgen_inputs WHERE rejected > 0 ORDER BY name").map { $0.map(\.description) }
        #expect(rejected == [["stop_times.txt", "1", "1"], ["stops.txt", "2", "1"], ["trips.txt", "2", "2"]])
        #expect(summary.rejected == ["stops": 1, "trips": 2, "stop_times": 1])
        let report = summary.warningReport
        #expect(report.contains("feed/stops.txt:3:8: stop_lat: 'north' is not a valid real: expected a number; kept as NULL"), "\(report)")
        #expect(report.contains("feed/stops.txt:4:1: stop_id: is required but empty; the row is left out"))
        #expect(report.contains("trips.txt:3:7: trip_id: 'trip_id=T1' repeats line 2 in every field: it is the only row of this file that repeats an earlier one whole; "
            + "each copy is left out, the row it repeats is kept"), "\(report)")
        #expect(report.contains("trips.txt:4:1: route_id: 'R9' names no route_id in routes.txt; the row is kept, referring to nothing"))
        #expect(report.contains("trips.txt:5:7: 'R1,WD' has 2 fields, the header has 3: the missing trailing field (trip_id) is read as empty [invalid_row_length]"))
        #expect(report.contains("trips.txt:5:7: trip_id: is required but empty; the row is left out [missing_required_field]"))
        #expect(report.contains("stop_times.txt:3:1: trip_id: 'T9' names no trip_id in trips.txt; the row is left out [foreign_key_violation]"))
    }

    @Test("--lenient: a key longer than --max-key-size leaves its row out (counted), without --lenient it fails")
    func lenientKeyLimit() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, ["stops.txt": "stop_id,stop_name\nS1,One\nS2,Two\nSTOP-WITH-A-LONG-ID,Three\n"])
        var options = BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite"))
        options.limits.keyBytes = 8
        #expect(throws: BuildError.self) { try SeedBuilder(options: options).build() }
        options.lenient = true
        let summary = try SeedBuilder(options: options).build()
        #expect(summary.rejected["stops"] == 1)
        #expect(summary.warningReport.contains("feed/stops.txt:4:1: stop_id: 'STOP-WITH-A-LONG-ID' is 19 bytes long; a key is at most 8"), "\(summary.warningReport)")
        let db = try Connection(path: folder.file("seed.sqlite"), mode: .readOnly)
        #expect(try db.rows("SELECT rows, rejected FROM seedgen_inputs WHERE name = 'stops.txt'").map { $0.map(\.description) } == [["2", "1"]])
    }
}

@Suite("Nothing the feed has is dropped")
struct ExtrasTests {
    @Test("undeclared columns go to extras as JSON; a table without extras: true warns instead")
    func extras() throws {
        let (summary, db, folder) = try build([
            "routes.txt": "route_id,agency_id,route_short_name,route_type,track,note\nR1,A,1,3, 4 ,\"say \"\"hi\"\"\"\nR2,A,2,3,,\n",
        ])
        #expect(try db.text("SELECT extras FROM routes WHERE route_id = 'R1'") == #"{"track":"4","note":"say \"hi\""}"#)
        #expect(try db.scalar("SELECT extras FROM routes WHERE route_id = 'R2'") == .null)
        #expect(try db.text("SELECT extras ->> '$.note' FROM routes WHERE route_id = 'R1'") == "say \"hi\"")
        #expect(!summary.warningReport.contains("track"))

        let schema = folder.write("plain.yaml", """
            name: plain
            schemaVersion: 1
            tables:
              - name: routes
                key: route_id
                columns:
                  - { name: route_id }
            """)
        let plain = try SeedBuilder(options: BuildOptions(inputs: [folder.file("feed/routes.txt")], output: folder.file("p.sqlite"), schemaPath: schema)).build()
        #expect(plain.warningReport.contains("track: is not in the schema; its values are not stored"))
        let columns = try Connection(path: folder.file("p.sqlite"), mode: .readOnly).rows("SELECT name FROM pragma_table_info('routes')").map(\.[0].description)
        #expect(columns == ["id", "route_id"])
    }

    @Test("a schema may not declare its own extras column next to extras: true")
    func extrasClash() throws {
        #expect(throws: SchemaError.self) {
            try Schema.parse(Array("name: x\nschemaVersion: 1\ntables:\n  - { name: t, extras: true, columns: [{ name: extras }] }\n".utf8), file: "x.yaml")
        }
    }

    @Test("unread files become extra_* tables with an id and every column as text, listed in seedgen_inputs")
    func extraFiles() throws {
        let (summary, db, _) = try build([
            "agency_jp.txt": "agency_id,id,agency_official_name,\nA, 7 ,Agency Co.,x\n,8,,\n",
            "notes.md": "# not CSV",
        ])
        let columns = try db.rows("SELECT name, type FROM pragma_table_info('extra_agency_jp')").map { $0.map(\.description) }
        #expect(columns == [["id", "INTEGER"], ["agency_id", "TEXT"], ["id_2", "TEXT"], ["agency_official_name", "TEXT"], ["column_4", "TEXT"]])
        #expect(try db.rows("SELECT * FROM extra_agency_jp ORDER BY id").map { $0.map(\.description) }
                == [["1", "A", "7", "Agency Co.", "x"], ["2", "NULL", "8", "NULL", "NULL"]])
        #expect(try db.int("SELECT rows FROM seedgen_inputs WHERE name = 'agency_jp.txt'") == 2)
        #expect(summary.tables.contains { $0.name == "extra_agency_jp" && $0.rows == 2 })
        #expect(summary.warningReport.contains("notes.md: is not read by any table"))
    }

    @Test("an unread file that is not really CSV never fails the build: its bad rows are left out with a warning")
    func proseFile() throws {
        let (summary, db, _) = try build(["readme.txt": "Read me first\nUse it, freely.\nshort\n\"unterminated\n",
                                          "agency_jp.txt": "agency_id,agency_official_name,agency_zip_number\nA,Co.\n",
                                          "license.txt": "\"Licensed under\n"])
        #expect(try db.text("SELECT group_concat(\"Read me first\") FROM extra_readme") == "short")
        #expect(try db.rows("SELECT * FROM extra_agency_jp").map { $0.map(\.description) } == [["1", "A", "Co.", "NULL"]], "missing fields are NULL")
        #expect(summary.warningReport.contains("readme.txt:2:8: field 2: ' freely.' has 2 fields, the header has 1; the row is left out"), "\(summary.warningReport)")
        #expect(summary.warningReport.contains("readme.txt:4:1: unterminated quoted field; this file is read by no table"))
        #expect(summary.warningReport.contains("license.txt: is not read by any table"), "a header that is not CSV: an unused file")
    }

    @Test("locations.geojson: one row per feature, its id, properties and geometry; stop_times may name a location")
    func locations() throws {
        let geojson = #"""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "zone-1", "properties": {"stop_name": "Zone 1"},
               "geometry": {"type": "Polygon", "coordinates": [[[13.0, 52.0], [13.1, 52.0], [13.1, 52.1], [13.0, 52.0]]]}},
              {"type": "Feature", "id": 2, "properties": {}, "geometry": {"type": "Point", "coordinates": [13.2, 52.2]}}
            ]}
            """#
        let (_, db, _) = try build([
            "locations.geojson": geojson,
            "stop_times.txt": "trip_id,stop_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window\nT1,,zone-1,1,08:00:00,20:00:00\nT1,S1,,2,,\n",
        ])
        #expect(try db.rows("SELECT location_id, properties, geometry ->> '$.type' FROM locations ORDER BY id").map { $0.map(\.description) }
                == [["zone-1", #"{"stop_name":"Zone 1"}"#, "Polygon"], ["2", "{}", "Point"]])
        #expect(try db.int("SELECT location_ref FROM stop_times WHERE stop_sequence = 1") == 1)
        #expect(try db.scalar("SELECT stop_ref FROM stop_times WHERE stop_sequence = 1") == .null)
        #expect(try db.int("SELECT rows FROM seedgen_inputs WHERE name = 'locations.geojson'") == 2)
        // The index of a reference exists whether or not the file has its column (built early when it has not).
        let (_, plain, _) = try build([:])
        for seed in [db, plain] {
            #expect(try seed.text("SELECT sql FROM sqlite_schema WHERE name = 'stop_times_location_ref'")
                    == #"CREATE INDEX "stop_times_location_ref" ON "stop_times" ("location_ref") WHERE "location_ref" IS NOT NULL"#)
        }
    }

    @Test("mapping check with the transit schema given as a file: locations.geojson and extras are no mapping mistakes")
    func mappingCheckGeoJSONAndExtras() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, [
            "locations.geojson": #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "z", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[13.2, 52.2], [13.3, 52.2], [13.3, 52.3], [13.2, 52.2]]]}}]}"#,
            "stop_times.txt": "trip_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window,pickup_type,drop_off_type,track\nT1,z,1,08:00:00,20:00:00,2,2,4\nT1,z,2,08:00:00,20:00:00,2,2,4\n",
        ])
        let options = BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite"),
                                   schemaPath: Repository.path("Schema/transit.yaml"), strict: true)
        let summary = try SeedBuilder(options: options).build()
        #expect(!summary.warningReport.contains("mapping matched nothing"), "\(summary.warningReport)")
        let db = try Connection(path: folder.file("seed.sqlite"), mode: .readOnly)
        #expect(try db.text("SELECT extras FROM stop_times") == #"{"track":"4"}"#)
        #expect(try db.int("SELECT location_ref FROM stop_times") == 1)
    }
}
