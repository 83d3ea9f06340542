import SeedArchive

/// A SHA-256 kept as a value inside a reader.
struct SHA256Accumulator {
    private var sha = SHA256()
    mutating func update(_ bytes: UnsafeRawBufferPointer) { sha.update(bytes) }
    var hex: String { sha.hexDigest() }
}
