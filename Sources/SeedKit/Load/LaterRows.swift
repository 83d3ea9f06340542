import SeedSQLite

/// With `--previous`: the rows of a `WITHOUT ROWID` table whose key starts with the id of a row
/// new in this build (a feed's stop_times of its new trips, whose ids lie above every kept one)
/// wait in a temporary table of the same shape, and join the table in key order after its last
/// row (``join()``).
///
/// The kept rows' keys ascend, and so do the new rows', but above them all: inserted as they
/// come, the two runs interleave, and each kept row goes inside the b-tree instead of at its end,
/// where SQLite appends at the least cost (3M stop_times with 6 % of the trips new: loading them
/// took 2.31 s, and takes 1.94 with the new trips' rows waiting here). The rows are routed by
/// key, so the two tables' keys never meet: a row that repeats a key meets its twin in the table
/// it goes to, and is reported as before (`DuplicateKeys.sideTable`).
final class LaterRows {
    /// The reference whose id starts the key.
    private let reference: Int
    /// The first id of a new row of the referenced table.
    private let firstNewID: Int64
    /// The waiting rows' groups; their resolved ids are kept from slot `InsertGroup.size` on.
    let group: InsertGroup
    /// The one-row INSERT into the temporary table, and its parameters holding NULL.
    let insert: Statement
    let nulls: BoundNulls
    private let connection: Connection
    /// The temporary table's name (in `temp`).
    let tableName: String
    private let name: String
    private let joinSQL: String

    /// Nil unless the build has `--previous` and `table`'s key starts with a reference to a
    /// table whose ids are given while loading (`PreviousIDs`).
    /// - Parameters:
    ///   - names: the columns the table's INSERT names, in its order.
    ///   - key: the key's parts (`InsertGroup.integerKey(of:)`).
    init?(
        table: Table, context: BuildContext, names: [String], key: [InsertGroup.KeyPart], connection: Connection
    ) throws(SQLiteError) {
        guard let previousIDs = context.previousIDs, case .reference(let r) = key.first,
            let target = context.schema.table(named: table.references[r].to),
            let firstNewID = previousIDs.firstNewID(in: target)
        else { return nil }
        // The table as created so far (its trailing columns come after loading).
        let prefix = "CREATE TABLE \(quoted(table.name)) "
        guard
            let created = try connection.scalar(
                "SELECT sql FROM main.sqlite_schema WHERE type = 'table' AND name = ?", [.text(table.name)])?.text,
            created.hasPrefix(prefix)
        else { return nil }
        reference = r
        self.firstNewID = firstNewID
        self.connection = connection
        tableName = "seedgen_later_" + table.name
        name = "temp." + quoted(tableName)
        let columns = names.map(quoted).joined(separator: ", ")
        let order = table.key.map(quoted).joined(separator: ", ")
        joinSQL = """
            INSERT INTO main.\(quoted(table.name)) (\(columns)) SELECT \(columns) FROM \(name) ORDER BY \(order);
            DROP TABLE \(name)
            """
        try connection.execute(
            "DROP TABLE IF EXISTS \(name); CREATE TEMP TABLE \(quoted(tableName)) "
                + created.dropFirst(prefix.count))
        let head = "INSERT INTO \(name) (\(columns)) VALUES "
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        insert = try connection.prepare(head + "(\(placeholders))")
        nulls = BoundNulls(parameterCount: names.count)
        group = try InsertGroup(
            head: head, parametersPerRow: Int32(names.count), key: key, firstSlot: InsertGroup.size,
            connection: connection)
    }

    /// True when the row whose references are resolved at `slot` waits here.
    @inline(__always)
    func holds(_ resolved: ResolvedIDs, slot: Int) -> Bool {
        guard let id = resolved.id(slot: slot, reference) else { return false }
        return id >= firstNewID
    }

    /// After the table's last row: the waiting rows join it, in key order (after every row it
    /// holds: appended), and the temporary table is dropped.
    func join() throws(SQLiteError) {
        try connection.execute(joinSQL)
    }
}
