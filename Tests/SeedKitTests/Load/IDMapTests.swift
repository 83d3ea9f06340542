import Foundation
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// The map from ascending integer keys to row ids: what it holds, where it stops, and that
/// a build resolving through it writes the same seed as one that queries.
@Suite("Id map")
struct IDMapTests {
    @Test("ascending keys with consecutive row ids are one run; every key finds its row id")
    func ascendingKeys() {
        let map = IDMap(capacity: 100)
        for key in Int64(1)...50 { map.record(key: key, id: key + 1000) }
        #expect(map.count == 50)
        #expect(map.runCount == 1)
        for key in Int64(1)...50 { #expect(map.id(for: key) == key + 1000) }
        #expect(map.id(for: 0) == nil)
        #expect(map.id(for: 51) == nil)
    }

    @Test("gaps in the keys are found by bisection; keys in the gaps are not held")
    func gapsInKeys() {
        let map = IDMap(capacity: 100)
        let keys: [Int64] = [3, 4, 10, 11, 12, 100, 1_000_000, 1_000_001]
        for (index, key) in keys.enumerated() { map.record(key: key, id: Int64(index + 1)) }
        #expect(map.runCount == 1)
        for (index, key) in keys.enumerated() { #expect(map.id(for: key) == Int64(index + 1)) }
        for key: Int64 in [5, 9, 13, 99, 101, 999_999] { #expect(map.id(for: key) == nil) }
    }

    @Test("a jump in the row ids starts a new run; ids on both sides of it are right")
    func runsOfRowIDs() {
        let map = IDMap(capacity: 100)
        // Row ids 1...3, then 10...12 (rows of the table between were left out), then 50.
        let pairs: [(Int64, Int64)] = [(100, 1), (101, 2), (102, 3), (200, 10), (201, 11), (202, 12), (300, 50)]
        for (key, id) in pairs { map.record(key: key, id: id) }
        #expect(map.runCount == 3)
        for (key, id) in pairs { #expect(map.id(for: key) == id) }
    }

    @Test("past its capacity the map keeps no more keys, and still answers for those it holds")
    func capacityBound() {
        let map = IDMap(capacity: 4)
        for key in Int64(1)...10 { map.record(key: key, id: key) }
        #expect(map.count == 4)
        #expect(map.isClosed)
        for key in Int64(1)...4 { #expect(map.id(for: key) == key) }
        for key in Int64(5)...10 { #expect(map.id(for: key) == nil) }
    }

    @Test("a key that does not ascend closes the map: later keys, even ascending ones, are not kept")
    func descendingKeyCloses() {
        let map = IDMap(capacity: 100)
        for key: Int64 in [10, 20, 30, 25, 40] { map.record(key: key, id: key) }
        #expect(map.isClosed)
        #expect(map.count == 3)
        #expect(map.id(for: 25) == nil)
        #expect(map.id(for: 40) == nil)
        #expect(map.id(for: 20) == 20)
    }

    @Test("a repeated key closes the map without replacing the first row id")
    func repeatedKeyCloses() {
        let map = IDMap(capacity: 100)
        map.record(key: 7, id: 1)
        map.record(key: 7, id: 2)
        #expect(map.isClosed)
        #expect(map.id(for: 7) == 1)
    }

    @Test("scattered row ids close the map once the runs reach a sixteenth of the capacity")
    func runBound() {
        let map = IDMap(capacity: 64) // at most 4 runs
        for key in Int64(1)...10 { map.record(key: key, id: key * 2) }
        #expect(map.runCount == 4)
        #expect(map.count == 4)
        #expect(map.isClosed)
        #expect(map.id(for: 4) == 8)
        #expect(map.id(for: 5) == nil)
    }

    @Test("capacity 0 keeps nothing; discard forgets every key")
    func offAndDiscard() {
        let off = IDMap(capacity: 0)
        off.record(key: 1, id: 1)
        #expect(off.count == 0)
        #expect(off.id(for: 1) == nil)
        let map = IDMap(capacity: 10)
        map.record(key: 1, id: 1)
        map.discard()
        map.record(key: 2, id: 2)
        #expect(map.id(for: 1) == nil)
        #expect(map.id(for: 2) == nil)
    }

    @Test("maps exist for the targets of single-column references keyed by one integer column")
    func whichTables() throws {
        let schema = try Schema.load(path: XMLFixtures.schema("osm"))
        let maps = IDMaps(schema: schema, capacity: 10)
        #expect(maps.map(for: schema.table(named: "node")!) != nil)
        #expect(maps.map(for: schema.table(named: "node")!) === maps.map(for: schema.table(named: "node")!))
        #expect(maps.map(for: schema.table(named: "way")!) == nil) // nothing refers to ways by key
        #expect(maps.map(for: schema.table(named: "way_node")!) == nil)
        #expect(IDMaps(schema: schema, capacity: 0).map(for: schema.table(named: "node")!) == nil)
    }

    // MARK: Builds

    /// An OSM file of `nodes` nodes (ids `idStep` apart, in `order`) and ways that name them
    /// out of order, every third way naming one node no node has.
    static func osm(nodes: Int, ways: Int, idStep: Int = 3, descending: Bool = false) -> String {
        var text = "<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\">\n"
        let ids = (1...nodes).map { $0 * idStep }
        for id in descending ? ids.reversed() : ids {
            text += "  <node id=\"\(id)\" lat=\"47.\(id)\" lon=\"9.\(id)\" timestamp=\"2013-06-20T13:45:07Z\"/>\n"
        }
        for way in 1...ways {
            text += "  <way id=\"\(way)\">\n"
            for step in 0..<5 { text += "    <nd ref=\"\(ids[(way * 7919 + step * 104_729) % nodes])\"/>\n" }
            if way % 3 == 0 { text += "    <nd ref=\"\(nodes * idStep + way)\"/>\n" } // not a node of the file
            text += "    <tag k=\"highway\" v=\"residential\"/>\n  </way>\n"
        }
        return text + "</osm>\n"
    }

    private let folder = TemporaryFolder()

    /// Builds `text` as `name`.osm with the built-in OSM schema and the given map size.
    private func build(_ text: String, idMapSize: Int, as name: String) throws -> (seed: Data, summary: BuildSummary) {
        let input = folder.write("\(name)/map.osm", text)
        let output = folder.file("\(name).sqlite")
        var options = BuildOptions(inputs: [input], output: output, schemaPath: XMLFixtures.schema("osm"), allowDangling: true)
        options.idMapCapacity = idMapSize
        let summary = try SeedBuilder(options: options).build()
        return (try #require(FileManager.default.contents(atPath: output)), summary)
    }

    @Test("references resolved through the map: no query for a node that exists, the same seed as without the map")
    func sameSeedWithoutQueries() throws {
        let text = Self.osm(nodes: 3000, ways: 600)
        let mapped = try build(text, idMapSize: IDMap.defaultCapacity, as: "mapped")
        let queried = try build(text, idMapSize: 0, as: "queried")
        #expect(mapped.seed == queried.seed)
        let withMap = try #require(mapped.summary.references["way_node.node_ref"])
        let without = try #require(queried.summary.references["way_node.node_ref"])
        #expect(withMap.misses == 200) // one per way that names a missing node, and no other
        #expect(without.misses > 2000)
        #expect(withMap.unresolved == 200 && without.unresolved == 200)
    }

    @Test("a map smaller than the table: the keys past it are queried, the seed is the same")
    func smallMapFallsBack() throws {
        let text = Self.osm(nodes: 3000, ways: 600)
        let small = try build(text, idMapSize: 1000, as: "small")
        let queried = try build(text, idMapSize: 0, as: "queried")
        #expect(small.seed == queried.seed)
        let withSmallMap = try #require(small.summary.references["way_node.node_ref"]?.misses)
        let without = try #require(queried.summary.references["way_node.node_ref"]?.misses)
        #expect(withSmallMap > 200 && withSmallMap < without)
    }

    @Test("nodes in descending order: the map closes after the first, every lookup queries, the seed is the same")
    func descendingKeysFallBack() throws {
        let text = Self.osm(nodes: 2000, ways: 300, descending: true)
        let mapped = try build(text, idMapSize: IDMap.defaultCapacity, as: "mapped")
        let queried = try build(text, idMapSize: 0, as: "queried")
        #expect(mapped.seed == queried.seed)
        // The map holds the first node only: at most one lookup fewer than without it.
        let withMap = try #require(mapped.summary.references["way_node.node_ref"]?.misses)
        let without = try #require(queried.summary.references["way_node.node_ref"]?.misses)
        #expect(withMap >= without - 1 && withMap > 300)
    }

    @Test("the Liechtenstein extract builds to the same seed with and without the map, with no query for way nodes",
          .realData(XMLFixtures.osmData))
    func realExtract() throws {
        let text = try String(contentsOfFile: XMLFixtures.osm, encoding: .utf8)
        let mapped = try build(text, idMapSize: IDMap.defaultCapacity, as: "mapped")
        let queried = try build(text, idMapSize: 0, as: "queried")
        #expect(mapped.seed == queried.seed)
        #expect(mapped.summary.references["way_node.node_ref"]?.misses == 0)
        #expect((queried.summary.references["way_node.node_ref"]?.misses ?? 0) > 50_000) // 64,960 on main
    }
}
