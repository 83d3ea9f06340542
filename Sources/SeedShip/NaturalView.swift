import SeedKit
import SeedSQLite

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
