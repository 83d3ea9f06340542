import SeedSQLite

/// What a patch changed: the tables, and the rowids its records touched.
struct TouchedRows {
    /// The delta's tables.
    var tables: Set<String>
    /// What the changed tables feed (derived tables and rows, indexes), derived again whole.
    var derived: Set<String> = []
    /// The rowids each table's records inserted, updated or deleted (``RowChangeLog``).
    var rowids: [String: [Int64]] = [:]
    /// A `WITHOUT ROWID` table: the first key values of the rows its records inserted, updated or
    /// deleted (SQLite reports no rowids for it), in the records' order; absent when one was not
    /// an integer.
    var keys: [String: [Int64]] = [:]

    /// Notes the row (or rows: a delete by a key's prefix) a record of `table` names.
    mutating func note(_ record: DeltaRecord, of table: DeltaTable) {
        guard !table.isRowID else { return }
        let key: [DeltaValue]
        switch record {
        case .delete(let named), .insert(let named, _), .update(let named, _): key = named
        case .table, .end: return
        }
        guard case .integer(let first) = key.first else {
            keys[table.name] = nil
            untracked.insert(table.name)
            return
        }
        guard !untracked.contains(table.name), keys[table.name]?.last != first else { return }
        keys[table.name, default: []].append(first)
    }

    /// Tables whose records name a row by a key that does not start with an integer.
    private(set) var untracked: Set<String> = []
}

extension DeltaPatch {
    /// The patched seed's content digest, its chunk record brought up to date. A table the patch
    /// left alone keeps the base's chunks (its tree when it was just proven, else its record,
    /// which the install record vouches for with the file); in a table the delta's records
    /// changed, only the chunks of the rows they touched are hashed again; what is derived again
    /// is hashed whole. `touched` nil: every chunk hashed again.
    func rehash(
        _ connection: Connection, touched: TouchedRows?, base: ContentDigest.Tree?
    ) throws(Failure) -> ContentDigest.Tree {
        do {
            // A table hashed whole, and the runs of a table's touched chunks, are hashed on two
            // cores: a second connection reads the later half (the patch is committed; the copy's
            // exclusive lock is let go meanwhile).
            try connection.execute("PRAGMA locking_mode = NORMAL; SELECT count(*) FROM sqlite_schema")
            defer { try? connection.execute("PRAGMA locking_mode = EXCLUSIVE") }
            let helper = try? Connection(path: connection.path, mode: .readOnly)
            let whole = { (chunker: ContentChunker) throws(SQLiteError) -> [ContentChunk] in
                if let helper { return try chunker.chunks(connection, helper: helper) }
                return try chunker.chunks(connection)
            }
            let hasRecord = try ContentChunkRecord.exists(connection)
            let proven = Dictionary(uniqueKeysWithValues: (base?.tables ?? []).map { ($0.name, $0.chunks) })
            var rehashed: Set<String> = []
            let chunking = { (chunker: ContentChunker) throws(SQLiteError) -> [ContentChunk] in
                let table = chunker.table
                let recorded = base == nil && hasRecord
                let before = try recorded ? ContentChunkRecord.read(table, connection: connection) : proven[table]
                guard let touched, let before else {
                    rehashed.insert(table)
                    return try whole(chunker)
                }
                let changed = touched.tables.contains(table) || touched.rowids[table] != nil
                guard changed || touched.derived.contains(table) else { return before }
                rehashed.insert(table)
                if !touched.derived.contains(table),
                    let chunks = try rechunk(connection, chunker, before, touched, helper)
                {
                    return chunks
                }
                return try whole(chunker)
            }
            let tree = try ContentDigest.tree(connection, schema: "main", chunking: chunking)
            if hasRecord { try ContentChunkRecord.keepOnly(tree.tables.map(\.name), in: connection) }
            let changed = hasRecord && base == nil ? tree.tables.filter { rehashed.contains($0.name) } : tree.tables
            try ContentChunkRecord.write(changed, to: connection)
            return tree
        } catch {
            throw .sqlite(error, table: nil)
        }
    }

    /// The chunks of a table whose rows the delta's records changed, only those they touched hashed
    /// again (on two cores, with `helper`); nil when the changes are not known row by row (hash it
    /// whole).
    private func rechunk(
        _ connection: Connection, _ chunker: ContentChunker, _ before: [ContentChunk], _ touched: TouchedRows,
        _ helper: Connection?
    ) throws(SQLiteError) -> [ContentChunk]? {
        if let rowids = touched.rowids[chunker.table] {
            return try chunker.rechunk(connection, old: before, touched: rowids, helper: helper)
        }
        if let keys = touched.keys[chunker.table] {
            return try chunker.rechunk(connection, old: before, touchedKeys: keys.sorted(), helper: helper)
        }
        return nil
    }
}
