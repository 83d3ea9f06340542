import SeedArchive

/// SHA-256 fed to `SeedArchive.SHA256` in whole 64-byte blocks only (the last, partial block
/// at the end). `SHA256.update` loses the bytes it has buffered when a later update does not
/// fill the block; whole blocks never leave bytes buffered, so the digest is right whatever
/// sizes the data arrives in. Remove once `SHA256.update` is fixed.
struct BlockAlignedSHA256 {
    private var hash = SHA256()
    private var pending: [UInt8] = []

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes[...]
        if !pending.isEmpty {
            let take = min(64 - pending.count, rest.count)
            pending += rest.prefix(take)
            rest = rest.dropFirst(take)
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { hash.update($0) }
            pending = []
        }
        let whole = rest.count / 64 * 64
        hash.update(UnsafeRawBufferPointer(rebasing: rest.prefix(whole)))
        pending = Array(rest.dropFirst(whole))
    }

    /// The digest of everything added, as 64 lower-case hexadecimal digits.
    func hexDigest() -> String {
        var copy = hash
        pending.withUnsafeBytes { copy.update($0) }
        return copy.hexDigest()
    }
}
