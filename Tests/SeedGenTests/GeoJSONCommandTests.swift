import Foundation
import Testing
import SeedSQLite
import SeedTestSupport

/// `seedgen build` reads a GeoJSON file one feature at a time: peak memory does not grow with
/// the file, and a feature longer than `--max-record-size` is a clear error.
@Suite("GeoJSON in bounded memory, end to end", .serialized)
struct GeoJSONCommandTests {
    /// One table from `zones.geojson`: each feature's id and name (its geometry and the rest
    /// of its properties are read, not stored, so the seed stays small).
    static let schema = """
        name: zones
        schemaVersion: 1
        format: csv
        tables:
          - name: zones
            file: zones.geojson
            key: zone_id
            columns:
              - { name: zone_id, source: id, required: true }
              - { name: name }
        """

    @Test("a 2 GiB locations.geojson whose first feature never ends: the limit at the feature's place, in bounded time and memory")
    func endlessFeature() throws {
        let scratch = TemporaryFolder()
        let hostile = HostileInputCommandTests()
        hostile.writeFeed(scratch)
        let file = scratch.write("feed/locations.geojson", #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": ""#)
        try hostile.truncate(file, to: "2G")
        let outcome = try hostile.build(scratch, [scratch.file("feed")], keep: ["feed"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("locations.geojson:1:44: the feature starting here is longer than 16777216 bytes "
                                        + "(the limit; raise it with --max-record-size)"), "\(outcome.stderr)")
        #expect(outcome.seconds < 60)
        #expect(outcome.kilobytes < 300_000, "peak \(outcome.kilobytes) KB (the whole file was read into memory before)")
    }

    @Test("a feature one byte longer than --max-record-size fails the build; one of exactly that size is read")
    func featureJustOverTheLimit() throws {
        let scratch = TemporaryFolder()
        let schema = scratch.write("zones.yaml", Self.schema)
        let feature = #"{"type": "Feature", "id": "z1", "properties": {"name": "Zone 1"}}"#
        scratch.write("in/zones.geojson", "{\"type\": \"FeatureCollection\",\n\"features\": [\(feature)]}\n")
        let arguments = ["build", scratch.file("in"), "--schema", schema, "--out", scratch.file("out.sqlite"), "--quiet", "--max-record-size"]
        let over = try SeedgenTool.run(arguments + ["\(feature.utf8.count - 1)"])
        #expect(over.status == 1)
        #expect(over.stderr.contains("zones.geojson:2:14: the feature starting here is longer than \(feature.utf8.count - 1) bytes"), "\(over.stderr)")
        let exact = try SeedgenTool.run(arguments + ["\(feature.utf8.count)"])
        #expect(exact.status == 0, "\(exact.stderr)")
        let seed = try Connection(path: scratch.file("out.sqlite"), mode: .readOnly)
        #expect(try seed.scalar("SELECT name FROM zones WHERE zone_id = 'z1'") == .text("Zone 1"))
    }

    @Test("peak memory stays flat from a 20 MiB to a 2 GiB GeoJSON file (SEEDGEN_LARGE_TESTS=1: takes minutes)",
          .enabled(if: ProcessInfo.processInfo.environment["SEEDGEN_LARGE_TESTS"] == "1", "set SEEDGEN_LARGE_TESTS=1 to run it"),
          .enabled(if: PeakMemory.available, "needs /usr/bin/time (Debian package 'time', see make deps)"))
    func flatMemory() throws {
        let scratch = TemporaryFolder()
        let schema = scratch.write("zones.yaml", Self.schema)
        let runs = try [20, 2048].map { features in
            let folder = scratch.file("in-\(features)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            Zones.write(features: features, padding: 1 << 20, to: folder + "/zones.geojson")
            let out = scratch.file("out-\(features).sqlite")
            let run = try PeakMemory.run(SeedgenTool.path, ["build", folder, "--schema", schema, "--out", out, "--quiet"])
            let size = (try FileManager.default.attributesOfItem(atPath: folder + "/zones.geojson")[.size] as? Int) ?? 0
            try FileManager.default.removeItem(atPath: folder)
            let rows = try Connection(path: out, mode: .readOnly).scalar("SELECT count(*) FROM zones")
            return (features: features, size: size, rows: rows, run: run)
        }
        #expect(runs.map(\.rows) == [.integer(20), .integer(2048)])
        #expect(runs.allSatisfy { $0.run.status == 0 && $0.run.kilobytes > 0 })
        #expect(runs[1].size > 2_000_000_000)
        let (smallPeak, largePeak) = (runs[0].run.kilobytes, runs[1].run.kilobytes)
        #expect(largePeak <= smallPeak + smallPeak * 15 / 100 + 4_096, "peak RSS \(smallPeak) KB for \(runs[0].size) bytes, \(largePeak) KB for \(runs[1].size) bytes")
        print("GeoJSON memory: \(runs[0].size) bytes -> \(smallPeak) KB peak; \(runs[1].size) bytes -> \(largePeak) KB peak")
    }
}

/// Writes a FeatureCollection of `features` zones, each with `padding` bytes of unmapped
/// property text and a polygon, in pieces (the test never holds the file in memory).
enum Zones {
    static func write(features: Int, padding: Int, to path: String) {
        precondition(FileManager.default.createFile(atPath: path, contents: nil), "cannot create \(path)")
        let handle = FileHandle(forWritingAtPath: path)!
        defer { try? handle.close() }
        handle.write(Data(#"{"type": "FeatureCollection", "name": "zones", "features": ["#.utf8))
        let note = String(repeating: "Flexible service area, booked by phone. ", count: max(1, padding / 40))
        for n in 1...features {
            let feature = """
                \(n == 1 ? "" : ",")
                {"type": "Feature", "id": "zone-\(n)", "properties": {"name": "Zone \(n)", "note": "\(note)"},
                 "geometry": {"type": "Polygon", "coordinates": [[[13.0, 52.0], [13.1, 52.0], [13.1, 52.\(n % 10)], [13.0, 52.0]]]}}
                """
            handle.write(Data(feature.utf8))
        }
        handle.write(Data("\n]}\n".utf8))
    }
}
