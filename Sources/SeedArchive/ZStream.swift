import CZlib

/// One zlib stream (deflate or inflate) for raw deflate data: owns the `z_stream` and ends it
/// on `deinit`.
///
/// The `z_stream` lives at a fixed address because zlib keeps a pointer back to it.
public final class ZStream {
    enum Kind { case deflate, inflate }

    let kind: Kind
    /// The stream, for zlib's functions.
    public let pointer: UnsafeMutablePointer<z_stream>

    /// Starts a raw deflate stream (no zlib or gzip wrapper: the gzip framing is written by hand
    /// so that it is deterministic).
    init(deflateLevel level: Int32) throws(ZStream.InitFailure) {
        kind = .deflate
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: z_stream())
        let rc = czlib_deflate_init2(pointer, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY)
        guard rc == Z_OK else {
            pointer.deallocate()
            throw InitFailure(code: rc)
        }
    }

    /// Starts a raw inflate stream.
    public init() throws(ZStream.InitFailure) {
        kind = .inflate
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: z_stream())
        let rc = czlib_inflate_init2(pointer, -15)
        guard rc == Z_OK else {
            pointer.deallocate()
            throw InitFailure(code: rc)
        }
    }

    deinit {
        switch kind {
        case .deflate: deflateEnd(pointer)
        case .inflate: inflateEnd(pointer)
        }
        pointer.deallocate()
    }

    /// Makes an inflate stream ready for the next gzip member.
    func resetInflate() {
        inflateReset(pointer)
    }

    /// zlib refused to start the stream (out of memory), with its result code.
    public struct InitFailure: Error {
        /// zlib's return code (`Z_DATA_ERROR`, ...).
        public let code: Int32
    }
}

/// Running CRC-32 (the gzip trailer's and zip entries' checksum), from zlib.
public struct CRC32 {
    /// The CRC-32 of the bytes so far.
    public private(set) var value: UInt32 = 0

    /// The CRC-32 of no bytes.
    public init() {}

    /// Adds `bytes`.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        value = UInt32(crc32(uLong(value), base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }
}
