import SeedSystem
import SeedArchive
import SeedSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Applies a seed delta to its `from` seed and writes its `to` seed, byte for byte, into a
/// file the caller names: the installer's temporary file, or `seedgen delta`'s check of the
/// delta it wrote. Memory stays bounded whatever the seed's size (one record, a 256 KiB copy
/// buffer and a 24 MiB SQLite page cache, for the copy and for the compacted file, at a time).
///
/// 1. ``checkBody()``: the body's gzip stream is read to its end and checked (CRC-32, size,
///    limit), without touching a database: a cut-off or damaged delta is refused first.
/// 2. ``apply(base:working:output:)`` copies the base seed into `working`, hashing it on the
///    way: it must be the delta's `from` seed (size and SHA-256). It applies the records to
///    that copy in one transaction (no journal: the copy is thrown away on any failure; its
///    growth is bounded with `max_page_count`), sets the schema cookie the new seed has minus
///    one, and compacts the copy with `VACUUM INTO output`: the builder's own last step, so
///    the same rows give the same bytes with the same SQLite. It then hashes `output`: it must
///    be the `to` seed, else the error says so (another SQLite may lay pages out differently;
///    the full seed is the fallback). `output` is flushed to disk; `working` is removed.
package struct DeltaPatch {
    /// The delta (its header read).
    package let delta: SeedDelta

    package init(delta: SeedDelta) {
        self.delta = delta
    }

    /// The page cache while patching and compacting (KiB).
    static let cacheKiB = 24576

    /// Reads the whole body's gzip stream and checks it (CRC-32, size, the body's limit),
    /// touching no database: a cut-off or damaged delta is refused before any work. (Each
    /// record is checked as it is applied.)
    package func checkBody() throws(SeedInstallerError) {
        do throws(DeltaError) {
            let reader = try DeltaReader(path: delta.path)
            guard reader.header == delta.header else {
                throw DeltaError(code: .invalidHeader, message: "the delta's header changed while it was read", path: delta.path)
            }
            try reader.checkStream()
        } catch {
            throw SeedDelta.installerError(error)
        }
    }

    /// Copies `base` into `working`, applies the delta, and compacts the result into `output`
    /// (both new files; `working` is removed, `output` left for the caller).
    /// - Parameter baseSHA256: the base's SHA-256 when the caller knows it for this very file
    ///   (the install record names it), so that the copy need not hash it; nil to hash it.
    /// - Returns: the digest of `output`, which is the delta's `to` seed.
    @discardableResult
    package func apply(base: String, baseSHA256: String? = nil, working: String, output: String) throws(SeedInstallerError) -> FileChecksum {
        let header = delta.header
        var trace = PatchTrace()
        let copied = try FileChecksum.copy(base, to: working, limit: header.from.size, knownSHA256: baseSHA256)
        trace.mark("copy and hash the base seed")
        guard copied.size == header.from.size, copied.sha256 == header.from.sha256 else {
            throw SeedInstallerError(code: .deltaBaseMismatch, message: "the seed is not the one the delta applies to: it has \(copied.size) bytes with SHA-256 \(copied.sha256), the delta's from seed (seed version \(MessageText.value(header.from.seedVersion))) has \(header.from.size) bytes with SHA-256 \(header.from.sha256); nothing was changed", path: base)
        }
        defer { _ = try? FileSystem.remove(working) }
        do {
            try patch(working, compactingInto: output, trace: &trace)
        } catch {
            throw error.installerError(delta: delta.path, seed: base, working: working)
        }
        let result = try FileChecksum.read(output, limit: header.to.size)
        trace.mark("hash the result")
        guard result.size == header.to.size, result.sha256 == header.to.sha256 else {
            throw SeedInstallerError(code: .deltaResultMismatch, message: "applying the delta gave \(result.size) bytes with SHA-256 \(result.sha256), not the seed it was made for (seed version \(MessageText.value(header.to.seedVersion)): \(header.to.size) bytes with SHA-256 \(header.to.sha256)); it was made with SQLite \(MessageText.value(header.sqliteVersion ?? "?")), this is SQLite \(Connection.libraryVersion); install the full seed", path: delta.path)
        }
        do { try FileSystem.openForReading(output).sync() } catch { throw error.installerError("cannot flush the patched seed to disk") }
        trace.mark("flush the result")
        return result
    }

    private func patch(_ working: String, compactingInto output: String, trace: inout PatchTrace) throws(Failure) {
        let header = delta.header
        let connection: Connection, pages: Int64
        do {
            connection = try Connection(path: working, mode: .readWrite)
            let pageSize = max(512, try connection.scalar("PRAGMA page_size")?.integer ?? 4096)
            // A copy thrown away on failure: no journal, no syncs. Its growth is bounded: the
            // rows added can fill at most the new seed's size, so twice that is a hostile delta.
            pages = (header.from.size + 2 * header.to.size + (1 << 20)) / pageSize
            try connection.execute("""
                PRAGMA journal_mode = OFF;
                PRAGMA synchronous = OFF;
                PRAGMA locking_mode = EXCLUSIVE;
                PRAGMA cache_size = -\(Self.cacheKiB);
                PRAGMA max_page_count = \(pages);
                """)
        } catch {
            throw .sqlite(error, table: nil)
        }
        do {
            try applyRecords(to: connection, compactingInto: output, trace: &trace)
        } catch .sqlite(let error, let table) where error.isDiskFull {
            // SQLITE_FULL also means the copy reached max_page_count: the delta, not the disk.
            if let used = try? connection.scalar("PRAGMA page_count")?.integer, used >= pages {
                throw .mismatch("the delta makes the seed grow far past the \(header.to.size) bytes of the seed it promises")
            }
            throw .sqlite(error, table: table)
        }
    }

    private func applyRecords(to connection: Connection, compactingInto output: String, trace: inout PatchTrace) throws(Failure) {
        let header = delta.header
        let reader: DeltaReader
        do { reader = try DeltaReader(path: delta.path) } catch { throw .format(error) }
        do { try connection.execute("BEGIN") } catch { throw .sqlite(error, table: nil) }
        var editor: DeltaTableEditor?
        while true {
            let record: DeltaRecord
            do { record = try reader.next() } catch { throw .format(error) }
            switch record {
            case .table(let table):
                try editor?.finish()
                editor = try DeltaTableEditor(table, connection: connection)
            case .delete, .insert, .update:
                try editor?.apply(record)
            case .end:
                try editor?.finish()
                editor = nil
                do {
                    try connection.execute("COMMIT")
                    trace.mark("apply the changes")
                    // VACUUM INTO writes the source's cookie plus one.
                    try connection.execute("PRAGMA schema_version = \(Int32(bitPattern: header.toSchemaCookie &- 1))")
                    try connection.execute("VACUUM INTO '\(output.replacingQuotes())'")
                    trace.mark("VACUUM INTO")
                } catch {
                    throw .sqlite(error, table: nil)
                }
                return
            }
        }
    }

    /// Why patching the copy failed, before it is told as a ``SeedInstallerError``.
    package enum Failure: Error, CustomStringConvertible {
        /// The delta's body cannot be read.
        case format(DeltaError)
        /// SQLite refused a step (on `table`, when applying its records).
        case sqlite(SQLiteError, table: String?)
        /// The delta does not fit the seed: a table or row it names is not there.
        case mismatch(String)

        package var description: String {
            switch self {
            case .format(let error): return error.description
            case .sqlite(let error, let table): return (table.map { "table '\($0)': " } ?? "") + error.description
            case .mismatch(let message): return message
            }
        }

        func installerError(delta: String, seed: String, working: String) -> SeedInstallerError {
            switch self {
            case .format(let error):
                return SeedDelta.installerError(error)
            case .mismatch(let message):
                return SeedInstallerError(code: .invalidDelta, message: message + "; nothing was changed", path: delta)
            case .sqlite(let error, let table):
                let place = table.map { " (table '\($0)')" } ?? ""
                if error.isDiskFull || (error.primaryCode == 10 /* SQLITE_IOERR */ && [ENOSPC, EFBIG, EDQUOT].contains(error.systemErrno)) {
                    return SeedInstallerError(code: .diskFull, message: "no space left to patch the seed\(place): \(MessageText.value(error.message)); the installed seed is unchanged", path: FileSystem.parentDirectory(of: working))
                }
                if table != nil {
                    return SeedInstallerError(code: .invalidDelta, message: "SQLite refused the delta's change\(place): \(MessageText.value(error.description)); nothing was changed", path: delta)
                }
                return SeedInstallerError(code: .fileSystem, message: "SQLite cannot patch the copy of the seed: \(MessageText.value(error.description)); the installed seed is unchanged", path: seed)
            }
        }
    }
}

extension String {
    /// The string with each `'` doubled, for an SQL string literal.
    fileprivate func replacingQuotes() -> String {
        var text = ""
        for character in self {
            if character == "'" { text += "'" }
            text.append(character)
        }
        return text
    }
}
