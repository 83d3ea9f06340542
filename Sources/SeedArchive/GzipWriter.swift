import CZlib
import SeedSystem

/// Writes a gzip file (RFC 1952) as a stream, deterministically: the same input, level and
/// comment give the same bytes on every machine (with the same zlib).
///
/// The header has MTIME 0, no file name, OS byte 255 ("unknown") and, when given, a comment;
/// `seedgen pack` puts ``SeedStamp/comment`` there so installers can read the seed's versions
/// from the header alone.
///
/// ```swift
/// let stamp = SeedStamp(schemaVersion: 3, seedVersion: "2026.11.21-1")
/// let writer = try GzipWriter(path: "out/seed.sqlite.gz", level: 9, comment: stamp.comment)
/// try writer.write(chunk)            // as many times as needed
/// let summary = try writer.finish()  // sizes and SHA-256 of both forms, for the manifest
/// ```
///
/// Call ``finish(sync:)`` once at the end: until then the file is incomplete. When any call
/// throws, the file is incomplete and the caller should remove it. Memory use is bounded
/// (zlib's state plus a 64 KiB buffer) whatever the input size. Not thread-safe.
public final class GzipWriter {
    /// The file being written.
    public let path: String
    private let file: FileDescriptor
    private let stream: ZStream
    private let output: UnsafeMutableRawBufferPointer
    private var crc = CRC32()
    private var hash = SHA256()
    private var gzipHash = SHA256()
    private var size: Int64 = 0
    private var gzipSize: Int64 = 0
    private var state = State.writing

    private enum State { case writing, finished, failed }

    /// Creates (or truncates) `path` and writes the gzip header.
    /// - Parameters:
    ///   - path: the gzip file to write.
    ///   - level: the deflate level, 0 (store) to 9 (smallest, the default).
    ///   - comment: the header comment (FCOMMENT), printable ASCII; nil for none.
    ///   - prefix: bytes written before the gzip stream (a seed delta's header); the summary's
    ///     `gzipSize` and `gzipSha256` are then those of the whole file.
    /// - Throws: `GzipError` `.invalidHeader` for a bad level or comment, `.io` when the file
    ///   cannot be created or written.
    public init(path: String, level: Int = 9, comment: String? = nil, prefix: [UInt8] = []) throws(GzipError) {
        self.path = path
        guard (0...9).contains(level) else {
            throw GzipError(code: .invalidHeader, message: "deflate level \(level) is not in 0...9", path: path)
        }
        if let comment, !comment.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) {
            throw GzipError(
                code: .invalidHeader, message: "the gzip comment must be printable ASCII: \(comment.debugDescription)",
                path: path)
        }
        do { stream = try ZStream(deflateLevel: Int32(level)) } catch {
            throw GzipError(code: .io, message: "zlib cannot start deflate (code \(error.code))", path: path)
        }
        do { file = try FileSystem.create(path) } catch {
            throw GzipError(code: .io, message: "cannot create the gzip file", path: path, cause: error)
        }
        output = .allocate(byteCount: 65536, alignment: 16)

        var header: [UInt8] = [0x1f, 0x8b, 8, comment == nil ? 0 : GzipHeader.Flags.comment, 0, 0, 0, 0]
        header.append(level == 9 ? 2 : level == 1 ? 4 : 0)
        header.append(255)
        if let comment { header += Array(comment.utf8) + [0] }
        try emit(prefix + header)
    }

    deinit {
        output.deallocate()
    }

    /// Compresses and writes `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(GzipError) {
        guard state == .writing else { throw misuse() }
        crc.update(bytes)
        hash.update(bytes)
        size += Int64(bytes.count)
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        stream.pointer.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointer.pointee.avail_in = uInt(bytes.count)
        try deflateAll(flush: Z_NO_FLUSH)
    }

    /// Compresses and writes `bytes`.
    public func write(_ bytes: [UInt8]) throws(GzipError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(GzipError) in try write(buffer) } }.get()
    }

    /// Ends the deflate stream, writes the trailer (CRC-32 and size), optionally flushes the file
    /// to disk, and closes it.
    /// - Parameter sync: when true (the default), `fsync` the file before closing it.
    /// - Returns: the sizes and SHA-256 digests of the data and of the gzip file: what
    ///   ``SeedManifest`` records.
    @discardableResult
    public func finish(sync: Bool = true) throws(GzipError) -> GzipSummary {
        guard state == .writing else { throw misuse() }
        stream.pointer.pointee.next_in = nil
        stream.pointer.pointee.avail_in = 0
        try deflateAll(flush: Z_FINISH)
        var trailer: [UInt8] = []
        for shift in stride(from: 0, to: 32, by: 8) {
            trailer.append(UInt8(truncatingIfNeeded: crc.value >> UInt32(shift)))
        }
        for shift in stride(from: 0, to: 32, by: 8) { trailer.append(UInt8(truncatingIfNeeded: size >> Int64(shift))) }
        try emit(trailer)
        do {
            if sync { try file.sync() }
            try file.closeNow()
        } catch {
            state = .failed
            throw GzipError(code: .io, message: "cannot finish the gzip file", path: path, cause: error)
        }
        state = .finished
        return GzipSummary(
            size: size, sha256: hash.hexDigest(), gzipSize: gzipSize, gzipSha256: gzipHash.hexDigest(), crc32: crc.value
        )
    }

    private func deflateAll(flush: Int32) throws(GzipError) {
        let z = stream.pointer
        while true {
            z.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            z.pointee.avail_out = uInt(output.count)
            let rc = deflate(z, flush)
            guard rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR else {
                state = .failed
                throw GzipError(
                    code: .corrupt, message: "zlib deflate failed (code \(rc))", path: path, offset: gzipSize)
            }
            let produced = output.count - Int(z.pointee.avail_out)
            if produced > 0 { try emit(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
            if flush == Z_FINISH {
                if rc == Z_STREAM_END { return }
            } else if z.pointee.avail_in == 0 && z.pointee.avail_out > 0 {
                return
            }
        }
    }

    private func emit(_ bytes: [UInt8]) throws(GzipError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(GzipError) in try emit(buffer) } }.get()
    }

    private func emit(_ bytes: UnsafeRawBufferPointer) throws(GzipError) {
        do { try file.write(bytes) } catch {
            state = .failed
            throw GzipError(
                code: .io, message: "cannot write the gzip file", path: path, offset: gzipSize, cause: error)
        }
        gzipHash.update(bytes)
        gzipSize += Int64(bytes.count)
    }

    private func misuse() -> GzipError {
        GzipError(
            code: .misuse,
            message: state == .finished ? "the gzip writer is already finished" : "the gzip writer failed earlier",
            path: path)
    }
}

/// What a ``GzipWriter`` wrote: the sizes and SHA-256 digests (lower-case hex) of the
/// uncompressed data and of the gzip file.
public struct GzipSummary: Equatable, Sendable {
    /// Uncompressed size in bytes.
    public var size: Int64
    /// SHA-256 of the uncompressed data.
    public var sha256: String
    /// Size of the gzip file in bytes.
    public var gzipSize: Int64
    /// SHA-256 of the gzip file.
    public var gzipSha256: String
    /// CRC-32 of the uncompressed data (as in the gzip trailer).
    public var crc32: UInt32
}
