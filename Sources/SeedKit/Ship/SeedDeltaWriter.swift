import Foundation
import SeedArchive
import SeedInstaller
import SeedSQLite
import SeedSystem

/// Writes a seed delta (`seedgen delta OLD NEW --out FILE`): the rows that differ between two
/// seeds of the same schema, which turns exactly OLD into exactly NEW (see `DeltaHeader` and
/// `DeltaRecord` for the format, `SeedDelta` and `DeltaPatch` in SeedInstaller for applying it).
///
/// Its size follows the rows that changed, not the pages they moved: rows are compared by key
/// (the rowid, or a `WITHOUT ROWID` table's primary key) in every table with storage,
/// `sqlite_stat1`, `seedgen_metadata` and the shadow tables of virtual tables included, and
/// only rows added, removed or changed are written (a changed row as the values that changed).
/// Seeds built with `seedgen build --previous` keep the ids of unchanged rows, so a day's
/// changes stay a few percent of the rows.
///
/// Refused, with a message saying to ship the full seed: two seeds of different schemas (name,
/// version or `schema_sha256`), of different SQL schemas (a table only one has, such as an
/// `extra_` table of a new input file) or page sizes, and a value longer than
/// `DeltaWriter.maximumValueBytes`.
///
/// The delta is checked before it is kept (unless `verify` is false): it is applied to OLD
/// with the installer's own code, and must give NEW byte for byte. It is written to a
/// temporary file beside `output` and renamed into place only then. Memory stays bounded:
/// the comparison is SQL over the two attached seeds, streamed row by row, beside the records'
/// column counts read from the two files (`RecordFormReader`): a row changed and later changed
/// back in a chain of `--previous` builds has the same values at both ends, but not the same
/// stored form.
public struct SeedDeltaWriter {
    /// The deflate level of the body, 0 to 9 (default 9).
    public var level = 9
    /// Apply the delta to OLD before keeping it, and refuse it unless that gives NEW.
    public var verify = true

    public init(level: Int = 9, verify: Bool = true) {
        self.level = level
        self.verify = verify
    }

    /// What a table contributes to a delta.
    public struct TableChanges: Equatable, Sendable {
        public var name: String
        /// Rows only OLD has.
        public var removed = 0
        /// Rows only NEW has.
        public var added = 0
        /// Rows both have, with other values (or the same values in another stored form).
        public var changed = 0
    }

    /// What was written.
    public struct Summary: Sendable {
        public var output: String
        /// The delta file's size and SHA-256.
        public var size: Int64
        public var sha256: String
        /// The header: seeds, sizes, digests.
        public var header: DeltaHeader
        /// The tables with changes, in the delta's order.
        public var tables: [TableChanges]
        /// True when the delta was applied to OLD and gave NEW.
        public var verified: Bool
        public var seconds: Double
    }

    /// Compares `old` and `new` and writes the delta that turns one into the other to `output`.
    public func write(old: String, new: String, to output: String) throws(ShipError) -> Summary {
        let clock = ContinuousClock.now
        let connection: Connection
        let oldIdentity: SeedIdentity, newIdentity: SeedIdentity
        do {
            connection = try Connection(path: ":memory:")
            try SeedIdentity.attach(old, as: "old", to: connection)
            try SeedIdentity.attach(new, as: "new", to: connection)
        } catch {
            throw ShipError(path: new, message: "cannot open the seeds: \(error)")
        }
        oldIdentity = try SeedIdentity.read(connection, schema: "old", path: old)
        newIdentity = try SeedIdentity.read(connection, schema: "new", path: new)
        guard oldIdentity.hasSameSchema(as: newIdentity) else {
            throw ShipError(path: new, message: "was built with \(newIdentity.schemaDescription), \(old) with \(oldIdentity.schemaDescription): a schema change gives no delta; ship the full seed")
        }
        try checkSameStructure(connection, old: old, new: new)

        let oldDigest = try FileDigest(path: old), newDigest = try FileDigest(path: new)
        let header: DeltaHeader
        do {
            header = DeltaHeader(
                schemaName: newIdentity.schemaName, schemaVersion: newIdentity.schemaVersion,
                from: DeltaHeader.Seed(seedVersion: oldIdentity.seedVersion, size: oldDigest.size, sha256: oldDigest.sha256),
                to: DeltaHeader.Seed(seedVersion: newIdentity.seedVersion, size: newDigest.size, sha256: newDigest.sha256),
                toSchemaCookie: UInt32(truncatingIfNeeded: try connection.scalar("PRAGMA new.schema_version")?.integer ?? 0),
                sqliteVersion: try Self.writerVersion(of: new), toolVersion: toolVersion)
        } catch {
            throw ShipError(path: new, message: "cannot read the seed's header: \(error)")
        }
        for (seed, path) in [(header.from, old), (header.to, new)] where !SeedStamp(schemaVersion: 0, seedVersion: seed.seedVersion).isValid {
            throw ShipError(path: path, message: "its seed version \(seed.seedVersion.debugDescription) cannot be written in a delta (printable ASCII without spaces)")
        }

        let temporary = ScratchFile(beside: output, kind: "delta")
        var tables: [TableChanges] = []
        let summary: GzipSummary
        do {
            let writer = try DeltaWriter(path: temporary.path, header: header, level: level)
            let oldForms = try RecordFormReader(path: old), newForms = try RecordFormReader(path: new)
            for table in try DeltaTableShape.tables(connection, schema: "new") {
                let shape = try DeltaTableShape.read(connection, schema: "new", table: table)
                var comparison = TableComparison(shape: shape, old: ("old", table), new: ("new", table), connection: connection)
                comparison.forms = try Self.storedForms(of: shape, connection: connection, old: oldForms, new: newForms)
                var started = false
                let changes = try comparison.run { record in
                    if !started { try writer.write(.table(shape.deltaTable)) }
                    started = true
                    try writer.write(record)
                }
                if started { tables.append(changes) }
            }
            summary = try writer.finish()
        } catch let error as DeltaError {
            throw ShipError(path: output, message: "\(error.message); ship the full seed")
        } catch let error as ShipError {
            throw error
        } catch {
            throw ShipError(path: output, message: "cannot write the delta: \(error)")
        }
        if verify { try Self.verify(delta: temporary.path, old: old, output: output) }
        do { try temporary.moveIntoPlace(at: output) } catch {
            throw ShipError(path: output, message: "cannot rename the delta into place: \(error.reason)")
        }
        return Summary(output: output, size: summary.gzipSize, sha256: summary.gzipSha256, header: header, tables: tables,
                       verified: verify, seconds: (ContinuousClock.now - clock).seconds)
    }

    /// Refuses two seeds whose SQL schemas differ (their `sqlite_schema` entries, in order, and
    /// page sizes): applying rows to a copy of OLD could not give NEW's file.
    private func checkSameStructure(_ connection: Connection, old: String, new: String) throws(ShipError) {
        do throws(any Error) {
            let query = "SELECT type, name, tbl_name, sql FROM %@.sqlite_schema ORDER BY rowid"
            let oldEntries = try connection.rows(query.replacingOccurrences(of: "%@", with: "old"))
            let newEntries = try connection.rows(query.replacingOccurrences(of: "%@", with: "new"))
            if oldEntries != newEntries {
                let oldNames = oldEntries.map { "\($0[0]) '\($0[1])'" }, newNames = newEntries.map { "\($0[0]) '\($0[1])'" }
                let difference: String
                if let added = newNames.first(where: { !oldNames.contains($0) }) {
                    difference = "\(added) is only in \(new)"
                } else if let removed = oldNames.first(where: { !newNames.contains($0) }) {
                    difference = "\(removed) is only in \(old)"
                } else if let index = oldEntries.indices.first(where: { oldEntries[$0] != newEntries[$0] }), oldNames[index] == newNames[index] {
                    difference = "\(newNames[index]) is defined differently"
                } else {
                    difference = "their tables and indexes were created in another order"
                }
                throw ShipError(path: new, message: "has another database schema than \(old) (\(difference)): a schema change gives no delta; ship the full seed")
            }
            for pragma in ["page_size", "encoding", "auto_vacuum", "application_id", "user_version"] {
                let before = try connection.scalar("PRAGMA old.\(pragma)"), after = try connection.scalar("PRAGMA new.\(pragma)")
                guard before == after else {
                    throw ShipError(path: new, message: "has \(pragma) \(after?.description ?? "?") but \(old) has \(before?.description ?? "?"): a delta cannot change it; ship the full seed")
                }
            }
        } catch let error as ShipError {
            throw error
        } catch {
            throw ShipError(path: new, message: "cannot compare the database schemas: \(error)")
        }
    }

    /// Where a comparison of `shape`'s table reads its rows' stored forms: SQLite keeps the
    /// column count a record was written with (see `RecordFormReader`), and the delta must
    /// give NEW's records as they are.
    private static func storedForms(of shape: DeltaTableShape, connection: Connection, old: RecordFormReader,
                                    new: RecordFormReader) throws -> TableComparison.StoredForms {
        func cursor(_ reader: RecordFormReader, _ schema: String) throws -> RecordFormReader.Cursor {
            let root = try connection.scalar("SELECT rootpage FROM \(schema).sqlite_schema WHERE type = 'table' AND name = ?", [.text(shape.name)])?.integer ?? 0
            return reader.forms(rootPage: Int(root), table: shape.name, isRowID: shape.isRowID, keyCount: shape.keyColumns.count)
        }
        // Every column but a virtual generated one is in the record (a rowid alias as NULL).
        let columns = try connection.scalar("SELECT count(*) FROM pragma_table_xinfo(?, 'new') WHERE hidden <> 2", [.text(shape.name)])?.integer ?? 0
        return TableComparison.StoredForms(old: try cursor(old, "old"), new: try cursor(new, "new"), columnCount: Int(columns))
    }

    /// Applies the delta to OLD with the installer's code; it must give NEW (whose digest the
    /// header carries).
    private static func verify(delta: String, old: String, output: String) throws(ShipError) {
        let working = ScratchFile(beside: output, kind: "check"), result = ScratchFile(beside: output, kind: "check")
        do {
            let patch = DeltaPatch(delta: try SeedDelta.read(path: delta))
            try patch.checkBody()
            try patch.apply(base: old, working: working.path, output: result.path)
        } catch {
            throw ShipError(path: output, message: "the delta does not turn \(old) into the new seed (\(error.code): \(error.message)); ship the full seed")
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
