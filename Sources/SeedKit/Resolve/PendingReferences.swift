import SeedSQLite

/// The references of one table's reference column whose target row was not known yet when
/// their row was written (XML: NeTEx lists `<routes>` before the `<lines>` they point at).
/// Each is kept on disk in a temporary table (row id, place, key), not in memory; after
/// every input is loaded they are resolved in one set-based statement, and only the keys
/// still unknown are dangling: absent from the whole input.
final class PendingReferences {
    let reference: Reference
    let table: Table
    let target: Table
    private let connection: Connection
    private let name: String
    private let insert: Statement
    private let forget: Statement
    /// How many rows were deferred.
    private(set) var count = 0

    init(reference: Reference, table: Table, target: Table, connection: Connection) throws(SQLiteError) {
        self.reference = reference
        self.table = table
        self.target = target
        self.connection = connection
        name = quoted("seedgen_pending_\(table.name)_\(reference.column)")
        let keys = reference.from.indices.map { "k\($0)" }
        // TEMP: the temporary database lives in its own file (temp_store = FILE) and is
        // never part of the seed.
        try connection.execute(
            """
            CREATE TEMP TABLE \(name) (row INTEGER PRIMARY KEY, line INTEGER, col INTEGER, file TEXT, \
            \(keys.joined(separator: ", ")))
            """
        )
        let marks = Array(repeating: "?", count: keys.count + 4).joined(separator: ", ")
        insert = try connection.prepare("INSERT INTO temp.\(name) VALUES (\(marks))")
        forget = try connection.prepare("DELETE FROM temp.\(name) WHERE row = ?")
    }

    /// Remembers that row `row` (read at `file`:`line`:`column`) names the target key `key`.
    func add(row: Int64, line: Int, column: Int?, file: String, key: [Value]) throws(SQLiteError) {
        try insert.bind(
            [.integer(row), .integer(Int64(line)), column.map { .integer(Int64($0)) } ?? .null, .text(file)] + key)
        defer { insert.reset() }
        _ = try insert.step()
        count += 1
    }

    /// Forgets the key kept for row `row`, if any: another version of its object replaced the
    /// row, and that version's own key (kept again with `add`, or resolved already) is the one
    /// to resolve.
    func forget(row: Int64) throws(SQLiteError) {
        try forget.bind([.integer(row)])
        defer { forget.reset() }
        _ = try forget.step()
    }

    /// A key still unknown after resolution, with the place of the row that names it.
    struct Unresolved {
        var line: Int
        var column: Int?
        var file: String
        var key: String
        /// The key's values, one per `from` column.
        var parts: [String]
    }

    /// Resolves every deferred key against the target table as loaded; calls `body` for each
    /// row whose key names no row (in row order, streamed: there may be millions), then drops
    /// the temporary table. Returns how many there were.
    @discardableResult
    func resolve(_ body: (Unresolved) -> Void) throws(SQLiteError) -> Int {
        defer { try? connection.execute("DROP TABLE temp.\(name)") }
        guard count > 0 else { return 0 }
        let matches = reference.targetColumns(in: target).enumerated().map { "p.\(quoted($1)) = d.k\($0)" }.joined(
            separator: " AND ")
        if reference.matchesKeyPrefix(of: target) || target.duplicates == .merge {
            // Several rows may match (objects of several documents sharing a key, see
            // `DocumentScope`): the first, as the resolver's lookup takes it.
            try connection.execute(
                """
                UPDATE main.\(quoted(table.name)) AS t SET \(quoted(reference.column)) =
                  (SELECT min(p.\(quoted(target.rowID))) FROM main.\(quoted(target.name)) AS p WHERE \(matches))
                FROM temp.\(name) AS d WHERE t.\(quoted(table.rowID)) = d.row
                """)
        } else {
            try connection.execute(
                """
                UPDATE main.\(quoted(table.name)) AS t SET \(quoted(reference.column)) = p.\(quoted(target.rowID))
                FROM temp.\(name) AS d, main.\(quoted(target.name)) AS p
                WHERE t.\(quoted(table.rowID)) = d.row AND \(matches)
                """)
        }
        let keys = reference.from.indices.map { "d.k\($0)" }.joined(separator: ", ")
        let unresolved = try connection.prepare(
            """
            SELECT d.line, d.col, d.file, \(keys) FROM temp.\(name) AS d
            JOIN main.\(quoted(table.name)) AS t ON t.\(quoted(table.rowID)) = d.row
            WHERE t.\(quoted(reference.column)) IS NULL ORDER BY d.row
            """)
        var found = 0
        while try unresolved.step() {
            found += 1
            let parts = (3..<(3 + reference.from.count)).map { unresolved.value(at: $0).description }
            body(
                Unresolved(
                    line: Int(unresolved.int64(at: 0)), column: unresolved.value(at: 1).integer.map { Int($0) },
                    file: unresolved.value(at: 2).text ?? "", key: parts.joined(separator: ","), parts: parts))
        }
        unresolved.reset() // no statement reads the table when it is dropped
        return found
    }
}
