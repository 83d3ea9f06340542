import Foundation
import SeedArchive
import Testing

/// The shipped-seed gzip format: deterministic, streaming, and strict about damage.
@Suite struct GzipTests {
    let folder = TemporaryFolder()

    func sampleBytes(_ count: Int) -> [UInt8] {
        var state: UInt32 = 12345
        return (0..<count).map { i in
            state = state &* 1_103_515_245 &+ 12345
            return i % 3 == 0 ? UInt8(truncatingIfNeeded: state >> 16) : UInt8(i % 7)
        }
    }

    func gzip(_ data: [UInt8], comment: String? = "seedgen-seed schema-version=3 seed-version=7", chunk: Int = 10_000) throws -> String {
        let path = folder.file("sample-\(UUID().uuidString.prefix(6)).gz")
        let writer = try GzipWriter(path: path, level: 6, comment: comment)
        var offset = 0
        while offset < data.count {
            try writer.write(Array(data[offset..<min(offset + chunk, data.count)]))
            offset += chunk
        }
        try writer.finish()
        return path
    }

    func gunzip(_ path: String, multiMember: Bool = false) throws(GzipError) -> [UInt8] {
        let reader = try GzipReader(path: path, allowsMultipleMembers: multiMember)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try buffer.withUnsafeMutableBytes { b in Result { () throws(GzipError) in try reader.read(into: b) } }.get()
            if count == 0 { return out }
            out += buffer[0..<count]
        }
    }

    func readError(_ path: String) -> GzipError? {
        do { _ = try gunzip(path); return nil } catch { return error }
    }

    @Test func roundTripsDataOfManySizes() throws {
        for size in [0, 1, 100, 65_536, 300_001] {
            let data = sampleBytes(size)
            #expect(try gunzip(try gzip(data)) == data, "size \(size)")
        }
    }

    @Test func outputIsDeterministicAndReadableByGzip() throws {
        let data = sampleBytes(200_000)
        let a = try gzip(data), b = try gzip(data, chunk: 777)
        #expect(bytes(of: a) == bytes(of: b))
        let header = try #require(bytes(of: a)).prefix(10)
        #expect(Array(header) == [0x1f, 0x8b, 8, 0x10, 0, 0, 0, 0, 0, 255], "MTIME 0, FCOMMENT only, OS 255")
        let check = try SeedgenTool.shell("gzip -t '\(a)' && gzip -dc '\(a)' | wc -c")
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("200000"))
    }

    @Test func headerCarriesTheSeedStampAndIsReadAlone() throws {
        let stamp = SeedStamp(schemaVersion: 12, seedVersion: "2026.11.21-3")
        let path = try gzip(sampleBytes(1000), comment: stamp.comment)
        let header = try GzipHeader.read(path: path)
        #expect(header.comment == "seedgen-seed schema-version=12 seed-version=2026.11.21-3")
        #expect(header.stamp == stamp)
        #expect(header.modificationTime == 0 && header.operatingSystem == 255 && header.fileName == nil)
        #expect(SeedStamp(comment: "something else") == nil)
        #expect(SeedStamp(comment: "seedgen-seed schema-version=x seed-version=1") == nil)
    }

    @Test func readsHeadersWrittenByGzip() throws {
        let plain = folder.file("named.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: plain))
        _ = try SeedgenTool.shell("gzip -k '\(plain)'")
        let header = try GzipHeader.read(path: plain + ".gz")
        #expect(header.fileName == "named.txt")
        #expect(header.stamp == nil)
        #expect(try gunzip(plain + ".gz") == Array("hello".utf8))
    }

    @Test func refusesATruncatedStreamAtEveryCut() throws {
        let path = try gzip(sampleBytes(50_000))
        let full = try #require(bytes(of: path))
        for cut in [1, 5, 12, full.count / 2, full.count - 8, full.count - 1] {
            let cutPath = folder.file("cut-\(cut).gz")
            try full.prefix(cut).write(to: URL(fileURLWithPath: cutPath))
            #expect(readError(cutPath)?.code == .truncated, "cut at \(cut) of \(full.count)")
        }
    }

    @Test func refusesCorruptDataAndBadTrailers() throws {
        let path = try gzip(sampleBytes(50_000))
        let full = try #require(bytes(of: path))
        func damaged(_ name: String, _ change: (inout Data) -> Void) throws -> String {
            var copy = full
            change(&copy)
            let p = folder.file(name)
            try copy.write(to: URL(fileURLWithPath: p))
            return p
        }
        #expect(readError(try damaged("crc.gz") { $0[$0.count - 8] ^= 0xff })?.code == .crcMismatch)
        #expect(readError(try damaged("size.gz") { $0[$0.count - 4] ^= 0x01 })?.code == .sizeMismatch)
        #expect(readError(try damaged("garbage.gz") { $0.append(contentsOf: [0, 0, 0]) })?.code == .trailingGarbage)
        let middle = try damaged("middle.gz") { for i in 200..<260 { $0[i] ^= 0x5a } }
        let code = readError(middle)?.code
        #expect(code == .corrupt || code == .crcMismatch || code == .sizeMismatch)
        #expect(readError(try damaged("magic.gz") { $0[0] = 0 })?.code == .notGzip)
    }

    @Test func readsConcatenatedMembersOnlyWhenAllowed() throws {
        let a = try gzip(Array("first ".utf8)), b = try gzip(Array("second".utf8))
        let joined = folder.file("joined.gz")
        try (try #require(bytes(of: a)) + (try #require(bytes(of: b)))).write(to: URL(fileURLWithPath: joined))
        #expect(try gunzip(joined, multiMember: true) == Array("first second".utf8))
        let reader = try GzipReader(path: joined, allowsMultipleMembers: true)
        var collected: [UInt8] = []
        try reader.forEachChunk { (chunk: UnsafeRawBufferPointer) in collected += chunk }
        #expect(collected == Array("first second".utf8))
        #expect(readError(joined)?.code == .trailingGarbage)
    }

    @Test func refusesACommentThatCannotBeWritten() {
        #expect(throws: GzipError.self) { try GzipWriter(path: folder.file("x.gz"), comment: "line\nbreak") }
    }
}

/// The manifest beside a shipped seed: the JSON keys are a contract.
@Suite struct SeedManifestTests {
    @Test func encodesDeterministicallyWithTheContractKeys() throws {
        let manifest = SeedManifest(schemaVersion: 3, seedVersion: "42", sha256: "ab", size: 10, gzipSha256: "cd",
                                    gzipSize: 5, tables: ["stops": 2, "agency": 1], schemaName: "transit")
        let text = String(decoding: manifest.encoded(), as: UTF8.self)
        #expect(text == """
            {
              "gzipSha256" : "cd",
              "gzipSize" : 5,
              "schemaName" : "transit",
              "schemaVersion" : 3,
              "seedVersion" : "42",
              "sha256" : "ab",
              "size" : 10,
              "tables" : {
                "agency" : 1,
                "stops" : 2
              }
            }

            """)
        #expect(try SeedManifest.decode(manifest.encoded()) == manifest)
    }

    @Test func liesBesideTheSeedWithoutTheGzSuffix() {
        #expect(SeedManifest.path(forSeed: "dist/seed.sqlite.gz") == "dist/seed.sqlite.manifest.json")
        #expect(SeedManifest.path(forSeed: "dist/seed.sqlite") == "dist/seed.sqlite.manifest.json")
    }
}
