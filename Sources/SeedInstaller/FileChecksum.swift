import SeedArchive
import SeedSystem

/// A file's size and SHA-256, computed by reading it once in 256 KiB chunks (optionally
/// copying it on the way): how a delta proves the seed it starts from and the seed it made.
package struct FileChecksum: Equatable, Sendable {
    /// The file's size in bytes.
    package let size: Int64
    /// Its SHA-256, lower-case hex.
    package let sha256: String

    /// Reads `path` and digests it, stopping once more than `limit` bytes were read (the file
    /// is then not the one expected, and `size` says only that it is larger).
    package static func read(_ path: String, limit: Int64) throws(SeedInstallerError) -> FileChecksum {
        try digest(path, copyingTo: nil, limit: limit)
    }

    /// Copies `source` into the new file `destination`, digesting it on the way, stopping once
    /// more than `limit` bytes were read. The copy is not flushed to disk: it is a scratch file.
    /// - Parameter knownSHA256: the source's SHA-256 when the caller already knows it (an
    ///   install record names this very file): then it is not computed again.
    package static func copy(_ source: String, to destination: String, limit: Int64, knownSHA256: String? = nil) throws(SeedInstallerError) -> FileChecksum {
        let output: FileDescriptor
        do { output = try FileSystem.createExclusively(destination) } catch {
            throw error.installerError("cannot create the temporary copy of the seed")
        }
        return try digest(source, copyingTo: output, limit: limit, knownSHA256: knownSHA256)
    }

    private static func digest(_ path: String, copyingTo output: FileDescriptor?, limit: Int64, knownSHA256: String? = nil) throws(SeedInstallerError) -> FileChecksum {
        let input: FileDescriptor
        do { input = try FileSystem.openForReading(path) } catch { throw error.installerError("cannot read the seed") }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var size: Int64 = 0
        while size <= limit {
            let count: Int
            do { count = try input.read(into: buffer) } catch { throw error.installerError("cannot read the seed") }
            if count == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            if let output {
                do { try output.write(chunk) } catch {
                    throw error.installerError(error.isOutOfSpace
                        ? "no space left for the temporary copy of the seed (\(size) bytes written); the installed seed is unchanged"
                        : "cannot write the temporary copy of the seed")
                }
            }
            if knownSHA256 == nil { hasher.update(chunk) }
            size += Int64(count)
        }
        do { try output?.closeNow() } catch { throw error.installerError("cannot write the temporary copy of the seed") }
        return FileChecksum(size: size, sha256: knownSHA256 ?? hasher.hexDigest())
    }
}
