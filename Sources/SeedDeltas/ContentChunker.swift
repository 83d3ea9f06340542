import SeedArchive
import SeedSQLite

/// One chunk of a content table's rows (`Documentation/content-digest.md`, "Chunks"): a run of
/// rows in key order that ends at a row whose key is a boundary (or at the table's last row).
package struct ContentChunk: Equatable, Sendable {
    /// The rowid of the chunk's last row; nil in a `WITHOUT ROWID` table.
    package var lastRowID: Int64?
    /// A `WITHOUT ROWID` table: the encoding of the chunk's last row's key (its key values, each
    /// as the digest writes it); nil in a table with a rowid.
    package var lastKey: [UInt8]?
    /// How many rows the chunk holds.
    package var rows: Int64
    /// The SHA-256 of the chunk's rows' encodings (32 bytes).
    package var sha256: [UInt8]

    package init(lastRowID: Int64?, lastKey: [UInt8]? = nil, rows: Int64, sha256: [UInt8]) {
        self.lastRowID = lastRowID
        self.lastKey = lastKey
        self.rows = rows
        self.sha256 = sha256
    }
}

/// Reads one content table's rows in key order and cuts them into content-defined chunks: a row
/// ends its chunk when the hash of its key (``boundaryHash(_:)``) is a multiple of
/// ``averageRows``, so where a chunk ends depends on that row's key only, never on its
/// neighbours: a row inserted or deleted changes its own chunk (and, when it is a boundary, the
/// next one), no other.
///
/// Memory stays bounded: rows stream from one statement into a ``ContentRowBuffer``.
struct ContentChunker {
    /// On average one row in this many ends a chunk.
    static let averageRows: UInt64 = 128

    let table: String
    /// `"schema"."table"`.
    let qualifiedName: String
    /// Values per row (a rowid table's rowid included).
    let columns: Int
    /// True for a table with a rowid: its key is the rowid (result column 0).
    let hasRowID: Bool
    /// The query: the row's values (a rowid table's rowid first).
    private let select: String
    private let order: String
    let rowidName: String
    /// The result columns of the key, in the key's order (a rowid table: the rowid, column 0).
    private let keyIndices: [Int]
    /// A `WITHOUT ROWID` table: its key's first column, quoted.
    let firstKeyColumn: String?
    /// True for `seedgen_metadata`: the digest's own row and the sequence stamp are left out.
    let skipsOwnRows: Bool

    init(table: String, schema: String, connection: Connection) throws(SQLiteError) {
        self.table = table
        // Every column, generated and hidden ones included: any of them hides a rowid name.
        let names = Set(
            try connection.rows("SELECT lower(name) FROM pragma_table_xinfo(?, ?)", [.text(table), .text(schema)])
                .compactMap { $0[0].text })
        let name = "\(quoted(schema)).\(quoted(table))"
        qualifiedName = name
        let isWithoutRowID =
            try connection.scalar(
                "SELECT wr FROM pragma_table_list WHERE name = ? AND schema = ?", [.text(table), .text(schema)])?
            .integer == 1
        let result = try connection.prepare("SELECT * FROM \(name) LIMIT 0")
        let count = result.columnCount
        skipsOwnRows = table == "seedgen_metadata"
        if !isWithoutRowID {
            guard let rowid = ["rowid", "_rowid_", "oid"].first(where: { !names.contains($0) }) else {
                throw SQLiteError(
                    .error,
                    message: """
                        table '\(table)' has columns named rowid, _rowid_ and oid: its rowid cannot be read for \
                        the content digest
                        """)
            }
            hasRowID = true
            columns = count + 1
            rowidName = rowid
            keyIndices = [0]
            firstKeyColumn = nil
            select = "SELECT \(rowid), * FROM \(name)"
            order = " ORDER BY \(rowid)"
        } else {
            // The primary key's columns, each in the key's own collation (it may be stricter
            // than the column's, and then only it orders every row).
            let key = try connection.rows(
                """
                SELECT x.name, x.coll FROM pragma_index_list(?1, ?2) AS l, pragma_index_xinfo(l.name, ?2) AS x
                WHERE l.origin = 'pk' AND x.key = 1 ORDER BY x.seqno
                """, [.text(table), .text(schema)]
            )
            let resultNames = (0..<count).map { result.columnName(at: $0).lowercased() }
            keyIndices = try key.map { row throws(SQLiteError) in
                guard let index = resultNames.firstIndex(of: (row[0].text ?? "").lowercased()) else {
                    throw SQLiteError(
                        .error, message: "table '\(table)': key column '\(row[0].text ?? "")' is not among its columns")
                }
                return index
            }
            let keyNames = key.map { (quoted($0[0].text ?? ""), quoted($0[1].text ?? "BINARY")) }
            hasRowID = false
            columns = count
            rowidName = ""
            firstKeyColumn = keyNames.first?.0
            select = "SELECT * FROM \(name)"
            order = " ORDER BY \(keyNames.map { "\($0.0) COLLATE \($0.1)" }.joined(separator: ", "))"
        }
    }

    /// The boundary test of a row's key (its values' encoding): FNV-1a (64-bit) over the bytes,
    /// then MurmurHash3's 64-bit finalizer.
    static func boundaryHash(_ key: UnsafeRawBufferPointer) -> UInt64 {
        finalized(fnv(fnvBasis, key))
    }

    static let fnvBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// FNV-1a (64-bit) of `bytes`, continuing from `hash`.
    static func fnv(_ hash: UInt64, _ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = hash
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// MurmurHash3's 64-bit finalizer.
    static func finalized(_ hash: UInt64) -> UInt64 {
        var hash = hash
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }

    /// True when the row whose rowid is `rowid` ends a chunk (its key's encoding: `I`, then
    /// the rowid's 8 bytes, big-endian).
    static func isBoundary(rowid: Int64) -> Bool {
        var key: [UInt8] = [UInt8(ascii: "I")]
        withUnsafeBytes(of: UInt64(bitPattern: rowid).bigEndian) { key.append(contentsOf: $0) }
        return key.withUnsafeBytes { boundaryHash($0) } % averageRows == 0
    }

    /// The chunks of all the table's rows.
    func chunks(_ connection: Connection) throws(SQLiteError) -> [ContentChunk] {
        try scan(connection).chunks
    }

    /// Which of a table's rows a scan reads, and where it stops.
    struct ScanRange {
        /// A rowid table: the rows after this rowid.
        var afterRowID: Int64?
        /// A rowid table: stop at the first boundary whose rowid is at least this.
        var untilRowID: Int64?
        /// A `WITHOUT ROWID` table: the rows whose key's first column is at least this (an
        /// integer sorts before any text or blob), those up to the first boundary skipped (up to
        /// the row whose key's encoding is `afterKey`, when given).
        var fromKey: Int64?
        /// A `WITHOUT ROWID` table, with `fromKey`: the chunks start after the row whose key's
        /// encoding is this.
        var afterKey: [UInt8]?
        /// A `WITHOUT ROWID` table: stop at the first boundary whose key's first column is at
        /// least this.
        var untilKey: Int64?
    }

    /// A rechunk's prepared scans, by their SQL: it reads many runs of one table with two
    /// statements at most, each bound again for the next run.
    final class ScanStatements {
        var bySQL: [String: Statement] = [:]
    }

    /// The chunks of the table's rows in `range` (all by default), with a statement of
    /// `statements` when it holds the one needed.
    /// - Returns: the chunks, and whether they reach the table's last row.
    func scan(
        _ connection: Connection, _ range: ScanRange = ScanRange(), statements: ScanStatements? = nil
    ) throws(SQLiteError) -> (chunks: [ContentChunk], reachedEnd: Bool) {
        var chunks: [ContentChunk] = []
        let reachedEnd = try scan(connection, range, statements: statements) { chunks.append($0) }
        return (chunks, reachedEnd)
    }

    /// Passes each chunk of the table's rows in `range` (all by default) to `emit` as it is
    /// hashed, keeping none.
    /// - Returns: whether the chunks reach the table's last row.
    @discardableResult
    func scan(
        _ connection: Connection, _ range: ScanRange = ScanRange(), statements: ScanStatements? = nil,
        emit: (ContentChunk) throws(SQLiteError) -> Void
    ) throws(SQLiteError) -> Bool {
        let statement = try prepare(connection, range, statements)
        var skipping = range.fromKey != nil && !hasRowID
        let ownKey = skipsOwnRows ? (0..<columns).first { statement.columnName(at: $0) == "key" } : nil
        let row = ContentRowBuffer(columns: columns)
        var hasher = SHA256()
        var rows: Int64 = 0
        var lastRowID: Int64? = nil
        while try statement.step() {
            if let ownKey, Self.isOwnRow(statement, keyColumn: ownKey) { continue }
            row.append(statement, hashingInto: &hasher)
            rows += 1
            if hasRowID { lastRowID = row.rowid }
            if row.keyHash(keyIndices) % Self.averageRows == 0 {
                row.flush(into: &hasher)
                if !skipping { try emit(chunk(lastRowID: lastRowID, row: row, rows: rows, hasher: hasher)) }
                hasher = SHA256()
                rows = 0
                if !skipping, ends(range, statement, lastRowID: lastRowID) { return false }
                skipping = skipping && range.afterKey.map { !row.key(keyIndices).elementsEqual($0) } ?? false
            } else {
                row.flushIfFull(into: &hasher)
            }
        }
        if rows > 0 && !skipping {
            // The last chunk: its last row is the table's last (no boundary after it).
            row.flush(into: &hasher)
            try emit(chunk(lastRowID: lastRowID, row: row, rows: rows, hasher: hasher))
        }
        return true
    }

    /// The chunk that ends with the row `row` holds.
    private func chunk(lastRowID: Int64?, row: ContentRowBuffer, rows: Int64, hasher: SHA256) -> ContentChunk {
        ContentChunk(
            lastRowID: lastRowID, lastKey: hasRowID ? nil : row.key(keyIndices), rows: rows,
            sha256: hasher.finalize())
    }

    /// The statement that reads `range`'s rows, bound; from `statements` when it holds one.
    private func prepare(
        _ connection: Connection, _ range: ScanRange, _ statements: ScanStatements?
    ) throws(SQLiteError) -> Statement {
        var sql = select + order
        var argument: Value? = nil
        if let after = range.afterRowID, hasRowID {
            sql = select + " WHERE \(rowidName) > ?" + order
            argument = .integer(after)
        } else if let from = range.fromKey, let firstKeyColumn {
            sql = select + " WHERE \(firstKeyColumn) >= ?" + order
            argument = .integer(from)
        }
        let statement: Statement
        if let cached = statements?.bySQL[sql] {
            statement = cached
            statement.reset()
        } else {
            statement = try connection.prepare(sql)
            statements?.bySQL[sql] = statement
        }
        if let argument { try statement.bind([argument]) }
        return statement
    }

    /// True when the chunk that ends at the current row is the last `range` asks for.
    private func ends(_ range: ScanRange, _ statement: Statement, lastRowID: Int64?) -> Bool {
        if let until = range.untilRowID, let lastRowID, lastRowID >= until { return true }
        guard let until = range.untilKey, !hasRowID else { return false }
        // The key's first column, as SQLite compares it with an integer: numbers by value, any
        // text or blob after every number.
        let first = keyIndices[0]
        switch statement.storageClass(at: first) {
        case .integer: return statement.int64(at: first) >= until
        case .real: return statement.double(at: first) >= Double(until)
        case .null: return false
        case .text, .blob: return true
        }
    }

    /// True for the `seedgen_metadata` rows the digest leaves out (`content_sha256`,
    /// `publication_sequence`).
    private static func isOwnRow(_ statement: Statement, keyColumn: Int) -> Bool {
        guard statement.storageClass(at: keyColumn) == .text else { return false }
        let key = statement.bytes(at: keyColumn)
        return key.elementsEqual(ContentDigest.metadataKey.utf8) || key.elementsEqual(ContentDigest.sequenceKey.utf8)
    }
}
