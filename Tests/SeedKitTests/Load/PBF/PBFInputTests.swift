import Foundation
import SeedDeltas
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

@Suite("OpenStreetMap PBF input: the same seed as the same data in XML")
struct PBFInputTests {
    static let fixtures = Repository.path("Tests/Fixtures/pbf")

    /// Builds `file` with the built-in schema (recognised from the input) into a new seed.
    static func build(_ file: String, in folder: TemporaryFolder) throws -> String {
        let output = folder.file((file as NSString).lastPathComponent + ".sqlite")
        _ = try SeedBuilder.build([file], to: output)
        return output
    }

    /// The content digest of `seed` without what names its input file (`seedgen_inputs`, the
    /// seed version made from the input's SHA-256): the digest of the rows read.
    static func dataDigest(_ seed: String) throws -> String {
        let copy = seed + ".data"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: seed, toPath: copy)
        let connection = try Connection(path: copy)
        try connection.execute("DELETE FROM seedgen_inputs; DELETE FROM seedgen_metadata WHERE key IN ('seed_version', 'content_sha256')")
        return try ContentDigest.compute(connection)
    }

    static func count(_ seed: String, _ sql: String) throws -> Int64 {
        try Connection(path: seed, mode: .readOnly).scalar(sql)?.integer ?? -1
    }

    @Test("dense nodes, zlib blobs: the same tables, rows and content digest as the XML")
    func sameAsXML() throws {
        let folder = TemporaryFolder()
        let xml = try Self.build(Self.fixtures + "/vaduz.osm", in: folder)
        let pbf = try Self.build(Self.fixtures + "/vaduz.osm.pbf", in: folder)
        for (table, rows) in [("node", 1048), ("way", 103), ("relation", 15)] as [(String, Int64)] {
            #expect(try Self.count(pbf, "SELECT count(*) FROM \(table)") == rows, "\(table)")
        }
        #expect(try Self.count(pbf, "SELECT count(*) FROM way_node WHERE node_ref IS NULL") == 0, "every node of a way is resolved")
        #expect(try Self.dataDigest(pbf) == Self.dataDigest(xml))
        let digest = try Connection(path: pbf, mode: .readOnly).scalar("SELECT value FROM seedgen_metadata WHERE key = 'content_sha256'")
        #expect(digest?.text?.count == 64)
    }

    @Test("raw blobs, plain nodes, and a history file (HistoricalInformation): the same digest")
    func otherLayouts() throws {
        let folder = TemporaryFolder()
        let xml = try Self.dataDigest(Self.build(Self.fixtures + "/vaduz.osm", in: folder))
        #expect(try Self.dataDigest(Self.build(Self.fixtures + "/vaduz-raw-plain-nodes.osm.pbf", in: folder)) == xml)
        #expect(try Self.dataDigest(Self.build(Self.fixtures + "/vaduz-history.osh.pbf", in: folder)) == xml)
    }

    @Test("without metadata: the same nodes, ways and members, no versions or users")
    func withoutMetadata() throws {
        let folder = TemporaryFolder()
        let xml = try Self.build(Self.fixtures + "/vaduz.osm", in: folder)
        let pbf = try Self.build(Self.fixtures + "/vaduz-no-metadata.osm.pbf", in: folder)
        let query = "SELECT osm_id, lat, lon FROM node ORDER BY id"
        #expect(try Connection(path: pbf, mode: .readOnly).rows(query) == Connection(path: xml, mode: .readOnly).rows(query))
        let members = "SELECT relation_ref, position, type, ref, role FROM relation_member ORDER BY id"
        #expect(try Connection(path: pbf, mode: .readOnly).rows(members) == Connection(path: xml, mode: .readOnly).rows(members))
        #expect(try Self.count(pbf, "SELECT count(*) FROM node WHERE version IS NOT NULL OR user IS NOT NULL") == 0)
    }

    @Test("recognised by its content, whatever its name")
    func recognisedByContent() throws {
        let folder = TemporaryFolder()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/vaduz.osm.pbf")))
        let renamed = folder.write("extract.dat", bytes: bytes)
        let seed = try Self.build(renamed, in: folder)
        #expect(try Self.count(seed, "SELECT count(*) FROM node") == 1048)
        #expect(OSMPBFFile.recognises(bytes) && !OSMPBFFile.recognises(Array("<?xml version='1.0'?><osm/>".utf8)))
    }

    @Test("a schema with query features (the reference's node_location and node_tag_search): the same seed from PBF")
    func queryFeatures() throws {
        let folder = TemporaryFolder()
        let readme = try String(contentsOfFile: Repository.path("Schema/README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```yaml\ntables:\n  - name: node\n"))
        let example = String(readme[start.upperBound...].prefix { $0 != "`" })
        let schema = folder.write("osm.yaml", "name: osm-search\nschemaVersion: 1\nformat: xml\ntables:\n  - name: node\n" + example)
        var seeds: [String] = []
        for input in ["vaduz.osm", "vaduz.osm.pbf"] {
            let output = folder.file(input + ".sqlite")
            let summary = try SeedBuilder.build([Self.fixtures + "/" + input], to: output, schema: schema)
            #expect(summary.queryIndexes.map(\.name) == ["node_location", "node_tag_search"])
            seeds.append(output)
        }
        let box = "SELECT count(*) FROM node INDEXED BY node_location WHERE lat BETWEEN 47.138 AND 47.142"
        #expect(try Self.count(seeds[1], box) == Self.count(seeds[0], box))
        #expect(try Self.count(seeds[1], box) > 0)
        #expect(try Self.dataDigest(seeds[1]) == Self.dataDigest(seeds[0]))
    }

    @Test("text as OSM XML writes it: coordinates and timestamps")
    func text() {
        func coordinate(_ value: Int64) -> String { PBFText.withCoordinate(value) { String(decoding: $0, as: UTF8.self) } }
        #expect(coordinate(47_170_760_700) == "47.1707607")
        #expect(coordinate(-500_000_000) == "-0.5")
        #expect(coordinate(9_000_000_000) == "9")
        #expect(coordinate(-1) == "-0.000000001")
        func timestamp(_ value: Int64) -> String { PBFText.withTimestamp(value) { String(decoding: $0, as: UTF8.self) } }
        #expect(timestamp(1_310_125_895) == "2011-07-08T11:51:35Z")
        #expect(timestamp(0) == "1970-01-01T00:00:00Z")
        #expect(timestamp(951_782_400) == "2000-02-29T00:00:00Z")
        #expect(timestamp(PBFText.latestTimestamp) == "9999-12-31T23:59:59Z")
    }

    @Test("coordinates go to real columns as the double their text converts to, bit for bit")
    func coordinateDoubles() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var values: [Int64] = [0, 1, -1, 9_000_000_000, -500_000_000, 47_170_760_700, 180_000_000_000, -180_000_000_000]
        for _ in 0..<100_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Int64(bitPattern: state >> 1) % 360_000_000_001 - 180_000_000_000)
        }
        var differing = 0
        for value in values {
            let text = PBFText.withCoordinate(value) { ValueConverter.parseReal($0) }
            if text?.bitPattern != (Double(value) / 1_000_000_000).bitPattern { differing += 1 }
        }
        #expect(differing == 0)
    }

    @Test("numbers into text columns: the same text as from XML")
    func numbersAsText() throws {
        let folder = TemporaryFolder()
        let schema = folder.write(
            "osm.yaml",
            """
            name: osm-text
            schemaVersion: 1
            format: xml
            tables:
              - name: node
                file: "*.osm"
                columns:
                  - { name: osm_id, source: "@id" }
                  - { name: lat }
                  - { name: lon }
                  - { name: version, type: real }
              - name: way
                file: "*.osm"
                columns:
                  - { name: osm_id, source: "@id" }
              - name: way_node
                element: nd
                parent: way
                columns:
                  - { name: position, type: real, source: $position }
                  - { name: ref }

            """)
        var seeds: [String] = []
        for input in ["vaduz.osm", "vaduz.osm.pbf"] {
            let output = folder.file(input + ".sqlite")
            _ = try SeedBuilder.build([Self.fixtures + "/" + input], to: output, schema: schema)
            seeds.append(output)
        }
        #expect(try Self.count(seeds[1], "SELECT count(*) FROM node WHERE typeof(lat) = 'text' AND lat LIKE '47.%'") > 0)
        #expect(try Self.dataDigest(seeds[1]) == Self.dataDigest(seeds[0]))
    }
}
