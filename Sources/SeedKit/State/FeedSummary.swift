import Foundation
import SeedSQLite

/// One feed of a region seed, as its `feeds` row records it: what the build summary, `seedgen
/// inspect` (its `feeds` array in `--json`) and `seedgen verify` report per feed.
public struct FeedSummary: Codable, Equatable, Sendable {
    /// The feed's name (`--feed NAME=PATH`, else its file or folder name).
    public var name: String
    /// The path the feed was read from, as given to `seedgen build`.
    public var source: String
    /// `feed_info`'s `feed_publisher_name`, when the feed has one.
    public var publisher: String?
    /// `feed_info`'s `feed_version`, when the feed has one.
    public var version: String?
    /// The first day of the feed's validity (`feed_start_date`, else its calendar's first day).
    public var startDate: String?
    /// The last day of the feed's validity.
    public var endDate: String?
    /// Rows of the feed by table, as `feeds.row_counts` records them; tables without rows of
    /// the feed are left out.
    public var rows: [String: Int64]

    public init(
        name: String, source: String, publisher: String? = nil, version: String? = nil, startDate: String? = nil,
        endDate: String? = nil, rows: [String: Int64]
    ) {
        self.name = name
        self.source = source
        self.publisher = publisher
        self.version = version
        self.startDate = startDate
        self.endDate = endDate
        self.rows = rows
    }

    /// All the feed's rows.
    public var totalRows: Int64 { rows.values.reduce(0, +) }

    /// The tables holding rows of the feed, the biggest first (ties by name).
    public var tablesBySize: [(name: String, rows: Int64)] {
        rows.map { (name: $0.key, rows: $0.value) }.sorted {
            $0.rows != $1.rows ? $0.rows > $1.rows : $0.name < $1.name
        }
    }

    /// `feeds.row_counts` (a JSON object, table -> rows) as a dictionary; nil when it is not
    /// such an object.
    package static func rowCounts(json text: String) -> [String: Int64]? {
        try? JSONDecoder().decode([String: Int64].self, from: Data(text.utf8))
    }
}

extension Connection {
    /// The tables of a region seed whose rows name their feed (a `feed_ref` column referencing
    /// `feeds`); empty for a seed of one feed.
    func feedScopedTables(schema: String = "main") throws(SQLiteError) -> [String] {
        var scoped: [String] = []
        for table in try seedTables(schema: schema)
        where try seedReferences(of: table, schema: schema)[Schema.feedColumn] == Schema.feedsTable {
            scoped.append(table)
        }
        return scoped
    }

    /// True for a region seed: a `feeds` table with the columns seedgen writes, and rows that
    /// name their feed.
    package func isRegionSeed(schema: String = "main") throws(SQLiteError) -> Bool {
        let columns = Set(try seedColumns(of: Schema.feedsTable, schema: schema).map(\.name))
        guard columns.isSuperset(of: ["id", "name", "source", "row_counts"]) else { return false }
        return try !feedScopedTables(schema: schema).isEmpty
    }

    /// The feeds of a region seed, in id order, with the rows `row_counts` records (none where it
    /// is not a JSON object of counts: `seedgen verify` reports that); nil for a seed of one feed.
    package func seedFeeds(schema: String = "main") throws(SQLiteError) -> [FeedSummary]? {
        guard try isRegionSeed(schema: schema) else { return nil }
        let columns = Set(try seedColumns(of: Schema.feedsTable, schema: schema).map(\.name))
        func column(_ name: String) -> String { columns.contains(name) ? quoted(name) : "NULL" }
        let sql =
            "SELECT name, source, \(column("feed_publisher_name")), \(column("feed_version")), "
            + "\(column("start_date")), "
            + "\(column("end_date")), row_counts FROM \(quoted(schema)).\(quoted(Schema.feedsTable)) ORDER BY id"
        return try rows(sql).map { row in
            FeedSummary(
                name: row[0].description, source: row[1].description, publisher: row[2].text, version: row[3].text,
                startDate: row[4].text, endDate: row[5].text,
                rows: row[6].text.flatMap(FeedSummary.rowCounts(json:)) ?? [:])
        }
    }

    /// The rows of each feed by table, counted (what `feeds.row_counts` should say), by feed
    /// name; rows whose `feed_ref` names no feed are not counted (`foreign_key_check` finds them).
    package func countFeedRows(schema: String = "main") throws(SQLiteError) -> [String: [String: Int64]] {
        var counts: [String: [String: Int64]] = [:]
        for table in try feedScopedTables(schema: schema) {
            for (feed, rows) in try countFeedRows(of: table, schema: schema) {
                counts[feed, default: [:]][table] = rows
            }
        }
        return counts
    }

    /// The rows of `table` by feed name; empty when the table's rows name no feed.
    package func countFeedRows(of table: String, schema: String = "main") throws(SQLiteError) -> [String: Int64] {
        guard try seedReferences(of: table, schema: schema)[Schema.feedColumn] == Schema.feedsTable else { return [:] }
        var counts: [String: Int64] = [:]
        for row in try rows(
            """
            SELECT f.name, count(*) FROM \(quoted(schema)).\(quoted(table)) AS t JOIN \
            \(quoted(schema)).\(quoted(Schema.feedsTable)) AS f
                ON f.id = t.\(quoted(Schema.feedColumn)) GROUP BY f.id
            """)
        {
            counts[row[0].description] = row[1].integer ?? 0
        }
        return counts
    }
}
