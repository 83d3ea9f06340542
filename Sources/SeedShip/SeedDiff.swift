import SeedKit
import SeedSQLite

/// What changed in the data between two seeds, table by table, matching rows by natural key.
///
/// Ids are row numbers, which shift whenever rows are added or removed upstream, so rows are
/// compared through a *natural view* of each table: without its integer row id, and with every
/// reference (`*_ref`, every foreign key) replaced by the natural key of the row it points to
/// (`stop_times.trip_ref` becomes `trip_ref.trip_id`). A row whose reference now points to
/// another trip is therefore *changed*, while a renumbering changes nothing. A row is
/// *changed* when its key is in both seeds and another compared column differs.
///
/// The key of a table is, in order: the schema's `key` when a schema is given; the columns of
/// the seed's unique index `<table>_key` (which seedgen creates for every key) or of its
/// primary key when it is stored WITHOUT ROWID; else the whole row, so a row is only ever
/// added or removed (identical rows count once). References in the key are matched by the
/// natural key they point to, like any other reference.
///
/// When either seed is a region seed (several feeds, a `feeds` table, a `feed_ref` in every
/// row), feeds are matched by name (their ids may differ between two builds), rows within their
/// feed (a reference's feed is its feed's name), and the changes are also told per feed
/// (``feeds``): a feed added or removed, and each table's rows added, removed and changed in it.
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

    /// The changes to the rows of one feed in one table.
    public struct FeedTableChanges: Codable, Equatable, Sendable {
        public var oldRows: Int64 = 0
        public var newRows: Int64 = 0
        public var added: Int64 = 0
        public var removed: Int64 = 0
        public var changed: Int64 = 0

        public var hasChanges: Bool { added + removed + changed > 0 || oldRows != newRows }
    }

    /// The changes to one feed of a region seed.
    public struct FeedChanges: Codable, Equatable, Sendable {
        /// The feed's name, which matches it between the seeds.
        public var name: String
        /// `both`, or `added`/`removed` when the feed is only in the new/old seed.
        public var presence: String
        /// Where the feed was read from, in each seed that has it.
        public var oldSource: String?
        public var newSource: String?
        /// The changes to the feed's rows by table, for every table with rows of the feed in
        /// either seed. Rows that cannot be matched within their feed (a table only in one seed,
        /// or a seed of one feed against a region seed) count as added or removed.
        public var tables: [String: FeedTableChanges]

        public var oldRows: Int64 { tables.values.reduce(0) { $0 + $1.oldRows } }
        public var newRows: Int64 { tables.values.reduce(0) { $0 + $1.newRows } }
        public var hasChanges: Bool {
            presence != "both" || oldSource != newSource || tables.values.contains { $0.hasChanges }
        }
    }

    public var old: Side
    public var new: Side
    /// The changes by table name, for every table in either seed.
    public var tables: [String: TableChanges]
    /// When either seed is a region seed: the changes per feed, for every feed of either seed,
    /// by name; nil when both seeds hold one feed.
    public var feeds: [FeedChanges]?

    /// True when any table has a difference.
    public var hasChanges: Bool { tables.values.contains { $0.hasChanges } }

    /// Compares two seeds.
    /// - Parameters:
    ///   - old: the earlier seed.
    ///   - new: the later seed.
    ///   - schema: gives the natural key of each table; nil to use the seeds' `<table>_key` indexes.
    ///   - limit: how many example keys to keep per table and kind of change.
    public static func compare(
        old: SeedFile, new: SeedFile, schema: Schema? = nil, limit: Int = 5
    ) throws(ShipError) -> SeedDiff {
        guard let oldPath = old.databasePath else {
            throw ShipError(code: .notASeed, path: old.path, message: "there is no seed beside this manifest")
        }
        guard let newPath = new.databasePath else {
            throw ShipError(code: .notASeed, path: new.path, message: "there is no seed beside this manifest")
        }
        do {
            let connection = try Connection(path: ":memory:")
            try connection.attachReadOnly(oldPath, as: "old")
            try connection.attachReadOnly(newPath, as: "new")
            var diff = SeedDiff(
                old: try side(old.path, "old", connection), new: try side(new.path, "new", connection), tables: [:])
            let oldTables = try connection.seedTables(schema: "old")
            let newTables = try connection.seedTables(schema: "new")
            let oldFeeds = try connection.seedFeeds(schema: "old"), newFeeds = try connection.seedFeeds(schema: "new")
            let region = oldFeeds != nil || newFeeds != nil
            var feedTables: [String: [String: FeedTableChanges]] = [:] // feed -> table -> changes
            for table in newTables + oldTables.filter({ !newTables.contains($0) }) {
                let (changes, byFeed) = try compare(
                    table: table, inOld: oldTables.contains(table), inNew: newTables.contains(table),
                    schemaTable: schema?.table(named: table), limit: limit, byFeed: region, connection)
                diff.tables[table] = changes
                for (feed, changes) in byFeed { feedTables[feed, default: [:]][table] = changes }
            }
            if region {
                let oldSources = Dictionary(
                    (oldFeeds ?? []).map { ($0.name, $0.source) }, uniquingKeysWith: { first, _ in first })
                let newSources = Dictionary(
                    (newFeeds ?? []).map { ($0.name, $0.source) }, uniquingKeysWith: { first, _ in first })
                diff.feeds = Set(oldSources.keys).union(newSources.keys).sorted().map { name in
                    FeedChanges(
                        name: name,
                        presence: oldSources[name] == nil ? "added" : newSources[name] == nil ? "removed" : "both",
                        oldSource: oldSources[name], newSource: newSources[name], tables: feedTables[name] ?? [:])
                }
            }
            return diff
        } catch let error as ShipError {
            throw error
        } catch {
            throw ShipError(
                code: .sqlite, path: new.path, message: "cannot compare with \(old.path): \(error)", cause: error)
        }
    }

    private static func side(_ path: String, _ schema: String, _ connection: Connection) throws -> Side {
        let version = Int(try connection.scalar("PRAGMA \(schema).user_version")?.integer ?? 0)
        var seedVersion: String?
        if try connection.scalar("SELECT count(*) FROM \(schema).sqlite_schema WHERE name = 'seedgen_metadata'")?
            .integer == 1
        {
            seedVersion = try connection.scalar(
                "SELECT value FROM \(schema).seedgen_metadata WHERE key = 'seed_version'")?.text
        }
        return Side(path: path, schemaVersion: version, seedVersion: seedVersion)
    }

    /// Compares one table; with `byFeed`, also the rows of each feed in it (by feed name).
    private static func compare(
        table: String, inOld: Bool, inNew: Bool, schemaTable: Table?, limit: Int, byFeed: Bool,
        _ connection: Connection
    ) throws -> (TableChanges, [String: FeedTableChanges]) {
        let t = quoted(table)
        let oldRows = inOld ? try connection.scalar("SELECT count(*) FROM old.\(t)")?.integer ?? 0 : 0
        let newRows = inNew ? try connection.scalar("SELECT count(*) FROM new.\(t)")?.integer ?? 0 : 0
        var feeds: [String: FeedTableChanges] = [:]
        if byFeed {
            for (feed, rows) in try (inOld ? connection.countFeedRows(of: table, schema: "old") : [:]) {
                feeds[feed, default: .init()].oldRows = rows
            }
            for (feed, rows) in try (inNew ? connection.countFeedRows(of: table, schema: "new") : [:]) {
                feeds[feed, default: .init()].newRows = rows
            }
        }
        guard inOld && inNew else {
            for feed in feeds.keys {
                feeds[feed]!.added = feeds[feed]!.newRows; feeds[feed]!.removed = feeds[feed]!.oldRows
            }
            return (
                TableChanges(
                    key: [], oldRows: oldRows, newRows: newRows, added: newRows, removed: oldRows, changed: 0,
                    changedColumns: [:], examples: Examples(), presence: inNew ? "added" : "removed"), feeds
            )
        }
        let oldView = try NaturalView(table: table, schema: "old", connection)
        let newView = try NaturalView(table: table, schema: "new", connection)
        let columns = newView.columns.filter(oldView.columns.contains)
        let oldRelation = "(\(oldView.sql(columns)))", newRelation = "(\(newView.sql(columns)))"

        var key = schemaTable?.key ?? []
        if key.isEmpty {
            key = try connection.uniqueIndexColumns(table + "_key", table: table, schema: "new") ?? newView.clusteredKey
        }
        key = key.flatMap { newView.referenceKeys[$0] ?? [$0] }
        if !key.allSatisfy(columns.contains) { key = [] }

        // The column naming each row's feed, when both seeds have it: the key's (a reference's
        // feed, for `stop_times`), else the row's own; rows are matched within their feed.
        let feed = byFeed ? key.first(where: NaturalView.namesFeed) ?? columns.first(where: NaturalView.namesFeed) : nil
        if let feed, !key.isEmpty, !key.contains(feed) { key.append(feed) }
        if feed == nil {
            // Rows that cannot be matched within their feed (a seed of one feed against a region seed).
            for name in feeds.keys {
                feeds[name]!.added = feeds[name]!.newRows; feeds[name]!.removed = feeds[name]!.oldRows
            }
        }
        /// The rows of `set`, counted per feed into `field` when rows are matched within their feed.
        func tally(_ set: String, _ field: WritableKeyPath<FeedTableChanges, Int64>) throws -> Int64 {
            guard let feed else { return try connection.scalar("SELECT count(*) FROM (\(set))")?.integer ?? 0 }
            var total: Int64 = 0
            for row in try connection.rows("SELECT \(quoted(feed)), count(*) FROM (\(set)) GROUP BY 1") {
                let rows = row[1].integer ?? 0
                total += rows
                if let name = row[0].text { feeds[name, default: .init()][keyPath: field] = rows }
            }
            return total
        }

        var changes = TableChanges(
            key: key, oldRows: oldRows, newRows: newRows, added: 0, removed: 0, changed: 0,
            changedColumns: [:], examples: Examples(), presence: "both")
        if key.isEmpty {
            // Matched by the whole row: a row is added or removed, never changed.
            let list = columns.map(quoted).joined(separator: ", ")
            let added = "SELECT \(list) FROM \(newRelation) EXCEPT SELECT \(list) FROM \(oldRelation)"
            let removed = "SELECT \(list) FROM \(oldRelation) EXCEPT SELECT \(list) FROM \(newRelation)"
            changes.added = try tally(added, \.added)
            changes.removed = try tally(removed, \.removed)
            changes.examples.added = try texts(connection, "\(added) ORDER BY 1 LIMIT \(limit)")
            changes.examples.removed = try texts(connection, "\(removed) ORDER BY 1 LIMIT \(limit)")
            return (changes, feeds)
        }

        // Set differences only (EXCEPT sorts; it needs no index on the key, treats NULLs as
        // equal, and spills to disk on big tables). Keys are unique in each seed, so a row of
        // NEW EXCEPT OLD is either an added key or a changed row.
        let keyList = key.map(quoted).joined(separator: ", ")
        let compared = columns.filter { !key.contains($0) }
        let addedKeys = "SELECT \(keyList) FROM \(newRelation) EXCEPT SELECT \(keyList) FROM \(oldRelation)"
        let removedKeys = "SELECT \(keyList) FROM \(oldRelation) EXCEPT SELECT \(keyList) FROM \(newRelation)"
        changes.added = try tally(addedKeys, \.added)
        changes.removed = try tally(removedKeys, \.removed)
        changes.examples.added = try texts(connection, "\(addedKeys) ORDER BY \(keyList) LIMIT \(limit)")
        changes.examples.removed = try texts(connection, "\(removedKeys) ORDER BY \(keyList) LIMIT \(limit)")
        guard !compared.isEmpty else { return (changes, feeds) }

        func differing(_ selected: [String]) -> String {
            let list = (key + selected).map(quoted).joined(separator: ", ")
            return "SELECT \(list) FROM \(newRelation) EXCEPT SELECT \(list) FROM \(oldRelation)"
        }
        let changedKeys =
            "SELECT \(keyList) FROM (\(differing(compared))) INTERSECT SELECT \(keyList) FROM \(oldRelation)"
        changes.changed = try tally(changedKeys, \.changed)
        guard changes.changed > 0 else { return (changes, feeds) }
        changes.examples.changed = try texts(connection, "\(changedKeys) ORDER BY \(keyList) LIMIT \(limit)")
        for column in compared {
            let count =
                (try connection.scalar("SELECT count(*) FROM (\(differing([column])))")?.integer ?? 0) - changes.added
            if count > 0 { changes.changedColumns[column] = count }
        }
        return (changes, feeds)
    }

    private static func texts(_ connection: Connection, _ sql: String) throws -> [[String]] {
        try connection.rows(sql).map { $0.map(\.description) }
    }
}

/// A table as a query whose columns mean the same in any build of the data: the integer row
/// id left out, and each reference replaced by the natural key of the row it points to
/// (`trip_ref` -> `"trip_ref.trip_id"`, through a LEFT JOIN on the target's row id). In a region
/// seed the feed in that key is its name too (`"trip_ref.feed_ref.name"`, `"trip_ref.trip_id"`).
struct NaturalView {
    private let selections: [String: String] // output column -> SQL expression
    private let from: String
    /// The output columns, in table order.
    let columns: [String]
    /// Reference column -> the output columns that replace it.
    let referenceKeys: [String: [String]]
    /// The primary key of a WITHOUT ROWID table (its natural key); empty otherwise.
    let clusteredKey: [String]

    init(table: String, schema: String, _ connection: Connection) throws {
        let info = try connection.rows(
            "SELECT name, type, pk FROM pragma_table_info(?, ?) ORDER BY cid", [.text(table), .text(schema)])
        let primaryKey = info.filter { ($0[2].integer ?? 0) > 0 }.sorted { $0[2].integer! < $1[2].integer! }.map {
            $0[0].description
        }
        let rowID = Self.rowIDColumn(info)
        let references = try connection.seedReferences(of: table, schema: schema)
        var selections: [String: String] = [:], columns: [String] = [], joins: [String] = []
        var referenceKeys: [String: [String]] = [:]
        for row in info {
            let name = row[0].description
            guard name != rowID else { continue }
            if let target = references[name],
                let targetKey = try connection.uniqueIndexColumns(target + "_key", table: target, schema: schema),
                let targetID = Self.rowIDColumn(
                    try connection.rows(
                        "SELECT name, type, pk FROM pragma_table_info(?, ?)", [.text(target), .text(schema)]))
            {
                let alias = "j\(joins.count)"
                joins.append(
                    """
                    LEFT JOIN \(quoted(schema)).\(quoted(target)) AS \(alias) ON \(alias).\(quoted(targetID)) = \
                    t.\(quoted(name))
                    """
                )
                let targetFeed =
                    try connection.seedReferences(of: target, schema: schema)[Schema.feedColumn] == Schema.feedsTable
                var outputs: [String] = []
                for key in targetKey {
                    var output = "\(name).\(key)"
                    if key == Schema.feedColumn && targetFeed {
                        // The target's feed by name: feed ids may differ between two builds.
                        let feeds = "j\(joins.count)"
                        joins.append(
                            """
                            LEFT JOIN \(quoted(schema)).\(quoted(Schema.feedsTable)) AS \(feeds) ON \(feeds).id = \
                            \(alias).\(quoted(key))
                            """
                        )
                        output += ".name"
                        selections[output] = "\(feeds).name"
                    } else {
                        selections[output] = "\(alias).\(quoted(key))"
                    }
                    columns.append(output)
                    outputs.append(output)
                }
                referenceKeys[name] = outputs
            } else {
                selections[name] = "t.\(quoted(name))"
                columns.append(name)
            }
        }
        self.selections = selections
        self.columns = columns
        self.referenceKeys = referenceKeys
        self.from = "\(quoted(schema)).\(quoted(table)) AS t " + joins.joined(separator: " ")
        clusteredKey = rowID == nil ? primaryKey : []
    }

    /// True for an output column holding a feed's name: the row's (`feed_ref.name`) or that
    /// of the row a reference points to (`trip_ref.feed_ref.name`).
    static func namesFeed(_ column: String) -> Bool {
        let feedName = Schema.feedColumn + ".name"
        return column == feedName || column.hasSuffix("." + feedName)
    }

    /// `SELECT` of `columns` (output names) from the view.
    func sql(_ columns: [String]) -> String {
        "SELECT " + columns.map { "\(selections[$0]!) AS \(quoted($0))" }.joined(separator: ", ") + " FROM " + from
    }

    /// The column that is the table's integer row id (`INTEGER PRIMARY KEY`), if any.
    private static func rowIDColumn(_ info: [[Value]]) -> String? {
        let primaryKey = info.filter { ($0[2].integer ?? 0) > 0 }
        guard primaryKey.count == 1, primaryKey[0][1].description.uppercased() == "INTEGER" else { return nil }
        return primaryKey[0][0].description
    }
}
