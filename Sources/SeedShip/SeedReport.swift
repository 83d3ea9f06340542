import SeedKit
import SeedArchive

/// What `seedgen inspect` reports about a seed. Encoded as JSON with sorted keys; fields that
/// do not apply (the pages of a seed known only from its manifest, say) are left out.
///
/// `tables` (table name -> row count), `schemaVersion` and `seedVersion` are always present
/// when known, and are the fields scripts should rely on.
package struct SeedReport: Codable, Equatable, Sendable {
    /// One data table.
    package struct TableInfo: Codable, Equatable, Sendable {
        package var name: String
        package var rows: Int64
        /// Bytes of the table's pages (its indexes not included); nil when SQLite cannot say.
        package var bytes: Int64?
        package var columns: [ColumnInfo]
    }

    /// One column of a data table.
    package struct ColumnInfo: Codable, Equatable, Sendable {
        package var name: String
        /// The declared type (`INTEGER`, `TEXT`, `REAL`).
        package var type: String
        package var notNull: Bool
        package var primaryKey: Bool
        /// The table a reference column points at.
        package var references: String?
    }

    /// One index of a data table.
    package struct IndexInfo: Codable, Equatable, Sendable {
        package var name: String
        package var table: String
        package var unique: Bool
        package var columns: [String]
        package var bytes: Int64?
    }

    /// One input file the seed was built from, as recorded in `seedgen_inputs`.
    package struct InputInfo: Codable, Equatable, Sendable {
        package var name: String
        package var sha256: String
        package var bytes: Int64
        package var rows: Int64
        /// Records left out by `seedgen build --lenient` (absent in seeds built before it existed).
        package var rejected: Int64?
    }

    /// The gzip file of a packed seed.
    package struct GzipInfo: Codable, Equatable, Sendable {
        package var size: Int64
        package var sha256: String?
        /// The header comment: seedgen writes the seed stamp there.
        package var comment: String?
    }

    /// The file inspected, as given.
    package var path: String
    /// What it is: `sqlite`, `gzip` or `manifest`.
    package var format: SeedFile.Kind
    /// `PRAGMA user_version`, or the manifest's.
    package var schemaVersion: Int?
    package var seedVersion: String?
    package var schemaName: String?
    /// The seedgen version that built the seed.
    package var toolVersion: String?
    /// The SHA-256 of the schema file the seed was built with.
    package var schemaSha256: String?
    /// The content digest the seed (or its manifest) records (`content_sha256`, see
    /// `Documentation/content-digest.md`); `seedgen verify` computes it again.
    package var contentSha256: String?
    /// Size in bytes of the (uncompressed) seed.
    package var size: Int64?
    package var pageSize: Int64?
    package var pageCount: Int64?
    /// Unused pages: 0 in a VACUUMed seed.
    package var freelistCount: Int64?
    /// `wal` or `delete`, from the database header.
    package var journalMode: String?
    package var applicationId: Int64?
    /// Row count by table name.
    package var tables: [String: Int64]
    package var tableDetails: [TableInfo]?
    package var indexes: [IndexInfo]?
    /// The search (FTS5) and spatial (R*Tree) indexes, with their rows and bytes.
    package var queryIndexes: [QueryIndexCost]?
    package var inputs: [InputInfo]?
    /// A region seed's feeds, in id order: name, source, validity, publisher, version and rows per
    /// table (`feeds.row_counts`); absent for a seed of one feed.
    package var feeds: [FeedSummary]?
    package var gzip: GzipInfo?
    package var manifest: SeedManifest?
}
