import SeedArchive
import SeedSystem

/// Writes the shipped seed, decompressed when it is gzip, into a new temporary file, hashing it
/// on the way, with bounded memory (one 256 KiB buffer), then flushes it to disk.
struct SeedCopy {
    /// The size of the written file.
    let size: Int64
    /// Its SHA-256, lower-case hex.
    let sha256: String

    /// How much the copy may write: decompression stops as soon as the output passes it, so a
    /// gzip bomb or a wrong file costs at most this much time and disk.
    enum Limit {
        /// The manifest's size of the seed: more is a different file.
        case manifest(Int64)
        /// The free space in the destination's folder: more cannot fit anyway.
        case freeSpace(Int64)

        var bytes: Int64 {
            switch self {
            case .manifest(let bytes), .freeSpace(let bytes): return bytes
            }
        }
    }

    /// - Parameter progress: called after each buffer written, with the bytes written so far.
    static func write(
        _ shipped: ShippedSeed, to temporary: TemporaryFile, limit: Limit,
        progress: ((Int64) -> Void)? = nil
    ) throws(SeedInstallerError) -> SeedCopy {
        let output: FileDescriptor
        do { output = try FileSystem.createExclusively(temporary.path) } catch {
            throw error.installerError("cannot create the temporary file for the new seed")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var size: Int64 = 0
        func emit(_ count: Int) throws(SeedInstallerError) {
            if size + Int64(count) > limit.bytes {
                switch limit {
                case .manifest(let bytes):
                    throw SeedInstallerError(
                        code: .checksumMismatch,
                        message:
                            "the seed decompresses to more than the \(bytes) bytes its manifest says; stopped there",
                        path: shipped.path)
                case .freeSpace(let bytes):
                    throw SeedInstallerError(
                        code: .diskFull,
                        message:
                            """
                            the seed decompresses to more than the \(bytes) bytes free beside the destination; \
                            stopped there, the installed seed is unchanged
                            """,
                        path: shipped.path)
                }
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            do { try output.write(chunk) } catch {
                throw error.installerError(
                    error.isOutOfSpace
                        ? "no space left to write the new seed (\(size) bytes written); the installed seed is unchanged"
                        : "cannot write the new seed")
            }
            hasher.update(chunk)
            size += Int64(count)
            progress?(size)
        }

        if shipped.isCompressed {
            let reader: GzipReader
            do { reader = try GzipReader(path: shipped.path) } catch { throw ShippedSeed.installerError(error) }
            while true {
                let count: Int
                do { count = try reader.read(into: buffer) } catch { throw ShippedSeed.installerError(error) }
                if count == 0 { break }
                try emit(count)
            }
        } else {
            let input: FileDescriptor
            do { input = try FileSystem.openForReading(shipped.path) } catch {
                throw error.installerError("cannot read the shipped seed")
            }
            while true {
                let count: Int
                do { count = try input.read(into: buffer) } catch {
                    throw error.installerError("cannot read the shipped seed")
                }
                if count == 0 { break }
                try emit(count)
            }
        }
        do {
            try output.sync()
            try output.closeNow()
        } catch {
            throw error.installerError("cannot flush the new seed to disk")
        }
        return SeedCopy(size: size, sha256: hasher.hexDigest())
    }
}
