import Foundation
import SeedArchive
import SeedTestSupport
import Testing

/// The gzip header (RFC 1952) read alone: every optional field a tool may write, and a clear
/// refusal of what is not a gzip header.
@Suite struct GzipHeaderTests {
    let folder = TemporaryFolder()
    var samples: GzipSamples { GzipSamples(folder: folder) }

    @Test func readsEveryOptionalFieldAndTheDataAfterThem() throws {
        var member = ForgedGzipMember(Array("payload".utf8))
        member.extra = [0x41, 0x42, 2, 0, 0xAA, 0xBB]
        member.fileName = Array("seed.sqlite".utf8)
        member.comment = Array(SeedStamp(schemaVersion: 4, seedVersion: "v9").comment.utf8)
        member.headerCRC = true
        member.modificationTime = 1_700_000_000
        let path = samples.write(member.bytes)
        let header = try GzipHeader.read(path: path)
        #expect(header.fileName == "seed.sqlite")
        #expect(header.stamp == SeedStamp(schemaVersion: 4, seedVersion: "v9"))
        #expect(header.modificationTime == 1_700_000_000 && header.operatingSystem == 3)
        #expect(header.byteCount == member.header.count, "the deflate data starts right after the header")
        #expect(try GzipHeader.parse(member.bytes, path: path) == header, "parsing bytes agrees with reading the file")
        #expect(try samples.gunzip(path) == Array("payload".utf8))
        let listed = try ChildProcess.shell("gzip -dc '\(path)'")
        #expect(listed.status == 0 && listed.stdout == "payload", "gzip reads the forged member too: \(listed)")
    }

    @Test func nameAndCommentAreLatin1() throws {
        var member = ForgedGzipMember([])
        member.fileName = [0x63, 0x61, 0x66, 0xE9]          // "café" in ISO 8859-1
        member.comment = [0xA9, 0x20, 0x32, 0x30, 0x32, 0x36]  // "© 2026"
        let header = try GzipHeader.parse(member.bytes, path: "latin1.gz")
        #expect(header.fileName == "café" && header.comment == "© 2026")
        #expect(header.stamp == nil)
    }

    @Test func refusesReservedFlags() {
        for bit: UInt8 in [0x20, 0x40, 0x80] {
            var member = ForgedGzipMember([])
            member.extraFlagBits = bit
            let error = #expect(throws: GzipError.self) { try GzipHeader.parse(member.bytes, path: "flags.gz") }
            #expect(error?.code == .invalidHeader && error?.offset == 3, "flag 0x\(String(bit, radix: 16)): \(String(describing: error))")
        }
    }

    @Test func refusesAnotherCompressionMethod() {
        var member = ForgedGzipMember([])
        member.method = 7
        let error = #expect(throws: GzipError.self) { try GzipHeader.parse(member.bytes, path: "method.gz") }
        #expect(error?.code == .notGzip && error?.message.contains("compression method") == true, "\(String(describing: error))")
    }

    @Test func refusesWhatIsNotGzipNamingTheFile() {
        let error = #expect(throws: GzipError.self) { try GzipHeader.read(path: folder.write("seed.sqlite", "SQLite format 3\u{0}")) }
        #expect(error?.code == .notGzip && error?.offset == 0, "\(String(describing: error))")
        #expect(error?.description.hasPrefix(folder.file("seed.sqlite") + ": not a gzip file") == true, "\(String(describing: error))")
    }

    @Test func refusesANameOrCommentLongerThan64KiB() throws {
        for field in ["file name", "comment"] {
            var member = ForgedGzipMember([])
            let long = [UInt8](repeating: 0x61, count: 65_537)
            if field == "file name" { member.fileName = long } else { member.comment = long }
            let error = #expect(throws: GzipError.self) { try GzipHeader.read(path: samples.write(member.bytes)) }
            #expect(error?.code == .invalidHeader && error?.message.contains("\(field) is longer than 64 KiB") == true, "\(String(describing: error))")
        }
        var longest = ForgedGzipMember([])
        longest.comment = [UInt8](repeating: 0x61, count: 65_536)
        #expect(try GzipHeader.parse(longest.bytes, path: "longest.gz").comment?.utf8.count == 65_536, "64 KiB itself is read")
    }

    @Test func aHeaderCutAnywhereIsTruncated() {
        var member = ForgedGzipMember([])
        member.extra = [1, 2, 3]
        member.fileName = Array("n".utf8)
        member.comment = Array("c".utf8)
        member.headerCRC = true
        let header = member.header
        for cut in 0..<header.count {
            let error = #expect(throws: GzipError.self) { try GzipHeader.parse(Array(header.prefix(cut)), path: "cut.gz") }
            #expect(error?.code == .truncated, "cut at \(cut) of \(header.count): \(String(describing: error))")
        }
        #expect(throws: Never.self) { try GzipHeader.parse(header, path: "whole.gz") }
    }

    @Test func aMissingFileIsAnIOErrorWithItsErrno() {
        let error = #expect(throws: GzipError.self) { try GzipHeader.read(path: folder.file("missing.gz")) }
        #expect(error?.code == .io && error?.cause?.errno == ENOENT, "\(String(describing: error))")
    }
}
