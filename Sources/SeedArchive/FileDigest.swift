import SeedSystem

/// The size and SHA-256 of a file, read once through a bounded buffer: the one way a file is
/// hashed, by the builder (`seedgen inspect`, `verify`, `publish`, `channel check`) and by the
/// updater (a download before it is installed).
public struct FileDigest: Equatable, Sendable {
    /// The file's size in bytes.
    public var size: Int64
    /// The file's SHA-256, 64 lower-case hexadecimal digits.
    public var sha256: String

    /// A digest already known.
    /// - Parameters:
    ///   - size: the file's size in bytes.
    ///   - sha256: its SHA-256, lower-case hexadecimal.
    public init(size: Int64, sha256: String) {
        self.size = size
        self.sha256 = sha256
    }

    /// Reads the file at `path` from start to end, `bufferSize` bytes at a time, whatever its size.
    /// - Parameters:
    ///   - path: the file.
    ///   - bufferSize: the bytes read at once (1 MiB); memory use does not grow with the file.
    /// - Throws: the failed `open` or `read`.
    public init(path: String, bufferSize: Int = 1 << 20) throws(SystemCallError) {
        let file = try FileSystem.openForReading(path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bufferSize, 1), alignment: 16)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var size: Int64 = 0
        while true {
            let count = try file.read(into: buffer)
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            size += Int64(count)
        }
        self.init(size: size, sha256: hasher.hexDigest())
    }
}
