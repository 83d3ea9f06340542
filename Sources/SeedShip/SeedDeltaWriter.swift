import SeedKit
import Foundation
import SeedArchive
import SeedDeltas
import SeedSQLite
import SeedSystem

/// Writes a seed delta (`seedgen delta OLD NEW --out FILE`): the source rows that differ
/// between two seeds of the same schema, which turns OLD's content into NEW's on any device's
/// SQLite (see `DeltaHeader` and `DeltaRecord` for the format, `DeltaPatch` for applying it).
///
/// Its size follows the rows that changed in the inputs: rows are compared by key (the rowid,
/// or a `WITHOUT ROWID` table's primary key) in every table a delta carries
/// (`DeltaComparison`: what the seed derives is left out, the installer derives it again), and
/// only rows added, removed or changed are written (a changed row as the values that changed).
/// Seeds built with `seedgen build --previous` keep the ids of unchanged rows, so a day's
/// changes stay a few percent of the rows. Both seeds are named by their content digests.
///
/// Refused, with a message saying to ship the full seed: two seeds of different schemas (name,
/// version or `schema_sha256`), of different SQL schemas (a table only one has, such as an
/// `extra_` table of a new input file), and a value longer than `DeltaWriter.maximumValueBytes`.
///
/// The delta is checked before it is kept (unless `verify` is false): it is applied to a copy
/// of OLD with the installer's own code, which must give NEW's content digest. It is written to
/// a temporary file beside `output` and renamed into place only then. Memory stays bounded: both
/// seeds' rows stream in key order (a large table's on two threads), and a table's inserts wait
/// in scratch files beside `output` while its deletes are written.
package struct SeedDeltaWriter {
    /// The deflate level of the body, 0 to 9 (default 9).
    package var level = 9
    /// Apply the delta to OLD before keeping it, and refuse it unless that gives NEW's content.
    package var verify = true

    package init(level: Int = 9, verify: Bool = true) {
        self.level = level
        self.verify = verify
    }

    /// What was written.
    package struct Summary: Sendable {
        package var output: String
        /// The delta file's size and SHA-256.
        package var size: Int64
        package var sha256: String
        /// The header: seeds, content digests, sizes.
        package var header: DeltaHeader
        /// The tables with changes, in the delta's order.
        package var tables: [TableChanges]
        /// True when the delta was applied to OLD and gave NEW's content.
        package var verified: Bool
        package var seconds: Double
    }

    /// Compares `old` and `new` and writes the delta that turns one into the other to `output`.
    package func write(old: String, new: String, to output: String) throws(ShipError) -> Summary {
        let clock = ContinuousClock.now
        let connection: Connection
        do {
            connection = try Connection(path: ":memory:")
            try connection.attachReadOnly(old, as: "old")
            try connection.attachReadOnly(new, as: "new")
        } catch {
            throw ShipError(code: .sqlite, path: new, message: "cannot open the seeds: \(error)", cause: error)
        }
        let oldIdentity = try SeedIdentity.read(connection, schema: "old", path: old)
        let newIdentity = try SeedIdentity.read(connection, schema: "new", path: new)
        guard oldIdentity.hasSameSchema(as: newIdentity) else {
            throw ShipError(
                code: .noDelta, path: new,
                message:
                    """
                    was built with \(newIdentity.schemaDescription), \(old) with \(oldIdentity.schemaDescription): \
                    a schema change gives no delta; ship the full seed
                    """
            )
        }
        try checkSameStructure(connection, old: old, new: new)

        let header = try Self.header(connection, old: (old, oldIdentity), new: (new, newIdentity))

        // The others go as each is created; these a run without the check does not create.
        ScratchFile.removeAbandoned(beside: output, kinds: ["stored", "check"])
        let temporary = ScratchFile(beside: output, kind: "delta")
        // When checked, the body is written stored first; the check applies that file while
        // another thread deflates it into the delta (level 9 takes a few tenths of a second at 3M
        // stop_times, most of it after the comparison: a table's inserts come last).
        let stored = verify && level > 0 ? ScratchFile(beside: output, kind: "stored") : nil
        let tables: [TableChanges]
        var summary: GzipSummary
        do {
            let writer = try DeltaWriter(
                path: (stored ?? temporary).path, header: header, level: stored == nil ? level : 0)
            let spools = (0..<3).map { _ in ScratchFile(beside: output, kind: "spool") }
            tables = try DeltaComparison.write(
                connection, old: "old", new: "new", to: writer, spools: spools.map(\.path))
            summary = try writer.finish(sync: stored == nil)
        } catch let error as DeltaError {
            throw ShipError(code: .noDelta, path: output, message: "\(error.message); ship the full seed", cause: error)
        } catch {
            throw ShipError.io(path: output, message: "cannot write the delta: \(error)", cause: error)
        }
        if let stored {
            summary = try Self.deflate(
                stored.path, to: temporary.path, level: level, checking: (header, tables, old), body: summary,
                output: output)
        } else if verify {
            try Self.verify(delta: temporary.path, header: header, tables: nil, old: old, output: output)
        }
        do { try temporary.moveIntoPlace(at: output) } catch {
            throw ShipError.io(
                path: output, message: "cannot rename the delta into place: \(error.reason)", cause: error)
        }
        return Summary(
            output: output, size: summary.gzipSize, sha256: summary.gzipSha256, header: header, tables: tables,
            verified: verify, seconds: (ContinuousClock.now - clock).seconds)
    }

    /// The delta's header: both seeds by version, content digest (as recorded, else computed)
    /// and size; refused when a seed version cannot be written in one.
    private static func header(
        _ connection: Connection, old: (String, SeedIdentity), new: (String, SeedIdentity)
    ) throws(ShipError) -> DeltaHeader {
        let header: DeltaHeader
        let (old, oldIdentity) = old, (new, newIdentity) = new
        do {
            func side(_ identity: SeedIdentity, _ schema: String, _ path: String) throws -> DeltaHeader.Seed {
                let digest =
                    try identity.metadata[ContentDigest.metadataKey]
                    ?? ContentDigest.compute(connection, schema: schema)
                return DeltaHeader.Seed(
                    seedVersion: identity.seedVersion, contentSHA256: digest,
                    size: (try FileSystem.status(path))?.size ?? 0)
            }
            header = DeltaHeader(
                schemaName: newIdentity.schemaName, schemaVersion: newIdentity.schemaVersion,
                from: try side(oldIdentity, "old", old), to: try side(newIdentity, "new", new),
                sqliteVersion: try writerVersion(of: new), toolVersion: toolVersion)
        } catch {
            throw ShipError(code: .sqlite, path: new, message: "cannot read the seeds' content: \(error)", cause: error)
        }
        for (seed, path) in [(header.from, old), (header.to, new)]
        where !SeedStamp(schemaVersion: 0, seedVersion: seed.seedVersion).isValid {
            throw ShipError(
                code: .invalidSeedVersion, path: path,
                message:
                    """
                    its seed version \(seed.seedVersion.debugDescription) cannot be written in a delta (printable \
                    ASCII without spaces)
                    """
            )
        }
        return header
    }

    /// Deflates the stored delta `stored` into `target` on another thread while applying it to a
    /// copy of OLD to check it; the deflated file is read back there too and must hold the body
    /// the check applied (`body`: the stored file's summary).
    /// - Returns: the deflated file's summary.
    private static func deflate(
        _ stored: String, to target: String, level: Int, checking: (DeltaHeader, [TableChanges], old: String),
        body: GzipSummary, output: String
    ) throws(ShipError) -> GzipSummary {
        let deflate = BackgroundWork { () throws(DeltaError) -> (GzipSummary, Set<String>) in
            let summary = try DeltaWriter.recompress(stored, to: target, level: level)
            return (summary, try DeltaPatch(path: target).checkBody())
        }
        let changed = Set(checking.1.map(\.name))
        let checked = Result { () throws(ShipError) in
            try verify(delta: stored, header: checking.0, tables: changed, old: checking.old, output: output)
        }
        let deflated = deflate.wait()
        try checked.get()
        let summary: GzipSummary, readBack: Set<String>
        do { (summary, readBack) = try deflated.get() } catch {
            throw ShipError.io(path: output, message: "cannot write the delta: \(error)", cause: error)
        }
        guard summary.sha256 == body.sha256, readBack == changed else {
            throw ShipError(
                code: .noDelta, path: output,
                message: "the deflated delta does not hold the body that was checked; ship the full seed")
        }
        return summary
    }

    /// Refuses two seeds whose SQL schemas differ (their `sqlite_schema` entries, and encoding,
    /// application id and schema version): a delta carries rows, never a schema change.
    private func checkSameStructure(_ connection: Connection, old: String, new: String) throws(ShipError) {
        do throws(any Error) {
            let query = "SELECT type, name, tbl_name, sql FROM %@.sqlite_schema ORDER BY type, name"
            let oldEntries = try connection.rows(query.replacingOccurrences(of: "%@", with: "old"))
            let newEntries = try connection.rows(query.replacingOccurrences(of: "%@", with: "new"))
            if oldEntries != newEntries {
                let oldNames = oldEntries.map { "\($0[0]) '\($0[1])'" },
                    newNames = newEntries.map { "\($0[0]) '\($0[1])'" }
                let difference: String
                if let added = newNames.first(where: { !oldNames.contains($0) }) {
                    difference = "\(added) is only in \(new)"
                } else if let removed = oldNames.first(where: { !newNames.contains($0) }) {
                    difference = "\(removed) is only in \(old)"
                } else if let index = oldEntries.indices.first(where: { oldEntries[$0] != newEntries[$0] }) {
                    difference = "\(newNames[index]) is defined differently"
                } else {
                    difference = "their entries differ"
                }
                throw ShipError(
                    code: .noDelta, path: new,
                    message:
                        """
                        has another database schema than \(old) (\(difference)): a schema change gives no delta; \
                        ship the full seed
                        """
                )
            }
            for pragma in ["encoding", "application_id", "user_version"] {
                let before = try connection.scalar("PRAGMA old.\(pragma)"),
                    after = try connection.scalar("PRAGMA new.\(pragma)")
                guard before == after else {
                    throw ShipError(
                        code: .noDelta, path: new,
                        message:
                            """
                            has \(pragma) \(after?.description ?? "?") but \(old) has \
                            \(before?.description ?? "?"): a delta cannot change it; ship the full seed
                            """
                    )
                }
            }
        } catch let error as ShipError {
            throw error
        } catch {
            throw ShipError(
                code: .sqlite, path: new, message: "cannot compare the database schemas: \(error)", cause: error)
        }
    }

    /// Applies the delta to a copy of OLD with the installer's code; it must give NEW's content
    /// digest (which the header carries). OLD's own digest is not computed again: a device proves
    /// its base against the header's, and a header naming OLD wrongly only makes devices refuse
    /// the delta.
    /// - Parameter tables: the tables the delta changes, when its body need not be read through
    ///   first (else ``DeltaPatch/checkBody()`` reads it, as an installer does).
    private static func verify(
        delta: String, header: DeltaHeader, tables: Set<String>?, old: String, output: String
    ) throws(ShipError) {
        let result = ScratchFile(beside: output, kind: "check")
        do {
            let patch = DeltaPatch(path: delta, header: header)
            let tables = try tables ?? patch.checkBody()
            try patch.apply(base: old, baseIsProven: true, changedTables: tables, output: result.path, flush: false)
        } catch {
            throw ShipError(
                code: .noDelta, path: output,
                message: "the delta does not turn \(old) into the new seed (\(error)); ship the full seed", cause: error
            )
        }
    }

    /// The SQLite version recorded in bytes 96-99 of a database's header (the library that
    /// last wrote it), as `3.40.1`.
    static func writerVersion(of path: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let header = try handle.read(upToCount: 100) ?? Data()
        guard header.count == 100 else { return "?" }
        let number = header[96..<100].reduce(0) { $0 << 8 | Int($1) }
        return "\(number / 1_000_000).\(number / 1000 % 1000).\(number % 1000)"
    }
}
