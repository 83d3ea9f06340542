import CZlib
import Foundation
import SeedArchive
import SeedSystem

/// Reads the central directory of a `.zip` file (ZIP64 included) and opens its entries as
/// streams. Only what GTFS feeds use: stored and deflated entries, no encryption.
struct ZipArchive {
    struct Entry {
        var name: String
        var method: UInt16
        var flags: UInt16
        var crc32: UInt32
        var compressedSize: UInt64
        var size: UInt64
        var localHeaderOffset: UInt64
    }

    let path: String
    let entries: [Entry]

    /// The largest central directory read (16 MiB: about 200,000 entries). GTFS feeds have
    /// a few dozen; a larger one is refused rather than read into memory.
    static let maximumDirectorySize: UInt64 = 16 << 20

    /// Reads the central directory. Every size, count and offset read from the file is
    /// checked against the archive's own length before it is used in any arithmetic, so a
    /// hostile archive ends in an `InputError`, never a trap.
    init(path: String) throws(InputError) {
        self.path = path
        let file = try RandomAccessFile(path: path)
        let length = file.length
        func broken(_ message: String) -> InputError { InputError(code: .invalidArchive, path: path, message: message) }
        guard length >= 22 else { throw broken("not a zip archive (\(length) bytes, too short for one)") }
        // The end-of-central-directory record is in the last 64 KiB + 22 bytes.
        let tailLength = Int(min(length, 65_557))
        let tail = try file.read(at: length - UInt64(tailLength), count: tailLength)
        guard let eocd = Self.lastIndex(of: 0x0605_4b50, in: tail) else {
            throw broken("not a zip archive (no end of central directory)")
        }
        var directoryOffset = UInt64(tail.le32(eocd + 16))
        var directorySize = UInt64(tail.le32(eocd + 12))
        var count = UInt64(tail.le16(eocd + 10))
        if eocd >= 20, tail.le32(eocd - 20) == 0x0706_4b50 {
            let recordOffset = tail.le64(eocd - 20 + 8)
            guard length >= 56, recordOffset <= length - 56 else {
                throw broken(
                    "broken ZIP64 directory (its record would be at byte \(recordOffset), the archive has \(length))")
            }
            let zip64 = try file.read(at: recordOffset, count: 56)
            guard zip64.le32(0) == 0x0606_4b50 else { throw broken("broken ZIP64 directory") }
            count = zip64.le64(32)
            directorySize = zip64.le64(40)
            directoryOffset = zip64.le64(48)
        }
        guard directorySize <= length, directoryOffset <= length - directorySize else {
            throw broken("truncated zip archive (the central directory would end past the archive's \(length) bytes)")
        }
        guard directorySize <= Self.maximumDirectorySize else {
            throw broken(
                """
                the central directory has \(directorySize) bytes, more than the \(Self.maximumDirectorySize) \
                seedgen reads
                """
            )
        }
        // Each directory entry takes at least 46 bytes.
        guard count <= directorySize / 46 else {
            throw broken("broken central directory (\(count) entries cannot fit in \(directorySize) bytes)")
        }
        let directory = try file.read(at: directoryOffset, count: Int(directorySize))
        var entries: [Entry] = []
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= directory.count, directory.le32(p) == 0x0201_4b50 else {
                throw broken("broken central directory")
            }
            let nameLength = Int(directory.le16(p + 28)), extraLength = Int(directory.le16(p + 30)),
                commentLength = Int(directory.le16(p + 32))
            guard p + 46 + nameLength + extraLength + commentLength <= directory.count else {
                throw broken("broken central directory")
            }
            var entry = Entry(
                name: String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self),
                method: directory.le16(p + 10), flags: directory.le16(p + 8), crc32: directory.le32(p + 16),
                compressedSize: UInt64(directory.le32(p + 20)), size: UInt64(directory.le32(p + 24)),
                localHeaderOffset: UInt64(directory.le32(p + 42)))
            // ZIP64 extra field: 64-bit values replace the ones saturated at 0xFFFFFFFF, in order.
            let extraStart = p + 46 + nameLength
            try Self.readZip64Extra(
                into: &entry, directory: directory, from: extraStart, to: extraStart + extraLength, path: path)
            try Self.check(entry, archiveLength: length, path: path)
            entries.append(entry)
            p += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// The ZIP64 extra field among an entry's extra fields (`directory[start..<extraEnd]`).
    private static func readZip64Extra(
        into entry: inout Entry, directory: [UInt8], from start: Int, to extraEnd: Int, path: String
    ) throws(InputError) {
        var e = start
        while e + 4 <= extraEnd {
            let id = directory.le16(e), size = Int(directory.le16(e + 2))
            let fieldEnd = min(e + 4 + size, extraEnd)
            if id == 0x0001 {
                var q = e + 4
                func next() throws(InputError) -> UInt64 {
                    guard q + 8 <= fieldEnd else {
                        throw InputError(
                            code: .invalidArchive, path: "\(path):\(entry.name)",
                            message: "broken ZIP64 extra field (shorter than the sizes it must hold)")
                    }
                    defer { q += 8 }
                    return directory.le64(q)
                }
                if entry.size == 0xFFFF_FFFF { entry.size = try next() }
                if entry.compressedSize == 0xFFFF_FFFF { entry.compressedSize = try next() }
                if entry.localHeaderOffset == 0xFFFF_FFFF { entry.localHeaderOffset = try next() }
            }
            e += 4 + size
        }
    }

    /// Deflate expands at most about 1032 times; a larger claimed size is a lie.
    private static let maximumDeflateRatio: UInt64 = 1032

    /// Checks an entry's sizes and offset against the archive's length.
    private static func check(_ entry: Entry, archiveLength length: UInt64, path: String) throws(InputError) {
        let display = "\(path):\(entry.name)"
        guard entry.compressedSize <= length else {
            throw InputError(
                code: .invalidArchive, path: display,
                message: "broken zip entry: \(entry.compressedSize) compressed bytes in an archive of \(length)")
        }
        guard length >= 30, entry.localHeaderOffset <= length - 30 else {
            throw InputError(
                code: .invalidArchive, path: display,
                message:
                    """
                    broken zip entry: its header would be at byte \(entry.localHeaderOffset), the archive has \
                    \(length)
                    """
            )
        }
        let (limit, overflow) = entry.compressedSize.multipliedReportingOverflow(by: maximumDeflateRatio)
        guard entry.size <= 1024 || (!overflow && entry.size <= limit) else {
            throw InputError(
                code: .invalidArchive, path: display,
                message:
                    "broken zip entry: \(entry.size) bytes cannot come from \(entry.compressedSize) compressed bytes")
        }
    }

    /// The name of a zip compression method, for messages.
    static func methodName(_ method: UInt16) -> String {
        switch method {
        case 1: return "Shrink"
        case 2, 3, 4, 5: return "Reduce"
        case 6: return "Implode"
        case 9: return "Deflate64"
        case 10: return "PKWARE DCL Implode"
        case 12: return "bzip2"
        case 14: return "LZMA"
        case 18: return "IBM TERSE"
        case 19: return "IBM LZ77"
        case 93: return "Zstandard"
        case 94: return "MP3"
        case 95: return "XZ"
        case 96: return "JPEG"
        case 97: return "WavPack"
        case 98: return "PPMd"
        case 99: return "AES encryption"
        default: return "an unknown method"
        }
    }

    /// The archive's files as inputs, named by their last path component.
    func inputFiles() throws(InputError) -> [InputFile] {
        var result: [InputFile] = []
        for entry in entries where !entry.name.hasSuffix("/") {
            let name = (entry.name as NSString).lastPathComponent
            guard !name.hasPrefix("."), !entry.name.hasPrefix("__MACOSX/") else { continue }
            let display = "\(path):\(entry.name)"
            guard entry.flags & 1 == 0 else {
                throw InputError(code: .unsupported, path: display, message: "encrypted zip entries are not supported")
            }
            guard entry.method == 0 || entry.method == 8 else {
                throw InputError(
                    code: .unsupported, path: display,
                    message: "compressed with \(Self.methodName(entry.method)) (method \(entry.method)); "
                        + """
                        seedgen reads only stored and deflate entries: repack it, e.g. `zip -r -Z deflate feed.zip \
                        feed/`
                        """
                )
            }
            let path = self.path
            result.append(
                InputFile(
                    name: name, displayPath: display, size: Int64(clamping: entry.size),
                    subfolder: name == entry.name ? nil : (entry.name as NSString).deletingLastPathComponent
                ) {
                    () throws(InputError) -> ByteSource in
                    try ZipEntrySource(archivePath: path, entry: entry)
                })
        }
        return result
    }

    private static func lastIndex(of signature: UInt32, in bytes: [UInt8]) -> Int? {
        var i = bytes.count - 22
        while i >= 0 {
            if bytes.le32(i) == signature { return i }
            i -= 1
        }
        return nil
    }
}

/// One entry's bytes: stored ones copied, deflated ones inflated, checked against the CRC.
final class ZipEntrySource: ByteSource {
    private let file: RandomAccessFile
    private let entry: ZipArchive.Entry
    private let display: String
    private var offset: UInt64 = 0 // next compressed byte to read, from data start
    private var dataStart: UInt64 = 0
    private var inflater: Inflater?
    private var input = [UInt8](repeating: 0, count: 256 * 1024)
    private var produced: UInt64 = 0
    private var crc = CRC32()
    private var finished = false
    private var ended = false

    init(archivePath: String, entry: ZipArchive.Entry) throws(InputError) {
        self.file = try RandomAccessFile(path: archivePath)
        self.entry = entry
        self.display = "\(archivePath):\(entry.name)"
        let header = try file.read(at: entry.localHeaderOffset, count: 30)
        guard header.le32(0) == 0x0403_4b50 else {
            throw InputError(code: .invalidArchive, path: display, message: "broken local header")
        }
        // Both were checked against the archive's length, so the sums cannot overflow.
        dataStart = entry.localHeaderOffset + 30 + UInt64(header.le16(26)) + UInt64(header.le16(28))
        let stored = entry.method == 0 ? entry.size : entry.compressedSize
        guard dataStart <= file.length, stored <= file.length - dataStart else {
            throw InputError(
                code: .invalidArchive, path: display,
                message: "truncated zip entry: its data would end past the archive's \(file.length) bytes")
        }
        if entry.method == 8 { inflater = try Inflater(display: display) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if finished { return 0 }
        var count = 0
        if let inflater {
            while count == 0 && !ended {
                if inflater.needsInput {
                    let want = Int(min(UInt64(input.count), entry.compressedSize - offset))
                    guard want > 0 else {
                        throw InputError(code: .invalidArchive, path: display, message: "truncated compressed data")
                    }
                    try file.read(at: dataStart + offset, into: &input, count: want)
                    offset += UInt64(want)
                    inflater.supply(input, count: want)
                }
                (count, ended) = try inflater.inflate(into: buffer)
            }
        } else {
            count = Int(min(UInt64(buffer.count), entry.size - produced))
            if count > 0 {
                let data = try file.read(at: dataStart + produced, count: count)
                data.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
            }
        }
        produced += UInt64(count)
        guard produced <= entry.size else {
            throw InputError(
                code: .invalidArchive, path: display,
                message: "entry inflates to more than the \(entry.size) bytes the directory says")
        }
        crc.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        if count == 0 {
            finished = true
            guard produced == entry.size else {
                throw InputError(
                    code: .invalidArchive, path: display,
                    message: "entry is \(produced) bytes, the directory says \(entry.size)")
            }
            guard crc.value == entry.crc32 else {
                throw InputError(code: .invalidArchive, path: display, message: "CRC mismatch: the archive is corrupt")
            }
        }
        return count
    }
}

/// Inflates a raw-deflate entry through one `ZStream` (which owns the `z_stream`).
final class Inflater {
    private let stream: ZStream
    private var storage: [UInt8] = []
    private let display: String
    private(set) var needsInput = true

    init(display: String) throws(InputError) {
        self.display = display
        do { stream = try ZStream() } catch {
            throw InputError(
                code: .invalidArchive, path: display, message: "cannot start inflating (zlib error \(error.code))")
        }
    }

    func supply(_ bytes: [UInt8], count: Int) {
        storage = Array(bytes[0..<count])
        needsInput = false
        stream.pointer.pointee.avail_in = uInt(count)
    }

    /// Inflates into `buffer`; returns the bytes written and whether the stream ended.
    func inflate(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> (Int, Bool) {
        let z = stream.pointer
        let consumedBefore = storage.count - Int(z.pointee.avail_in)
        let result: (Int32, Int) = storage.withUnsafeMutableBytes { input in
            z.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self) + consumedBefore
            z.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
            z.pointee.avail_out = uInt(buffer.count)
            let rc = CZlib.inflate(z, Z_NO_FLUSH)
            return (rc, buffer.count - Int(z.pointee.avail_out))
        }
        if z.pointee.avail_in == 0 { needsInput = true }
        switch result.0 {
        case Z_STREAM_END: return (result.1, true)
        case Z_OK: return (result.1, false)
        case Z_BUF_ERROR where result.1 == 0 && needsInput: return (0, false)
        default:
            let message = z.pointee.msg.map { String(cString: $0) } ?? "error \(result.0)"
            throw InputError(code: .invalidArchive, path: display, message: "corrupt compressed data: \(message)")
        }
    }
}

/// A zip archive's file, read at offsets (`pread`), with its length.
final class RandomAccessFile {
    private let file: FileDescriptor
    let path: String
    let length: UInt64

    init(path: String) throws(InputError) {
        do { file = try FileSystem.openForReading(path) } catch {
            throw InputError(code: .fileSystem, path: path, message: "cannot open: \(error.reason)", cause: error)
        }
        do { length = UInt64(clamping: try file.status().size) } catch {
            throw InputError(code: .fileSystem, path: path, message: "cannot read: \(error.reason)", cause: error)
        }
        self.path = path
    }

    func read(at offset: UInt64, count: Int) throws(InputError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try read(at: offset, into: &bytes, count: count)
        return bytes
    }

    /// Reads exactly `count` bytes at `offset` into the start of `bytes`.
    func read(at offset: UInt64, into bytes: inout [UInt8], count: Int) throws(InputError) {
        // The offset is checked before the conversion: a value read from the file may be anything.
        guard offset <= length, let start = Int64(exactly: offset) else {
            throw InputError(
                code: .invalidArchive, path: path,
                message: "offset \(offset) is past the end of the file (\(length) bytes)")
        }
        let result: Result<Int, SystemCallError> = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemCallError) in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: start)
            }
        }
        switch result {
        case .success(let read) where read == count: return
        case .success: throw InputError(code: .fileSystem, path: path, message: "unexpected end of file")
        case .failure(let error): throw InputError(code: .fileSystem, path: path, message: error.reason, cause: error)
        }
    }
}

extension Array where Element == UInt8 {
    func le16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func le32(_ i: Int) -> UInt32 { UInt32(le16(i)) | UInt32(le16(i + 2)) << 16 }
    func le64(_ i: Int) -> UInt64 { UInt64(le32(i)) | UInt64(le32(i + 4)) << 32 }
}
