import CZlib
import SeedSystem

/// Reads a gzip file (RFC 1952) as a stream, with bounded memory, checking everything a
/// damaged file can get wrong.
///
/// ```swift
/// let reader = try GzipReader(path: "seed.sqlite.gz")
/// try reader.forEachChunk { bytes in try output.write(bytes) }
/// ```
///
/// ``read(into:)`` returns 0 only after the whole stream was read and checked: a file cut off
/// anywhere throws `.truncated`, invalid deflate data `.corrupt`, a trailer that disagrees
/// with the data `.crcMismatch` or `.sizeMismatch`, and bytes after the end `.trailingGarbage`
/// (unless they are further gzip members and `allowsMultipleMembers` is true, in which case
/// their data follows, as `gzip -d` does). Not thread-safe.
public final class GzipReader {
    /// The file being read.
    public let path: String
    /// The header of the first member.
    public let header: GzipHeader
    /// Whether members after the first are read (true) or refused as trailing garbage.
    public let allowsMultipleMembers: Bool
    private let source: BufferedFileReader
    private let stream: ZStream
    private var crc = CRC32()
    private var memberSize: UInt32 = 0
    private var isDone = false
    /// The number of uncompressed bytes returned so far.
    public private(set) var bytesRead: Int64 = 0

    /// Opens `path` and reads its gzip header.
    /// - Parameters:
    ///   - path: the gzip file.
    ///   - allowsMultipleMembers: read concatenated gzip members as one stream (default false:
    ///     anything after the first member is an error).
    ///   - offset: where the gzip stream starts in the file (a seed delta's body follows its
    ///     header); offsets in errors still count from the start of the file.
    /// - Throws: `GzipError` (`.io`, `.notGzip`, `.truncated`, `.invalidHeader`).
    public init(path: String, allowsMultipleMembers: Bool = false, offset: Int64 = 0) throws(GzipError) {
        self.path = path
        self.allowsMultipleMembers = allowsMultipleMembers
        let file: FileDescriptor
        do { file = try FileSystem.openForReading(path) } catch {
            throw GzipError(code: .io, message: "cannot open the gzip file", path: path, cause: error)
        }
        source = BufferedFileReader(file: file, capacity: 65536)
        do { stream = try ZStream() } catch {
            throw GzipError(code: .io, message: "zlib cannot start inflate (code \(error.code))", path: path)
        }
        var skipped: Int64 = 0
        while skipped < offset {
            let more: Bool
            do { more = try source.fill() } catch {
                throw GzipError(
                    code: .io, message: "cannot read the gzip file", path: path, offset: source.offset, cause: error)
            }
            guard more else {
                throw GzipError(
                    code: .truncated, message: "the file ends before its gzip stream starts", path: path,
                    offset: source.offset)
            }
            let count = Int(min(Int64(source.available.count), offset - skipped))
            source.consume(count)
            skipped += Int64(count)
        }
        header = try GzipHeader.parse(source, path: path)
    }

    /// Decompresses into `buffer`. Returns the number of bytes written to it, and 0 only at the
    /// checked end of the stream.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(GzipError) -> Int {
        guard let outBase = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let z = stream.pointer
        var produced = 0
        while !isDone && produced < buffer.count {
            guard try fill() else {
                throw GzipError(
                    code: .truncated, message: "the gzip file ends before its data does", path: path,
                    offset: source.offset)
            }
            let input = source.available
            z.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
            z.pointee.avail_in = uInt(input.count)
            let out = outBase + produced
            z.pointee.next_out = out.assumingMemoryBound(to: Bytef.self)
            z.pointee.avail_out = uInt(buffer.count - produced)
            let rc = inflate(z, Z_NO_FLUSH)
            source.consume(input.count - Int(z.pointee.avail_in))
            let count = buffer.count - produced - Int(z.pointee.avail_out)
            crc.update(UnsafeRawBufferPointer(start: out, count: count))
            memberSize &+= UInt32(truncatingIfNeeded: count)
            produced += count
            switch rc {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                try endMember()
            default:
                let detail = z.pointee.msg.map { String(cString: $0) } ?? "code \(rc)"
                throw GzipError(
                    code: .corrupt, message: "the compressed data is corrupt (\(detail))", path: path,
                    offset: source.offset)
            }
        }
        bytesRead += Int64(produced)
        return produced
    }

    /// Calls `body` with each decompressed chunk (up to 64 KiB) until the checked end.
    public func forEachChunk<E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Void) throws(ReadFailure<E>) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do { count = try read(into: buffer) } catch { throw .gzip(error) }
            if count == 0 { return }
            do { try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) } catch { throw .body(error) }
        }
    }

    /// Why ``forEachChunk(_:)`` stopped: the stream was bad, or `body` threw.
    public enum ReadFailure<BodyError: Error>: Error {
        /// The gzip stream is damaged or unreadable.
        case gzip(GzipError)
        /// The caller's `body` threw.
        case body(BodyError)
    }

    /// Reads and checks the 8-byte trailer, then either finishes or starts the next member.
    private func endMember() throws(GzipError) {
        let trailerOffset = source.offset
        var trailer: [UInt8] = []
        for _ in 0..<8 {
            guard try fill() else {
                throw GzipError(
                    code: .truncated, message: "the gzip file ends inside its trailer", path: path,
                    offset: source.offset)
            }
            trailer.append(source.available[0])
            source.consume(1)
        }
        let storedCRC = trailer[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let storedSize = trailer[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard storedCRC == crc.value else {
            throw GzipError(
                code: .crcMismatch,
                message: "CRC-32 mismatch: trailer says \(hex(storedCRC)), data is \(hex(crc.value))", path: path,
                offset: trailerOffset)
        }
        guard storedSize == memberSize else {
            throw GzipError(
                code: .sizeMismatch,
                message: "size mismatch: trailer says \(storedSize) bytes (mod 2^32), data is \(memberSize)",
                path: path, offset: trailerOffset + 4)
        }
        guard try fill() else {
            isDone = true
            return
        }
        let next = source.available
        let looksLikeMember = next[0] == 0x1f && (next.count < 2 || next[1] == 0x8b)
        guard allowsMultipleMembers && looksLikeMember else {
            throw GzipError(
                code: .trailingGarbage, message: "unexpected bytes after the end of the gzip stream", path: path,
                offset: source.offset)
        }
        _ = try GzipHeader.parse(source, path: path)
        stream.resetInflate()
        crc = CRC32()
        memberSize = 0
    }

    private func fill() throws(GzipError) -> Bool {
        do { return try source.fill() } catch {
            throw GzipError(
                code: .io, message: "cannot read the gzip file", path: path, offset: source.offset, cause: error)
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
