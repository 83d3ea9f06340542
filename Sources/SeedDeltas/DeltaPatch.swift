import SeedArchive
import SeedSQLite
import SeedSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Applies a seed delta to its `from` seed with this device's SQLite, and proves the result by
/// its content digest: the installer's way to patch a seed, and `seedgen delta`'s check of the
/// delta it wrote. Memory stays bounded whatever the seed's size (one record, a copy buffer and
/// a 24 MiB page cache at a time).
///
/// 1. ``checkBody()`` reads and decodes the whole body, touching no database: a cut-off, damaged
///    or hostile delta is refused first, and the tables it changes are known.
/// 2. ``apply(base:baseIsProven:changedTables:output:)`` copies the base seed into `output` and,
///    unless the caller has proven it already, checks that its content digest is the delta's
///    `from`. In one transaction it clears what the seed derives from the changed tables (its
///    `seedgen_derive` recipes: derived tables and rows, search and spatial indexes), applies
///    the records, and derives those again with this SQLite (the journey planner's tables, when
///    their recipes are the known ones, in Swift: ``PlannerRows``, the same rows). The result
///    must have the delta's `to` content digest; it is then flushed to disk. Ordinary indexes
///    follow the rows as SQLite maintains them.
///
/// The patched file is not compacted: a `VACUUM` would rewrite every page for a few free ones
/// (see `Documentation/updating.md`, "What it costs"); SQLite reuses free pages on the next patch.
package struct DeltaPatch {
    /// The delta file.
    package let path: String
    package let header: DeltaHeader

    package init(path: String, header: DeltaHeader) {
        self.path = path
        self.header = header
    }

    /// Reads the delta's header at `path`.
    package init(path: String) throws(DeltaError) {
        self.init(path: path, header: try DeltaHeader.read(path: path).header)
    }

    /// The page cache while patching (KiB).
    static let cacheKiB = 24576

    /// Reads and decodes the whole body (its gzip stream to the CRC-32, every record and
    /// length), touching no database.
    /// - Returns: the tables the delta changes.
    package func checkBody() throws(DeltaError) -> Set<String> {
        let reader = try DeltaReader(path: path)
        guard reader.header == header else {
            throw DeltaError(code: .invalidHeader, message: "the delta's header changed while it was read", path: path)
        }
        var tables = Set<String>()
        while true {
            switch try reader.next() {
            case .table(let table): tables.insert(table.name)
            case .end: return tables
            default: continue
            }
        }
    }

    /// Copies `base` into the new file `output` and patches it there (see the type's comment).
    /// - Parameters:
    ///   - baseIsProven: true when the caller knows `base` has the `from` digest (an install
    ///     record names this very file with it); else the copy's digest is computed and checked.
    ///   - changedTables: what ``checkBody()`` returned.
    ///   - flush: false when `output` is a check thrown away after (`seedgen delta`'s): it is
    ///     then not flushed to disk.
    /// On failure `output` may be left: the caller removes it.
    package func apply(
        base: String, baseIsProven: Bool, changedTables: Set<String>, output: String, flush: Bool = true
    ) throws(Failure) {
        var trace = PatchTrace()
        do { try FileSystem.copy(base, to: output, limit: header.from.size + 2 * header.to.size + (1 << 20)) } catch {
            throw .io(error, "cannot copy the seed")
        }
        trace.mark("copy the base seed")
        let (connection, pageLimit) = try open(output)
        var base: ContentDigest.Tree?
        if !baseIsProven {
            let digest: String
            do {
                base = try ContentDigest.tree(connection)
                digest = base?.root ?? ""
            } catch {
                throw .baseMismatch("its content cannot be read (\(error.message))")
            }
            guard digest == header.from.contentSHA256 else {
                throw .baseMismatch(
                    """
                    its content digest is \(digest), the delta applies to seed version \(header.from.seedVersion) \
                    with content digest \(header.from.contentSHA256)
                    """
                )
            }
            trace.mark("prove the base seed's content")
        }
        let touched: TouchedRows
        do {
            touched = try patch(connection, changedTables: changedTables, trace: &trace)
        } catch .sqlite(let error, let table) where error.isDiskFull {
            // SQLITE_FULL also means the copy reached max_page_count: the delta, not the disk.
            if let used = try? connection.scalar("PRAGMA page_count")?.integer, used >= pageLimit {
                throw .mismatch(
                    "the delta makes the seed grow far past the \(header.to.size) bytes of the seed it promises")
            }
            throw .sqlite(error, table: table)
        }
        let touchedTree = try rehash(connection, touched: touched, base: base)
        var result = touchedTree.root
        trace.mark("prove the result's content (the chunks it touched)")
        if result != header.to.contentSHA256 {
            // Every chunk hashed again: a change the row log did not see must not fail a good patch.
            let tree = try rehash(connection, touched: nil, base: nil)
            result = tree.root
            let differ = zip(touchedTree.tables, tree.tables).filter { $0 != $1 }.map {
                "\($0.0.name): \(touched.rowids[$0.0.name]?.count ?? 0) rowids touched"
            }
            trace.mark("prove the result's content again (every chunk; \(differ) differed)")
        }
        guard result == header.to.contentSHA256 else {
            throw .resultMismatch(
                """
                applying the delta gave content digest \(result), not the one of the seed it was made for (seed \
                version \(header.to.seedVersion): \(header.to.contentSHA256))
                """
            )
        }
        guard flush else { return }
        do { try FileSystem.syncFile(output) } catch { throw .io(error, "cannot flush the patched seed to disk") }
        trace.mark("flush the result")
    }

    private func open(_ path: String) throws(Failure) -> (Connection, Int64) {
        do {
            let connection = try Connection(path: path, mode: .readWrite)
            let pageSize = max(512, try connection.scalar("PRAGMA page_size")?.integer ?? 4096)
            // A copy thrown away on failure: no journal, no syncs. Its growth is bounded: the rows
            // added can fill at most the new seed's size, so more than twice that is a hostile delta.
            let pages = (header.from.size + 2 * header.to.size + (1 << 20)) / pageSize
            try connection.execute(
                """
                PRAGMA journal_mode = OFF;
                PRAGMA synchronous = OFF;
                PRAGMA locking_mode = EXCLUSIVE;
                PRAGMA cache_size = -\(Self.cacheKiB);
                PRAGMA max_page_count = \(pages);
                PRAGMA foreign_keys = OFF;
                PRAGMA recursive_triggers = OFF;
                """)
            return (connection, pages)
        } catch {
            throw .sqlite(error, table: nil)
        }
    }

    /// Clears what the changed tables feed, applies the records, derives again: one transaction.
    /// - Returns: the tables whose rows may have changed (those of the delta, and what they feed)
    ///   and the rowids the delta's records touched.
    private func patch(
        _ connection: Connection, changedTables: Set<String>, trace: inout PatchTrace
    ) throws(Failure) -> TouchedRows {
        var touched = TouchedRows(tables: changedTables)
        let reader: DeltaReader
        do { reader = try DeltaReader(path: path) } catch { throw .format(error) }
        // The planner's tables in Swift when their recipes are the known ones (the same rows, a
        // fraction of the time); SEEDGEN_DERIVE_BY_SQL=1 runs every recipe's SQL, to compare.
        let planner = CurrentProcess.environment("SEEDGEN_DERIVE_BY_SQL") == "1" ? nil : PlannerRows()
        var kept: [DeriveRecipe] = []
        do {
            try connection.execute("BEGIN")
            let affected = DeriveRecipe.affected(try DeriveRecipe.read(connection), byChangesTo: changedTables)
            if planner != nil { kept = PlannerRows.patchable(affected, changedTables: changedTables) }
            for recipe in affected.reversed() where !kept.contains(recipe) {
                touched.derived.insert(recipe.target)
                try recipe.clear(connection)
            }
        } catch {
            throw .sqlite(error, table: nil)
        }
        trace.mark("clear what the changes feed")
        var editor: DeltaTableEditor?
        var section: DeltaTable?
        let log = RowChangeLog(connection)
        defer { log.stop() }
        loop: while true {
            let record: DeltaRecord
            do { record = try reader.next() } catch { throw .format(error) }
            switch record {
            case .table(let table):
                try editor?.finish()
                guard changedTables.contains(table.name) else {
                    throw .mismatch("the delta's body changed while it was read")
                }
                editor = try DeltaTableEditor(table, connection: connection)
                section = table
            case .delete, .insert, .update:
                try editor?.apply(record)
                if let section { touched.note(record, of: section) }
            case .end:
                try editor?.finish()
                break loop
            }
        }
        log.stop()
        touched.rowids = log.rowids
        trace.mark("apply the changes")
        var current = ""
        do {
            if !kept.isEmpty, let planner {
                current = "trip_patterns"
                let trips = touched.untracked.contains("stop_times") ? nil : touched.keys["stop_times"]
                if let trips, try planner.updatePatterns(trips: Set(trips), connection: connection) {
                    trace.mark("derive again: trip_patterns and pattern_stops (the trips touched, in Swift)")
                } else {
                    for recipe in kept.reversed() { try recipe.clear(connection) }
                    kept = []
                }
            }
            for recipe in DeriveRecipe.affected(try DeriveRecipe.read(connection), byChangesTo: changedTables) {
                current = recipe.target
                touched.derived.insert(recipe.target)
                if kept.contains(recipe) { continue }
                let inSwift = try planner?.derive(recipe, connection: connection) == true
                if !inSwift { try recipe.derive(connection) }
                trace.mark("derive again: \(recipe.target) (\(recipe.kind)\(inSwift ? ", in Swift" : ""))")
            }
            current = ""
            try connection.execute("COMMIT")
        } catch {
            throw .sqlite(error, table: current.isEmpty ? nil : current)
        }
        trace.mark("derive again: commit")
        return touched
    }

    /// Why patching failed.
    package enum Failure: Error, CustomStringConvertible {
        /// The delta's body cannot be read.
        case format(DeltaError)
        /// SQLite refused a step (on `table`, when applying its records or deriving it).
        case sqlite(SQLiteError, table: String?)
        /// The delta does not fit the seed: a table or row it names is not there.
        case mismatch(String)
        /// The base seed is not the delta's `from` seed.
        case baseMismatch(String)
        /// The patched seed is not the delta's `to` seed.
        case resultMismatch(String)
        /// Copying or flushing a file failed.
        case io(SystemCallError, String)

        package var description: String {
            switch self {
            case .format(let error): return error.description
            case .sqlite(let error, let table): return (table.map { "table '\($0)': " } ?? "") + error.description
            case .mismatch(let message), .baseMismatch(let message), .resultMismatch(let message): return message
            case .io(let error, let message): return "\(message): \(error.text)"
            }
        }

        /// The error underneath: the delta's, SQLite's or the system call's; nil for a mismatch.
        package var cause: (any Error & Sendable)? {
            switch self {
            case .format(let error): return error
            case .sqlite(let error, _): return error
            case .io(let error, _): return error
            case .mismatch, .baseMismatch, .resultMismatch: return nil
            }
        }

        /// True when the failure is a full disk (or a file-size limit), not a fault of the delta.
        package var isOutOfSpace: Bool {
            switch self {
            case .io(let error, _): return error.isOutOfSpace
            case .sqlite(let error, _):
                return error.isDiskFull
                    || (error.resultCode.primary == .ioError && [ENOSPC, EFBIG, EDQUOT].contains(error.systemErrno))
            default: return false
            }
        }
    }
}
