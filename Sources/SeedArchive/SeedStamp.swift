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
        guard let parsed = Self.parse(comment) else { return nil }
        self = parsed.stamp
    }

    /// The comment for this stamp with a publication sequence (`seedgen pack --sequence`,
    /// `seedgen publish`): `seedgen-seed schema-version=N seed-version=V sequence=S`.
    public func comment(sequence: Int64?) -> String {
        sequence.map { comment + " sequence=\($0)" } ?? comment
    }

    /// The sequence in a stamp comment, when it has one. (Installers before sequences existed
    /// read such a comment as no stamp and rely on the manifest, which also records it.)
    public static func sequence(inComment comment: String) -> Int64? {
        guard let word = parse(comment)?.sequence else { return nil }
        return Int64(word).flatMap { $0 > 0 ? $0 : nil }
    }

    /// The stamp in a comment and the value of its fourth word, `sequence=N`, if it has one.
    /// (Words are found by bytes, not with `split`: this runs at every app start, where the first
    /// use of a generic collection type costs more than the parsing.)
    private static func parse(_ comment: String) -> (stamp: SeedStamp, sequence: Substring?)? {
        let utf8 = comment.utf8
        var words = (
            utf8.startIndex..<utf8.startIndex, utf8.startIndex..<utf8.startIndex, utf8.startIndex..<utf8.startIndex,
            utf8.startIndex..<utf8.startIndex
        )
        var count = 0
        var i = utf8.startIndex
        while i < utf8.endIndex {
            if utf8[i] == 0x20 { i = utf8.index(after: i); continue }
            let start = i
            while i < utf8.endIndex, utf8[i] != 0x20 { i = utf8.index(after: i) }
            switch count {
            case 0: words.0 = start..<i
            case 1: words.1 = start..<i
            case 2: words.2 = start..<i
            case 3: words.3 = start..<i
            default: return nil
            }
            count += 1
        }
        func value(_ word: Range<String.Index>, after key: String) -> Substring? {
            let text = comment[word]
            guard text.utf8.starts(with: key.utf8) else { return nil }
            return text[text.utf8.index(text.startIndex, offsetBy: key.utf8.count)...]
        }
        let sequence = count == 4 ? value(words.3, after: "sequence=") : nil
        guard count == 3 || sequence != nil, comment[words.0].utf8.elementsEqual(prefix.utf8),
            let schemaText = value(words.1, after: "schema-version="), let schema = Int(schemaText),
            let seed = value(words.2, after: "seed-version="), !seed.isEmpty
        else { return nil }
        return (SeedStamp(schemaVersion: schema, seedVersion: String(seed)), sequence)
    }

    public var description: String { "schema version \(schemaVersion), seed version \(seedVersion)" }
}
