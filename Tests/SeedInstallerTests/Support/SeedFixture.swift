import Foundation
import SeedArchive
import SeedSQLite

/// Seeds for tests, made directly with SQLite (no builder): a rollback-journal database with
/// the seed application id, `user_version`, `seedgen_metadata`, and an `items` table whose rows
/// say which seed they came from.
struct SeedFixture {
    let schemaVersion: Int
    let seedVersion: String
    /// Rows in `items`.
    var rows = 20
    /// Random bytes per row, to make seeds large enough that installing takes a while.
    var payloadBytes = 0
    var journalMode = "DELETE"

    init(schemaVersion: Int = 3, seedVersion: String, rows: Int = 20, payloadBytes: Int = 0) {
        self.schemaVersion = schemaVersion
        self.seedVersion = seedVersion
        self.rows = rows
        self.payloadBytes = payloadBytes
    }

    var stamp: SeedStamp { SeedStamp(schemaVersion: schemaVersion, seedVersion: seedVersion) }

    /// Writes the seed as a plain SQLite file.
    @discardableResult
    func writeSQLite(to path: String) throws -> String {
        try? FileManager.default.removeItem(atPath: path)
        let db = try Connection(path: path, mode: .create)
        try db.execute("""
            PRAGMA journal_mode = \(journalMode);
            PRAGMA application_id = \(0x53454544);
            PRAGMA user_version = \(schemaVersion);
            CREATE TABLE seedgen_metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO seedgen_metadata VALUES ('schema_name', 'test'), ('schema_version', '\(schemaVersion)'),
                ('seed_version', '\(seedVersion)'), ('tool_version', '0.1.0');
            CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, payload BLOB);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO items SELECT i, '\(seedVersion)-' || i, randomblob(\(payloadBytes)) FROM n;
            """)
        if journalMode == "DELETE" { try db.execute("VACUUM") }
        return path
    }

    /// Writes the seed gzipped, with its stamp in the gzip header; optionally a manifest beside it.
    /// - Returns: the gzip path.
    @discardableResult
    func writeGzip(to path: String, stamped: Bool = true, manifest: Bool = false) throws -> String {
        let plain = path + ".plain-tmp"
        try writeSQLite(to: plain)
        defer { try? FileManager.default.removeItem(atPath: plain) }
        let summary = try Self.gzip(plain, to: path, comment: stamped ? stamp.comment : nil)
        if manifest {
            let m = SeedManifest(stamp: stamp, summary: summary, tables: ["items": Int64(rows)], toolVersion: "0.1.0")
            try m.write(path: SeedManifest.path(forSeed: path))
        }
        return path
    }

    /// Gzips `source` into `destination` with `GzipWriter`.
    @discardableResult
    static func gzip(_ source: String, to destination: String, comment: String?, level: Int = 1) throws -> GzipSummary {
        let writer = try GzipWriter(path: destination, level: level, comment: comment)
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: source))
        while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
            try writer.write(Array(chunk))
        }
        return try writer.finish(sync: false)
    }

    /// The `items` names in the database at `path`, read through a normal SQLite open (so any
    /// `-wal` beside it would be applied).
    static func itemNames(at path: String) throws -> [String] {
        let db = try Connection(path: path, mode: .readOnly)
        return try db.rows("SELECT name FROM items ORDER BY id").compactMap { $0.first?.text }
    }

    /// `seed_version` of the database at `path`.
    static func seedVersion(at path: String) throws -> String? {
        try Connection(path: path, mode: .readOnly).scalar("SELECT value FROM seedgen_metadata WHERE key = 'seed_version'")?.text
    }
}

/// The bytes of a file.
func bytes(of path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// Device, inode and modification time of a file: what "no write at all" compares.
func identity(of path: String) -> String? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return "\(st.st_dev):\(st.st_ino):\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec):\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec)"
}
