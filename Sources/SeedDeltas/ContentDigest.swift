import SeedArchive
import SeedSQLite

/// A seed's identity: a hash tree over its schema and every content table's rows in key order,
/// in an encoding every SQLite version from 3.37 reads the same way (SQLite's `dbhash` is the
/// model). Two files with the same content have the same digest, whatever their page layout.
///
/// `Documentation/content-digest.md` specifies it byte by byte; `scripts/content_digest.py` is
/// an independent implementation the tests compare with this one. In short: each content table's
/// rows (not virtual, not shadow, not `sqlite_*`, not the chunk record), in key order and each
/// encoded as a tag and its values' bytes, are cut into chunks where a row's key hashes to a
/// boundary (``ContentChunker``), and each chunk is hashed; the digest (the root) is the SHA-256
/// of `seedgen-content-2\n`, the `sqlite_schema` entries by type and name, then per table, by
/// name, its name, its width and its chunks' hashes, and `E`. The `content_sha256` and
/// `publication_sequence` rows of `seedgen_metadata` are left out: one holds the digest, the other
/// where a channel put the seed in its order (stamped at install), neither what the seed holds.
///
/// The seed keeps its chunks' hashes in `seedgen_content_chunks` (``ContentChunkRecord``),
/// outside what they hash: an apply re-hashes only the chunks its rows touch, and `verify`
/// computes all of them again and compares.
package enum ContentDigest {
    /// The `seedgen_metadata` key that records a seed's digest.
    package static let metadataKey = "content_sha256"
    /// The `seedgen_metadata` key of the publication sequence an installer stamps into the seed
    /// it installs; not part of the content either.
    package static let sequenceKey = "publication_sequence"
    /// The first bytes of the root's stream: the encoding's name and version.
    static let magic = Array("seedgen-content-2\n".utf8)

    /// The covered schema entries and the content tables of one database, in the digest's order.
    package struct Outline: Sendable {
        /// `type`, `name`, `tbl_name`, `sql` of each covered `sqlite_schema` entry.
        var entries: [[String]] = []
        /// The content tables, by name (bytes).
        package var tables: [String] = []
    }

    /// One content table's chunks.
    package struct TableChunks: Equatable, Sendable {
        package var name: String
        /// Values per row.
        package var columns: Int
        package var chunks: [ContentChunk]
    }

    /// The digest and the chunks it was computed from.
    package struct Tree: Sendable {
        /// 64 lower-case hexadecimal digits.
        package var root: String
        package var tables: [TableChunks]
    }

    /// The content digest of database `schema` (`main` or an attached name) of `connection`,
    /// as 64 lower-case hexadecimal digits: every chunk hashed again.
    package static func compute(_ connection: Connection, schema: String = "main") throws(SQLiteError) -> String {
        try tree(connection, schema: schema).root
    }

    /// The digest of the seed file at `path`, opened read-only.
    package static func compute(path: String) throws(SQLiteError) -> String {
        try compute(Connection(path: path, mode: .readOnly))
    }

    /// The hash tree of database `schema`. `reuse` gives, for a table, chunks known to be its
    /// own (the base's record, for a table an apply left alone), or nil to hash them again.
    package static func tree(
        _ connection: Connection, schema: String = "main",
        reuse: (String) throws(SQLiteError) -> [ContentChunk]? = { _ in nil }
    ) throws(SQLiteError) -> Tree {
        try tree(
            connection, schema: schema,
            chunking: { chunker throws(SQLiteError) in
                if let chunks = try reuse(chunker.table) { return chunks }
                return try chunker.chunks(connection)
            })
    }

    /// The hash tree of `connection`'s main database, on two cores: `helper` is another connection
    /// to the same database file (read-only is enough), which hashes the second half of each large
    /// table on another thread. (Neither connection may write meanwhile.)
    package static func tree(_ connection: Connection, helper: Connection) throws(SQLiteError) -> Tree {
        try tree(
            connection, schema: "main",
            chunking: { chunker throws(SQLiteError) in try chunker.chunks(connection, helper: helper) })
    }

    /// The hash tree of `connection`'s main database, on two cores when a second, read-only
    /// connection can read its file (see ``tree(_:helper:)``), else on one.
    package static func treeOnTwoCores(_ connection: Connection) throws(SQLiteError) -> Tree {
        if !connection.path.isEmpty, connection.path != ":memory:",
            let helper = try? Connection(path: connection.path, mode: .readOnly),
            (try? helper.scalar("SELECT count(*) FROM sqlite_schema")) != nil
        {
            return try tree(connection, helper: helper)
        }
        return try tree(connection)
    }

    /// The hash tree of database `schema`, each table's chunks as `chunking` gives them.
    static func tree(
        _ connection: Connection, schema: String,
        chunking: (ContentChunker) throws(SQLiteError) -> [ContentChunk]
    ) throws(SQLiteError) -> Tree {
        let outline = try outline(connection, schema: schema)
        var tables: [TableChunks] = []
        for table in outline.tables {
            let chunker = try ContentChunker(table: table, schema: schema, connection: connection)
            tables.append(TableChunks(name: table, columns: chunker.columns, chunks: try chunking(chunker)))
        }
        return Tree(root: root(outline, tables), tables: tables)
    }

    /// The covered schema entries and content tables of database `schema`.
    package static func outline(_ connection: Connection, schema: String = "main") throws(SQLiteError) -> Outline {
        let database = quoted(schema)
        let shadows = Set(
            try connection.rows(
                "SELECT name FROM pragma_table_list WHERE schema = ? AND type = 'shadow'", [.text(schema)]
            )
            .compactMap { $0.first?.text })
        let entries = try connection.rows(
            """
            SELECT type, name, tbl_name, coalesce(sql, '') FROM \(database).sqlite_schema
            WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type COLLATE BINARY, name COLLATE BINARY
            """)
        var outline = Outline()
        for entry in entries {
            let texts = entry.map { $0.text ?? "" }
            guard !shadows.contains(texts[1]), texts[1] != ContentChunkRecord.tableName else { continue }
            outline.entries.append(texts)
            guard texts[0] == "table" else { continue }
            if texts[3].uppercased().hasPrefix("CREATE VIRTUAL TABLE") {
                // Without its module (a SQLite built without FTS5 or R*Tree), SQLite cannot tell
                // the table's shadow tables from content: no digest rather than a wrong one.
                _ = try connection.prepare("SELECT * FROM \(database).\(quoted(texts[1])) LIMIT 0")
            } else {
                outline.tables.append(texts[1])
            }
        }
        outline.tables.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return outline
    }

    /// The root: the SHA-256 of the magic, the schema entries, and each table's chunk hashes.
    static func root(_ outline: Outline, _ tables: [TableChunks]) -> String {
        var stream = RootStream(outline)
        for table in tables {
            stream.table(table.name, columns: table.columns)
            for chunk in table.chunks { stream.chunk(chunk.sha256) }
        }
        return stream.finish()
    }

    /// The root of database `schema`, each chunk passed to `spill` as it is hashed (with its
    /// table and position) and none kept: memory stays flat whatever the tables' sizes.
    package static func root(
        _ connection: Connection, schema: String = "main",
        spill: (String, Int, ContentChunk) throws(SQLiteError) -> Void
    ) throws(SQLiteError) -> String {
        let outline = try outline(connection, schema: schema)
        var stream = RootStream(outline)
        for table in outline.tables {
            let chunker = try ContentChunker(table: table, schema: schema, connection: connection)
            stream.table(table, columns: chunker.columns)
            var position = 0
            try chunker.scan(connection) { chunk throws(SQLiteError) in
                stream.chunk(chunk.sha256)
                try spill(table, position, chunk)
                position += 1
            }
        }
        return stream.finish()
    }
}

/// The root's stream (`Documentation/content-digest.md`, "The root"), hashed 64 KiB at a time.
private struct RootStream {
    private var stream = ContentDigest.magic
    private var hasher = SHA256()

    init(_ outline: ContentDigest.Outline) {
        for entry in outline.entries {
            stream.append(UInt8(ascii: "S"))
            for value in entry { text(value) }
        }
    }

    mutating func table(_ name: String, columns: Int) {
        stream.append(UInt8(ascii: "T"))
        text(name)
        u32(columns)
    }

    mutating func chunk(_ sha256: [UInt8]) {
        stream.append(UInt8(ascii: "C"))
        stream += sha256
        if stream.count >= 1 << 16 {
            hasher.update(stream)
            stream.removeAll(keepingCapacity: true)
        }
    }

    mutating func finish() -> String {
        stream.append(UInt8(ascii: "E"))
        hasher.update(stream)
        return hasher.hexDigest()
    }

    private mutating func u32(_ value: Int) {
        for shift in stride(from: 24, through: 0, by: -8) {
            stream.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    private mutating func text(_ text: String) {
        u32(text.utf8.count)
        stream += text.utf8
    }
}
