import SeedArchive
import SeedSQLite

/// `seedgen_content_chunks`: the hashes of a seed's content chunks (``ContentDigest``), kept in
/// the seed outside what they hash (the digest covers neither this table's schema entry nor its
/// rows). One row per chunk: the table, the chunk's position in it (from 0), the rowid of its
/// last row (NULL in a `WITHOUT ROWID` table), its number of rows, its SHA-256 (32 bytes) and, in
/// a `WITHOUT ROWID` table, the encoding of its last row's key (`last_key`; NULL in a rowid
/// table, and a column a record written before it lacks).
///
/// The record lets an apply re-hash only the chunks its rows touch; `seedgen verify` hashes every
/// chunk again and compares, so a record that lies is caught, and the root proves the rest.
package enum ContentChunkRecord {
    package static let tableName = "seedgen_content_chunks"
    static let createSQL = """
        CREATE TABLE IF NOT EXISTS seedgen_content_chunks (table_name TEXT NOT NULL, position INTEGER NOT NULL, \
        last_rowid INTEGER, row_count INTEGER NOT NULL, sha256 BLOB NOT NULL, last_key BLOB, \
        PRIMARY KEY (table_name, position)) WITHOUT ROWID
        """

    /// Replaces the record in `connection`'s main database by the chunks of `tables` (the other
    /// tables' rows stay), creating the table if the seed has none.
    package static func write(
        _ tables: [ContentDigest.TableChunks], to connection: Connection
    ) throws(SQLiteError) {
        try connection.execute("SAVEPOINT seedgen_content_chunks")
        do {
            try replace(tables, in: connection)
        } catch {
            try? connection.execute("ROLLBACK TO seedgen_content_chunks; RELEASE seedgen_content_chunks")
            throw error
        }
        try connection.execute("RELEASE seedgen_content_chunks")
    }

    private static func replace(_ tables: [ContentDigest.TableChunks], in connection: Connection) throws(SQLiteError) {
        try connection.execute(createSQL)
        if try !hasLastKey(connection) {
            try connection.execute("ALTER TABLE seedgen_content_chunks ADD COLUMN last_key BLOB")
        }
        let clear = try connection.prepare("DELETE FROM seedgen_content_chunks WHERE table_name = ?")
        let insert = try connection.prepare(
            """
            INSERT INTO seedgen_content_chunks (table_name, position, last_rowid, row_count, sha256, last_key)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        for table in tables {
            try clear.run([.text(table.name)])
            for (position, chunk) in table.chunks.enumerated() {
                try insert.run([
                    .text(table.name), .integer(Int64(position)), chunk.lastRowID.map { .integer($0) } ?? .null,
                    .integer(chunk.rows), .blob(chunk.sha256), chunk.lastKey.map { .blob($0) } ?? .null
                ])
            }
        }
    }

    /// A record written to a database of its own as the chunks are hashed (``ContentDigest``'s
    /// `root(_:schema:spill:)`), then copied into the seed (``copy(from:to:)``): the build keeps
    /// no chunk in memory.
    package final class Spill {
        private let connection: Connection
        private let insert: Statement

        /// Creates the record in a new database at `path` (no journal: a scratch file).
        package init(path: String) throws(SQLiteError) {
            connection = try Connection(path: path)
            // It only appends: a small page cache serves (the build beside it counts every MB).
            try connection.execute(
                "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -256; \(createSQL); BEGIN")
            insert = try connection.prepare(
                """
                INSERT INTO seedgen_content_chunks (table_name, position, last_rowid, row_count, sha256, last_key)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        }

        /// Records chunk `position` of `table`.
        package func add(_ table: String, _ position: Int, _ chunk: ContentChunk) throws(SQLiteError) {
            try insert.run([
                .text(table), .integer(Int64(position)), chunk.lastRowID.map { .integer($0) } ?? .null,
                .integer(chunk.rows), .blob(chunk.sha256), chunk.lastKey.map { .blob($0) } ?? .null
            ])
        }

        /// Commits what was added.
        package func finish() throws(SQLiteError) {
            try connection.execute("COMMIT")
        }
    }

    /// Copies the record the spill at `path` holds into `connection`'s main database, in the
    /// order ``write(_:to:)`` writes it.
    package static func copy(from path: String, to connection: Connection) throws(SQLiteError) {
        try connection.prepare("ATTACH ? AS seedgen_spill").run([.text(path)])
        defer { try? connection.execute("DETACH seedgen_spill") }
        // One transaction, as write(_:to:) makes (the file's change counter is the same).
        try connection.execute("BEGIN")
        do {
            try connection.execute(
                """
                \(createSQL);
                INSERT INTO main.seedgen_content_chunks (table_name, position, last_rowid, row_count, sha256, last_key)
                SELECT table_name, position, last_rowid, row_count, sha256, last_key
                FROM seedgen_spill.seedgen_content_chunks ORDER BY table_name, position;
                COMMIT
                """)
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Removes the rows of tables that are no longer content tables (none in a seed of one
    /// schema; kept tidy for any other).
    package static func keepOnly(_ tables: [String], in connection: Connection) throws(SQLiteError) {
        let names = try connection.rows("SELECT DISTINCT table_name FROM seedgen_content_chunks")
            .compactMap { $0[0].text }
        let delete = try connection.prepare("DELETE FROM seedgen_content_chunks WHERE table_name = ?")
        for name in names where !tables.contains(name) { try delete.run([.text(name)]) }
    }

    /// True when database `schema` has the record.
    package static func exists(_ connection: Connection, schema: String = "main") throws(SQLiteError) -> Bool {
        try connection.scalar(
            "SELECT count(*) FROM \(quoted(schema)).sqlite_schema WHERE type = 'table' AND name = ?", [.text(tableName)]
        )?.integer ?? 0 > 0
    }

    /// True when the record has the `last_key` column (a record written before it has not).
    private static func hasLastKey(_ connection: Connection, schema: String = "main") throws(SQLiteError) -> Bool {
        try connection.scalar(
            "SELECT count(*) FROM pragma_table_info(?, ?) WHERE name = 'last_key'", [.text(tableName), .text(schema)]
        )?.integer ?? 0 > 0
    }

    /// The recorded chunks of `table`, in order; nil when the record is missing or malformed
    /// (positions not 0, 1, 2, ..., a hash not 32 bytes), which asks for them to be hashed again.
    package static func read(
        _ table: String, connection: Connection, schema: String = "main"
    ) throws(SQLiteError) -> [ContentChunk]? {
        let lastKey = try hasLastKey(connection, schema: schema) ? "last_key" : "NULL"
        let rows = try connection.rows(
            """
            SELECT position, last_rowid, row_count, sha256, \(lastKey) FROM \(quoted(schema)).seedgen_content_chunks
            WHERE table_name = ? ORDER BY position
            """, [.text(table)])
        var chunks: [ContentChunk] = []
        chunks.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard row[0].integer == Int64(index), case .blob(let hash) = row[3], hash.count == 32,
                let count = row[2].integer
            else { return nil }
            let key: [UInt8]? = if case .blob(let key) = row[4] { key } else { nil }
            chunks.append(ContentChunk(lastRowID: row[1].integer, lastKey: key, rows: count, sha256: hash))
        }
        return chunks
    }

    /// Compares the record of database `schema` with the chunks computed from its rows.
    /// - Returns: nil when they agree, else what differs first.
    package static func difference(
        _ tree: ContentDigest.Tree, connection: Connection, schema: String = "main"
    ) throws(SQLiteError) -> String? {
        guard try exists(connection, schema: schema) else { return "the seed has no \(tableName) table" }
        let recorded = try connection.scalar("SELECT count(*) FROM \(quoted(schema)).seedgen_content_chunks")?.integer
        let computed = tree.tables.reduce(0) { $0 + $1.chunks.count }
        // A record written before `last_key` is compared without it.
        let keyed = try hasLastKey(connection, schema: schema)
        for table in tree.tables {
            let chunks = try read(table.name, connection: connection, schema: schema)
            guard let chunks, chunks.count == table.chunks.count else {
                return "table '\(table.name)' has \(table.chunks.count) chunks, \(tableName) records another list"
            }
            let computed =
                keyed
                ? table.chunks
                : table.chunks.map { ContentChunk(lastRowID: $0.lastRowID, rows: $0.rows, sha256: $0.sha256) }
            for (position, (mine, theirs)) in zip(computed, chunks).enumerated() where mine != theirs {
                return """
                    chunk \(position) of table '\(table.name)' hashes to \(SHA256.hex(mine.sha256)) \
                    (\(mine.rows) rows), \(tableName) records \(SHA256.hex(theirs.sha256)) (\(theirs.rows) rows)
                    """
            }
        }
        if recorded != Int64(computed) {
            return "\(tableName) records \(recorded ?? 0) chunks, the content tables have \(computed)"
        }
        return nil
    }
}
