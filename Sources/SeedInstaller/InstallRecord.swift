import SeedArchive
import SeedSystem

/// What the installer last put in place, kept outside the seed in `<dest>.seedgen-install`,
/// written atomically: a cache of the seed's own stamp (``SeedOwnStamp``) that spares reading
/// the seed at every start.
///
/// Deciding "up to date" compares the shipped seed's versions with `seedVersion` and
/// `schemaVersion`, and the installed file's device, inode, size and modification time with
/// `file`: a replaced, touched or rewritten seed no longer matches, and the seed itself then
/// decides (its stamp and content digest; see ``SeedInstaller/install()``).
/// An unstamped gzip without a manifest has no versions to compare before decompressing: its
/// `gzip` trailer (CRC-32 and size of the content, and the file's size) is compared instead.
///
/// The record is a few lines of text, read at every app start without Foundation:
/// ```
/// seedgen-install 1
/// seed-version 2026.11.21-1
/// schema-version 3
/// sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
/// content-sha256 5b1c0a3e2f4d6b8a9c7e1f3a5b7d9c0e2f4a6b8d0c1e3f5a7b9d1c3e5f7a9b0d
/// size 159383552
/// file 2049 1835122 159383552 1763900000 123456789
/// gzip 3735928559 159383552 34123456
/// sequence 42
/// ```
/// `sha256` is the shipped seed's SHA-256 when the installer computed it (a full install; a
/// patched seed has none: its digest is `content-sha256`, the seed's content digest, which
/// proves which seed it is whatever SQLite wrote it).
/// `file` is device, inode, size, modification seconds and nanoseconds; `gzip` (only for a
/// gzip source) is CRC-32, size mod 2^32 of the content, and the gzip file's size. Values are
/// percent-encoded outside printable ASCII (and `%` itself); unknown keys are ignored.
/// A record in another format, such as the JSON records of earlier seedgen versions, reads as no record:
/// the seed is installed once more, which is always safe, and then recorded in this format.
struct InstallRecord: Equatable {
    var seedVersion: String
    var schemaVersion: Int
    /// The installed file's SHA-256, when known.
    var sha256: String?
    /// The installed seed's content digest, when known (seeds built before content digests
    /// have none).
    var contentSHA256: String? = nil
    var size: Int64
    var file: FileStatus
    /// The shipped gzip file's trailer and size (nil when a plain `.sqlite` was installed).
    var gzip: GzipTrailer?
    /// The installed seed's publication sequence (`sequence N`), when it had one: a shipped
    /// seed of a lower sequence does not replace it.
    var sequence: Int64? = nil

    /// The first line of every record.
    static let formatLine = "seedgen-install 1"
    /// The largest record read; a real one has a few hundred bytes.
    static let maximumBytes = 64 << 10

    /// The record at `path`, or nil when there is none or it cannot be parsed (then the seed is
    /// installed again, which is always safe).
    static func read(path: String) -> InstallRecord? {
        guard let bytes = try? FileSystem.readSmallFile(path, limit: maximumBytes) else { return nil }
        return decode(bytes)
    }

    /// Parses the text format; nil when it is not a complete record of this format.
    ///
    /// Byte by byte on purpose: this runs at every app start, where the first use of each
    /// generic collection type (arrays of lines, of fields) costs more than the parsing.
    static func decode(_ bytes: [UInt8]) -> InstallRecord? {
        var seedVersion: String?, schemaVersion: Int?, sha256: String?, contentSHA256: String?, size: Int64?
        var file: FileStatus?, gzip: GzipTrailer?, sequence: Int64?
        var start = 0
        var isFirst = true
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let line = bytes[start..<end]
            start = end + 1
            if isFirst {
                guard line.elementsEqual(formatLine.utf8) else { return nil }
                isFirst = false
                continue
            }
            if line.isEmpty { continue }
            guard let space = line.firstIndex(of: 0x20) else { return nil }
            let key = line[..<space], value = line[(space + 1)...]
            if key.elementsEqual("seed-version".utf8) {
                seedVersion = percentDecoded(value)
            } else if key.elementsEqual("schema-version".utf8) {
                schemaVersion = integers(value, 1).flatMap { Int(exactly: $0.0) }
            } else if key.elementsEqual("sha256".utf8) {
                sha256 = percentDecoded(value)
            } else if key.elementsEqual("content-sha256".utf8) {
                contentSHA256 = percentDecoded(value)
            } else if key.elementsEqual("size".utf8) {
                size = integers(value, 1)?.0
            } else if key.elementsEqual("file".utf8) {
                guard let n = integers(value, 5) else { return nil }
                file = FileStatus(
                    device: UInt64(bitPattern: n.0), inode: UInt64(bitPattern: n.1), size: n.2,
                    modificationSeconds: n.3, modificationNanoseconds: n.4, isRegularFile: true)
            } else if key.elementsEqual("gzip".utf8) {
                guard let n = integers(value, 3), let crc = UInt32(exactly: n.0), let isize = UInt32(exactly: n.1)
                else { return nil }
                gzip = GzipTrailer(crc32: crc, uncompressedSize: isize, fileSize: n.2)
            } else if key.elementsEqual("sequence".utf8) {
                sequence = integers(value, 1)?.0
            }
            // Other keys: written by a later version; ignored.
        }
        guard let seedVersion, let schemaVersion, sha256 != nil || contentSHA256 != nil, let size, let file else {
            return nil
        }
        return InstallRecord(
            seedVersion: seedVersion, schemaVersion: schemaVersion, sha256: sha256, contentSHA256: contentSHA256,
            size: size, file: file, gzip: gzip, sequence: sequence)
    }

    /// Exactly `count` (1 to 5) space-separated decimal integers, each `-`? digits, in `Int64`.
    private static func integers(_ value: ArraySlice<UInt8>, _ count: Int) -> (Int64, Int64, Int64, Int64, Int64)? {
        var out: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
        var i = value.startIndex
        for field in 0..<count {
            if field > 0 {
                guard i < value.endIndex, value[i] == 0x20 else { return nil }
                i += 1
            }
            let negative = i < value.endIndex && value[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            var n: Int64 = 0
            let digitsStart = i
            while i < value.endIndex, value[i] >= UInt8(ascii: "0"), value[i] <= UInt8(ascii: "9") {
                let (times10, o1) = n.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int64(value[i] - UInt8(ascii: "0")))
                guard !o1, !o2 else { return nil }
                n = sum
                i += 1
            }
            guard i > digitsStart else { return nil }
            if negative { n = -n }
            switch field {
            case 0: out.0 = n
            case 1: out.1 = n
            case 2: out.2 = n
            case 3: out.3 = n
            default: out.4 = n
            }
        }
        return i == value.endIndex ? out : nil
    }

    /// The record as text (see the type's documentation).
    func encoded() -> [UInt8] {
        var lines = [
            Self.formatLine,
            "seed-version " + Self.percentEncoded(seedVersion),
            "schema-version \(schemaVersion)"
        ]
        if let sha256 { lines.append("sha256 " + Self.percentEncoded(sha256)) }
        if let contentSHA256 { lines.append("content-sha256 " + Self.percentEncoded(contentSHA256)) }
        lines += [
            "size \(size)",
            """
            file \(Int64(bitPattern: file.device)) \(Int64(bitPattern: file.inode)) \(file.size) \
            \(file.modificationSeconds) \(file.modificationNanoseconds)
            """
        ]
        if let gzip { lines.append("gzip \(gzip.crc32) \(gzip.uncompressedSize) \(gzip.fileSize)") }
        if let sequence { lines.append("sequence \(sequence)") }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// `text` with bytes outside `!`...`~`, and `%` itself, written `%XX`: a value is one word
    /// on one line whatever it holds.
    static func percentEncoded(_ text: String) -> String {
        var out: [UInt8] = []
        for byte in text.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "%") {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The inverse of ``percentEncoded(_:)``; nil when a `%` is not followed by two hex digits.
    static func percentDecoded(_ value: ArraySlice<UInt8>) -> String? {
        guard value.contains(UInt8(ascii: "%")) else { return String(decoding: value, as: UTF8.self) }
        var out: [UInt8] = []
        var i = value.startIndex
        while i < value.endIndex {
            if value[i] != UInt8(ascii: "%") { out.append(value[i]); i += 1; continue }
            guard i + 2 < value.endIndex, let high = hexDigit(value[i + 1]), let low = hexDigit(value[i + 2]) else {
                return nil
            }
            out.append(high << 4 | low)
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
