#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A seed channel's `index.json`: what `seedgen publish` serves and `SeedUpdater` reads.
///
/// One entry per schema version (an app picks the entry of the schema it was built for):
///
/// ```json
/// {
///   "format" : 1,
///   "seeds" : [
///     {
///       "deltas" : [
///         { "from" : "5c1e0d3b2a7f9e41", "path" : "deltas/v2/41-42.delta", "sha256" : "…", "size" : 81234 }
///       ],
///       "path" : "seeds/v2/42.sqlite.gz", "schemaVersion" : 2, "seedVersion" : "0b9d22e8c4a1f3d7",
///       "sequence" : 42, "sha256" : "…", "size" : 2345678
///     }
///   ]
/// }
/// ```
///
/// The keys are a contract with every app that reads a channel: `format` (1), `seeds`, and in
/// each entry `schemaVersion`, `seedVersion`, `sequence`, `path` (relative to the channel),
/// `size` and `sha256` of the file at `path` (the packed seed), and `deltas`, each a `from`
/// seed version with the `path`, `size` and `sha256` of a delta from it to this seed; and,
/// when published by this version, `contentSha256` (the content digest) and `seedSize` (the
/// seed decompressed).
/// ``encoded()`` is deterministic (sorted keys, entries by schema version), so publishing the
/// same seeds gives the same bytes, and a signature made once stays valid.
public struct ChannelIndex: Codable, Equatable, Sendable {
    /// A delta from an older seed to an entry's seed.
    public struct Delta: Codable, Equatable, Sendable {
        /// The seed version the delta applies to.
        public var from: String
        /// The delta file, relative to the channel.
        public var path: String
        /// The delta file's size in bytes.
        public var size: Int64
        /// The delta file's SHA-256, 64 lower-case hexadecimal digits.
        public var sha256: String

        public init(from: String, path: String, size: Int64, sha256: String) {
            self.from = from
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    /// The newest seed of one schema version.
    public struct Entry: Codable, Equatable, Sendable {
        /// The schema version of the seed (`PRAGMA user_version`).
        public var schemaVersion: Int
        /// The seed version (`seed_version` in its `seedgen_metadata`).
        public var seedVersion: String
        /// The order of publication: each publish assigns the previous one + 1. An updater
        /// refuses an index whose sequence is lower than the installed seed's (no rollback).
        public var sequence: Int64
        /// The packed seed (`.sqlite.gz`), relative to the channel.
        public var path: String
        /// The packed seed's size in bytes.
        public var size: Int64
        /// The packed seed's SHA-256.
        public var sha256: String
        /// Deltas to this seed from recent older ones; empty when none is smaller than the seed.
        public var deltas: [Delta]
        /// The seed's content digest (`Documentation/content-digest.md`): which seed this is,
        /// whichever SQLite wrote a file of it. JSON key `contentSha256`; absent in indexes
        /// published before content digests, whose deltas an updater then does not use.
        public var contentSHA256: String?
        /// The seed's size once decompressed, in bytes: what an updater checks the free space
        /// for before it downloads. Absent in indexes published before it was written.
        public var seedSize: Int64?

        private enum CodingKeys: String, CodingKey {
            case schemaVersion, seedVersion, sequence, path, size, sha256, deltas, seedSize
            case contentSHA256 = "contentSha256"
        }

        public init(
            schemaVersion: Int, seedVersion: String, sequence: Int64, path: String, size: Int64, sha256: String,
            deltas: [Delta],
            contentSHA256: String? = nil, seedSize: Int64? = nil
        ) {
            self.seedSize = seedSize
            self.schemaVersion = schemaVersion
            self.seedVersion = seedVersion
            self.sequence = sequence
            self.path = path
            self.size = size
            self.sha256 = sha256
            self.deltas = deltas
            self.contentSHA256 = contentSHA256
        }

        /// The delta from `seedVersion`, when the channel has one.
        public func delta(from seedVersion: String) -> Delta? { deltas.first { $0.from == seedVersion } }
    }

    /// The format version this code reads and writes.
    public static let currentFormat = 1
    /// The index's file name in the channel.
    public static let fileName = "index.json"
    /// Its signature's file name (`seedgen publish --sign-key`).
    public static let signatureFileName = "index.json.sig"
    /// The largest index read (a real one has a few hundred bytes per schema version).
    public static let maximumBytes = 1 << 20

    /// Always ``currentFormat`` when written by this code.
    public var format: Int
    /// One entry per schema version, in ascending schema version.
    public var seeds: [Entry]

    public init(seeds: [Entry]) {
        format = Self.currentFormat
        self.seeds = seeds.sorted { $0.schemaVersion < $1.schemaVersion }
    }

    /// The entry for `schemaVersion`, if the channel serves that schema.
    public func entry(schemaVersion: Int) -> Entry? { seeds.first { $0.schemaVersion == schemaVersion } }

    /// The highest sequence of any entry (0 for an empty index).
    public var lastSequence: Int64 { seeds.map(\.sequence).max() ?? 0 }

    /// The index with `entry` replacing the entry of its schema version (or added).
    public func replacing(_ entry: Entry) -> ChannelIndex {
        ChannelIndex(seeds: seeds.filter { $0.schemaVersion != entry.schemaVersion } + [entry])
    }

    /// The index as JSON: pretty-printed, keys sorted, ending with a newline.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings and integers only: encoding cannot fail.
        return Array(try! encoder.encode(self)) + [0x0A]
    }

    /// Parses and checks an index: at most ``maximumBytes``, format 1, one entry per schema
    /// version, sizes not negative, SHA-256s of 64 lower-case hex digits, sequences positive,
    /// and each path relative to the channel (letters, digits, `.`, `_`, `-` and `/`, no `..`
    /// segment), so an index cannot send a client to another host or outside the channel.
    /// - Parameter source: names the index in errors (its URL or path).
    public static func decode(_ bytes: [UInt8], source: String) throws(ChannelError) -> ChannelIndex {
        guard bytes.count <= maximumBytes else {
            throw ChannelError(
                code: .invalidIndex, source: source,
                message: "\(bytes.count) bytes, more than the \(maximumBytes) an index may have")
        }
        let index: ChannelIndex
        do { index = try JSONDecoder().decode(ChannelIndex.self, from: Data(bytes)) } catch {
            throw ChannelError(
                code: .invalidIndex, source: source, message: "not a valid channel index: \(Self.describe(error))",
                cause: error)
        }
        guard index.format == currentFormat else {
            throw ChannelError(
                code: .unsupportedFormat, source: source,
                message: "the index is in format \(index.format); this code reads format \(currentFormat) (update it)")
        }
        var schemas = Set<Int>()
        for entry in index.seeds {
            let name = "the seed of schema version \(entry.schemaVersion)"
            guard schemas.insert(entry.schemaVersion).inserted else {
                throw ChannelError(
                    code: .invalidIndex, source: source,
                    message: "schema version \(entry.schemaVersion) has two entries")
            }
            guard entry.sequence > 0 else {
                throw ChannelError(
                    code: .invalidIndex, source: source, message: "\(name): sequence \(entry.sequence) is not positive")
            }
            guard SeedStamp(schemaVersion: entry.schemaVersion, seedVersion: entry.seedVersion).isValid else {
                throw ChannelError(
                    code: .invalidIndex, source: source,
                    message:
                        """
                        \(name): seedVersion \(String(entry.seedVersion.prefix(80)).debugDescription) is not \
                        printable ASCII without spaces
                        """
                )
            }
            try check(path: entry.path, size: entry.size, sha256: entry.sha256, in: name, source: source)
            if let seedSize = entry.seedSize, seedSize < 0 || seedSize > 1 << 50 {
                throw ChannelError(
                    code: .invalidIndex, source: source, message: "\(name): seedSize \(seedSize) is out of range")
            }
            if let content = entry.contentSHA256, !isDigest(content) {
                throw ChannelError(
                    code: .invalidIndex, source: source,
                    message: "\(name): contentSha256 must be 64 lower-case hexadecimal digits")
            }
            for delta in entry.deltas {
                try check(
                    path: delta.path, size: delta.size, sha256: delta.sha256,
                    in: "\(name): the delta from \(String(delta.from.prefix(80)).debugDescription)", source: source)
            }
        }
        return index
    }

    /// True when `path` is a plain relative path inside the channel.
    public static func isSafeRelativePath(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.isEmpty && path.utf8.count <= 1024
            && path.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/")
            }
            && segments.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    private static func check(
        path: String, size: Int64, sha256: String, in name: String, source: String
    ) throws(ChannelError) {
        guard isSafeRelativePath(path) else {
            throw ChannelError(
                code: .invalidIndex, source: source,
                message:
                    """
                    \(name): path \(String(path.prefix(120)).debugDescription) is not a relative path inside the \
                    channel
                    """
            )
        }
        guard size >= 0, size <= 1 << 50 else {
            throw ChannelError(code: .invalidIndex, source: source, message: "\(name): size \(size) is out of range")
        }
        guard isDigest(sha256) else {
            throw ChannelError(
                code: .invalidIndex, source: source, message: "\(name): sha256 must be 64 lower-case hexadecimal digits"
            )
        }
    }

    /// A decoding error as one line: which key, at which path, what was wrong.
    private static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func at(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "" : " at \(path)"
        }
        switch error {
        case .keyNotFound(let key, let context): return "no \(key.stringValue)\(at(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(context.debugDescription)\(at(context))"
        case .dataCorrupted(let context): return "\(context.debugDescription)\(at(context))"
        @unknown default: return "\(error)"
        }
    }

    /// 64 lower-case hexadecimal digits.
    private static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
            }
    }
}
