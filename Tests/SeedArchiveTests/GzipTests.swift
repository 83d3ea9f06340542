import Foundation
import SeedArchive
import SeedTestSupport
import Testing

/// The shipped-seed gzip format: deterministic, streaming, and strict about damage.
@Suite struct GzipTests {
    let folder = TemporaryFolder()
    var samples: GzipSamples { GzipSamples(folder: folder) }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func roundTripsDataOfManySizes() throws {
        for size in [0, 1, 100, 65_536, 300_001] {
            let data = GzipSamples.bytes(size)
            #expect(try samples.gunzip(try samples.gzip(data)) == data, "size \(size)")
        }
    }

    @Test func outputIsDeterministicAndReadableByGzip() throws {
        let data = GzipSamples.bytes(200_000)
        let a = try samples.gzip(data), b = try samples.gzip(data, chunk: 777)
        #expect(contents(a) == contents(b))
        let header = try #require(contents(a)).prefix(10)
        #expect(Array(header) == [0x1f, 0x8b, 8, 0x10, 0, 0, 0, 0, 0, 255], "MTIME 0, FCOMMENT only, OS 255")
        let check = try ChildProcess.shell("gzip -t '\(a)' && gzip -dc '\(a)' | wc -c")
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("200000"))
    }

    @Test func headerCarriesTheSeedStampAndIsReadAlone() throws {
        let stamp = SeedStamp(schemaVersion: 12, seedVersion: "2026.11.21-3")
        let path = try samples.gzip(GzipSamples.bytes(1000), comment: stamp.comment)
        let header = try GzipHeader.read(path: path)
        #expect(header.comment == "seedgen-seed schema-version=12 seed-version=2026.11.21-3")
        #expect(header.stamp == stamp)
        #expect(header.modificationTime == 0 && header.operatingSystem == 255 && header.fileName == nil)
        #expect(SeedStamp(comment: "something else") == nil)
        #expect(SeedStamp(comment: "seedgen-seed schema-version=x seed-version=1") == nil)
    }

    @Test func readsHeadersWrittenByGzip() throws {
        let plain = folder.write("named.txt", "hello")
        _ = try ChildProcess.shell("gzip -k '\(plain)'")
        let header = try GzipHeader.read(path: plain + ".gz")
        #expect(header.fileName == "named.txt")
        #expect(header.stamp == nil)
        #expect(try samples.gunzip(plain + ".gz") == Array("hello".utf8))
    }

    @Test func refusesATruncatedStreamAtEveryCut() throws {
        let path = try samples.gzip(GzipSamples.bytes(50_000))
        let full = try #require(contents(path))
        for cut in [1, 5, 12, full.count / 2, full.count - 8, full.count - 1] {
            let cutPath = folder.write("cut-\(cut).gz", bytes: Array(full.prefix(cut)))
            #expect(samples.readError(cutPath)?.code == .truncated, "cut at \(cut) of \(full.count)")
        }
    }

    @Test func refusesCorruptDataAndBadTrailers() throws {
        let path = try samples.gzip(GzipSamples.bytes(50_000))
        let full = try #require(contents(path))
        func damaged(_ name: String, _ change: (inout Data) -> Void) -> String {
            var copy = full
            change(&copy)
            return folder.write(name, bytes: Array(copy))
        }
        #expect(samples.readError(damaged("crc.gz") { $0[$0.count - 8] ^= 0xff })?.code == .crcMismatch)
        #expect(samples.readError(damaged("size.gz") { $0[$0.count - 4] ^= 0x01 })?.code == .sizeMismatch)
        #expect(samples.readError(damaged("garbage.gz") { $0.append(contentsOf: [0, 0, 0]) })?.code == .trailingGarbage)
        let middle = damaged("middle.gz") { for i in 200..<260 { $0[i] ^= 0x5a } }
        let code = samples.readError(middle)?.code
        #expect(code == .corrupt || code == .crcMismatch || code == .sizeMismatch)
        #expect(samples.readError(damaged("magic.gz") { $0[0] = 0 })?.code == .notGzip)
    }

    @Test func readsConcatenatedMembersOnlyWhenAllowed() throws {
        let a = try samples.gzip(Array("first ".utf8)), b = try samples.gzip(Array("second".utf8))
        let joined = folder.write("joined.gz", bytes: Array(try #require(contents(a)) + (try #require(contents(b)))))
        #expect(try samples.gunzip(joined, multiMember: true) == Array("first second".utf8))
        let reader = try GzipReader(path: joined, allowsMultipleMembers: true)
        var collected: [UInt8] = []
        try reader.forEachChunk { (chunk: UnsafeRawBufferPointer) in collected += chunk }
        #expect(collected == Array("first second".utf8))
        #expect(samples.readError(joined)?.code == .trailingGarbage)
    }

    @Test func refusesACommentThatCannotBeWritten() {
        #expect(throws: GzipError.self) { try GzipWriter(path: folder.file("x.gz"), comment: "line\nbreak") }
    }

    // MARK: - The writer

    @Test func theSummaryIsWhatWasWritten() throws {
        let data = GzipSamples.bytes(70_000)
        let path = folder.file("summary.gz")
        let writer = try GzipWriter(path: path, level: 9, comment: nil)
        try writer.write(Array(data[..<30_000]))
        try data[30_000...].withUnsafeBytes { try writer.write($0) }
        let summary = try writer.finish(sync: false)
        let file = try #require(contents(path))
        #expect(summary.size == Int64(data.count) && summary.sha256 == SHA256.hex(of: data))
        #expect(summary.gzipSize == Int64(file.count) && summary.gzipSha256 == SHA256.hex(of: file))
        #expect(summary.crc32 == ReferenceCRC32.checksum(data))
        #expect(Array(file.prefix(10)) == [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255], "no comment: no flag; level 9: XFL 2")
    }

    @Test("the extra-flags byte says 2 for level 9, 4 for level 1, 0 otherwise", arguments: [(9, 2), (1, 4), (0, 0), (6, 0)] as [(Int, UInt8)])
    func extraFlags(level: Int, expected: UInt8) throws {
        let path = try samples.gzip(GzipSamples.bytes(1000), comment: nil, level: level)
        #expect(try GzipHeader.read(path: path).extraFlags == expected)
        #expect(try samples.gunzip(path) == GzipSamples.bytes(1000))
    }

    @Test func refusesALevelOutsideZeroToNine() {
        for level in [-1, 10] {
            let error = #expect(throws: GzipError.self) { try GzipWriter(path: folder.file("x.gz"), level: level) }
            #expect(error?.code == .invalidHeader && error?.message.contains("\(level)") == true, "\(String(describing: error))")
        }
        #expect(folder.contents.isEmpty, "nothing is created")
    }

    @Test func refusesUseAfterFinish() throws {
        let writer = try GzipWriter(path: folder.file("x.gz"))
        try writer.write(Array("data".utf8))
        try writer.finish(sync: false)
        #expect((#expect(throws: GzipError.self) { try writer.write(Array("more".utf8)) })?.code == .misuse)
        #expect((#expect(throws: GzipError.self) { try writer.finish() })?.code == .misuse)
        #expect(try samples.gunzip(folder.file("x.gz")) == Array("data".utf8), "the finished file is intact")
    }

    @Test func aFileThatCannotBeCreatedIsAnIOErrorWithItsErrno() {
        let path = folder.file("no/such/folder/x.gz")
        let error = #expect(throws: GzipError.self) { try GzipWriter(path: path) }
        #expect(error?.code == .io && error?.cause?.errno == ENOENT && error?.path == path, "\(String(describing: error))")
        #expect(error?.description.contains(String(cString: strerror(ENOENT))) == true, "\(String(describing: error))")
    }

    // MARK: - The reader

    @Test func aFileThatCannotBeOpenedIsAnIOErrorWithItsErrno() {
        let path = folder.file("missing.gz")
        let error = #expect(throws: GzipError.self) { try GzipReader(path: path) }
        #expect(error?.code == .io && error?.cause?.errno == ENOENT && error?.path == path, "\(String(describing: error))")
    }

    @Test func countsTheBytesReadAndReturnsZeroOnlyAtTheCheckedEnd() throws {
        let data = GzipSamples.bytes(10_000)
        let reader = try GzipReader(path: try samples.gzip(data))
        var buffer = [UInt8](repeating: 0, count: 3000)
        var total = 0
        while case let count = try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }), count > 0 {
            total += count
            #expect(reader.bytesRead == Int64(total))
        }
        #expect(total == data.count && reader.bytesRead == Int64(data.count))
        #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == 0, "stays at the end")
    }

    @Test func aFailingBodyStopsForEachChunkWithItsOwnError() throws {
        struct Stop: Error {}
        let reader = try GzipReader(path: try samples.gzip(GzipSamples.bytes(300_000)))
        var chunks = 0
        do {
            try reader.forEachChunk { (_: UnsafeRawBufferPointer) throws(Stop) in
                chunks += 1
                if chunks == 2 { throw Stop() }
            }
            Issue.record("the body's error ends the loop")
        } catch {
            guard case .body = error else { Issue.record("expected .body, got \(error)"); return }
        }
        #expect(chunks == 2)
    }

    @Test func aDamagedStreamStopsForEachChunkWithTheGzipError() throws {
        let path = try samples.gzip(GzipSamples.bytes(1000))
        var bytes = Array(try #require(contents(path)))
        bytes[bytes.count - 8] ^= 0xff
        let reader = try GzipReader(path: samples.write(bytes))
        do {
            try reader.forEachChunk { (_: UnsafeRawBufferPointer) in }
            Issue.record("a bad CRC ends the loop")
        } catch {
            guard case .gzip(let gzip) = error else { Issue.record("expected .gzip, got \(error)"); return }
            #expect(gzip.code == .crcMismatch)
        }
    }

    @Test func bytesAfterTheLastMemberThatAreNoMemberAreGarbageEvenWhenMembersAreAllowed() throws {
        let member = ForgedGzipMember(Array("one".utf8)).bytes
        let error = samples.readError(samples.write(member + [0x1f, 0x00, 0x01]), multiMember: true)
        #expect(error?.code == .trailingGarbage, "\(String(describing: error))")
        #expect(error?.offset == Int64(member.count), "the offset names where the garbage starts")
        // A second member cut off inside its header is a truncated file, not garbage.
        #expect(samples.readError(samples.write(member + [0x1f, 0x8b, 8]), multiMember: true)?.code == .truncated)
    }

    @Test func eachMembersTrailerIsChecked() throws {
        var second = ForgedGzipMember(Array("two".utf8))
        second.trailerCRC = 0
        let path = samples.write(ForgedGzipMember(Array("one".utf8)).bytes + second.bytes)
        #expect(samples.readError(path, multiMember: true)?.code == .crcMismatch)
    }
}
