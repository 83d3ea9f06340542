import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Columns an input cannot fill are added after loading (`Table.layout`), so they cost nothing.
@Suite("Trailing columns: created after loading when the input lacks them")
struct TrailingColumnsTests {
    static let transit = Repository.path("Schema/transit.yaml")

    private func build(_ feed: TemporaryFolder, schema: String? = nil, to name: String = "seed.sqlite") throws -> Connection {
        let options = BuildOptions(inputs: [feed.file("feed")], output: feed.file(name), schemaPath: schema)
        _ = try SeedBuilder(options: options).build()
        return try Connection(path: feed.file(name), mode: .readOnly)
    }

    private func schemaSQL(_ db: Connection, table: String) throws -> [[String]] {
        try db.rows("SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = '\(table)' ORDER BY name").map { $0.map(\.description) }
    }

    @Test("transit layout: the GTFS-Flex columns and extras come last in stop_times")
    func layoutOrder() throws {
        let schema = try Schema.load(path: Self.transit)
        let names = schema.table(named: "stop_times")!.layout.map(\.name)
        #expect(names == ["arrival_time", "departure_time", "stop_sequence", "stop_headsign", "pickup_type", "drop_off_type",
                          "continuous_pickup", "continuous_drop_off", "shape_dist_traveled", "timepoint", "trip_ref", "stop_ref",
                          "start_pickup_drop_off_window", "end_pickup_drop_off_window", "location_group_ref", "location_ref",
                          "pickup_booking_rule_ref", "drop_off_booking_rule_ref", "extras"])
        #expect(schema.table(named: "trips")!.layout.map(\.name).suffix(5) == ["route_ref", "cars_allowed", "safe_duration_factor", "safe_duration_offset", "extras"])
    }

    @Test("creating any table with part of its columns and adding the rest gives the same CREATE TABLE text")
    func alterGivesSameSQL() throws {
        for path in ["transit", "osm", "library", "stackexchange", "topsongs"].map({ Repository.path("Schema/\($0).yaml") }) {
            let schema = try Schema.load(path: path)
            for table in schema.tables {
                let smallest = table.createdColumnCount(supplied: [])
                #expect(smallest >= 1)
                for count in smallest...table.layout.count {
                    let db = try Connection(path: ":memory:")
                    try db.execute(table.createStatement(columnCount: count))
                    for statement in table.addColumnStatements(after: count) { try db.execute(statement) }
                    #expect(try db.text("SELECT sql FROM sqlite_schema WHERE name = '\(table.name)'") == table.createStatement,
                            "\(table.name) created with \(count) of \(table.layout.count) columns")
                }
            }
        }
    }

    @Test("what a file can fill decides where the table is split")
    func createdColumnCount() throws {
        let table = try Schema.load(path: Self.transit).table(named: "stop_times")!
        let layout = table.layout.map(\.name)
        let plain: Set = ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"]
        #expect(table.createdColumnCount(supplied: plain) == layout.firstIndex(of: "stop_ref")! + 1)
        #expect(table.createdColumnCount(supplied: plain.union(["location_id"])) == layout.firstIndex(of: "location_ref")! + 1)
        #expect(table.createdColumnCount(supplied: plain.union(["end_pickup_drop_off_window"])) == layout.firstIndex(of: "end_pickup_drop_off_window")! + 1)
        #expect(table.createdColumnCount(supplied: plain.union([Column.extrasName])) == layout.count)
        // Required and key columns count even when absent (the build reports them).
        #expect(table.createdColumnCount(supplied: []) == layout.firstIndex(of: "trip_ref")! + 1)
    }

    @Test("a feed with or without the trailing columns gives the same table definitions; absent ones read as NULL")
    func sameDefinitions() throws {
        let plain = TemporaryFolder()
        MinimalFeed.write(into: plain)
        let flex = TemporaryFolder()
        MinimalFeed.write(into: flex, [
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,location_id,stop_sequence,start_pickup_drop_off_window,track\n"
                + "T1,08:00:00,08:00:00,S1,,1,07:00:00,3\nT1,08:10:00,08:10:00,S2,,2,,\nT2,25:10:00,25:10:00,S1,,1,,\n",
            "trips.txt": "route_id,service_id,trip_id,cars_allowed\nR1,WD,T1,1\nR1,WD,T2,\n",
        ])
        let plainDB = try build(plain), flexDB = try build(flex)
        let schema = try Schema.load(path: Self.transit)
        for table in ["stop_times", "trips", "stops", "routes"] {
            let expected = try schemaSQL(plainDB, table: table)
            #expect(expected.count > 1)
            #expect(expected.first { $0[1] == table }?[2] == schema.table(named: table)!.createStatement)
            #expect(try schemaSQL(flexDB, table: table) == expected, "\(table)")
        }
        // The columns exist and read as NULL (in both), or as loaded.
        for db in [plainDB, flexDB] {
            let columns = try db.rows("SELECT name FROM pragma_table_info('stop_times') ORDER BY cid").map(\.[0].description)
            #expect(columns == schema.table(named: "stop_times")!.layout.map(\.name))
            #expect(try db.text("PRAGMA integrity_check") == "ok")
        }
        #expect(try plainDB.int("""
            SELECT count(*) FROM stop_times WHERE start_pickup_drop_off_window IS NULL AND end_pickup_drop_off_window IS NULL
              AND location_group_ref IS NULL AND location_ref IS NULL AND pickup_booking_rule_ref IS NULL
              AND drop_off_booking_rule_ref IS NULL AND extras IS NULL
            """) == 3)
        #expect(try plainDB.int("SELECT count(*) FROM stop_times INDEXED BY stop_times_location_ref WHERE location_ref = 1") == 0)
        #expect(try plainDB.int("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'seedgen_empty%'") == 0)
        #expect(try plainDB.int("SELECT count(*) FROM trips WHERE cars_allowed IS NULL") == 2)
        #expect(try flexDB.rows("SELECT start_pickup_drop_off_window, extras ->> '$.track', location_ref FROM stop_times ORDER BY trip_ref, stop_sequence")
                    .map { $0.map(\.description) } == [["25200", "3", "NULL"], ["NULL", "NULL", "NULL"], ["NULL", "NULL", "NULL"]])
        #expect(try flexDB.rows("SELECT cars_allowed FROM trips ORDER BY id").map(\.[0].description) == ["1", "NULL"])
    }

    @Test("the empty index of an added reference column is a real index of its table")
    func emptyIndexes() throws {
        let table = try Schema.load(path: Self.transit).table(named: "stop_times")!
        let db = try Connection(path: ":memory:")
        let count = table.createdColumnCount(supplied: ["trip_id", "stop_id", "stop_sequence"])
        try db.execute(table.createStatement(columnCount: count))
        try db.execute("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000) INSERT INTO stop_times (trip_ref, stop_sequence, stop_ref) SELECT x / 10, x % 10, x FROM n")
        for statement in table.addColumnStatements(after: count) { try db.execute(statement) }
        let created = try EmptyIndexes(connection: db).create(table: table, addedColumns: Array(table.layout.dropFirst(count)), skipping: [])
        #expect(created.count == 4)
        #expect(Set(created).isSubset(of: table.indexStatements))
        #expect(try db.rows("SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'stop_times' ORDER BY name").map(\.[0].description)
                    == created.sorted())
        #expect(try db.int("SELECT count(*) FROM sqlite_schema WHERE name = '\(EmptyIndexes.standIn)'") == 0)
        // Rows written after it are indexed, lookups use it, and SQLite finds nothing wrong.
        try db.execute("INSERT INTO stop_times (trip_ref, stop_sequence, location_ref, drop_off_booking_rule_ref) VALUES (5000, 1, 7, 8)")
        #expect(try db.int("SELECT count(*) FROM stop_times INDEXED BY stop_times_location_ref WHERE location_ref = 7") == 1)
        #expect(try db.int("SELECT trip_ref FROM stop_times INDEXED BY stop_times_drop_off_booking_rule_ref WHERE drop_off_booking_rule_ref = 8") == 5000)
        #expect(try db.text("PRAGMA integrity_check") == "ok")
        #expect(try EmptyIndexes(connection: db).create(table: table, addedColumns: Array(table.layout.dropFirst(count)), skipping: Set(created)).isEmpty,
                "indexes already created are left alone")
    }

    @Test("a feed without the GTFS-Flex columns gives a stop_times no bigger than a schema without them")
    func absentColumnsAreFree() throws {
        let feed = TemporaryFolder()
        var trips = "route_id,service_id,trip_id\n", stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type\n"
        for trip in 1...400 {
            trips += "R1,WD,T\(trip)\n"
            for sequence in 1...50 {
                let time = String(format: "%02d:%02d:00", 5 + sequence / 60, sequence % 60)
                stopTimes += "T\(trip),\(time),\(time),S\(1 + sequence % 2),\(sequence),0\n"
            }
        }
        MinimalFeed.write(into: feed, ["trips.txt": trips, "stop_times.txt": stopTimes])
        // The same schema without the trailing columns and references of stop_times, nor its extras.
        let text = try String(contentsOfFile: Self.transit, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = lines.firstIndex(of: "  - name: stop_times")!
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("  - name: ") }!
        lines = lines.enumerated().filter { index, line in
            !(start..<end ~= index && (line.contains("trailing: true") || line == "    extras: true"))
        }.map(\.element)
        #expect(lines.count == text.split(separator: "\n", omittingEmptySubsequences: false).count - 7)
        let lean = feed.write("lean.yaml", lines.joined(separator: "\n"))

        let full = try build(feed, to: "full.sqlite"), reduced = try build(feed, schema: lean, to: "lean.sqlite")
        let pages = "SELECT count(*) FROM dbstat WHERE name = 'stop_times'"
        #expect(try full.int("SELECT count(*) FROM stop_times") == 20000)
        #expect(try full.int(pages) <= reduced.int(pages), "7 NULL columns would add some 140 kB")
        #expect(try full.int(pages) > 20)
    }

    @Test("CSV: a $file column stores the file name even as the table's last column (created before loading)")
    func fileColumnLast() throws {
        let folder = TemporaryFolder()
        let schema = NotesSchema.write(into: folder, columns: ["{ name: text }", "{ name: file, source: $file }"])
        folder.write("in/notes.txt", "text\na\nb\n")
        _ = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: folder.file("s.sqlite"), schemaPath: schema)).build()
        let db = try Connection(path: folder.file("s.sqlite"), mode: .readOnly)
        #expect(try db.text("SELECT group_concat(text || '@' || file, ' ') FROM notes") == "a@notes.txt b@notes.txt")
    }
}
