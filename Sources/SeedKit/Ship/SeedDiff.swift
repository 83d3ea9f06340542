import SeedSQLite

/// What changed in the data between two seeds, table by table, matching rows by natural key.
///
/// Rows are compared without the integer primary key (`id`) and the reference columns
/// (`*_ref`, every foreign key): ids are row numbers, which shift whenever rows are added or
/// removed upstream, so comparing them would report most of a table as changed. A row is
/// *changed* when its key is in both seeds and another compared column differs.
///
/// The key of a table is, in order: the schema's `key` when a schema is given; the columns of
/// the seed's unique index `<table>_key` (which seedgen creates for every key); else the whole
/// row, so a row is only ever added or removed (identical rows count once). A reference in the
/// key (`stop_times` is keyed by `trip_ref, stop_sequence`) is replaced by the columns it was
/// resolved from (`trip_id`).
///
/// Everything is computed in SQL over the two attached databases, so memory does not grow
/// with the seeds.
public struct SeedDiff: Codable, Equatable, Sendable {
    /// The versions of one side.
    public struct Side: Codable, Equatable, Sendable {
        public var path: String
        public var schemaVersion: Int
        public var seedVersion: String?
    }

    /// The changes to one table.
    public struct TableChanges: Codable, Equatable, Sendable {
        /// The key the rows were matched by; empty when matched by the whole row.
        public var key: [String]
        public var oldRows: Int64
        public var newRows: Int64
        public var added: Int64
        public var removed: Int64
        public var changed: Int64
        /// How many changed rows differ in each column.
        public var changedColumns: [String: Int64]
        /// Keys of some added, removed and changed rows (values as text), at most `limit` each.
        public var examples: Examples
        /// `both`, or `added`/`removed` when the table exists only in the new/old seed.
        public var presence: String

        public var hasChanges: Bool { added + removed + changed > 0 || presence != "both" }
    }

    /// Keys of example rows.
    public struct Examples: Codable, Equatable, Sendable {
        public var added: [[String]] = []
        public var removed: [[String]] = []
        public var changed: [[String]] = []
    }

    public var old: Side
    public var new: Side
    /// The changes by table name, for every table in either seed.
    public var tables: [String: TableChanges]

    /// True when any table has a difference.
    public var hasChanges: Bool { tables.values.contains { $0.hasChanges } }

    /// Compares two seeds.
    /// - Parameters:
    ///   - old: the earlier seed.
    ///   - new: the later seed.
    ///   - schema: gives the natural key of each table; nil to use the seeds' `<table>_key` indexes.
    ///   - limit: how many example keys to keep per table and kind of change.
    public static func compare(old: SeedFile, new: SeedFile, schema: Schema? = nil, limit: Int = 5) throws(ShipError) -> SeedDiff {
        guard let oldPath = old.databasePath else { throw ShipError(path: old.path, message: "there is no seed beside this manifest") }
        guard let newPath = new.databasePath else { throw ShipError(path: new.path, message: "there is no seed beside this manifest") }
        do {
            let connection = try Connection(path: ":memory:")
            try attach(oldPath, as: "old", to: connection)
            try attach(newPath, as: "new", to: connection)
            var diff = SeedDiff(old: try side(old.path, "old", connection), new: try side(new.path, "new", connection), tables: [:])
            let oldTables = try connection.seedTables(schema: "old")
            let newTables = try connection.seedTables(schema: "new")
            for table in newTables + oldTables.filter({ !newTables.contains($0) }) {
                diff.tables[table] = try compare(table: table, inOld: oldTables.contains(table), inNew: newTables.contains(table),
                                                 schemaTable: schema?.table(named: table), limit: limit, connection)
            }
            return diff
        } catch let error as ShipError {
            throw error
        } catch {
            throw ShipError(path: new.path, message: "cannot compare with \(old.path): \(error)")
        }
    }

    private static func attach(_ path: String, as name: String, to connection: Connection) throws {
        do { try connection.execute("ATTACH DATABASE '\(SeedFile.uri(path, immutable: true).replacingOccurrences(of: "'", with: "''"))' AS \(name)") } catch {
            try connection.execute("ATTACH DATABASE '\(path.replacingOccurrences(of: "'", with: "''"))' AS \(name)")
        }
        _ = try connection.scalar("SELECT count(*) FROM \(name).sqlite_schema")
    }

    private static func side(_ path: String, _ schema: String, _ connection: Connection) throws -> Side {
        let version = Int(try connection.scalar("PRAGMA \(schema).user_version")?.integer ?? 0)
        var seedVersion: String?
        if try connection.scalar("SELECT count(*) FROM \(schema).sqlite_schema WHERE name = 'seedgen_metadata'")?.integer == 1 {
            seedVersion = try connection.scalar("SELECT value FROM \(schema).seedgen_metadata WHERE key = 'seed_version'")?.text
        }
        return Side(path: path, schemaVersion: version, seedVersion: seedVersion)
    }

    private static func compare(table: String, inOld: Bool, inNew: Bool, schemaTable: Table?, limit: Int,
                                _ connection: Connection) throws -> TableChanges {
        let t = quoted(table)
        let oldRows = inOld ? try connection.scalar("SELECT count(*) FROM old.\(t)")?.integer ?? 0 : 0
        let newRows = inNew ? try connection.scalar("SELECT count(*) FROM new.\(t)")?.integer ?? 0 : 0
        guard inOld && inNew else {
            return TableChanges(key: [], oldRows: oldRows, newRows: newRows, added: newRows, removed: oldRows, changed: 0,
                                changedColumns: [:], examples: Examples(), presence: inNew ? "added" : "removed")
        }
        // Compared columns: those in both seeds, but not the primary key or a reference.
        let oldColumns = try connection.seedColumns(of: table, schema: "old")
        let newColumns = try connection.seedColumns(of: table, schema: "new")
        let ignored = Set(newColumns.filter(\.primaryKey).map(\.name) + oldColumns.filter(\.primaryKey).map(\.name))
            .union(try connection.seedReferences(of: table, schema: "new").keys)
            .union(try connection.seedReferences(of: table, schema: "old").keys)
        let oldNames = Set(oldColumns.map(\.name))
        let columns = newColumns.map(\.name).filter { oldNames.contains($0) && !ignored.contains($0) }

        var key = schemaTable?.key ?? []
        if key.isEmpty, let index = try connection.uniqueIndexColumns(table + "_key", table: table, schema: "new") { key = index }
        key = try naturalKey(key, table: table, schemaTable: schemaTable, columns: columns, connection)

        var changes = TableChanges(key: key, oldRows: oldRows, newRows: newRows, added: 0, removed: 0, changed: 0,
                                   changedColumns: [:], examples: Examples(), presence: "both")
        if key.isEmpty {
            // Matched by the whole row: a row is added or removed, never changed.
            let list = columns.map(quoted).joined(separator: ", ")
            let added = "SELECT \(list) FROM new.\(t) EXCEPT SELECT \(list) FROM old.\(t)"
            let removed = "SELECT \(list) FROM old.\(t) EXCEPT SELECT \(list) FROM new.\(t)"
            changes.added = try connection.scalar("SELECT count(*) FROM (\(added))")?.integer ?? 0
            changes.removed = try connection.scalar("SELECT count(*) FROM (\(removed))")?.integer ?? 0
            changes.examples.added = try texts(connection, "\(added) ORDER BY 1 LIMIT \(limit)")
            changes.examples.removed = try texts(connection, "\(removed) ORDER BY 1 LIMIT \(limit)")
            return changes
        }

        // Set differences only (EXCEPT sorts; it needs no index on the key, treats NULLs as
        // equal, and spills to disk on big tables). Keys are unique in each seed, so a row of
        // NEW EXCEPT OLD is either an added key or a changed row.
        let keyList = key.map(quoted).joined(separator: ", ")
        let compared = columns.filter { !key.contains($0) }
        let addedKeys = "SELECT \(keyList) FROM new.\(t) EXCEPT SELECT \(keyList) FROM old.\(t)"
        let removedKeys = "SELECT \(keyList) FROM old.\(t) EXCEPT SELECT \(keyList) FROM new.\(t)"
        changes.added = try connection.scalar("SELECT count(*) FROM (\(addedKeys))")?.integer ?? 0
        changes.removed = try connection.scalar("SELECT count(*) FROM (\(removedKeys))")?.integer ?? 0
        changes.examples.added = try texts(connection, "\(addedKeys) ORDER BY \(keyList) LIMIT \(limit)")
        changes.examples.removed = try texts(connection, "\(removedKeys) ORDER BY \(keyList) LIMIT \(limit)")
        guard !compared.isEmpty else { return changes }

        func differing(_ selected: [String]) -> String {
            let list = (key + selected).map(quoted).joined(separator: ", ")
            return "SELECT \(list) FROM new.\(t) EXCEPT SELECT \(list) FROM old.\(t)"
        }
        let changedKeys = "SELECT \(keyList) FROM (\(differing(compared))) INTERSECT SELECT \(keyList) FROM old.\(t)"
        changes.changed = try connection.scalar("SELECT count(*) FROM (\(changedKeys))")?.integer ?? 0
        guard changes.changed > 0 else { return changes }
        changes.examples.changed = try texts(connection, "\(changedKeys) ORDER BY \(keyList) LIMIT \(limit)")
        for column in compared {
            let count = (try connection.scalar("SELECT count(*) FROM (\(differing([column])))")?.integer ?? 0) - changes.added
            if count > 0 { changes.changedColumns[column] = count }
        }
        return changes
    }

    /// `key` with its reference columns replaced by the natural key they were resolved from
    /// (`stop_times (trip_ref, stop_sequence)` -> `(trip_id, stop_sequence)`): the schema's
    /// `from` columns, or else the referenced table's `<table>_key` columns when this table
    /// has them too. Empty (match whole rows) when some key column cannot be compared.
    private static func naturalKey(_ key: [String], table: String, schemaTable: Table?, columns: [String],
                                   _ connection: Connection) throws -> [String] {
        let references = try connection.seedReferences(of: table, schema: "new")
        var natural: [String] = []
        for column in key {
            if columns.contains(column) {
                natural.append(column)
            } else if let reference = schemaTable?.references.first(where: { $0.column == column }), reference.from.allSatisfy(columns.contains) {
                natural += reference.from
            } else if let target = references[column],
                      let targetKey = try connection.uniqueIndexColumns(target + "_key", table: target, schema: "new"),
                      targetKey.allSatisfy(columns.contains) {
                natural += targetKey
            } else {
                return []
            }
        }
        return natural
    }

    private static func texts(_ connection: Connection, _ sql: String) throws -> [[String]] {
        try connection.rows(sql).map { $0.map(\.description) }
    }
}
