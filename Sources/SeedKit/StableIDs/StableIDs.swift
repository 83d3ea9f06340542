import SeedArchive
import SeedDeltas
import SeedSQLite

/// The stage that gives the rows of a build the ids they had in the previous seed
/// (`seedgen build --previous`), so that a seed differs from the one before only in the rows
/// whose data changed, and a delta between them (`seedgen delta`) stays that small.
///
/// It runs once every row is loaded, before anything is derived and before the indexes are
/// built, in set-based SQL over the scratch database with the previous seed attached read-only
/// (memory stays bounded whatever the size; scratch tables go to SQLite's temporary files):
///
/// 1. Ids, per table with an id, in load order: a row whose key (the table's natural key; the
///    whole row, references included, for a table without one) is in the previous seed keeps
///    that row's id. Rows that share a key (a table without one may repeat a row) are paired
///    in id order. The other rows get ids above the table's high-water mark, in input order:
///    the largest of the previous seed's ids and of the `max_id.<table>` it recorded, so the id
///    of a row removed two versions ago is never given again. Keys that hold references are
///    compared through the referenced rows' new ids. Derived rows (`derive:`) are not matched:
///    they are derived again from the final ids. A table whose rows the load already gave these
///    ids (`PreviousIDs`) is only checked, in one pass (`loadedIDsHold`).
/// 2. Rows, per table whose ids or references changed: rewritten with them (`*_ref`, parent
///    links, `WITHOUT ROWID` keys such as `stop_times (trip_ref, stop_sequence)`).
///
/// The high-water marks and the previous seed's version are recorded in `seedgen_metadata`
/// (`max_id.<table>`, `previous_seed_version`).
struct StableIDs: BuildStage {
    /// What one table's ids became.
    struct Outcome: Equatable {
        var table: String
        /// Rows that kept the previous seed's id.
        var kept: Int64
        /// Rows given a new id.
        var added: Int64
    }

    func run(_ state: BuildState) throws {
        guard let previous = state.previous else { return }
        state.progress?.phase("keeping ids")
        let result = try Renumbering(
            previous: previous, tables: state.allTables, connection: state.connection, timer: state.timer
        )
        .run()
        state.previousMetadata = result.metadata
        state.renumberedTables = result.renumbered
    }
}

/// The work of `StableIDs` on one scratch database.
struct Renumbering {
    let previous: PreviousSeed
    /// The tables in load order, then the extra tables.
    let tables: [Table]
    let connection: Connection
    /// Marks each table's steps (`SEEDGEN_TRACE=1`).
    var timer: PhaseTimer?

    /// Renumbers and rewrites every table.
    /// - Returns: the `seedgen_metadata` entries to record, what each table's ids became, and the
    ///   tables whose ids are not those the load gave.
    func run() throws -> (
        metadata: [(key: String, value: String)], outcomes: [StableIDs.Outcome], renumbered: Set<String>
    ) {
        try connection.attachReadOnly(previous.path, as: "previous")
        defer { try? connection.execute("DETACH DATABASE previous") }
        try connection.execute("BEGIN")
        defer { try? connection.execute("ROLLBACK") } // a no-op after COMMIT
        var metadata: [(key: String, value: String)] = [(PreviousSeed.versionKey, previous.identity.seedVersion)]
        var outcomes: [StableIDs.Outcome] = []
        var renumbered = Set<String>()
        defer { for name in renumbered { try? connection.execute("DROP TABLE IF EXISTS temp.\(q(mapName(name)))") } }
        for table in tables where !table.withoutRowID && !table.isDerived {
            let (highWater, outcome, isIdentity) = try numberIDs(of: table, renumbered: renumbered)
            if !isIdentity { renumbered.insert(table.name) }
            if let outcome { outcomes.append(outcome) }
            metadata.append((PreviousSeed.maximumIDPrefix + table.name, String(highWater)))
            timer?.mark("ids \(table.name)")
        }
        for table in tables where !table.isDerived {
            try rewrite(table, renumbered: renumbered)
        }
        for name in renumbered { try connection.execute("DROP TABLE temp.\(q(mapName(name)))") }
        let changed = renumbered
        renumbered = []
        try connection.execute("COMMIT")
        return (metadata, outcomes, changed)
    }

    // MARK: - Ids

    /// Fills the table's id map, `temp."seedgen_ids_<table>" (new, stable)`.
    /// - Returns: the new high-water mark, the counts, and whether every id stayed as loaded
    ///   (then the map is dropped).
    private func numberIDs(of table: Table, renumbered: Set<String>) throws -> (Int64, StableIDs.Outcome?, Bool) {
        let name = q(table.name), id = q(table.rowID), map = "temp.\(q(mapName(table.name)))"
        let previousSQL = try definition(of: table.name, in: "previous")
        let loadedMaximum = try connection.scalar("SELECT max(\(id)) FROM main.\(name)")?.integer ?? 0
        guard let previousSQL else { return (loadedMaximum, nil, true) }
        let recorded = previous.recordedMaximumID(table.name) ?? 0
        let previousMaximum = try connection.scalar("SELECT max(\(id)) FROM previous.\(name)")?.integer ?? 0
        let highWater = max(recorded, previousMaximum, 0)

        let sameTable = previousSQL == (try definition(of: table.name, in: "main"))
        if sameTable, let outcome = try loadedIDsHold(table, highWater: highWater, renumbered: renumbered) {
            return (max(highWater, loadedMaximum), outcome, true)
        }
        try connection.execute("CREATE TEMP TABLE \(q(mapName(table.name))) (new INTEGER PRIMARY KEY, stable INTEGER)")
        if sameTable {
            // The whole row for a table without a key: every stored value but the id and what
            // is computed after loading (expression columns, a derive marker).
            let computed = Set(
                table.columns.filter { $0.expression != nil }.map(\.name) + [table.derive?.marker].compactMap { $0 })
            let key =
                table.key.isEmpty
                ? table.layout.filter { $0.role != .rowID && !computed.contains($0.name) }.map(\.name) : table.key
            let keyNames = key.indices.map { "k\($0)" }
            let oldKeys = key.map { "t.\(q($0))" }
            let newKeys = key.map { mapped(table, column: $0, renumbered: renumbered) }
            func select(_ expressions: [String]) -> String {
                zip(expressions, keyNames).map { "\($0) AS \($1)" }.joined(separator: ", ")
                    + ", row_number() OVER (PARTITION BY \(expressions.joined(separator: ", ")) ORDER BY t.\(id)) AS n"
            }
            let matching = (keyNames.map { "o.\($0) IS n.\($0)" } + ["o.n = n.n"]).joined(separator: " AND ")
            // The previous seed's derived rows are not rows to match.
            let previousRows =
                table.derive?.marker.map { "previous.\(name) AS t WHERE t.\(q($0)) IS NOT 1" }
                ?? "previous.\(name) AS t"
            // Rows sharing a key are paired in id order (n); the previous side is indexed.
            try connection.execute(
                """
                CREATE TEMP TABLE seedgen_previous_keys AS SELECT t.\(id) AS id, \(select(oldKeys)) FROM \
                \(previousRows);
                CREATE INDEX temp.seedgen_previous_keys_key ON seedgen_previous_keys \
                (\(keyNames.joined(separator: ", ")), n);
                INSERT INTO \(map) (new, stable)
                  SELECT n.id, o.id FROM (SELECT t.\(id) AS id, \(select(newKeys)) FROM main.\(name) AS t) AS n
                    LEFT JOIN temp.seedgen_previous_keys AS o ON \(matching);
                DROP TABLE temp.seedgen_previous_keys;
                """)
        } else {
            try connection.execute("INSERT INTO \(map) (new, stable) SELECT \(id), NULL FROM main.\(name)")
        }
        let kept = try connection.scalar("SELECT count(stable) FROM \(map)")?.integer ?? 0
        let added = try connection.scalar("SELECT count(*) FROM \(map) WHERE stable IS NULL")?.integer ?? 0
        try connection.execute(
            """
            UPDATE \(map) SET stable = \(highWater) + u.r
              FROM (SELECT new, row_number() OVER (ORDER BY new) AS r FROM \(map) WHERE stable IS NULL) AS u
              WHERE \(map).new = u.new;
            CREATE UNIQUE INDEX temp.\(q(mapName(table.name) + "_stable")) ON \(q(mapName(table.name))) (stable);
            """)
        let maximum = try connection.scalar("SELECT max(stable) FROM \(map)")?.integer ?? 0
        let isIdentity = try connection.scalar("SELECT count(*) FROM \(map) WHERE new <> stable")?.integer == 0
        if isIdentity { try connection.execute("DROP TABLE \(map)") }
        return (max(highWater, maximum), StableIDs.Outcome(table: table.name, kept: kept, added: added), isIdentity)
    }

    /// For a table whose ids the load gave from the previous seed (`PreviousIDs`): the counts,
    /// when those ids are the ones the stage would give, found in one pass: no row's key is a
    /// previous row's with another id, and the ids of the rows whose key is new run on from
    /// the high-water mark without a gap, so in input order. Nil otherwise (a key with an empty
    /// part, which the load cannot look up; a table the load did not number): the table is
    /// numbered the long way.
    private func loadedIDsHold(
        _ table: Table, highWater: Int64, renumbered: Set<String>
    ) throws -> StableIDs.Outcome? {
        guard PreviousIDs.applies(to: table),
            table.key.allSatisfy({ mapped(table, column: $0, renumbered: renumbered) == "t.\(q($0))" })
        else { return nil }
        let name = q(table.name), id = q(table.rowID)
        let matching = table.key.map { "o.\(q($0)) IS t.\(q($0))" }.joined(separator: " AND ")
        // A key the previous seed holds twice pairs a row with two ids: one of them another.
        let counts = try connection.rows(
            """
            SELECT count(o.\(id)), count(*) - count(o.\(id)), sum(o.\(id) IS NOT NULL AND o.\(id) <> t.\(id)),
              min(CASE WHEN o.\(id) IS NULL THEN t.\(id) END), max(CASE WHEN o.\(id) IS NULL THEN t.\(id) END)
            FROM main.\(name) AS t LEFT JOIN previous.\(name) AS o ON \(matching)
            """
        ).first
        guard let counts, let kept = counts[0].integer, let added = counts[1].integer, counts[2].integer ?? 0 == 0
        else { return nil }
        if added > 0 {
            guard counts[3].integer == highWater + 1, counts[4].integer == highWater + added else { return nil }
        }
        return StableIDs.Outcome(table: table.name, kept: kept, added: added)
    }

    /// The SQL for column `column` of a row `t` of `table` with its references renumbered.
    private func mapped(_ table: Table, column: String, renumbered: Set<String>) -> String {
        var target: String?
        if column == table.rowID && !table.withoutRowID { target = table.name }
        if let parent = table.parent, parent.column == column { target = parent.table }
        if let reference = table.references.first(where: { $0.column == column }) { target = reference.to }
        if let foreignKey = table.column(named: column)?.foreignKey { target = foreignKey }
        guard let target, renumbered.contains(target) else { return "t.\(q(column))" }
        return "(SELECT stable FROM temp.\(q(mapName(target))) WHERE new = t.\(q(column)))"
    }

    // MARK: - Rows

    /// Rewrites the table's rows with their new ids and references, when any changed: into a
    /// scratch table, then back in key order.
    private func rewrite(_ table: Table, renumbered: Set<String>) throws {
        let name = q(table.name)
        guard let sql = try definition(of: table.name, in: "main") else { return }
        let layout = table.layout
        guard layout.contains(where: { mapped(table, column: $0.name, renumbered: renumbered) != "t.\(q($0.name))" })
        else { return }
        let scratch = "seedgen_new_" + table.name
        let prefix = "CREATE TABLE \(name) "
        guard sql.hasPrefix(prefix) else {
            throw BuildError.output(path: table.name, message: "unexpected table definition: \(sql)")
        }
        try connection.execute("CREATE TEMP TABLE \(q(scratch)) " + sql.dropFirst(prefix.count))
        defer { try? connection.execute("DROP TABLE IF EXISTS temp.\(q(scratch))") }
        let columns = layout.map { mapped(table, column: $0.name, renumbered: renumbered) }.joined(separator: ", ")
        try connection.execute(
            """
            INSERT INTO temp.\(q(scratch)) SELECT \(columns) FROM main.\(name) AS t;
            DELETE FROM main.\(name);
            INSERT INTO main.\(name) SELECT * FROM temp.\(q(scratch));
            """)
        timer?.mark("rows \(table.name)")
    }

    /// The table's `CREATE TABLE` text in database `schema`; nil when it has no such table.
    private func definition(of table: String, in schema: String) throws -> String? {
        try connection.scalar(
            "SELECT sql FROM \(q(schema)).sqlite_schema WHERE type = 'table' AND name = ?", [.text(table)])?.text
    }

    private func mapName(_ table: String) -> String { "seedgen_ids_" + table }
    private func q(_ identifier: String) -> String { quoted(identifier) }
}
