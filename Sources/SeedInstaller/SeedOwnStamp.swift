import SeedArchive
import SeedDeltas
import SeedSQLite
import SeedSystem

/// What a seed file says about itself, read from the file and nothing else: its versions
/// (`PRAGMA user_version`, `seed_version`), the content digest it records (`content_sha256`)
/// and the publication sequence an installer stamped into it (`publication_sequence`).
///
/// This, not the install record, is what survives `touch`, `cp -a` and a restore from a backup:
/// the rollback guard and the choice of a delta read it. The content digest excludes the
/// `publication_sequence` row (`Documentation/content-digest.md`), so stamping a seed does not
/// change which seed it is.
struct SeedOwnStamp: Equatable {
    var stamp: SeedStamp
    /// The content digest the seed records, when it has one (seeds built before digests do not).
    var contentSHA256: String?
    /// The sequence stamped at install, when the seed came with one.
    var sequence: Int64?

    /// The `seedgen_metadata` key of the stamped sequence.
    static let sequenceKey = ContentDigest.sequenceKey
    /// The stamp's rowid: builds number `seedgen_metadata` from 1, so a delta (which names rows
    /// by rowid) never touches it.
    static let sequenceRowID: Int64 = -1

    /// Reads the stamp of the seed at `path` (opened read-only, `immutable=1`).
    static func read(_ path: String) throws(SeedInstallerError) -> SeedOwnStamp {
        let stamp = try SeedFileCheck.readStamp(path)
        let rows: [[Value]]
        do {
            rows = try SeedFileCheck.open(path).rows(
                "SELECT key, value FROM seedgen_metadata WHERE key IN (?, ?)",
                [.text(ContentDigest.metadataKey), .text(sequenceKey)])
        } catch {
            throw SeedFileCheck.sqliteFailure(error, path: path)
        }
        var own = SeedOwnStamp(stamp: stamp)
        for row in rows {
            guard row.count == 2, let key = row[0].text, let value = row[1].text else { continue }
            if key == ContentDigest.metadataKey { own.contentSHA256 = value }
            if key == sequenceKey { own.sequence = Int64(value).flatMap { $0 > 0 ? $0 : nil } }
        }
        return own
    }

    /// Stamps `sequence` into the seed at `path` (a temporary file not yet in place), or removes
    /// a stamp when `sequence` is nil, then flushes the file. One small write with the journal
    /// off: a crash here leaves a temporary file, which is never renamed into place.
    static func writeSequence(_ sequence: Int64?, to path: String) throws(SeedInstallerError) {
        do {
            let db = try Connection(path: path, mode: .readWrite)
            try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            if let sequence {
                try db.prepare(
                    """
                    INSERT INTO seedgen_metadata (rowid, key, value) VALUES (?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """
                ).run([.integer(sequenceRowID), .text(sequenceKey), .text(String(sequence))])
            } else {
                try db.prepare("DELETE FROM seedgen_metadata WHERE key = ?").run([.text(sequenceKey)])
            }
        } catch {
            throw SeedInstallerError(
                code: .fileSystem,
                message:
                    """
                    SQLite cannot stamp the sequence into the new seed: \(MessageText.value(error.description)); \
                    the installed seed is unchanged
                    """,
                path: path, cause: error)
        }
        do { try FileSystem.syncFile(path) } catch {
            throw error.installerError("cannot flush the new seed")
        }
    }

    /// True when the seed's content is the one it records: its content digest computed again
    /// (every row read once). False when it records none or the file cannot be read.
    static func hasRecordedContent(_ path: String, recorded: String?) -> Bool {
        guard let recorded, let computed = try? ContentDigest.compute(path: path) else { return false }
        return computed == recorded
    }
}
