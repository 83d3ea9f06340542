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
/// a temporary file beside `output` and renamed into place only then. Memory stays bounded: the
/// comparison is SQL over the two attached seeds, streamed row by row.
public struct SeedDeltaWriter {
    /// The deflate level of the body, 0 to 9 (default 9).
    public var level = 9
    /// Apply the delta to OLD before keeping it, and refuse it unless that gives NEW's content.
    public var verify = true

    public init(level: Int = 9, verify: Bool = true) {
        self.level = level
        self.verify = verify
    }

    /// What was written.
    public struct Summary: Sendable {
        public var output: String
        /// The delta file's size and SHA-256.
        public var size: Int64
        public var sha256: String
        /// The header: seeds, content digests, sizes.
        public var header: DeltaHeader
        /// The tables with changes, in the delta's order.
        public var tables: [TableChanges]
        /// True when the delta was applied to OLD and gave NEW's content.
        public var verified: Bool
        public var seconds: Double
    }

    /// Compares `old` and `new` and writes the delta that turns one into the other to `output`.
    public func write(old: String, new: String, to output: String) throws(ShipError) -> Summary {
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

        let header: DeltaHeader
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
                sqliteVersion: try Self.writerVersion(of: new), toolVersion: toolVersion)
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

        let temporary = ScratchFile(beside: output, kind: "delta")
        let tables: [TableChanges]
        let summary: GzipSummary
        do {
            let writer = try DeltaWriter(path: temporary.path, header: header, level: level)
            tables = try DeltaComparison.write(connection, old: "old", new: "new", to: writer)
            summary = try writer.finish()
        } catch let error as DeltaError {
            throw ShipError(code: .noDelta, path: output, message: "\(error.message); ship the full seed", cause: error)
        } catch {
            throw ShipError.io(path: output, message: "cannot write the delta: \(error)", cause: error)
        }
        if verify { try Self.verify(delta: temporary.path, header: header, old: old, output: output) }
        do { try temporary.moveIntoPlace(at: output) } catch {
            throw ShipError.io(
                path: output, message: "cannot rename the delta into place: \(error.reason)", cause: error)
        }
        return Summary(
            output: output, size: summary.gzipSize, sha256: summary.gzipSha256, header: header, tables: tables,
            verified: verify, seconds: (ContinuousClock.now - clock).seconds)
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
    private static func verify(delta: String, header: DeltaHeader, old: String, output: String) throws(ShipError) {
        let result = ScratchFile(beside: output, kind: "check")
        do {
            let patch = DeltaPatch(path: delta, header: header)
            let tables = try patch.checkBody()
            try patch.apply(base: old, baseIsProven: true, changedTables: tables, output: result.path)
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
