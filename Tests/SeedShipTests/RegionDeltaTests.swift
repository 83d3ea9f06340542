import Foundation
import SeedDeltas
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit
@testable import SeedShip

/// Issue 43: a delta to one feed of a region seed derives the journey planner's tables again as
/// the build derives them: each feed's patterns and footpaths, and the walks between stops of
/// different feeds (`CrossFeedFootpaths`), to the new seed's content digest.
@Suite("Region seed deltas: the planner's tables derived again")
struct RegionDeltaTests {
    let folder = TemporaryFolder()

    /// The two-operator fixture copied as `name`, each file of a feed changed by `change`.
    func fixture(_ name: String, _ change: (_ feed: String, _ file: String, _ text: String) -> String = { $2 })
        throws -> [String]
    {
        let source = Repository.path("Tests/Fixtures/gtfs/two-operators")
        return try ["north", "south"].map { feed in
            let copy = folder.file("\(name)/\(feed)")
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: "\(source)/\(feed)") {
                let text = try String(contentsOfFile: "\(source)/\(feed)/\(file)", encoding: .utf8)
                try change(feed, file, text).write(toFile: "\(copy)/\(file)", atomically: true, encoding: .utf8)
            }
            return "\(feed)=\(copy)"
        }
    }

    func build(_ feeds: [String], to name: String, previous: String? = nil) throws -> String {
        var options = BuildOptions(inputs: [], output: folder.file(name), lenient: true)
        options.feeds = feeds
        options.previous = previous
        _ = try SeedBuilder(options: options).build()
        return folder.file(name)
    }

    /// Writes the delta from `old` to `new`, applies it to `old` with the installer's code, and
    /// expects the result to have `new`'s content digest; returns the patched seed.
    func patched(_ old: String, _ new: String, name: String) throws -> String {
        let summary = try SeedDeltaWriter().write(old: old, new: new, to: folder.file(name + ".delta"))
        let patch = try DeltaPatch(path: summary.output)
        let result = folder.file(name + ".result")
        try patch.apply(base: old, baseIsProven: false, changedTables: try patch.checkBody(), output: result)
        let recorded = try Connection(path: new, mode: .readOnly).text(
            "SELECT value FROM seedgen_metadata WHERE key = 'content_sha256'")
        #expect(try ContentDigest.compute(path: result) == recorded && recorded != nil, "\(name)")
        return result
    }

    /// Expects the planner's recipes of `seed` to be those the installer computes in Swift
    /// (`PlannerRows`), giving their SQL's rows: each
    /// target filled by both on a copy, compared row for row.
    func expectSwiftIsSQL(_ seed: String, region: Bool) throws {
        let copy = seed + ".check"
        try FileManager.default.copyItem(atPath: seed, toPath: copy)
        let db = try Connection(path: copy)
        let recipes = try DeriveRecipe.read(db).filter { ["trip_patterns", "pattern_stops", "footpaths"].contains($0.target) }
        let known = recipes.map { PlannerRows.known($0) != nil }
        #expect(known == Array(repeating: true, count: region ? 4 : 3), "\(recipes.map(\.target))")
        let (swift, sql) = (PlannerRows(), PlannerRows())
        for (recipe, isKnown) in zip(recipes, known) where isKnown {
            let table = quoted(recipe.target)
            try recipe.clear(db)
            #expect(try swift.derive(recipe, connection: db))
            try db.execute("CREATE TEMP TABLE swift AS SELECT * FROM main.\(table)")
            try recipe.clear(db)
            // By SQL (a PlannerRows that never computed trip_patterns leaves pattern_stops to it).
            if recipe.target == "pattern_stops" { #expect(try !sql.derive(recipe, connection: db)) }
            try recipe.derive(db)
            let differ = try db.scalar(
                """
                SELECT (SELECT count(*) FROM (SELECT * FROM temp.swift EXCEPT SELECT * FROM main.\(table)))
                     + (SELECT count(*) FROM (SELECT * FROM main.\(table) EXCEPT SELECT * FROM temp.swift))
                """)
            let count = try db.scalar("SELECT count(*) FROM temp.swift")?.integer ?? 0
            // The fixture's feeds have no walk within one feed.
            let empty = region && recipe.target == "footpaths" && recipe.kind == .table
            #expect(differ == .integer(0) && (count > 0 || empty), "\(recipe.target) (\(recipe.kind))")
            try db.execute("DROP TABLE temp.swift")
        }
    }

    /// The walks between stops of different feeds: (feed, from stop, to stop).
    func walksAcrossFeeds(_ seed: String) throws -> [[String]] {
        try Connection(path: seed, mode: .readOnly).rows(
            """
            SELECT feeds.name, a.stop_id, b.stop_id FROM (SELECT * FROM footpaths WHERE \(CrossFeedFootpaths.rows)) AS f
              JOIN feeds ON feeds.id = f.feed_ref JOIN stops AS a ON a.id = from_stop_ref JOIN stops AS b ON b.id = to_stop_ref
             ORDER BY 1, 2, 3
            """
        ).map { $0.map(\.description) }
    }

    @Test("S1 moved 2 km away and back: the delta to one feed removes the walk from N2, and adds it again")
    func walkAcrossFeedsDerivedAgain() throws {
        let moved = try fixture("moved") { feed, file, text in
            feed == "south" && file == "stops.txt" ? text.replacingOccurrences(of: "52.5020,", with: "52.5200,") : text
        }
        let old = try build(moved, to: "old.sqlite")
        let new = try build(try fixture("fixture"), to: "new.sqlite", previous: old)
        #expect(try walksAcrossFeeds(old).isEmpty && walksAcrossFeeds(new) == [["north", "N2", "S1"]])
        #expect(try walksAcrossFeeds(patched(old, new, name: "forward")) == [["north", "N2", "S1"]])
        let again = try build(moved, to: "again.sqlite", previous: new)
        #expect(try walksAcrossFeeds(patched(new, again, name: "back")).isEmpty)
    }

    @Test("a trip added to one feed (stop_times): its patterns derived again, the other feed's and the walks kept")
    func stopTimesOfOneFeed() throws {
        let old = try build(try fixture("fixture"), to: "old.sqlite")
        let added = try fixture("added") { feed, file, text in
            guard feed == "north" else { return text }
            switch file {
            case "trips.txt": return text + "R1,ALL,T3\n"
            case "stop_times.txt": return text + "T3,09:00:00,09:00:00,N2,1\nT3,09:20:00,09:20:00,N1,2\n"
            default: return text
            }
        }
        let new = try build(added, to: "new.sqlite", previous: old)
        let result = try patched(old, new, name: "added")
        let db = try Connection(path: result, mode: .readOnly)
        let expected = try Connection(path: new, mode: .readOnly)
        for table in ["trip_patterns", "pattern_stops", "footpaths"] {
            let rows = try db.rows("SELECT * FROM \(table) ORDER BY 1, 2, 3").map { $0.map(\.description) }
            let wanted = try expected.rows("SELECT * FROM \(table) ORDER BY 1, 2, 3").map { $0.map(\.description) }
            #expect(!rows.isEmpty && rows == wanted, "\(table)")
        }
        #expect(try db.scalar("SELECT count(DISTINCT pattern) FROM trip_patterns WHERE feed_ref = 1")?.integer == 2)
        #expect(try walksAcrossFeeds(result) == [["north", "N2", "S1"]])
        try expectSwiftIsSQL(result, region: true)
    }

    @Test("Cairns, a trip's stop_times changed: the installer's planner tables in Swift, the digest of the built seed")
    func stopTimesOfCairns() throws {
        let old = folder.file("cairns-1.sqlite")
        _ = try SeedBuilder.build([Repository.path("examples/cairns")], to: old)
        let feed = folder.file("cairns-2")
        try FileManager.default.copyItem(atPath: Repository.path("examples/cairns"), toPath: feed)
        // The first trip's last stop time dropped: a trip of a new pattern.
        let path = feed + "/stop_times.txt"
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        let trip = lines[1].prefix { $0 != "," }
        let last = try #require(lines.lastIndex { $0.hasPrefix(trip + ",") })
        lines.remove(at: last)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        var options = BuildOptions(inputs: [feed], output: folder.file("cairns-2.sqlite"))
        options.previous = old
        _ = try SeedBuilder(options: options).build()
        let result = try patched(old, folder.file("cairns-2.sqlite"), name: "cairns")
        try expectSwiftIsSQL(result, region: false)
    }
}
