import SeedArchive
import SeedSQLite

/// A seed's identity: the SHA-256 of its schema and of every content table's rows in key order,
/// in an encoding every SQLite version from 3.37 reads the same way (SQLite's `dbhash` is the
/// model). Two files with the same content have the same digest, whatever their page layout.
///
/// `Documentation/content-digest.md` specifies it byte by byte; `scripts/content_digest.py` is
/// an independent implementation the tests compare with this one. In short: `seedgen-content-1\n`;
/// the `sqlite_schema` entries (not `sqlite_*`, not shadow tables) by type and name; then per
/// content table (not virtual, not shadow, not `sqlite_*`), by name, its rows in key order (a
/// rowid table: the rowid, then `SELECT *`), each value as a tag and its bytes, lengths written;
/// `E` at the end. The `content_sha256` and `publication_sequence` rows of `seedgen_metadata`
/// are left out: one holds the digest, the other where a channel put the seed in its order
/// (stamped at install), neither what the seed holds.
///
/// Memory stays bounded: rows stream from one statement per table into a 64 KiB buffer.
package enum ContentDigest {
    /// The `seedgen_metadata` key that records a seed's digest.
    package static let metadataKey = "content_sha256"
    /// The `seedgen_metadata` key of the publication sequence an installer stamps into the seed
    /// it installs; not part of the content either.
    package static let sequenceKey = "publication_sequence"
    /// The first bytes of the digested stream: the encoding's name and version.
    static let magic = Array("seedgen-content-1\n".utf8)

    /// The content digest of database `schema` (`main` or an attached name) of `connection`,
    /// as 64 lower-case hexadecimal digits.
    package static func compute(_ connection: Connection, schema: String = "main") throws(SQLiteError) -> String {
        var stream = DigestStream()
        stream.append(magic)
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
        var tables: [String] = []
        for entry in entries {
            let texts = entry.map { $0.text ?? "" }
            guard !shadows.contains(texts[1]) else { continue }
            stream.append(UInt8(ascii: "S"))
            for text in texts { stream.appendText(text) }
            guard texts[0] == "table" else { continue }
            if texts[3].uppercased().hasPrefix("CREATE VIRTUAL TABLE") {
                // Without its module (a SQLite built without FTS5 or R*Tree), SQLite cannot tell
                // the table's shadow tables from content: no digest rather than a wrong one.
                _ = try connection.prepare("SELECT * FROM \(database).\(quoted(texts[1])) LIMIT 0")
            } else {
                tables.append(texts[1])
            }
        }
        for table in tables.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            try digestRows(of: table, schema: schema, connection: connection, into: &stream)
        }
        stream.append(UInt8(ascii: "E"))
        return stream.finalize()
    }

    /// The digest of the seed file at `path`, opened read-only.
    package static func compute(path: String) throws(SQLiteError) -> String {
        try compute(Connection(path: path, mode: .readOnly))
    }

    private static func digestRows(
        of table: String, schema: String, connection: Connection, into stream: inout DigestStream
    ) throws(SQLiteError) {
        // Every column, generated and hidden ones included: any of them hides a rowid name.
        let names = Set(
            try connection.rows("SELECT lower(name) FROM pragma_table_xinfo(?, ?)", [.text(table), .text(schema)])
                .compactMap { $0[0].text })
        let name = "\(quoted(schema)).\(quoted(table))"
        let isWithoutRowID =
            try connection.scalar(
                "SELECT wr FROM pragma_table_list WHERE name = ? AND schema = ?", [.text(table), .text(schema)])?
            .integer == 1
        let sql: String
        if !isWithoutRowID {
            guard let rowid = ["rowid", "_rowid_", "oid"].first(where: { !names.contains($0) }) else {
                throw SQLiteError(
                    .error,
                    message:
                        """
                        table '\(table)' has columns named rowid, _rowid_ and oid: its rowid cannot be read for \
                        the content digest
                        """
                )
            }
            sql = "SELECT \(rowid), * FROM \(name) ORDER BY \(rowid)"
        } else {
            // The primary key's columns, each in the key's own collation (it may be stricter
            // than the column's, and then only it orders every row).
            let key = try connection.rows(
                """
                SELECT x.name, x.coll FROM pragma_index_list(?1, ?2) AS l, pragma_index_xinfo(l.name, ?2) AS x
                WHERE l.origin = 'pk' AND x.key = 1 ORDER BY x.seqno
                """, [.text(table), .text(schema)]
            ).map { "\(quoted($0[0].text ?? "")) COLLATE \(quoted($0[1].text ?? "BINARY"))" }
            sql = "SELECT * FROM \(name) ORDER BY \(key.joined(separator: ", "))"
        }
        let statement = try connection.prepare(sql)
        let count = statement.columnCount
        stream.append(UInt8(ascii: "T"))
        stream.appendText(table)
        stream.appendUInt32(UInt32(count))
        // The digest's own row and the install's sequence stamp are not part of what it digests.
        let skipsDigestRow = table == "seedgen_metadata"
        let keyColumn = skipsDigestRow ? (0..<count).first { statement.columnName(at: $0) == "key" } : nil
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: DigestStream.flushSize, alignment: 8)
        defer { buffer.deallocate() }
        var used = 0
        while try statement.step() {
            if let keyColumn, statement.storageClass(at: keyColumn) == .text {
                let key = statement.bytes(at: keyColumn)
                if key.elementsEqual(metadataKey.utf8) || key.elementsEqual(sequenceKey.utf8) { continue }
            }
            while true {
                buffer[used] = UInt8(ascii: "R")
                let free = UnsafeMutableRawBufferPointer(rebasing: buffer[(used + 1)...])
                if let written = statement.encodeCanonicalRow(into: free, columns: Int32(count)) {
                    used += 1 + written
                    break
                }
                // The row does not fit in what is left: hash what the buffer holds, and grow it
                // when even an empty one is too small (a row of long values: the buffer is at most
                // twice the longest row, which SQLite bounds by SQLITE_MAX_LENGTH per value).
                if used == 0 {
                    let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 8)
                    buffer.deallocate()
                    buffer = bigger
                } else {
                    stream.append(UnsafeRawBufferPointer(rebasing: buffer[..<used]))
                    used = 0
                }
            }
            if used >= buffer.count - 4096 {
                stream.append(UnsafeRawBufferPointer(rebasing: buffer[..<used]))
                used = 0
            }
        }
        stream.append(UnsafeRawBufferPointer(rebasing: buffer[..<used]))
    }
}

/// The digested bytes, buffered 64 KiB at a time before they go to SHA-256.
struct DigestStream {
    private var hasher = SHA256()
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(Self.flushSize + 64) }

    static let flushSize = 1 << 16

    mutating func append(_ byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= Self.flushSize { flush() }
    }

    mutating func append(_ bytes: [UInt8]) {
        buffer += bytes
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Hashes `bytes` after what is buffered.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        flush()
        hasher.update(bytes)
    }

    mutating func appendUInt32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) {
            buffer.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    /// `u32(length)`, then the bytes.
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        appendUInt32(UInt32(truncatingIfNeeded: bytes.count))
        if bytes.count > Self.flushSize {
            flush()
            hasher.update(bytes)
        } else {
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.flushSize { flush() }
        }
    }

    mutating func appendText(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { appendBytes($0) }
    }

    private mutating func flush() {
        buffer.withUnsafeBytes { hasher.update($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func finalize() -> String {
        flush()
        return hasher.hexDigest()
    }
}
