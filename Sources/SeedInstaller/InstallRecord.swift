import SeedArchive

/// What the installer last put in place, kept outside the seed (the seed stays byte for byte
/// the shipped file) in `<dest>.seedgen-install`, written atomically.
///
/// Deciding "up to date" compares the shipped seed's versions with `seedVersion` and
/// `schemaVersion`, and the installed file's device, inode, size and modification time with
/// `file`: a replaced, touched or rewritten seed no longer matches and is installed again.
/// An unstamped gzip without a manifest has no versions to compare before decompressing: its
/// `gzip` trailer (CRC-32 and size of the content, and the file's size) is compared instead.
///
/// The record is a few lines of text, read at every app start without Foundation:
/// ```
/// seedgen-install 1
/// seed-version 2026.11.21-1
/// schema-version 3
/// sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
/// size 159383552
/// file 2049 1835122 159383552 1763900000 123456789
/// gzip 3735928559 159383552 34123456
/// ```
/// `file` is device, inode, size, modification seconds and nanoseconds; `gzip` (only for a
/// gzip source) is CRC-32, size mod 2^32 of the content, and the gzip file's size. Values are
/// percent-encoded outside printable ASCII (and `%` itself); unknown keys are ignored.
/// A record in another format, such as the JSON of seedgen before issue 11, reads as no record:
/// the seed is installed once more, which is always safe, and then recorded in this format.
struct InstallRecord: Equatable {
    var seedVersion: String
    var schemaVersion: Int
    var sha256: String
    var size: Int64
    var file: FileStatus
    /// The shipped gzip file's trailer and size (nil when a plain `.sqlite` was installed).
    var gzip: GzipTrailer?

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
    static func decode(_ bytes: [UInt8]) -> InstallRecord? {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard let first = lines.first, first.elementsEqual(formatLine.utf8) else { return nil }
        var seedVersion: String?, schemaVersion: Int?, sha256: String?, size: Int64?
        var file: FileStatus?, gzip: GzipTrailer?
        for line in lines.dropFirst() {
            guard let space = line.firstIndex(of: 0x20) else { return nil }
            let key = line[..<space], value = line[(space + 1)...]
            func numbers(_ count: Int) -> [Int64]? {
                let fields = value.split(separator: 0x20)
                guard fields.count == count else { return nil }
                var out: [Int64] = []
                for field in fields {
                    guard let n = Int64(Substring(decoding: field, as: UTF8.self)) else { return nil }
                    out.append(n)
                }
                return out
            }
            switch String(decoding: key, as: UTF8.self) {
            case "seed-version": seedVersion = percentDecoded(value)
            case "schema-version": schemaVersion = numbers(1).flatMap { Int(exactly: $0[0]) }
            case "sha256": sha256 = percentDecoded(value)
            case "size": size = numbers(1)?[0]
            case "file":
                guard let n = numbers(5) else { return nil }
                file = FileStatus(device: UInt64(bitPattern: n[0]), inode: UInt64(bitPattern: n[1]), size: n[2],
                                  modificationSeconds: n[3], modificationNanoseconds: n[4], isRegularFile: true)
            case "gzip":
                guard let n = numbers(3), let crc = UInt32(exactly: n[0]), let isize = UInt32(exactly: n[1]) else { return nil }
                gzip = GzipTrailer(crc32: crc, uncompressedSize: isize, fileSize: n[2])
            default: continue
            }
        }
        guard let seedVersion, let schemaVersion, let sha256, let size, let file else { return nil }
        return InstallRecord(seedVersion: seedVersion, schemaVersion: schemaVersion, sha256: sha256, size: size, file: file, gzip: gzip)
    }

    /// The record as text (see the type's documentation).
    func encoded() -> [UInt8] {
        var lines = [
            Self.formatLine,
            "seed-version " + Self.percentEncoded(seedVersion),
            "schema-version \(schemaVersion)",
            "sha256 " + Self.percentEncoded(sha256),
            "size \(size)",
            "file \(Int64(bitPattern: file.device)) \(Int64(bitPattern: file.inode)) \(file.size) \(file.modificationSeconds) \(file.modificationNanoseconds)",
        ]
        if let gzip { lines.append("gzip \(gzip.crc32) \(gzip.uncompressedSize) \(gzip.fileSize)") }
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
                let digits = Array("0123456789ABCDEF".utf8)
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The inverse of ``percentEncoded(_:)``; nil when a `%` is not followed by two hex digits.
    static func percentDecoded(_ value: ArraySlice<UInt8>) -> String? {
        guard value.contains(UInt8(ascii: "%")) else { return String(decoding: value, as: UTF8.self) }
        var out: [UInt8] = []
        var i = value.startIndex
        while i < value.endIndex {
            if value[i] != UInt8(ascii: "%") { out.append(value[i]); i += 1; continue }
            guard i + 2 < value.endIndex, let high = hexDigit(value[i + 1]), let low = hexDigit(value[i + 2]) else { return nil }
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
