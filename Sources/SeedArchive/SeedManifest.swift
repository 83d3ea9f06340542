#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The manifest shipped beside a seed (`seed.sqlite.manifest.json` next to
/// `seed.sqlite.gz`): the seed's versions, the size and SHA-256 of the seed and of its gzip
/// file, and the row count of each table.
///
/// The JSON keys are a contract with apps and deploy scripts: `schemaVersion`, `seedVersion`,
/// `sha256`, `size`, `gzipSha256`, `gzipSize`, `tables`, and optionally `toolVersion`,
/// `schemaName`, `sequence` and `contentSha256`. ``encoded()`` is deterministic (sorted keys, pretty-printed, trailing
/// newline),
/// so the same seed always gives the same manifest bytes.
///
/// ```swift
/// let summary = try writer.finish()
/// let manifest = SeedManifest(stamp: stamp, summary: summary, tables: ["stops": 1234])
/// try manifest.write(path: SeedManifest.path(forSeed: "out/seed.sqlite.gz"))
/// ```
public struct SeedManifest: Codable, Equatable, Sendable {
    /// The schema version (`PRAGMA user_version` of the seed).
    public var schemaVersion: Int
    /// The seed version (`seed_version` in `seedgen_metadata`).
    public var seedVersion: String
    /// SHA-256 (lower-case hex) of the uncompressed seed file.
    public var sha256: String
    /// Size in bytes of the uncompressed seed file.
    public var size: Int64
    /// SHA-256 (lower-case hex) of the gzip file.
    public var gzipSha256: String
    /// Size in bytes of the gzip file.
    public var gzipSize: Int64
    /// Row count of each table, by table name.
    public var tables: [String: Int64]
    /// The seedgen version that built the seed, if recorded.
    public var toolVersion: String?
    /// The schema's name, if recorded.
    public var schemaName: String?
    /// The publication sequence (`seedgen pack --sequence`, `seedgen publish`), if any: an
    /// installer does not replace an installed seed of a higher sequence with this one.
    public var sequence: Int64?
    /// The seed's content digest (`content_sha256` in its `seedgen_metadata`, see
    /// `Documentation/content-digest.md`), if recorded: which seed this is, whatever SQLite
    /// version wrote a file with its content. JSON key `contentSha256`.
    public var contentSHA256: String?

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, seedVersion, sha256, size, gzipSha256, gzipSize, tables, toolVersion, schemaName, sequence
        case contentSHA256 = "contentSha256"
    }

    /// Creates a manifest from its fields.
    public init(
        schemaVersion: Int, seedVersion: String, sha256: String, size: Int64, gzipSha256: String,
        gzipSize: Int64, tables: [String: Int64], toolVersion: String? = nil, schemaName: String? = nil,
        sequence: Int64? = nil, contentSHA256: String? = nil
    ) {
        self.schemaVersion = schemaVersion
        self.seedVersion = seedVersion
        self.sha256 = sha256
        self.size = size
        self.gzipSha256 = gzipSha256
        self.gzipSize = gzipSize
        self.tables = tables
        self.toolVersion = toolVersion
        self.schemaName = schemaName
        self.sequence = sequence
        self.contentSHA256 = contentSHA256
    }

    /// Creates a manifest from the stamp written into the gzip header and what the
    /// ``GzipWriter`` reported.
    public init(
        stamp: SeedStamp, summary: GzipSummary, tables: [String: Int64], toolVersion: String? = nil,
        schemaName: String? = nil
    ) {
        self.init(
            schemaVersion: stamp.schemaVersion, seedVersion: stamp.seedVersion, sha256: summary.sha256,
            size: summary.size, gzipSha256: summary.gzipSha256, gzipSize: summary.gzipSize, tables: tables,
            toolVersion: toolVersion, schemaName: schemaName)
    }

    /// The versions, as written in the gzip header.
    public var stamp: SeedStamp { SeedStamp(schemaVersion: schemaVersion, seedVersion: seedVersion) }

    /// The conventional manifest path for a seed: `x.sqlite.gz` and `x.sqlite` both give
    /// `x.sqlite.manifest.json` (the manifest describes the uncompressed seed).
    public static func path(forSeed seedPath: String) -> String {
        // By bytes: `.gz` is ASCII, so dropping 3 bytes keeps whole characters.
        let isGzip = seedPath.utf8.count >= 3 && seedPath.utf8.suffix(3).elementsEqual(".gz".utf8)
        let base = isGzip ? String(decoding: seedPath.utf8.dropLast(3), as: UTF8.self) : seedPath
        return base + ".manifest.json"
    }

    /// The manifest as JSON: pretty-printed, keys sorted, ending with a newline.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, integers and a dictionary of integers cannot fail.
        let data = try! encoder.encode(self)
        return Array(data) + [0x0A]
    }

    /// Parses manifest JSON with ``BoundedJSONReader`` (no Foundation: the installer's startup
    /// check reads it). Unknown keys are skipped; `toolVersion` and `schemaName` may be absent
    /// or null; every other key is required, at most once. At most 4 MiB.
    /// - Parameters:
    ///   - path: named in the error when the JSON is invalid.
    ///   - readingTables: false checks that `tables` is there and is valid JSON but leaves
    ///     ``tables`` empty: the installer, which decides at every app start and needs no row
    ///     counts, saves building a dictionary (a first one in a process costs ~0.1 ms).
    public static func decode(
        _ bytes: [UInt8], path: String = "<manifest>", readingTables: Bool = true
    ) throws(SeedManifestError) -> SeedManifest {
        var schemaVersion: Int?, seedVersion: String?, sha256: String?, size: Int64?
        var gzipSha256: String?, gzipSize: Int64?, tables: [String: Int64]?
        var toolVersion: String?, schemaName: String?, sequence: Int64?, contentSHA256: String?
        let known = [
            "schemaVersion", "seedVersion", "sha256", "size", "gzipSha256", "gzipSize", "tables", "toolVersion",
            "schemaName", "sequence",
            "contentSha256"
        ]
        var seen = 0 // a bit per known key
        do throws(BoundedJSONReader.Failure) {
            var reader = try BoundedJSONReader(bytes)
            try reader.object { (reader: inout BoundedJSONReader, key: String) throws(BoundedJSONReader.Failure) in
                if let bit = known.firstIndex(of: key) {
                    guard seen & 1 << bit == 0 else {
                        throw BoundedJSONReader.Failure(offset: reader.offset, message: "the key \(key) appears twice")
                    }
                    seen |= 1 << bit
                }
                switch key {
                case "schemaVersion":
                    let value = try reader.integer()
                    guard let int = Int(exactly: value) else {
                        throw BoundedJSONReader.Failure(offset: reader.offset, message: "schemaVersion out of range")
                    }
                    schemaVersion = int
                case "seedVersion": seedVersion = try reader.string()
                case "sha256": sha256 = try reader.string()
                case "size": size = try reader.integer()
                case "gzipSha256": gzipSha256 = try reader.string()
                case "gzipSize": gzipSize = try reader.integer()
                case "toolVersion": toolVersion = try reader.null() ? nil : try reader.string()
                case "schemaName": schemaName = try reader.null() ? nil : try reader.string()
                case "sequence": sequence = try reader.null() ? nil : try reader.integer()
                case "contentSha256": contentSHA256 = try reader.null() ? nil : try reader.string()
                case "tables" where !readingTables:
                    try reader.skipValue()
                    tables = [:]
                case "tables":
                    var counts: [String: Int64] = [:]
                    try reader.nestedObject {
                        (reader: inout BoundedJSONReader, table: String) throws(BoundedJSONReader.Failure) in
                        guard counts.updateValue(try reader.integer(), forKey: table) == nil else {
                            throw BoundedJSONReader.Failure(
                                offset: reader.offset,
                                message:
                                    "the table \(String(table.prefix(100)).debugDescription) appears twice in tables")
                        }
                    }
                    tables = counts
                default: try reader.skipValue()
                }
            }
            try reader.end()
        } catch {
            throw SeedManifestError(
                code: .invalidManifest, path: path,
                message: "not a valid seed manifest: \(error.message) (at byte \(error.offset))")
        }
        guard let schemaVersion, let seedVersion, let sha256, let size, let gzipSha256, let gzipSize, let tables else {
            let missing = [
                ("schemaVersion", schemaVersion == nil), ("seedVersion", seedVersion == nil), ("sha256", sha256 == nil),
                ("size", size == nil), ("gzipSha256", gzipSha256 == nil), ("gzipSize", gzipSize == nil),
                ("tables", tables == nil)
            ].filter(\.1).map(\.0)
            throw SeedManifestError(
                code: .invalidManifest, path: path,
                message: "not a valid seed manifest: no \(missing.joined(separator: ", "))")
        }
        return SeedManifest(
            schemaVersion: schemaVersion, seedVersion: seedVersion, sha256: sha256, size: size,
            gzipSha256: gzipSha256, gzipSize: gzipSize, tables: tables, toolVersion: toolVersion,
            schemaName: schemaName, sequence: sequence, contentSHA256: contentSHA256)
    }

    /// Reads and parses the manifest at `path`.
    public static func read(path: String) throws(SeedManifestError) -> SeedManifest {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw SeedManifestError(
                code: .fileSystem, path: path, message: "cannot read the manifest: \(error)", cause: error)
        }
        return try decode(Array(data), path: path)
    }

    /// Writes ``encoded()`` to `path`, atomically (a temporary file renamed into place).
    public func write(path: String) throws(SeedManifestError) {
        do { try Data(encoded()).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw SeedManifestError(
                code: .fileSystem, path: path, message: "cannot write the manifest: \(error)", cause: error)
        }
    }
}
