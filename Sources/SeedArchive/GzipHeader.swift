import SeedSystem

/// The header of a gzip member (RFC 1952), which can be read without decompressing anything.
///
/// Seeds carry their versions in the header's comment (see ``SeedStamp``), so an installer can
/// decide whether a shipped `seed.sqlite.gz` is new by reading a few dozen bytes.
public struct GzipHeader: Equatable, Sendable {
    /// The modification time field (seconds since 1970; seedgen writes 0).
    public var modificationTime: UInt32
    /// The extra-flags byte (2: maximum compression, 4: fastest).
    public var extraFlags: UInt8
    /// The operating-system byte (seedgen writes 255, "unknown", so output is identical everywhere).
    public var operatingSystem: UInt8
    /// The original file name (FNAME), if present. seedgen never writes one.
    public var fileName: String?
    /// The comment (FCOMMENT), if present. seedgen writes ``SeedStamp/comment`` here.
    public var comment: String?
    /// The number of bytes the header takes, i.e. where the deflate data starts.
    public var byteCount: Int

    /// The seed stamp in the comment, if the comment is one.
    public var stamp: SeedStamp? { comment.flatMap(SeedStamp.init(comment:)) }

    /// Reads only the gzip header at the start of the file at `path`.
    ///
    /// Reads a few kilobytes at most: the header fields are bounded (a name or comment longer
    /// than 64 KiB is refused).
    /// - Throws: `GzipError` with `.notGzip` when the file is not gzip, `.truncated` when it ends
    ///   inside the header, `.invalidHeader` for reserved flags, `.io` when it cannot be read.
    public static func read(path: String) throws(GzipError) -> GzipHeader {
        let file: FileDescriptor
        do { file = try FileSystem.openForReading(path) } catch {
            throw GzipError(code: .io, message: "cannot open the gzip file", path: path, cause: error)
        }
        return try parse(BufferedFileReader(file: file, capacity: 4096), path: path)
    }

    /// Parses the header at the start of `bytes`, the first bytes of a gzip file (a few hundred
    /// hold any header seedgen writes), without opening anything.
    /// - Throws: `GzipError` as ``read(path:)``; `.truncated` when `bytes` end inside the header
    ///   (the file is truncated, or more of it must be read).
    public static func parse(_ bytes: [UInt8], path: String) throws(GzipError) -> GzipHeader {
        var offset = 0
        return try parse(path: path, start: 0, offset: { Int64(offset) }) { () throws(GzipError) -> UInt8? in
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }
    }

    /// Parses a header from `source`, leaving it positioned at the deflate data.
    static func parse(_ source: BufferedFileReader, path: String) throws(GzipError) -> GzipHeader {
        try parse(path: path, start: source.offset, offset: { source.offset }) { () throws(GzipError) -> UInt8? in
            do throws(SystemCallError) { return try source.readByte() } catch {
                throw GzipError(
                    code: .io, message: "cannot read the gzip header", path: path, offset: source.offset, cause: error)
            }
        }
    }

    /// Parses a header from the bytes `next` returns (nil at end of file); `offset` is the file
    /// offset of the next byte, for error messages.
    private static func parse(
        path: String, start: Int64, offset: () -> Int64,
        next: () throws(GzipError) -> UInt8?
    ) throws(GzipError) -> GzipHeader {
        func byte() throws(GzipError) -> UInt8 {
            guard let value = try next() else {
                throw GzipError(
                    code: .truncated, message: "the file ends inside the gzip header", path: path, offset: offset())
            }
            return value
        }
        func zeroTerminated(_ field: String) throws(GzipError) -> String {
            var bytes: [UInt8] = []
            while true {
                let b = try byte()
                if b == 0 { break }
                bytes.append(b)
                if bytes.count > 65536 {
                    throw GzipError(
                        code: .invalidHeader, message: "the gzip \(field) is longer than 64 KiB", path: path,
                        offset: offset())
                }
            }
            // RFC 1952 says ISO 8859-1; every Latin-1 byte is the Unicode scalar of the same value,
            // two bytes in UTF-8 from 0x80. (Byte by byte, not a generic map: this runs at every
            // app start, where the first use of a generic conversion costs more than the rest.)
            var utf8: [UInt8] = []
            utf8.reserveCapacity(bytes.count)
            for b in bytes {
                if b < 0x80 { utf8.append(b) } else { utf8.append(0xC0 | b >> 6); utf8.append(0x80 | b & 0x3F) }
            }
            return String(decoding: utf8, as: UTF8.self)
        }

        let id1 = try byte(), id2 = try byte()
        guard id1 == 0x1f, id2 == 0x8b else {
            throw GzipError(
                code: .notGzip, message: "not a gzip file (no 1f 8b magic bytes)", path: path, offset: start)
        }
        guard try byte() == 8 else {
            throw GzipError(
                code: .notGzip, message: "unknown gzip compression method (only deflate, 8, exists)", path: path,
                offset: start + 2)
        }
        let flags = try byte()
        guard flags & 0xE0 == 0 else {
            throw GzipError(
                code: .invalidHeader, message: "reserved gzip header flags are set (0x\(String(flags, radix: 16)))",
                path: path, offset: start + 3)
        }
        var mtime: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) { mtime |= UInt32(try byte()) << UInt32(shift) }
        let xfl = try byte(), os = try byte()
        if flags & Flags.extra != 0 {
            let length = Int(try byte()) | Int(try byte()) << 8
            for _ in 0..<length { _ = try byte() }
        }
        let name = flags & Flags.name != 0 ? try zeroTerminated("file name") : nil
        let comment = flags & Flags.comment != 0 ? try zeroTerminated("comment") : nil
        if flags & Flags.headerCRC != 0 { _ = try byte(); _ = try byte() }
        return GzipHeader(
            modificationTime: mtime, extraFlags: xfl, operatingSystem: os, fileName: name,
            comment: comment, byteCount: Int(offset() - start))
    }

    enum Flags {
        static let headerCRC: UInt8 = 0x02
        static let extra: UInt8 = 0x04
        static let name: UInt8 = 0x08
        static let comment: UInt8 = 0x10
    }
}
