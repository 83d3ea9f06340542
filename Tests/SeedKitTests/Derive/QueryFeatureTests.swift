import Foundation
import SeedDeltas
import SeedInstaller
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit
@testable import SeedShip

@Suite("Search and spatial indexes, derived tables")
struct QueryFeatureTests {
    /// A one-table CSV schema with the given table keys added.
    static func schema(_ keys: String, columns: String = "[{ name: code, required: true }, { name: name }, { name: lat, type: real }, { name: lon, type: real }, { name: kind, type: integer }]") -> String {
        """
        name: places
        schemaVersion: 1
        tables:
          - name: place
            key: code
            columns: \(columns)
        \(keys.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
        """
    }

    func schemaError(_ text: String) -> SchemaError? {
        do { _ = try Schema.parse(Array(text.utf8), file: "places.yaml"); return nil } catch { return error }
    }

    @Test("mistakes in search, spatial and derive are schema errors naming the line")
    func errors() {
        let unknown = schemaError(Self.schema("search: { columns: [nmae] }"))
        #expect(unknown?.description.hasPrefix("places.yaml:7:") == true, "\(String(describing: unknown))")
        #expect(unknown?.message.contains("'search': column 'nmae' is not a stored column of the table (its columns: id, code, name, lat, lon, kind)") == true)
        #expect(schemaError(Self.schema("search: { columns: [kind] }"))?.message.contains("column 'kind' is integer; only text columns can be searched") == true)
        #expect(schemaError(Self.schema("spatial: { lat: name, lon: lon }"))?.message.contains("'lat' column 'name' is text; coordinates must be real (or integer) columns") == true)
        #expect(schemaError(Self.schema("spatial: { lat: lat }"))?.message.contains("'spatial' of table 'place' needs 'lon'") == true)
        #expect(schemaError(Self.schema("spatial: { lat: lat, lon: lon, groupBy: shape }"))?.message.contains("'groupBy' column 'shape' is not a stored column") == true)
        #expect(schemaError(Self.schema("search: { columns: [name], prefx: [2] }"))?.message.contains("unknown key 'prefx'") == true)
        #expect(schemaError(Self.schema("search: { columns: [name], prefix: [0] }"))?.message.contains("'prefix' lists lengths from 1 to 999, not '0'") == true)
        #expect(schemaError(Self.schema("search: { columns: [name], name: place }"))?.message.contains("index 'place' needs a table named 'place', but table 'place' has that name") == true)
        let derive = Self.schema("derive: { sql: SELECT 1 AS name }") .replacingOccurrences(of: "    key: code\n", with: "    key: code\n    file: place.txt\n")
        #expect(schemaError(derive)?.message.contains("a derived table reads no input; remove 'file' (or name a 'marker' column)") == true, "\(String(describing: schemaError(derive)))")
        let badSQL = schemaError("name: x\nschemaVersion: 1\ntables:\n  - name: a\n    columns: [{ name: b }]\n  - name: f\n    columns: [{ name: c }]\n    derive: { sql: SELECT nope FROM a }\n")
        #expect(badSQL?.description.hasPrefix("places.yaml:8:13: schema error: table 'f': 'derive': 'sql' is not a valid query over the schema's tables: no such column: nope") == true, "\(String(describing: badSQL))")
        #expect(schemaError("name: x\nschemaVersion: 1\ntables:\n  - name: a\n    columns: [{ name: b }]\n  - name: f\n    columns: [{ name: c }]\n    derive: { sql: SELECT b FROM a }\n")?
            .message.contains("'sql' returns a column 'b' that the table does not store (name each result column like a column of the table: c)") == true,
                "result columns are named like the table's columns")
        #expect(schemaError("name: x\nschemaVersion: 1\ntables:\n  - name: a\n    columns: [{ name: b }]\n  - name: f\n    columns: [{ name: c }]\n    derive: { sql: \"SELECT b AS c, b AS c FROM a\" }\n")?
            .message.contains("'sql' returns a column twice") == true)
        #expect(schemaError("name: x\nschemaVersion: 1\ntables:\n  - name: a\n    columns: [{ name: b }]\n  - name: f\n    columns: [{ name: c }]\n    derive: { sql: SELECT b AS c FROM a, nope: 1 }\n")?
            .message.contains("unknown key 'nope'") == true)
        #expect(schemaError("name: x\nschemaVersion: 1\ntables:\n  - name: a\n    columns: [{ name: b }]\n  - name: f\n    columns: [{ name: c }]\n    derive: { sql: SELECT b AS c FROM a }\n") == nil,
                "a column of the table, by name; the others take their default")

        // The keys `derive` replaces are refused, saying so.
        for old in ["fill: { sql: SELECT 1 }", "derivedRows: SELECT 1"] {
            let error = schemaError(Self.schema(old))
            #expect(error?.message.contains("is now 'derive'") == true && error?.message.contains("derive: { sql:") == true, "\(old): \(String(describing: error))")
        }

        // A marker: a boolean column with default 0, returned (as 1) by the query, in a rowid
        // table that also reads rows.
        let marked = { (columns: String, derive: String) in
            Self.schema("derive: { sql: \"SELECT 'x' AS code, \(derive)\", marker: derived }", columns: "[{ name: code, required: true }, \(columns)]")
        }
        #expect(schemaError(marked("{ name: derived, type: boolean, default: \"0\" }", "1 AS derived")) == nil)
        #expect(schemaError(marked("{ name: derived, type: boolean, default: \"0\" }", "2 AS code2"))?.message.contains("does not store") == true)
        #expect(schemaError(marked("{ name: derived, type: boolean, default: \"0\" }", "'y' AS code"))?.message.contains("'sql' returns a column twice") == true)
        #expect(schemaError(Self.schema("derive: { sql: \"SELECT 'x' AS code\", marker: derived }", columns: "[{ name: code, required: true }, { name: derived, type: boolean, default: \"0\" }]"))?
            .message.contains("'sql' must return the marker column 'derived' (as 1)") == true)
        for (column, why) in [("{ name: derived, type: boolean }", "no default"), ("{ name: derived, type: text, default: \"0\" }", "text"),
                              ("{ name: derived, type: boolean, default: \"1\" }", "default 1"), ("{ name: other, type: boolean, default: \"0\" }", "no such column")] {
            let error = schemaError(marked(column, "1 AS derived"))
            #expect(error?.message.contains("'marker' must name a boolean column with default \"0\"") == true, "\(why): \(String(describing: error))")
        }
        let withoutRowID = marked("{ name: derived, type: boolean, default: \"0\" }", "1 AS derived").replacingOccurrences(of: "    key: code\n", with: "    key: code\n    withoutRowID: true\n")
        #expect(schemaError(withoutRowID)?.message.contains("a 'withoutRowID' table is derived whole or not at all") == true, "\(String(describing: schemaError(withoutRowID)))")
        // Computed columns are left to the rows read: allowed beside a marker, not in a table derived whole.
        #expect(schemaError(Self.schema("derive: { sql: \"SELECT 'x' AS code\" }", columns: "[{ name: code }, { name: len, type: integer, expression: \"length(code)\" }]"))?
            .message.contains("the query gives every column: no 'expression' or 'stored: false' columns") == true)
        #expect(schemaError(Self.schema("search: { columns: [name] }\nspatial: { lat: lat, lon: lon }")) == nil)
    }

    @Test("a CSV schema: search and spatial indexes agree with the table; rows without coordinates are left out and counted")
    func csvIndexes() throws {
        let folder = TemporaryFolder()
        folder.write("in/place.txt", "code,name,lat,lon\nA,Žirmūnai,54.7,25.3\nB,Antakalnis,54.71,\nC,Zürich,47.37,8.54\n")
        let schema = folder.write("places.yaml", Self.schema("search: { columns: [name], prefix: [2] }\nspatial: { lat: lat, lon: lon }"))
        let output = folder.file("p.sqlite")
        let summary = try SeedBuilder.build([folder.file("in")], to: output, schema: schema)
        let costs = Dictionary(uniqueKeysWithValues: summary.queryIndexes.map { ($0.name, $0) })
        #expect(costs["place_search"]?.rows == 3 && costs["place_search"]?.kind == .search)
        #expect(costs["place_location"]?.rows == 2 && costs["place_location"]?.leftOut == 1 && costs["place_location"]?.kind == .spatial)
        #expect((costs["place_search"]?.bytes ?? 0) > 0 && (costs["place_location"]?.bytes ?? 0) > 0)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.rows("SELECT rowid FROM place_search WHERE place_search MATCH 'zirmunai OR zurich' ORDER BY rowid").map(\.[0]) == [.integer(1), .integer(3)])
        #expect(try db.rows("SELECT id FROM place INDEXED BY place_location WHERE lat BETWEEN 40 AND 60 AND lon BETWEEN 0 AND 30 ORDER BY id").map(\.[0]) == [.integer(1), .integer(3)])
        let loaded = try Schema.load(path: schema)
        let checks = SeedVerifier(schema: loaded).verify(try SeedFile(path: output))
        #expect(checks.filter { !$0.passed }.isEmpty, "\(checks.filter { !$0.passed })")
        #expect(checks.contains { $0.name == "search_and_spatial_indexes" && $0.detail.contains("place_search") && $0.detail.contains("place_location") })
        let report = try SeedInspector.report(for: SeedFile(path: output))
        #expect(report.queryIndexes?.map(\.name) == ["place_search", "place_location"])
        #expect(report.queryIndexes?.last?.rows == 2, "the rows it locates")
        #expect(report.tables.keys.sorted() == ["place"], "shadow tables are not data tables")
    }

    @Test("the same keys in an XML schema: OSM nodes and their tags")
    func xmlIndexes() throws {
        let folder = TemporaryFolder()
        folder.write("li.osm", """
            <?xml version="1.0"?>
            <osm version="0.6">
              <node id="10" lat="47.14" lon="9.52"><tag k="name" v="Vaduz"/><tag k="name:de" v="Vaduz Städtle"/></node>
              <node id="11" lat="47.16" lon="9.51"/>
              <node id="12" lat="47.06" lon="9.50"><tag k="name" v="Balzers"/></node>
            </osm>
            """)
        // The schema reference's example, as written there.
        let readme = try String(contentsOfFile: Repository.path("Schema/README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```yaml\ntables:\n  - name: node\n"))
        let example = String(readme[start.upperBound...].prefix { $0 != "`" })
        let schema = folder.write("osm.yaml", "name: osm-search\nschemaVersion: 1\nformat: xml\ntables:\n  - name: node\n" + example)
        let output = folder.file("li.sqlite")
        let summary = try SeedBuilder.build([folder.file("li.osm")], to: output, schema: schema)
        #expect(summary.queryIndexes.map(\.name) == ["node_location", "node_tag_search"])
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.rows("SELECT node.osm_id FROM node_tag_search JOIN node_tag ON node_tag.id = node_tag_search.rowid JOIN node ON node.id = node_ref WHERE node_tag_search MATCH 'stadt*' ").map(\.[0]) == [.integer(10)])
        #expect(try db.rows("SELECT osm_id FROM node INDEXED BY node_location WHERE lat > 47.1 ORDER BY id").map(\.[0]) == [.integer(10), .integer(11)])
    }

    @Test("groupBy: one box per group, under the group's smallest id")
    func groupedBoxes() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, ["shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nB,1.0,2.0,1\nA,5.0,6.0,1\nB,3.0,-4.0,2\nA,7.0,8.0,2\n"])
        let output = folder.file("s.sqlite")
        _ = try SeedBuilder.build([folder.file("feed")], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.rows("SELECT id, min_lat, max_lat, min_lon, max_lon FROM shapes_rtree ORDER BY id").map { $0.map(\.double) }
                == [[1, 1, 3, -4, 2], [2, 5, 7, 6, 8]])
    }

    @Test("the same feed gives the same bytes, indexes included")
    func deterministic() throws {
        let folder = TemporaryFolder()
        let feed = Repository.path("examples/cairns")
        _ = try SeedBuilder.build([feed], to: folder.file("a.sqlite"))
        _ = try SeedBuilder.build([feed], to: folder.file("b.sqlite"))
        let a = FileManager.default.contents(atPath: folder.file("a.sqlite")), b = FileManager.default.contents(atPath: folder.file("b.sqlite"))
        #expect(a != nil && a == b)
        let db = try Connection(path: folder.file("a.sqlite"), mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM stops INDEXED BY stops_location WHERE stop_lat IS NOT NULL") > 0 && (try db.int("SELECT count(*) FROM shapes_rtree")) > 0)
    }

    @Test("--previous: renumbered ids are indexed; a delta leaves the indexes out and the installer rebuilds them")
    func previousAndDelta() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder)
        let old = folder.file("old.sqlite"), new = folder.file("new.sqlite")
        _ = try SeedBuilder.build([folder.file("feed")], to: old)
        // S0 comes first in the file now: with --previous, S1 and S2 keep ids 1 and 2 and S0 gets 3.
        MinimalFeed.write(into: folder, ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS0,Zero,52.4,13.3,\nS1,One renamed,52.5,13.4,\nS2,Two,52.7,13.6,\n"])
        var options = BuildOptions(inputs: [folder.file("feed")], output: new)
        options.previous = old
        let built = try SeedBuilder(options: options).build()
        let db = try Connection(path: new, mode: .readOnly)
        #expect(try db.int("SELECT id FROM stops WHERE stop_id = 'S0'") == 3)
        #expect(try db.int("SELECT rowid FROM stops_search WHERE stops_search MATCH 'zero'") == 3)
        #expect(try db.int("SELECT id FROM stops INDEXED BY stops_location WHERE stop_lat < 52.45") == 3)
        // The seed records how it derives its indexes.
        let recipes = try DeriveRecipe.read(db)
        #expect(recipes.contains { $0.kind == .search && $0.target == "stops_search" && $0.reads == ["stops"] })
        #expect(recipes.contains { $0.kind == .spatial && $0.target == "shapes_rtree" && $0.reads == ["shapes"] })
        #expect(!recipes.contains { $0.target == "stops_location" }, "a plain index: SQLite keeps it")
        #expect(recipes.contains { $0.kind == .table && $0.target == "service_days" && Set($0.reads) == ["calendar", "calendar_dates"] })

        let summary = try SeedDeltaWriter().write(old: old, new: new, to: folder.file("d.delta"))
        #expect(summary.verified && summary.header.to.contentSHA256 == built.contentDigest)
        let names = summary.tables.map(\.name)
        #expect(names.contains("stops") && !names.contains { $0.hasPrefix("stops_search") || $0.hasPrefix("shapes_rtree") }, "\(names)")
        let patch = try DeltaPatch(path: summary.output)
        try patch.apply(base: old, baseIsProven: false, changedTables: try patch.checkBody(), output: folder.file("patched.sqlite"))
        let patched = try Connection(path: folder.file("patched.sqlite"), mode: .readOnly)
        #expect(try patched.int("SELECT rowid FROM stops_search WHERE stops_search MATCH 'zero'") == 3)
        #expect(try patched.int("SELECT count(*) FROM stops_search WHERE stops_search MATCH 'renamed'") == 1)
        #expect(try patched.int("SELECT id FROM stops INDEXED BY stops_location WHERE stop_lat < 52.45") == 3)
        #expect(try ContentDigest.compute(patched) == built.contentDigest)
    }

    @Test("service_days: calendar_dates only, no calendars at all, and a calendar of two centuries (whole, no warning)")
    func serviceDays() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, ["calendar.txt": nil,
                                         "calendar_dates.txt": "service_id,date,exception_type\nWD,20260105,1\nWD,20260104,1\nWD,20260106,2\n"])
        _ = try SeedBuilder.build([folder.file("feed")], to: folder.file("a.sqlite"))
        var db = try Connection(path: folder.file("a.sqlite"), mode: .readOnly)
        #expect(try db.rows(ServiceDays.expanded + " ORDER BY date").map { "\($0[0]) \($0[1])" } == ["WD 2026-01-04", "WD 2026-01-05"])

        let bare = TemporaryFolder()
        MinimalFeed.write(into: bare, ["calendar.txt": nil])
        let summary = try SeedBuilder.build([bare.file("feed")], to: folder.file("b.sqlite"))
        #expect(summary.tables.first { $0.name == "service_days" }?.rows == 0)
        db = try Connection(path: folder.file("b.sqlite"), mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM service_days") == 0)

        // Two centuries of Mondays, with a Monday removed and a Sunday added at each end.
        let long = TemporaryFolder()
        MinimalFeed.write(into: long, ["calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,0,0,0,0,0,0,19000101,21001231\n",
                                       "calendar_dates.txt": "service_id,date,exception_type\nWD,19000101,2\nWD,19000107,1\nWD,21001227,2\nWD,21001226,1\n",
                                       "feed_info.txt": "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version,feed_contact_email\nP,http://p.example,en,19000101,21001231,1,a@p.example\n",
                                       // T2 given a second stop time: a trip of one is unusable_trip.
                                       "stop_times.txt": MinimalFeed.files["stop_times.txt"]! + "T2,25:20:00,25:20:00,S2,2\n"])
        let whole = try SeedBuilder.build([long.file("feed")], to: folder.file("c.sqlite"))
        #expect(whole.warnings == 0, "\(whole.warningReport)")
        let cost = try #require(whole.queryIndexes.first { $0.name == "service_days" })
        #expect(cost.kind == .derived && cost.table == "service_days" && cost.rows == 288, "a row per 256 days: \(cost.rows)")
        #expect(String(decoding: try JSONEncoder().encode(cost), as: UTF8.self).contains("\"kind\":\"derived\""))
        db = try Connection(path: folder.file("c.sqlite"), mode: .readOnly)
        let dates = try db.rows(ServiceDays.expanded + " ORDER BY date").map { $0[1].description }
        // 10,488 Mondays from 1900-01-01 (a Monday) to 2100-12-27; one at each end swapped for a Sunday.
        #expect(dates.count == 10_488 && dates.first == "1900-01-07" && dates.last == "2100-12-26" && dates.contains("2026-11-30") && !dates.contains("2026-11-29"))
        #expect(try QueryingGuide.run("services-on-a-date", on: db, ["date": .text("2026-11-30")]).map(\.[0].description) == ["WD"])
        #expect(try QueryingGuide.run("services-on-a-date", on: db, ["date": .text("2026-12-01")]).isEmpty)
    }
}
