import SeedSystem

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

    /// The trailer from the last 8 bytes of a gzip file of `fileSize` bytes, read by the caller.
    /// - Throws: `GzipError` `.truncated` when the file is too short to hold a header and a
    ///   trailer, or `lastBytes` are not 8 bytes.
    public static func parse(lastBytes bytes: [UInt8], fileSize: Int64, path: String) throws(GzipError) -> GzipTrailer {
        // The smallest gzip file: a 10-byte header, 2 bytes of empty deflate data, the trailer.
        guard fileSize >= 20 else {
            throw GzipError(
                code: .truncated, message: "the gzip file is \(fileSize) bytes long, too short to hold a trailer",
                path: path)
        }
        guard bytes.count == 8 else {
            throw GzipError(
                code: .truncated, message: "the gzip file ends inside its trailer", path: path, offset: fileSize)
        }
        func little(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        return GzipTrailer(crc32: little(0), uncompressedSize: little(4), fileSize: fileSize)
    }

    /// Reads the trailer at the end of the gzip file at `path` (reads 8 bytes).
    /// - Throws: `GzipError` `.io` when the file cannot be read, `.truncated` when it is too short
    ///   to hold a header and a trailer.
    public static func read(path: String) throws(GzipError) -> GzipTrailer {
        do {
            let file = try FileSystem.openForReading(path)
            let size = try file.status().size
            // `parse` refuses a file too short to hold a trailer.
            let lastBytes = size >= 8 ? try file.readBytes(8, at: size - 8) : []
            return try parse(lastBytes: lastBytes, fileSize: size, path: path)
        } catch let error as GzipError {
            throw error
        } catch let failure as SystemCallError {
            throw GzipError(code: .io, message: "cannot read the gzip trailer", path: path, cause: failure)
        } catch {
            throw GzipError(code: .io, message: "cannot read the gzip trailer: \(error)", path: path)
        }
    }
}
