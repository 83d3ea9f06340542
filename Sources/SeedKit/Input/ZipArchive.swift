import CZlib
import Foundation
import SeedArchive

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

    init(path: String) throws(InputError) {
        self.path = path
        let file = try RandomAccessFile(path: path)
        let length = file.length
        // The end-of-central-directory record is in the last 64 KiB + 22 bytes.
        let tailLength = Int(min(length, 65_557))
        let tail = try file.read(at: length - UInt64(tailLength), count: tailLength)
        guard let eocd = Self.lastIndex(of: 0x0605_4b50, in: tail) else {
            throw InputError(path: path, message: "not a zip archive (no end of central directory)")
        }
        var directoryOffset = UInt64(tail.le32(eocd + 16))
        var directorySize = UInt64(tail.le32(eocd + 12))
        var count = UInt64(tail.le16(eocd + 10))
        if eocd >= 20, tail.le32(eocd - 20) == 0x0706_4b50 {
            let zip64 = try file.read(at: tail.le64(eocd - 20 + 8), count: 56)
            guard zip64.le32(0) == 0x0606_4b50 else { throw InputError(path: path, message: "broken ZIP64 directory") }
            count = zip64.le64(32)
            directorySize = zip64.le64(40)
            directoryOffset = zip64.le64(48)
        }
        guard directoryOffset + directorySize <= length else { throw InputError(path: path, message: "truncated zip archive") }
        let directory = try file.read(at: directoryOffset, count: Int(directorySize))
        var entries: [Entry] = []
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= directory.count, directory.le32(p) == 0x0201_4b50 else {
                throw InputError(path: path, message: "broken central directory")
            }
            let nameLength = Int(directory.le16(p + 28)), extraLength = Int(directory.le16(p + 30)), commentLength = Int(directory.le16(p + 32))
            guard p + 46 + nameLength + extraLength + commentLength <= directory.count else {
                throw InputError(path: path, message: "broken central directory")
            }
            var entry = Entry(name: String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self),
                              method: directory.le16(p + 10), flags: directory.le16(p + 8), crc32: directory.le32(p + 16),
                              compressedSize: UInt64(directory.le32(p + 20)), size: UInt64(directory.le32(p + 24)),
                              localHeaderOffset: UInt64(directory.le32(p + 42)))
            // ZIP64 extra field: 64-bit values replace the ones saturated at 0xFFFFFFFF, in order.
            var e = p + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = directory.le16(e), size = Int(directory.le16(e + 2))
                if id == 0x0001 {
                    var q = e + 4
                    if entry.size == 0xFFFF_FFFF { entry.size = directory.le64(q); q += 8 }
                    if entry.compressedSize == 0xFFFF_FFFF { entry.compressedSize = directory.le64(q); q += 8 }
                    if entry.localHeaderOffset == 0xFFFF_FFFF { entry.localHeaderOffset = directory.le64(q) }
                }
                e += 4 + size
            }
            entries.append(entry)
            p += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// The archive's files as inputs, named by their last path component.
    func inputFiles() throws(InputError) -> [InputFile] {
        var result: [InputFile] = []
        for entry in entries where !entry.name.hasSuffix("/") {
            let name = (entry.name as NSString).lastPathComponent
            guard !name.hasPrefix("."), !entry.name.hasPrefix("__MACOSX/") else { continue }
            let display = "\(path):\(entry.name)"
            guard entry.flags & 1 == 0 else { throw InputError(path: display, message: "encrypted zip entries are not supported") }
            guard entry.method == 0 || entry.method == 8 else {
                throw InputError(path: display, message: "compression method \(entry.method) is not supported (only stored and deflate)")
            }
            let path = self.path
            result.append(InputFile(name: name, displayPath: display, size: Int64(entry.size)) { () throws(InputError) -> ByteSource in
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
    private var offset: UInt64 = 0           // next compressed byte to read, from data start
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
        guard header.le32(0) == 0x0403_4b50 else { throw InputError(path: display, message: "broken local header") }
        dataStart = entry.localHeaderOffset + 30 + UInt64(header.le16(26)) + UInt64(header.le16(28))
        if entry.method == 8 { inflater = try Inflater(display: display) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if finished { return 0 }
        var count = 0
        if let inflater {
            while count == 0 && !ended {
                if inflater.needsInput {
                    let want = Int(min(UInt64(input.count), entry.compressedSize - offset))
                    guard want > 0 else { throw InputError(path: display, message: "truncated compressed data") }
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
        crc.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        if count == 0 {
            finished = true
            guard produced == entry.size else { throw InputError(path: display, message: "entry is \(produced) bytes, the directory says \(entry.size)") }
            guard crc.value == entry.crc32 else { throw InputError(path: display, message: "CRC mismatch: the archive is corrupt") }
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
        do { stream = try ZStream() } catch { throw InputError(path: display, message: "cannot start inflating (zlib error \(error.code))") }
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
            throw InputError(path: display, message: "corrupt compressed data: \(message)")
        }
    }
}

/// A file read at offsets with `pread`; owns the descriptor.
final class RandomAccessFile {
    private let descriptor: Int32
    let path: String
    let length: UInt64

    init(path: String) throws(InputError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(path: path, message: "cannot open: \(String(cString: strerror(errno)))") }
        var info = stat()
        fstat(fd, &info)
        self.descriptor = fd
        self.path = path
        self.length = UInt64(info.st_size)
    }

    deinit { close(descriptor) }

    func read(at offset: UInt64, count: Int) throws(InputError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try read(at: offset, into: &bytes, count: count)
        return bytes
    }

    func read(at offset: UInt64, into bytes: inout [UInt8], count: Int) throws(InputError) {
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw InputError(path: path, message: n == 0 ? "unexpected end of file" : String(cString: strerror(errno))) }
            done += n
        }
    }
}

extension Array where Element == UInt8 {
    func le16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func le32(_ i: Int) -> UInt32 { UInt32(le16(i)) | UInt32(le16(i + 2)) << 16 }
    func le64(_ i: Int) -> UInt64 { UInt64(le32(i)) | UInt64(le32(i + 4)) << 32 }
}
