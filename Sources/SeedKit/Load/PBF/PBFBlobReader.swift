import CZlib

/// Reads an OpenStreetMap PBF file blob by blob: each blob's 4-byte length, its `BlobHeader`
/// and its `Blob`, raw or zlib-compressed, into one buffer reused from blob to blob. Memory is
/// bounded by the format's limits whatever the bytes say: a header of at most 64 KiB, a blob
/// of at most 32 MiB stored and 32 MiB decompressed.
final class PBFBlobReader {
    /// The format's limits (`BlobHeader` and `Blob` sizes, OSM wiki "PBF Format").
    static let maximumHeaderBytes = 64 * 1024
    static let maximumBlobBytes = 32 * 1024 * 1024

    /// One blob: its data is `withData`'s until the next call to `next()`.
    struct Blob {
        /// `OSMHeader`, `OSMData`, or another type (skipped by readers).
        var type: String
        /// Where its length prefix starts in the file.
        var offset: Int64
    }

    private let source: ByteSource
    private var chunk: [UInt8]
    private var chunkStart = 0
    private var chunkEnd = 0
    /// Bytes of the file consumed so far (where the next blob starts).
    private(set) var offset: Int64 = 0
    private var header: [UInt8] = []
    private var stored: [UInt8] = []
    /// The current blob's decompressed bytes: the first `dataCount` of `data`.
    private var data: [UInt8] = []
    private var dataCount = 0

    init(source: ByteSource, chunkSize: Int = 256 * 1024) {
        self.source = source
        chunk = Array(repeating: 0, count: max(chunkSize, 16))
    }

    /// True when `source` starts with a blob header of type `OSMHeader`.
    static func isOSMPBF(_ source: ByteSource) -> Bool {
        let reader = PBFBlobReader(source: source, chunkSize: 4096)
        guard let size = try? reader.lengthPrefix(), size > 0, size <= maximumHeaderBytes else { return false }
        guard (try? reader.readExactly(Int(size), into: &reader.header)) == true else { return false }
        return (try? withBytes(of: reader.header, parseHeader).type) == "OSMHeader"
    }

    /// The next blob, or nil at the end of the file.
    func next() throws(PBFError) -> Blob? {
        let start = offset
        do throws(PBFError) {
            guard let size = try lengthPrefix() else { return nil }
            guard size > 0, size <= UInt32(Self.maximumHeaderBytes) else {
                throw PBFError(.oversize, "a blob header of \(size) bytes (at most \(Self.maximumHeaderBytes))")
            }
            guard try readExactly(Int(size), into: &header) else {
                throw PBFError(.truncated, "the file ends inside a blob header")
            }
            let (type, dataSize) = try Self.withBytes(of: header, Self.parseHeader)
            guard dataSize >= 0, dataSize <= Self.maximumBlobBytes else {
                throw PBFError(.oversize, "a blob of \(dataSize) bytes (at most \(Self.maximumBlobBytes))")
            }
            guard try readExactly(Int(dataSize), into: &stored) else {
                throw PBFError(.truncated, "the file ends inside a '\(type)' blob")
            }
            try decode()
            return Blob(type: type, offset: start)
        } catch {
            var error = error
            error.blobOffset = start
            throw error
        }
    }

    /// Calls `body` with the current blob's decompressed bytes.
    func withData<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let count = dataCount
        return try Self.withBytes(of: data) { bytes throws(E) in
            try body(UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
        }
    }

    /// `Array.withUnsafeBytes` keeping the body's error type.
    static func withBytes<R, E: Error>(
        of array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let result: Result<R, E> = array.withUnsafeBytes { bytes in
            do throws(E) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// A `BlobHeader`'s type and data size.
    private static func parseHeader(_ bytes: UnsafeRawBufferPointer) throws(PBFError) -> (type: String, dataSize: Int64)
    {
        var cursor = ProtobufCursor(bytes)
        var type: String?
        var dataSize: Int64?
        while let (number, wire) = try cursor.nextField() {
            switch (number, wire) {
            case (1, .lengthDelimited): type = String(decoding: try cursor.field(), as: UTF8.self)
            case (3, .varint): dataSize = try cursor.int64()
            default: try cursor.skip(wire)
            }
        }
        guard let type, let dataSize else { throw PBFError(.malformed, "a blob header without its type or data size") }
        return (type, dataSize)
    }

    /// Decompresses the stored `Blob` into `data`.
    private func decode() throws(PBFError) {
        let (raw, rawSize, zlib, other) = try Self.withBytes(of: stored) { bytes throws(PBFError) in
            var cursor = ProtobufCursor(bytes)
            var raw: Range<Int>?
            var zlib: Range<Int>?
            var rawSize: Int64?
            var other: String?
            while let (number, wire) = try cursor.nextField() {
                switch (number, wire) {
                case (1, .lengthDelimited): raw = try cursor.fieldRange()
                case (2, .varint): rawSize = try cursor.int64()
                case (3, .lengthDelimited): zlib = try cursor.fieldRange()
                case (4...7, _):
                    other = ["LZMA", "bzip2", "LZ4", "zstd"][Int(number) - 4]
                    try cursor.skip(wire)
                default: try cursor.skip(wire)
                }
            }
            return (raw, rawSize, zlib, other)
        }
        if let other {
            throw PBFError(
                .unsupported, "a blob compressed with \(other), which seedgen does not read (zlib and raw blobs only)")
        }
        if let raw {
            if data.count < raw.count { data = Array(repeating: 0, count: raw.count) }
            data.withUnsafeMutableBytes { out in
                stored.withUnsafeBytes { out.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[raw])) }
            }
            dataCount = raw.count
            return
        }
        guard let zlib else { throw PBFError(.malformed, "a blob with no data") }
        guard let rawSize, rawSize >= 0, rawSize <= Self.maximumBlobBytes else {
            let size = rawSize.map(String.init) ?? "missing"
            throw PBFError(.oversize, "a zlib blob whose raw size is \(size) (at most \(Self.maximumBlobBytes))")
        }
        if data.count < max(rawSize, 1) { data = Array(repeating: 0, count: Int(max(rawSize, 1))) }
        var length = uLongf(rawSize)
        let status = data.withUnsafeMutableBytes { out in
            stored.withUnsafeBytes { input in
                guard let output = out.baseAddress, let base = input.baseAddress else { return Z_DATA_ERROR }
                return uncompress(
                    output.assumingMemoryBound(to: Bytef.self), &length,
                    base.assumingMemoryBound(to: Bytef.self) + zlib.lowerBound, uLong(zlib.count))
            }
        }
        guard status == Z_OK, length == uLongf(rawSize) else {
            throw PBFError(
                .malformed,
                "zlib data that does not inflate to its raw size of \(rawSize) bytes (zlib status \(status))")
        }
        dataCount = Int(rawSize)
    }

    /// The next 4-byte big-endian length, or nil at a clean end of the file.
    private func lengthPrefix() throws(PBFError) -> UInt32? {
        var prefix: [UInt8] = []
        guard try fill(4, into: &prefix, cleanEnd: true) else { return nil }
        return prefix.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Reads exactly `count` bytes into `buffer`; false when the file ends first.
    private func readExactly(_ count: Int, into buffer: inout [UInt8]) throws(PBFError) -> Bool {
        try fill(count, into: &buffer, cleanEnd: false)
    }

    private func fill(_ count: Int, into buffer: inout [UInt8], cleanEnd: Bool) throws(PBFError) -> Bool {
        buffer.removeAll(keepingCapacity: true)
        while buffer.count < count {
            if chunkStart == chunkEnd {
                let result: Result<Int, InputError> = chunk.withUnsafeMutableBytes { bytes in
                    do throws(InputError) { return .success(try source.read(into: bytes)) } catch {
                        return .failure(error)
                    }
                }
                guard case .success(let read) = result else {
                    if case .failure(let error) = result { throw PBFError(.io, "cannot read: \(error.message)") }
                    return false
                }
                if read == 0 {
                    if cleanEnd && buffer.isEmpty { return false }
                    throw PBFError(
                        .truncated, "the file ends \(buffer.count) bytes into \(count) bytes its blob says follow")
                }
                chunkStart = 0
                chunkEnd = read
            }
            let take = min(count - buffer.count, chunkEnd - chunkStart)
            buffer.append(contentsOf: chunk[chunkStart..<chunkStart + take])
            chunkStart += take
            offset += Int64(take)
        }
        return true
    }
}
