import SeedArchive
import SeedSQLite
import SeedSystem

/// Checks a candidate seed file (the shipped one, or the copy about to be installed): its
/// SQLite header (no WAL mode), its versions, and SQLite's `quick_check`.
///
/// Files are opened read-only with `immutable=1`, so checking never creates `-journal`,
/// `-wal` or `-shm` files and never takes SQLite locks.
enum SeedFileCheck {
    /// `PRAGMA application_id` of every seed: "SEED".
    static let applicationID: Int64 = 0x5345_4544

    /// Refuses a file that is not a SQLite database or is in WAL mode (header bytes 18 and 19
    /// are 1 in rollback-journal mode and 2 in WAL mode).
    static func checkHeader(_ path: String) throws(SeedInstallerError) {
        let header: [UInt8]
        do { header = try FileSystem.openForReading(path).readBytes(100, at: 0) } catch {
            throw error.installerError("cannot read the seed")
        }
        try checkHeader(header, path: path)
    }

    /// ``checkHeader(_:)`` on the file's first 100 bytes, already read.
    static func checkHeader(_ header: [UInt8], path: String) throws(SeedInstallerError) {
        let magic = Array("SQLite format 3".utf8) + [0]
        guard header.count == 100, Array(header[0..<16]) == magic else {
            throw SeedInstallerError(
                code: .notSQLite, message: "not a SQLite database (no \"SQLite format 3\" header)", path: path)
        }
        switch (header[18], header[19]) {
        case (1, 1): return
        case (2, 2), (2, 1), (1, 2):
            throw SeedInstallerError(
                code: .walMode,
                message:
                    "the seed is in WAL mode; seeds must use a rollback journal (build it with journal_mode=DELETE)",
                path: path)
        default:
            throw SeedInstallerError(
                code: .notSQLite,
                message: "unknown SQLite file format version (header bytes 18, 19 = \(header[18]), \(header[19]))",
                path: path)
        }
    }

    /// Reads the seed's versions: `PRAGMA user_version` and `seed_version` from
    /// `seedgen_metadata`. Refuses a database that is not a seedgen seed.
    static func readStamp(_ path: String) throws(SeedInstallerError) -> SeedStamp {
        do {
            let db = try open(path)
            let appID = try db.scalar("PRAGMA application_id")?.integer ?? 0
            guard appID == applicationID else {
                throw SeedInstallerError(
                    code: .notASeed,
                    message:
                        """
                        not a seedgen seed (application_id is 0x\(String(appID, radix: 16)), expected 0x53454544 \
                        \"SEED\")
                        """,
                    path: path)
            }
            let schemaVersion = Int(try db.scalar("PRAGMA user_version")?.integer ?? 0)
            let hasMetadata =
                try db.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'seedgen_metadata'")?
                .integer ?? 0
            guard hasMetadata == 1 else {
                throw SeedInstallerError(
                    code: .notASeed, message: "not a seedgen seed (no seedgen_metadata table)", path: path)
            }
            guard let seedVersion = try db.scalar("SELECT value FROM seedgen_metadata WHERE key = 'seed_version'")?.text
            else {
                throw SeedInstallerError(code: .notASeed, message: "seedgen_metadata has no seed_version", path: path)
            }
            if let recorded = try db.scalar("SELECT value FROM seedgen_metadata WHERE key = 'schema_version'")?.text,
                recorded != String(schemaVersion)
            {
                throw SeedInstallerError(
                    code: .versionMismatch,
                    message:
                        """
                        seedgen_metadata says schema_version \(MessageText.value(recorded)) but PRAGMA \
                        user_version is \(schemaVersion)
                        """,
                    path: path)
            }
            return SeedStamp(schemaVersion: schemaVersion, seedVersion: seedVersion)
        } catch let error as SeedInstallerError {
            throw error
        } catch {
            throw sqliteFailure(error, path: path)
        }
    }

    /// Runs `PRAGMA quick_check` (every page and index entry read once; no cross-checks of
    /// index contents) and refuses the file unless it says `ok`.
    static func quickCheck(_ path: String) throws(SeedInstallerError) {
        let rows: [[Value]]
        do { rows = try open(path).rows("PRAGMA quick_check") } catch {
            throw sqliteFailure(error, path: path)
        }
        let messages = rows.compactMap { $0.first?.text }
        guard messages == ["ok"] else {
            throw SeedInstallerError(
                code: .integrityCheckFailed,
                message: "SQLite quick_check failed: \(MessageText.value(messages.prefix(3).joined(separator: "; ")))",
                path: path)
        }
    }

    static func open(_ path: String) throws(SQLiteError) -> Connection {
        // The URI form needs SQLite built with URI support (Debian's and Apple's are); fall back
        // to a plain read-only open, which on a rollback-journal file creates nothing either.
        if let connection = try? Connection(path: Connection.uri(path, immutable: true), mode: .readOnly) {
            return connection
        }
        return try Connection(path: path, mode: .readOnly)
    }

    static func sqliteFailure(_ error: any Error, path: String) -> SeedInstallerError {
        if let error = error as? SQLiteError, error.resultCode.primary == .notADatabase {
            return SeedInstallerError(
                code: .notSQLite, message: "not a SQLite database: \(MessageText.value(error.message))", path: path,
                cause: error)
        }
        let code: SeedInstallerError.Code =
            (error as? SQLiteError)?.resultCode.primary == .corrupt ? .integrityCheckFailed : .notSQLite
        return SeedInstallerError(
            code: code, message: "SQLite cannot read the seed: \(MessageText.value(String(describing: error)))",
            path: path, cause: error)
    }
}
