/// The versions of a seed, written into the gzip header's comment of `seed.sqlite.gz` so that
/// an installer can tell which seed a file holds without decompressing it.
///
/// The comment reads `seedgen-seed schema-version=<N> seed-version=<V>`, for example
/// `seedgen-seed schema-version=3 seed-version=2026.11.21-1`.
///
/// ```swift
/// let stamp = SeedStamp(schemaVersion: 3, seedVersion: "2026.11.21-1")
/// let writer = try GzipWriter(path: "seed.sqlite.gz", comment: stamp.comment)
/// // ... later, cheaply:
/// let shipped = try GzipHeader.read(path: "seed.sqlite.gz").stamp
/// ```
public struct SeedStamp: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The schema version (`PRAGMA user_version` of the seed).
    public var schemaVersion: Int
    /// The seed version (`seed_version` in the seed's `seedgen_metadata` table).
    public var seedVersion: String

    /// - Parameters:
    ///   - schemaVersion: the schema version the seed was built for.
    ///   - seedVersion: the seed's own version; printable ASCII without spaces.
    public init(schemaVersion: Int, seedVersion: String) {
        self.schemaVersion = schemaVersion
        self.seedVersion = seedVersion
    }

    static let prefix = "seedgen-seed"

    /// The gzip comment that records this stamp.
    public var comment: String {
        "\(Self.prefix) schema-version=\(schemaVersion) seed-version=\(seedVersion)"
    }

    /// True when the seed version can be written in a comment and read back unchanged:
    /// not empty, printable ASCII, no spaces.
    public var isValid: Bool {
        !seedVersion.isEmpty && seedVersion.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f }
    }

    /// Parses a comment written by ``comment``; nil when `comment` is not a seed stamp.
    public init?(comment: String) {
        let words = comment.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 3, words[0] == Self.prefix,
              words[1].hasPrefix("schema-version="), words[2].hasPrefix("seed-version="),
              let schema = Int(words[1].dropFirst("schema-version=".count))
        else { return nil }
        let seed = String(words[2].dropFirst("seed-version=".count))
        guard !seed.isEmpty else { return nil }
        self.init(schemaVersion: schema, seedVersion: seed)
    }

    public var description: String { "schema version \(schemaVersion), seed version \(seedVersion)" }
}
