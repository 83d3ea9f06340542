import SeedKit
import SeedSQLite
import SeedShip

/// What changed since a previous seed: `seedgen diff`'s rows added, removed and changed per
/// table (and per feed of a region seed), and the routes and stops added or removed, listed
/// (the stops also drawn on the map).
enum ChangesSection {
    static let listLimit = 200

    /// The section, and the stops added and removed for the map. `scratch` is where the delta
    /// measured is written (then removed).
    static func html(
        _ seed: ReportSeed, previous: String?, scratch: String
    ) throws(ShipError) -> (html: String, overlay: MapOverlay?) {
        guard let previous else {
            let note = HTMLText.note("No previous seed given (seedgen report --previous OLD.sqlite).")
            return (HTMLText.section(id: "changes", title: "What changed", body: note), nil)
        }
        let old = try SeedFile(path: previous), new = try SeedFile(path: seed.path)
        let diff = try SeedDiff.compare(old: old, new: new, limit: 5)
        var html = HTMLText.note(
            """
            From \(previous) (seed version \(diff.old.seedVersion ?? "?")) to this seed (seed version \
            \(diff.new.seedVersion ?? "?")), rows matched by natural key as seedgen diff matches them.
            """)
        if let oldPath = old.databasePath, let newPath = new.databasePath {
            do {
                html += HTMLText.note(try DeltaSize.measure(old: oldPath, new: newPath, scratchBeside: scratch).text)
            } catch {
                html += HTMLText.note("No delta: \(error.message)")
            }
        }
        html += tableChanges(diff)
        if let feeds = diff.feeds { html += feedChanges(feeds) }
        var overlay: MapOverlay?
        if seed.hasTransit, let oldPath = old.databasePath, let newPath = new.databasePath {
            do {
                let connection = try Connection(path: ":memory:")
                try connection.attachReadOnly(oldPath, as: "old")
                try connection.attachReadOnly(newPath, as: "new")
                let (routesHTML, _) = try listed(
                    "routes", ["route_id", "route_short_name", "route_long_name"], connection)
                let (stopsHTML, stops) = try listed(
                    "stops", ["stop_id", "stop_name", "stop_lat", "stop_lon"], connection)
                html += routesHTML + stopsHTML
                overlay = stops
            } catch {
                throw seed.failure("the routes and stops of both seeds", error)
            }
        }
        return (HTMLText.section(id: "changes", title: "What changed", body: html), overlay)
    }

    private static func tableChanges(_ diff: SeedDiff) -> String {
        var html =
            """
            <div class="scroll"><table id="diff-tables">
            <caption>Rows added, removed and changed per table (as seedgen diff counts them)</caption>
            <thead><tr><th scope="col">table</th><th scope="col" class="num">added</th>\
            <th scope="col" class="num">removed</th><th scope="col" class="num">changed</th>\
            <th scope="col" class="num">rows</th><th scope="col">key</th></tr></thead>
            <tbody>

            """
        for name in diff.tables.keys.sorted() {
            let table = diff.tables[name]!
            let key = table.key.isEmpty ? "(whole row)" : table.key.joined(separator: ", ")
            let presence = table.presence == "both" ? "" : " [table \(table.presence)]"
            html +=
                """
                <tr data-table="\(HTMLText.escape(name))" data-added="\(table.added)" data-removed="\(table.removed)" \
                data-changed="\(table.changed)"><th scope="row">\(HTMLText.escape(name))</th>\
                <td class="num">\(HTMLText.count(table.added))</td><td \
                class="num">\(HTMLText.count(table.removed))</td>\
                <td class="num">\(HTMLText.count(table.changed))</td><td \
                class="num">\(HTMLText.count(table.newRows))</td>\
                <td>\(HTMLText.escape(key + presence))</td></tr>

                """
        }
        return html + "</tbody></table></div>\n"
    }

    private static func feedChanges(_ feeds: [SeedDiff.FeedChanges]) -> String {
        var rows: [[String]] = []
        for feed in feeds {
            if feed.presence != "both" {
                rows.append([feed.name, "feed \(feed.presence)", "", "", ""])
                continue
            }
            for (table, changes) in feed.tables.sorted(by: { $0.key < $1.key }) where changes.hasChanges {
                rows.append([
                    feed.name, table, HTMLText.count(changes.added), HTMLText.count(changes.removed),
                    HTMLText.count(changes.changed)
                ])
            }
        }
        if rows.isEmpty { return HTMLText.note("No feed changed.") }
        return HTMLText.table(
            caption: "Changes per feed", headers: ["feed", "table", "added", "removed", "changed"], rows: rows,
            numeric: [2, 3, 4])
    }

    /// The rows of `table` whose key (its first column, within its feed's name in a region seed)
    /// is only in the new seed (added) or only in the old (removed).
    private static func listed(
        _ table: String, _ columns: [String], _ connection: Connection
    ) throws(SQLiteError) -> (String, MapOverlay) {
        var region = true
        for schema in ["old", "new"] {
            let count = try connection.scalar(
                "SELECT count(*) FROM pragma_table_info(?, ?) WHERE name = 'feed_ref'", [.text(table), .text(schema)])
            if count?.integer != 1 { region = false }
        }
        func feed(_ schema: String, _ alias: String) -> String {
            region ? "(SELECT name FROM \(schema).feeds WHERE id = \(alias).feed_ref)" : "''"
        }
        let key = quoted(columns[0]), list = columns.map { "a." + quoted($0) }.joined(separator: ", ")
        var html = ""
        var overlay = MapOverlay()
        for (kind, from, other) in [("added", "new", "old"), ("removed", "old", "new")] {
            let rows = try connection.rows(
                """
                SELECT \(feed(from, "a")), \(list) FROM \(from).\(quoted(table)) AS a WHERE NOT EXISTS \
                (SELECT 1 FROM \(other).\(quoted(table)) AS b WHERE b.\(key) = a.\(key) \
                AND \(feed(other, "b")) = \(feed(from, "a"))) ORDER BY 1, 2
                """)
            let shown = rows.prefix(listLimit).map { row in
                (region ? [row[0].description] : []) + row.dropFirst().map { $0 == .null ? "" : $0.description }
            }
            let more = rows.count > listLimit ? " (the first \(listLimit))" : ""
            html += HTMLText.table(
                caption: "\(rows.count) \(table) \(kind)\(more)",
                headers: (region ? ["feed"] : []) + columns, rows: Array(shown))
            if table == "stops" {
                let marks = rows.compactMap { row -> MapMark? in
                    guard let lat = row[3].double, let lon = row[4].double else { return nil }
                    return MapMark(
                        label: row[2].description, lat: lat, lon: lon, point: MercatorPoint(lat: lat, lon: lon),
                        feed: row[0].description)
                }
                if kind == "added" { overlay.added = marks } else { overlay.removed = marks }
            }
        }
        return (html, overlay)
    }
}
