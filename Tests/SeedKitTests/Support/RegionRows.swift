import SeedDeltas
import SeedKitTestSupport
import SeedSQLite
import Testing
@testable import SeedKit

/// Reads a seed's rows so that a region seed's feed can be compared with the seed of that feed
/// alone: every column but the row id and `feed_ref`, a reference (a foreign key) as the key
/// of the row it names (so `stop_times.stop_ref` reads as the stop's `stop_id`), as sorted text.
enum RegionRows {
    /// The plain tables of `db`: not seedgen's own, not an index's virtual table or its shadows.
    static func tables(_ db: Connection) throws -> [String] {
        let virtual = try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").compactMap { $0[0].text }
        return try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'seedgen_%' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .compactMap { $0[0].text }
            .filter { name in !virtual.contains { name == $0 || name.hasPrefix($0 + "_") } && name != Schema.feedsTable }
    }

    /// The rows of `table` (of feed `feed`, in a region seed), as sorted lines of text.
    static func rows(_ db: Connection, _ table: String, feed: Int64? = nil) throws -> [String] {
        let columns = try db.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0[0].text }
            .filter { $0 != "id" && $0 != Schema.feedColumn }
        var targets: [String: String] = [:]
        for row in try db.rows("SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?)", [.text(table)]) {
            if let from = row[0].text, let target = row[1].text, target != Schema.feedsTable { targets[from] = target }
        }
        // A derived table may copy ids without declaring them (NeTEx's stop_times.trip_ref):
        // `<name>_ref` names `<name>s` (or `<name>`) when the seed has such a table, and
        // `<role>_<name>_ref` likewise (the transit schema's footpaths.from_stop_ref); a
        // journey pattern is named by the id of its first trip (trip_patterns, pattern_stops).
        let names = Set(try tables(db))
        for column in columns where targets[column] == nil && column.hasSuffix("_ref") {
            let base = String(column.dropLast(4))
            let last = String(base.split(separator: "_").last ?? "")
            targets[column] = [base + "s", base, last + "s", last].first(where: names.contains)
        }
        if ["trip_patterns", "pattern_stops"].contains(table) && columns.contains("pattern") { targets["pattern"] = "trips" }
        var expressions: [String] = []
        for column in columns {
            guard let target = targets[column] else { expressions.append("quote(t.\"\(column)\")"); continue }
            let key = try self.key(db, target).map { "quote(r.\"\($0)\")" }.joined(separator: " || ',' || ")
            expressions.append("(SELECT '\(target):' || \(key) FROM \"\(target)\" AS r WHERE r.id = t.\"\(column)\")")
        }
        guard !expressions.isEmpty else { return [] }
        var filter = feed == nil ? "" : " WHERE t.\(Schema.feedColumn) = \(feed!)"
        // A region seed's walks between stops of different feeds are no feed's own (CrossFeedFootpaths).
        if feed != nil && table == CrossFeedFootpaths.table { filter += " AND NOT (\(CrossFeedFootpaths.rows))" }
        let sql = "SELECT " + expressions.joined(separator: " || char(9) || ") + " FROM \"\(table)\" AS t" + filter
        return try db.rows(sql).map { $0[0].text ?? "NULL" }.sorted()
    }

    /// The columns that name a row of `table`: its key's (without `feed_ref`), else all but the id.
    static func key(_ db: Connection, _ table: String) throws -> [String] {
        let index = try db.scalar("SELECT name FROM pragma_index_list(?) WHERE \"unique\" AND name = ?", [.text(table), .text(table + "_key")])?.text
        let columns = try db.rows("SELECT name FROM pragma_index_info(?)", [.text(index ?? "")]).compactMap { $0[0].text }
        if !columns.isEmpty { return columns.filter { $0 != Schema.feedColumn } }
        return try db.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0[0].text }
            .filter { $0 != "id" && $0 != Schema.feedColumn && !$0.hasSuffix("_ref") }
    }

    /// The rows of a region seed's `footpaths` between stops of different feeds.
    static func crossFeedFootpaths(_ region: Connection) throws -> Int {
        Int(try region.scalar("SELECT count(*) FROM footpaths WHERE \(CrossFeedFootpaths.rows)")?.integer ?? -1)
    }

    /// Expects every table of `single` to hold, in `region`, the same rows for feed `feed`,
    /// and every other table of `region` to hold none of that feed's. Returns the rows compared.
    @discardableResult
    static func expectEqual(region: Connection, feed: Int64, single: Connection, name: String) throws -> Int {
        let regionTables = Set(try tables(region))
        var compared = 0
        let singleTables = try tables(single)
        for table in singleTables {
            #expect(regionTables.contains(table), "\(name): the region seed has no table \(table)")
            guard regionTables.contains(table) else { continue }
            let expected = try rows(single, table)
            let actual = try rows(region, table, feed: feed)
            #expect(actual == expected, "\(name): \(table) has \(actual.count) rows in the region seed, \(expected.count) alone; first differing: \(Array(Set(actual).symmetricDifference(expected)).sorted().prefix(2))")
            compared += expected.count
        }
        for table in regionTables.subtracting(singleTables) {
            #expect(try region.scalar("SELECT count(*) FROM \"\(table)\" WHERE \(Schema.feedColumn) = ?", [.integer(feed)])?.integer == 0,
                    "\(name): \(table) is not in the feed's own seed but holds rows of it in the region seed")
        }
        return compared
    }
}
