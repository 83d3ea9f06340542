import SeedArchive
import SeedSQLite

/// Compares two seeds attached to one connection and writes the records of the delta between
/// them: the rows that differ in every table a delta carries, table by table in name order.
///
/// A delta carries a seed's *source* rows: every table with storage (`seedgen_metadata`,
/// `seedgen_inputs`, `seedgen_derive` and `sqlite_stat1` included) except what the seed derives
/// (its `seedgen_derive` recipes: derived tables, the derived rows of loaded tables, search and
/// spatial indexes and their shadow tables). The installer derives those again from the patched
/// rows, so a day's delta follows the rows that changed in the feed, not what they feed. Nor does
/// it carry the chunk record (`seedgen_content_chunks`): the installer hashes the chunks again.
package enum DeltaComparison {
    /// One table a delta carries: its name, and the condition its carried rows meet (nil: all).
    package struct SourceTable: Equatable, Sendable {
        package var name: String
        package var filter: String?
    }

    /// The tables a delta between seeds of the schema of database `schema` carries, in the
    /// order it carries them (by name, as SQLite's BINARY collation sorts).
    package static func sourceTables(_ connection: Connection, schema: String) throws(SQLiteError) -> [SourceTable] {
        let recipes = try DeriveRecipe.read(connection, schema: schema)
        var derived = Set<String>()
        var filters: [String: String] = [:]
        for recipe in recipes {
            if recipe.kind == .rows {
                filters[recipe.target] = recipe.rows ?? "0"
            } else {
                derived.insert(recipe.target)
            }
        }
        let shadows = Set(
            try connection.rows(
                "SELECT name FROM pragma_table_list WHERE schema = ? AND type = 'shadow'", [.text(schema)]
            )
            .compactMap { $0.first?.text })
        // A virtual table keeps its rows in its shadow tables, which a delta leaves out: only one
        // a recipe derives again (an index over a table) can be patched.
        for name in try connection.rows(
            "SELECT name FROM pragma_table_list WHERE schema = ? AND type = 'virtual'", [.text(schema)]
        ).compactMap({ $0.first?.text })
        where !derived.contains(name) {
            throw SQLiteError(
                .error,
                message:
                    """
                    virtual table '\(name)' holds rows no recipe of seedgen_derive derives again, which a delta \
                    cannot carry
                    """
            )
        }
        return try DeltaTableShape.tables(connection, schema: schema)
            .filter { !derived.contains($0) && !shadows.contains($0) && $0 != ContentChunkRecord.tableName }
            .map { SourceTable(name: $0, filter: filters[$0]) }
    }

    /// Writes to `writer` the records that turn database `old` into database `new` (attached
    /// names), after the caller has checked that both have the same SQL schema. A large table is
    /// compared on two threads, the second with a connection of its own.
    /// - Parameter spools: three scratch files for a table's inserts and updates while its
    ///   deletes are written (``RecordSpool``), and the second thread's deletes and inserts; the
    ///   caller removes them.
    /// - Returns: the changes of each table that has some, in the delta's order.
    package static func write(
        _ connection: Connection, old: String, new: String, to writer: DeltaWriter, spools: [String]
    ) throws -> [TableChanges] {
        precondition(spools.count == 3, "three scratch files")
        var tables: [TableChanges] = []
        let spool = RecordSpool(path: spools[0])
        let helper = try helper(connection, old: old, new: new).map {
            TableComparison.Helper(
                connection: $0, deletes: RecordSpool(path: spools[1]), inserts: RecordSpool(path: spools[2]))
        }
        for table in try sourceTables(connection, schema: new) {
            let shape = try DeltaTableShape.read(connection, schema: new, table: table.name)
            var comparison = TableComparison(
                shape: shape, old: (old, table.name), new: (new, table.name), connection: connection,
                filter: table.filter)
            comparison.ranges = try changedRanges(connection, table: table.name, old: old, new: new)
            var started = false
            let changes = try comparison.run(spool: spool, helper: helper) { record in
                if !started { try writer.write(.table(shape.deltaTable)) }
                started = true
                try writer.write(record)
            }
            if started { tables.append(changes) }
        }
        return tables
    }

    /// A second connection with the files of `old` and `new` attached under those names; nil
    /// when one is not a file (an in-memory database).
    private static func helper(_ connection: Connection, old: String, new: String) throws -> Connection? {
        let files = Dictionary(
            try connection.rows("SELECT name, file FROM pragma_database_list").compactMap { row in
                row[0].text.flatMap { name in row[1].text.map { (name, $0) } }
            }, uniquingKeysWith: { first, _ in first })
        guard let oldFile = files[old], let newFile = files[new], !oldFile.isEmpty, !newFile.isEmpty else {
            return nil
        }
        let helper = try Connection(path: ":memory:")
        try helper.attachReadOnly(oldFile, as: old)
        try helper.attachReadOnly(newFile, as: new)
        return helper
    }

    /// Where the table's rows may differ, from both seeds' chunk records (nil: compare every
    /// row): when both record the table, and its key orders rows as BINARY compares them. Not
    /// in `seedgen_metadata`, whose chunks leave out rows a delta carries (the content digest).
    private static func changedRanges(
        _ connection: Connection, table: String, old: String, new: String
    ) throws -> [KeyRange]? {
        guard table != "seedgen_metadata", try ContentChunkRecord.exists(connection, schema: old),
            try ContentChunkRecord.exists(connection, schema: new),
            let oldChunks = try ContentChunkRecord.read(table, connection: connection, schema: old),
            let newChunks = try ContentChunkRecord.read(table, connection: connection, schema: new),
            try connection.scalar(
                """
                SELECT count(*) FROM pragma_index_list(?1, ?2) AS l, pragma_index_xinfo(l.name, ?2) AS x
                WHERE l.origin = 'pk' AND x.key = 1 AND x.coll <> 'BINARY'
                """, [.text(table), .text(new)])?.integer == 0
        else { return nil }
        return ChangedKeyRanges.between(old: oldChunks, new: newChunks)
    }
}
