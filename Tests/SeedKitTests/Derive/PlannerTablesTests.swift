import Foundation
import SeedDeltas
import SeedSQLite
import SeedTestSupport
import Testing

@testable import SeedKit

/// Issue 43 / 39: the build computes the planner's derived tables in Swift (`PlannerTables`),
/// and records their recipes, which the installer runs after a delta: the rows must be the
/// recipes' rows, or a patched seed's digest would not be the built seed's. The golden record
/// compares them on every shared feed (`PlannerRecipeCheck`); these tests on the fixtures,
/// a region seed and a seed built with `--previous`.
@Suite("Journeys: the planner's tables computed in Swift are their recipes' rows")
struct PlannerTablesTests {
    let folder = TemporaryFolder()

    func build(
        _ name: String, _ inputs: [String], feeds: [String] = [], previous: String? = nil, fromLoad: Bool? = nil
    ) throws -> String {
        var options = BuildOptions(inputs: inputs, output: folder.file(name + ".sqlite"), lenient: true)
        options.feeds = feeds
        options.previous = previous
        let summary = try SeedBuilder(options: options).build()
        // One feed, with --previous too: trip_patterns from what the load saw (TripStopLog),
        // unless stop_times holds what it does not follow; read again otherwise.
        let expected = fromLoad ?? feeds.isEmpty
        #expect(summary.tripPatternsFromLoad == expected, "\(name): trip_patterns from the load")
        return folder.file(name + ".sqlite")
    }

    /// The recipes' SQL gives the built rows; and Swift computed them (not the SQL, after a
    /// recipe it does not know): filled again in a copy, each table is what the build wrote.
    func check(_ seed: String, region: Bool = false) throws {
        let (checked, differences) = try PlannerRecipeCheck.compare(seed)
        #expect(checked == PlannerRecipeCheck.tables && differences.isEmpty, "\(seed): \(differences)")
        let copy = seed + ".again"
        try FileManager.default.copyItem(atPath: seed, toPath: copy)
        let db = try Connection(path: copy)
        let schema = try Schema.load(path: Repository.path("Schema/transit.yaml"))
        let tables = try PlannerRecipeCheck.tables.map { try #require(schema.table(named: $0)) }
        let planner = PlannerTables()
        var filled: [String] = []
        for table in tables {
            try db.execute("DELETE FROM \(table.name)")
            if try planner.fill(table, region: region, connection: db) { filled.append(table.name) }
        }
        #expect(filled == PlannerRecipeCheck.tables)
        // And a region seed's walks between feeds, after each feed's footpaths.
        if region { #expect(try FootpathRows.fillCrossFeed(db)) }
        try db.execute("ATTACH DATABASE \(quotedLiteral(seed)) AS built")
        for table in filled {
            let count = try #require(try db.scalar("SELECT count(*) FROM built.\(table)")?.integer)
            let same = try db.scalar(
                "SELECT count(*) FROM (SELECT * FROM main.\(table) INTERSECT SELECT * FROM built.\(table))")?.integer
            let again = try db.scalar("SELECT count(*) FROM main.\(table)")?.integer
            // The sample feed's stops are all farther apart than a walk.
            #expect((count > 0 || table == "footpaths") && same == count && again == count, "\(seed): \(table)")
        }
    }

    @Test("the transit schema's recipes are those the Swift computes (their SHA-256)")
    func recipesKnown() throws {
        let schema = try Schema.load(path: Repository.path("Schema/transit.yaml"))
        for name in PlannerRecipeCheck.tables {
            #expect(PlannerTables.handles(try #require(schema.table(named: name))), "\(name)")
        }
        var changed = try #require(schema.table(named: "trip_patterns"))
        changed.derive?.sql += " "
        #expect(!PlannerTables.handles(changed), "another recipe runs as SQL")
    }

    @Test("the fixtures: Cairns, the sample feed, the DST fixture, the two-operator region seed")
    func fixtures() throws {
        let gtfs = Repository.path("Tests/Fixtures/gtfs")
        try check(try build("cairns", [Repository.path("examples/cairns")]))
        try check(try build("sample", ["\(gtfs)/sample-feed"]))
        try check(try build("berlin", ["\(gtfs)/dst-berlin"]))
        let two = "\(gtfs)/two-operators"
        try check(try build("region", [], feeds: ["north=\(two)/north", "south=\(two)/south"]), region: true)
    }

    @Test("a region seed: walks between stops of different feeds (N2 to S1, 222 m), of the feed of the smaller id")
    func crossFeedWalks() throws {
        let two = Repository.path("Tests/Fixtures/gtfs/two-operators")
        let seed = try build("region", [], feeds: ["north=\(two)/north", "south=\(two)/south"])
        let db = try Connection(path: seed)
        let rows = try db.rows(
            """
            SELECT feeds.name, a.stop_id, b.stop_id, kind, min_transfer_time FROM footpaths JOIN feeds ON feeds.id = footpaths.feed_ref
              JOIN stops AS a ON a.id = from_stop_ref JOIN stops AS b ON b.id = to_stop_ref
            """
        ).map { $0.map(\.description) }
        #expect(rows == [["north", "N2", "S1", "0", "NULL"]])
        let recipes = try DeriveRecipe.read(db).filter { $0.target == "footpaths" }
        #expect(recipes.map(\.kind) == [.table, .rows] && recipes.last == CrossFeedFootpaths.recipe)
        // Computed in Swift again: the same rows; and the recipe's condition selects them.
        #expect(try db.scalar("SELECT count(*) FROM footpaths WHERE \(CrossFeedFootpaths.rows)")?.integer == 1)
        try db.execute("DELETE FROM footpaths")
        #expect(try FootpathRows.fillCrossFeed(db))
        #expect(try db.rows("SELECT feed_ref, from_stop_ref, to_stop_ref, kind FROM footpaths").count == 1)
        // A seed of one feed records no such recipe.
        let north = try Connection(path: try build("north", ["\(two)/north"]), mode: .readOnly)
        #expect(try DeriveRecipe.read(north).filter { $0.target == "footpaths" }.map(\.kind) == [.table])
    }

    @Test("a region seed derived by the recipes' SQL (SEEDGEN_DERIVE_BY_SQL=1) has the bytes of one derived in Swift")
    func regionBytesBySQL() throws {
        let source = Repository.path("Tests/Fixtures/gtfs/sample-feed")
        let two = Repository.path("Tests/Fixtures/gtfs/two-operators")
        // Two copies of the sample feed: every stop has a copy at its place, 0 m away.
        let cases = [["north=\(two)/north", "south=\(two)/south"], ["a=\(source)", "b=\(source)"]]
        for (index, feeds) in cases.enumerated() {
            var seeds: [Data] = []
            for bySQL in [false, true] {
                let output = folder.file("bytes-\(index)-\(bySQL).sqlite")
                var environment = ProcessInfo.processInfo.environment
                environment["SEEDGEN_DERIVE_BY_SQL"] = bySQL ? "1" : nil
                let arguments = ["build"] + feeds.flatMap { ["--feed", $0] } + ["--lenient", "--out", output, "--quiet"]
                let run = try ChildProcess.run(SeedgenTool.path, arguments, environment: environment)
                try #require(run.status == 0, "\(run.stderr)")
                seeds.append(try #require(FileManager.default.contents(atPath: output)))
            }
            #expect(seeds[0] == seeds[1], "\(feeds)")
        }
    }

    @Test("a coordinate far beyond any place (1e300, as a hostile delta could bring): left to the recipe's SQL, no overflow")
    func farCoordinates() throws {
        let seed = try build("sample", [Repository.path("Tests/Fixtures/gtfs/sample-feed")])
        let db = try Connection(path: seed)
        for (lat, lon) in [("1e300", "stop_lon"), ("-1e300", "stop_lon"), ("stop_lat", "-1e300"), ("9e18", "stop_lon")] {
            try db.execute("UPDATE stops SET stop_lat = \(lat), stop_lon = \(lon) WHERE stop_id = 'AMV'")
            try db.execute("DELETE FROM footpaths")
            #expect(try !FootpathRows.fill(db), "\(lat), \(lon)")
            #expect(try db.scalar("SELECT count(*) FROM footpaths")?.integer == 0)
            let recipe = try #require(try DeriveRecipe.read(db).first { $0.target == "footpaths" })
            try recipe.derive(db)
        }
    }

    @Test("a feed built with --previous: its trips keep the previous ids, not in input order, before deriving; trip_patterns from the load's log, the bytes of the recipes' SQL")
    func previous() throws {
        let feed = folder.file("feed")
        try FileManager.default.copyItem(atPath: Repository.path("Tests/Fixtures/gtfs/sample-feed"), toPath: feed)
        let first = try build("first", [feed])
        // The trips in reverse order: ids kept from the first seed, patterns named by its smallest ids.
        let trips = try String(contentsOfFile: "\(feed)/trips.txt", encoding: .utf8).split(separator: "\n")
        let reversed = [trips[0]] + trips.dropFirst().reversed()
        try (reversed.joined(separator: "\n") + "\n").write(
            toFile: "\(feed)/trips.txt", atomically: true, encoding: .utf8)
        let plain = try build("plain", [feed])
        let kept = try build("kept", [feed], previous: first)
        func ids(_ seed: String) throws -> [String] {
            try Connection(path: seed, mode: .readOnly).rows("SELECT trip_id FROM trips ORDER BY id").map(\.description)
        }
        #expect(try ids(kept) == ids(first) && ids(plain) != ids(first))
        try check(kept)
        try check(plain)
        // Derived from the load's log (its trip ids the kept ones), the bytes of the recipes' SQL.
        var seeds: [Data] = []
        for bySQL in [false, true] {
            let output = folder.file("kept-\(bySQL).sqlite")
            var environment = ProcessInfo.processInfo.environment
            environment["SEEDGEN_DERIVE_BY_SQL"] = bySQL ? "1" : nil
            let arguments = ["build", feed, "--previous", first, "--lenient", "--out", output, "--quiet"]
            let run = try ChildProcess.run(SeedgenTool.path, arguments, environment: environment)
            try #require(run.status == 0, "\(run.stderr)")
            seeds.append(try #require(FileManager.default.contents(atPath: output)))
        }
        #expect(seeds[0] == seeds[1])
    }

    @Test("stop_times the load's log does not follow: trip_patterns read from stop_times, the same rows")
    func unusualStopTimes() throws {
        let source = Repository.path("Tests/Fixtures/gtfs/sample-feed")
        let lines = try String(contentsOfFile: "\(source)/stop_times.txt", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let (header, rows) = (lines[0], Array(lines.dropFirst()))
        // Each trip's rows in descending stop_sequence; one trip's first row moved to the end
        // (its rows apart); the rows of trips in another order than trips.txt (the log sorts).
        let cases: [(name: String, rows: [String], fromLoad: Bool)] = [
            ("descending", rows.reversed(), false),
            ("apart", Array(rows.dropFirst()) + [rows[0]], false),
            (
                "trips-reordered",
                rows.enumerated().sorted { a, b in
                    let (x, y) = (a.element.prefix { $0 != "," }, b.element.prefix { $0 != "," })
                    return x != y ? x > y : a.offset < b.offset
                }.map(\.element), true
            )
        ]
        for (name, rows, fromLoad) in cases {
            let feed = folder.file(name)
            try FileManager.default.copyItem(atPath: source, toPath: feed)
            try ([header] + rows + [""]).joined(separator: "\n").write(
                toFile: "\(feed)/stop_times.txt", atomically: true, encoding: .utf8)
            try check(try build(name, [feed], fromLoad: fromLoad))
        }
    }

    @Test("the log's pattern numbers keep each trip's number past a block's end (2^16 trips a block)")
    func patternNumbersAcrossBlocks() {
        var numbers = PatternNumbers()
        let count = 3 << 16 + 5
        for trip in 0..<count { numbers.append(UInt32(truncatingIfNeeded: trip &* 2_654_435_761)) }
        #expect(numbers.count == count)
        for trip in [0, 1 << 16 - 1, 1 << 16, 1 << 16 + 1, 2 << 16, count - 1] {
            #expect(numbers[trip] == UInt32(truncatingIfNeeded: trip &* 2_654_435_761), "trip \(trip)")
        }
        #expect((0..<count).allSatisfy { numbers[$0] == UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) })
    }
}
