import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

@Suite("Malformed PBF: a clear error naming the blob, and nothing written")
struct PBFBadInputTests {
    /// Builds `bytes` as `name` over an existing output; returns the error's description
    /// after checking the output and the folder were left as they were.
    static func failure(_ bytes: [UInt8], name: String = "bad.osm.pbf") throws -> String {
        let folder = TemporaryFolder()
        let input = folder.write(name, bytes: bytes)
        let output = folder.write("seed.sqlite", "previous seed")
        do {
            _ = try SeedBuilder.build([input], to: output)
            Issue.record("the build should have failed")
            return ""
        } catch {
            #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous seed", "the previous output is untouched")
            #expect(folder.contents == [name, "seed.sqlite"], "no scratch file is left")
            #expect(error.code == .input)
            return "\(error)"
        }
    }

    static let good = PBFTestFile.header + PBFTestFile.denseBlock(ids: [1, 1], latitudes: [471_000_000, 1], longitudes: [95_000_000, 1])

    @Test("a well-formed crafted file builds (the cases below differ from it in one thing)")
    func crafted() throws {
        let folder = TemporaryFolder()
        let input = folder.write("good.osm.pbf", bytes: Self.good)
        let output = folder.file("good.sqlite")
        _ = try SeedBuilder.build([input], to: output)
        #expect(try PBFInputTests.count(output, "SELECT count(*) FROM node WHERE osm_id IN (1, 2) AND lat > 47.09") == 2)
    }

    @Test("a truncated blob")
    func truncated() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: PBFInputTests.fixtures + "/vaduz.osm.pbf")))
        let message = try Self.failure(Array(bytes.dropLast(100)))
        #expect(message.contains("bad.osm.pbf") && message.contains("blob at byte ") && message.contains("[pbf-truncated]"), "\(message)")
    }

    @Test("an oversize length: a 40 MB blob, a 1 MB header")
    func oversize() throws {
        let big = PBFTestFile.blob("OSMData", blob: [0], dataSize: 40_000_000)
        let message = try Self.failure(PBFTestFile.header + big)
        #expect(message.contains("blob at byte \(PBFTestFile.header.count): a blob of 40000000 bytes") && message.contains("[pbf-oversize]"),
                "\(message)")
        let header = try Self.failure(PBFTestFile.header + [0, 0x10, 0, 0] + Array(repeating: 0, count: 64))
        #expect(header.contains("a blob header of 1048576 bytes") && header.contains("[pbf-oversize]"), "\(header)")
    }

    @Test("a string index past the block's table")
    func badStringIndex() throws {
        let block = PBFTestFile.denseBlock(ids: [1], latitudes: [0], longitudes: [0], keysValues: [1, 7, 0], strings: ["", "name"])
        let message = try Self.failure(PBFTestFile.header + block)
        #expect(message.contains("string index 7 past the block's 2 strings") && message.contains("[pbf-bad-string-index]"), "\(message)")
    }

    @Test("a delta that overflows 64 bits")
    func deltaOverflow() throws {
        let block = PBFTestFile.denseBlock(ids: [Int64.max, 1], latitudes: [0, 0], longitudes: [0, 0])
        let message = try Self.failure(PBFTestFile.header + block)
        #expect(message.contains("a dense node id overflows") && message.contains("[pbf-delta-overflow]"), "\(message)")
    }

    @Test("a zstd blob, a feature seedgen does not read, parallel arrays of different lengths")
    func unsupported() throws {
        let zstd = PBFTestFile.blob("OSMData", blob: PBFTestFile.field(2, varint: 10) + PBFTestFile.field(7, bytes: [1, 2, 3]))
        let message = try Self.failure(PBFTestFile.header + zstd)
        #expect(message.contains("blob at byte \(PBFTestFile.header.count): a blob compressed with zstd") && message.contains("[pbf-unsupported]"),
                "\(message)")
        let header = PBFTestFile.rawBlob("OSMHeader", PBFTestFile.field(4, string: "OsmSchema-V0.6") + PBFTestFile.field(4, string: "Sort.Geographic"))
        #expect(try Self.failure(header).contains("requires the feature 'Sort.Geographic'"))
        let uneven = PBFTestFile.denseBlock(ids: [1, 1], latitudes: [0], longitudes: [0, 0])
        #expect(try Self.failure(PBFTestFile.header + uneven).contains("dense nodes with 2 ids and 1 lat values"))
    }
}
