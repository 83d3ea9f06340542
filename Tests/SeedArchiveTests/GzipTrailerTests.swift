import Foundation
import SeedArchive
import SeedTestSupport
import Testing

/// The gzip trailer (CRC-32 and size of the data) read from the last 8 bytes, without
/// decompressing: what identifies an unstamped gzip.
@Suite struct GzipTrailerTests {
    let folder = TemporaryFolder()

    @Test func theTrailerIsReadWithoutDecompressing() throws {
        let plain = folder.write("seed.sqlite", bytes: GzipSamples.bytes(100_000))
        let gzip = try ChildProcess.shell("gzip -9 -f '\(plain)'")
        try #require(gzip.status == 0, "\(gzip.stderr)")
        let source = plain + ".gz"
        let trailer = try GzipTrailer.read(path: source)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: source)[.size] as? Int)
        #expect(trailer.fileSize == Int64(size))
        let listing = try ChildProcess.shell("gzip -lv '\(source)'").stdout
        #expect(listing.contains(String(trailer.crc32, radix: 16)), "gzip -lv shows the same CRC: \(listing)")
        #expect(listing.contains(" \(trailer.uncompressedSize) "))
        #expect(trailer.crc32 == ReferenceCRC32.checksum(GzipSamples.bytes(100_000)) && trailer.uncompressedSize == 100_000)
    }

    @Test func parsesTheLastEightBytesLittleEndian() throws {
        let trailer = try GzipTrailer.parse(lastBytes: [0x78, 0x56, 0x34, 0x12, 0x04, 0x03, 0x02, 0x01], fileSize: 20, path: "t.gz")
        #expect(trailer == GzipTrailer(crc32: 0x1234_5678, uncompressedSize: 0x0102_0304, fileSize: 20))
    }

    @Test func refusesAFileTooShortToHoldAHeaderAndATrailer() {
        let short = #expect(throws: GzipError.self) { try GzipTrailer.parse(lastBytes: [UInt8](repeating: 0, count: 8), fileSize: 19, path: "short.gz") }
        #expect(short?.code == .truncated && short?.message.contains("19 bytes long") == true, "\(String(describing: short))")
        let cut = #expect(throws: GzipError.self) { try GzipTrailer.parse(lastBytes: [1, 2, 3], fileSize: 100, path: "cut.gz") }
        #expect(cut?.code == .truncated, "\(String(describing: cut))")
        for size in [0, 7, 19] {
            let path = folder.write("tiny-\(size).gz", bytes: [UInt8](repeating: 0x1f, count: size))
            let error = #expect(throws: GzipError.self) { try GzipTrailer.read(path: path) }
            #expect(error?.code == .truncated && error?.path == path, "\(size) bytes: \(String(describing: error))")
        }
    }

    @Test func aMissingFileIsAnIOErrorWithItsErrno() {
        let path = folder.file("missing.gz")
        let error = #expect(throws: GzipError.self) { try GzipTrailer.read(path: path) }
        #expect(error?.code == .io && error?.cause?.errno == ENOENT && error?.path == path, "\(String(describing: error))")
    }
}
