/// The last 8 bytes of a gzip file (RFC 1952): the CRC-32 and the size (mod 2^32) of the
/// uncompressed data, read without decompressing anything.
///
/// With the file's own size, it identifies a gzip file's content cheaply: the installer records
/// it at install time and compares it at the next start to decide whether an unstamped
/// `gzip -9 seed.sqlite` is still the one installed.
public struct GzipTrailer: Equatable, Hashable, Sendable, Codable {
    /// CRC-32 of the uncompressed data of the last member.
    public var crc32: UInt32
    /// Size of the uncompressed data of the last member, modulo 2^32 (ISIZE).
    public var uncompressedSize: UInt32
    /// Size of the gzip file in bytes.
    public var fileSize: Int64

    public init(crc32: UInt32, uncompressedSize: UInt32, fileSize: Int64) {
        self.crc32 = crc32
        self.uncompressedSize = uncompressedSize
        self.fileSize = fileSize
    }

    /// Reads the trailer at the end of the gzip file at `path` (reads 8 bytes).
    /// - Throws: `GzipError` `.io` when the file cannot be read, `.truncated` when it is too short
    ///   to hold a header and a trailer.
    public static func read(path: String) throws(GzipError) -> GzipTrailer {
        do {
            let file = try ArchiveFile.openForReading(path)
            let size = try file.size()
            // The smallest gzip file: a 10-byte header, 2 bytes of empty deflate data, the trailer.
            guard size >= 20 else {
                throw GzipError(code: .truncated, message: "the gzip file is \(size) bytes long, too short to hold a trailer", path: path)
            }
            let bytes = try file.read(count: 8, at: size - 8)
            guard bytes.count == 8 else {
                throw GzipError(code: .truncated, message: "the gzip file ends inside its trailer", path: path, offset: size)
            }
            func little(_ slice: ArraySlice<UInt8>) -> UInt32 { slice.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
            return GzipTrailer(crc32: little(bytes[0..<4]), uncompressedSize: little(bytes[4..<8]), fileSize: size)
        } catch let error as GzipError {
            throw error
        } catch let failure as ArchiveFile.Failure {
            throw GzipError(code: .io, message: "cannot read the gzip trailer", path: path, systemError: failure.text, errno: failure.errno)
        } catch {
            throw GzipError(code: .io, message: "cannot read the gzip trailer: \(error)", path: path)
        }
    }
}
