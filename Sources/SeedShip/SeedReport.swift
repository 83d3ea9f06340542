import SeedKit
import SeedArchive

/// What `seedgen inspect` reports about a seed. Encoded as JSON with sorted keys; fields that
/// do not apply (the pages of a seed known only from its manifest, say) are left out.
///
/// `tables` (table name -> row count), `schemaVersion` and `seedVersion` are always present
/// when known, and are the fields scripts should rely on.
public struct SeedReport: Codable, Equatable, Sendable {
    /// One data table.
    public struct TableInfo: Codable, Equatable, Sendable {
        public var name: String
        public var rows: Int64
        /// Bytes of the table's pages (its indexes not included); nil when SQLite cannot say.
        public var bytes: Int64?
        public var columns: [ColumnInfo]
    }

    /// One column of a data table.
    public struct ColumnInfo: Codable, Equatable, Sendable {
        public var name: String
        /// The declared type (`INTEGER`, `TEXT`, `REAL`).
        public var type: String
        public var notNull: Bool
        public var primaryKey: Bool
        /// The table a reference column points at.
        public var references: String?
    }

    /// One index of a data table.
    public struct IndexInfo: Codable, Equatable, Sendable {
        public var name: String
        public var table: String
        public var unique: Bool
        public var columns: [String]
        public var bytes: Int64?
    }

    /// One input file the seed was built from, as recorded in `seedgen_inputs`.
    public struct InputInfo: Codable, Equatable, Sendable {
        public var name: String
        public var sha256: String
        public var bytes: Int64
        public var rows: Int64
        /// Records left out by `seedgen build --lenient` (absent in seeds built before it existed).
        public var rejected: Int64?
    }

    /// The gzip file of a packed seed.
    public struct GzipInfo: Codable, Equatable, Sendable {
        public var size: Int64
        public var sha256: String?
        /// The header comment: seedgen writes the seed stamp there.
        public var comment: String?
    }

    /// The file inspected, as given.
    public var path: String
    /// What it is: `sqlite`, `gzip` or `manifest`.
    public var format: SeedFile.Kind
    /// `PRAGMA user_version`, or the manifest's.
    public var schemaVersion: Int?
    public var seedVersion: String?
    public var schemaName: String?
    /// The seedgen version that built the seed.
    public var toolVersion: String?
    /// The SHA-256 of the schema file the seed was built with.
    public var schemaSha256: String?
    /// The content digest the seed (or its manifest) records (`content_sha256`, see
    /// `Documentation/content-digest.md`); `seedgen verify` computes it again.
    public var contentSha256: String?
    /// Size in bytes of the (uncompressed) seed.
    public var size: Int64?
    public var pageSize: Int64?
    public var pageCount: Int64?
    /// Unused pages: 0 in a VACUUMed seed.
    public var freelistCount: Int64?
    /// `wal` or `delete`, from the database header.
    public var journalMode: String?
    public var applicationId: Int64?
    /// Row count by table name.
    public var tables: [String: Int64]
    public var tableDetails: [TableInfo]?
    public var indexes: [IndexInfo]?
    /// The search (FTS5) and spatial (R*Tree) indexes, with their rows and bytes.
    public var queryIndexes: [QueryIndexCost]?
    public var inputs: [InputInfo]?
    /// A region seed's feeds, in id order: name, source, validity, publisher, version and rows per
    /// table (`feeds.row_counts`); absent for a seed of one feed.
    public var feeds: [FeedSummary]?
    public var gzip: GzipInfo?
    public var manifest: SeedManifest?
}
