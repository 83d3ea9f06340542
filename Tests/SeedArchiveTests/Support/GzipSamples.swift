import Foundation
import SeedArchive
import SeedTestSupport

/// Gzip files for the tests: written with `GzipWriter`, read back with `GzipReader`, or forged
/// byte by byte with any header field a real tool may write.
struct GzipSamples {
    let folder: TemporaryFolder

    /// `count` bytes that compress somewhat (a third random, the rest a short cycle), the same
    /// on every run.
    static func bytes(_ count: Int) -> [UInt8] {
        var state: UInt32 = 12345
        return (0..<count).map { i in
            state = state &* 1_103_515_245 &+ 12345
            return i % 3 == 0 ? UInt8(truncatingIfNeeded: state >> 16) : UInt8(i % 7)
        }
    }

    /// Gzips `data` with `GzipWriter`, handing it over `chunk` bytes at a time; returns the path.
    func gzip(_ data: [UInt8], comment: String? = "seedgen-seed schema-version=3 seed-version=7", level: Int = 6,
              chunk: Int = 10_000) throws -> String {
        let path = folder.file("sample-\(UUID().uuidString.prefix(8)).gz")
        let writer = try GzipWriter(path: path, level: level, comment: comment)
        var offset = 0
        while offset < data.count {
            try writer.write(Array(data[offset..<min(offset + chunk, data.count)]))
            offset += chunk
        }
        try writer.finish()
        return path
    }

    /// Everything `GzipReader` reads from `path`, 4 KiB at a time.
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

    /// The error reading `path` to its end ends in, or nil when it reads.
    func readError(_ path: String, multiMember: Bool = false) -> GzipError? {
        do { _ = try gunzip(path, multiMember: multiMember); return nil } catch { return error }
    }

    /// Writes `bytes` to a new file in the folder; returns its path.
    func write(_ bytes: [UInt8], _ name: String = "forged-\(UUID().uuidString.prefix(8)).gz") -> String {
        folder.write(name, bytes: bytes)
    }
}

/// One gzip member built byte by byte (RFC 1952): a header with the fields asked for, `data`
/// in one stored deflate block, and a trailer computed independently of the code under test.
struct ForgedGzipMember {
    var data: [UInt8]
    var method: UInt8 = 8
    /// Set in the flags byte as they are, on top of those the fields below imply.
    var extraFlagBits: UInt8 = 0
    var extra: [UInt8]? = nil
    /// Latin-1 bytes, without the terminating zero.
    var fileName: [UInt8]? = nil
    var comment: [UInt8]? = nil
    var headerCRC = false
    var modificationTime: UInt32 = 0
    /// Replaces the trailer's CRC-32 / size when set.
    var trailerCRC: UInt32? = nil
    var trailerSize: UInt32? = nil

    init(_ data: [UInt8]) { self.data = data }

    var header: [UInt8] {
        var flags = extraFlagBits
        if headerCRC { flags |= 0x02 }
        if extra != nil { flags |= 0x04 }
        if fileName != nil { flags |= 0x08 }
        if comment != nil { flags |= 0x10 }
        var bytes: [UInt8] = [0x1f, 0x8b, method, flags] + le32(modificationTime) + [0, 3]
        if let extra { bytes += le16(UInt16(extra.count)) + extra }
        if let fileName { bytes += fileName + [0] }
        if let comment { bytes += comment + [0] }
        if headerCRC { bytes += le16(UInt16(truncatingIfNeeded: ReferenceCRC32.checksum(bytes))) }
        return bytes
    }

    var bytes: [UInt8] {
        precondition(data.count <= 0xFFFF, "one stored block holds at most 65535 bytes")
        let length = UInt16(data.count)
        let block: [UInt8] = [0x01] + le16(length) + le16(~length) + data
        return header + block + le32(trailerCRC ?? ReferenceCRC32.checksum(data)) + le32(trailerSize ?? UInt32(data.count))
    }

    private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
}
