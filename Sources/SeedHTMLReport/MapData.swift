import SeedKit
import SeedSQLite

/// One mark of a points layer.
struct MapMark {
    var label: String
    var lat: Double
    var lon: Double
    var point: MercatorPoint
    /// The feed's name in a region seed ("" otherwise): for the stops added and removed.
    var feed = ""
}

/// The rows of a points layer the map draws: all of them, or one in `step` when there are more
/// than the map draws.
struct PointsData {
    let layer: MapLayer
    /// Rows with both coordinates.
    let total: Int
    /// One row in `step` is drawn.
    let step: Int
    let marks: [MapMark]

    /// The rows of `layer`, of the feed `feed` (`feeds.id`) when given and the table has a feed column.
    init(_ layer: MapLayer, in seed: ReportSeed, feed: Int64?, limit: Int) throws(SQLiteError) {
        self.layer = layer
        let lat = quoted(layer.lat), lon = quoted(layer.lon), table = quoted(layer.table)
        let located =
            "\(lat) IS NOT NULL AND \(lon) IS NOT NULL"
            + (try feed.flatMap { id throws(SQLiteError) in
                try seed.columns(of: layer.table).contains(Schema.feedColumn) ? " AND feed_ref = \(id)" : nil
            } ?? "")
        total = Int(try seed.connection.scalar("SELECT count(*) FROM \(table) WHERE \(located)")?.integer ?? 0)
        step = max(1, (total + limit - 1) / max(limit, 1))
        let label = layer.label.map(quoted) ?? "NULL"
        let statement = try seed.connection.prepare("SELECT \(lat), \(lon), \(label) FROM \(table) WHERE \(located)")
        var marks: [MapMark] = []
        marks.reserveCapacity(total / step + 1)
        var index = 0
        while try statement.step() {
            defer { index += 1 }
            guard index % step == 0, let latitude = statement.value(at: 0).double,
                let longitude = statement.value(at: 1).double
            else { continue }
            marks.append(
                MapMark(
                    label: statement.value(at: 2).description, lat: latitude, lon: longitude,
                    point: MercatorPoint(lat: latitude, lon: longitude)))
        }
        self.marks = marks
    }
}

/// The lines of a lines layer (shapes), each with the colour of its route when the seed says.
struct LinesData {
    struct Line {
        var name: String
        var color: String?
        var points: [MercatorPoint]
        /// Where the line's route runs: the box of the stops one of its trips serves, when known.
        var route: RouteBox?

        /// Whether `point` lies off the line's route (see `RouteBox`).
        func isOffRoute(_ point: MercatorPoint) -> Bool { route.map { !$0.contains(point) } ?? false }
    }

    let layer: MapLayer
    let lines: [Line]
    /// Points read (with both coordinates).
    let pointCount: Int

    /// The lines of `layer`, of the feed `feed` (`feeds.id`) when given and the table has a feed column.
    init(_ layer: MapLayer, in seed: ReportSeed, feed: Int64?) throws(SQLiteError) {
        self.layer = layer
        guard let groupBy = layer.groupBy else {
            lines = []
            pointCount = 0
            return
        }
        let columns = try seed.columns(of: layer.table)
        let scope = columns.contains(Schema.feedColumn) ? [quoted(Schema.feedColumn)] : []
        let group = (scope + [quoted(groupBy)]).joined(separator: ", ")
        let colors = try Self.colors(layer, seed: seed, scoped: !scope.isEmpty)
        let routes = try RouteBox.boxes(layer, seed: seed, scoped: !scope.isEmpty)
        let lat = quoted(layer.lat), lon = quoted(layer.lon)
        let statement = try seed.connection.prepare(
            """
            SELECT \(scope.isEmpty ? "''" : scope[0]), \(quoted(groupBy)), \(lat), \(lon) FROM \(quoted(layer.table)) \
            WHERE \(lat) IS NOT NULL AND \(lon) IS NOT \
            NULL\(feed.map { scope.isEmpty ? "" : " AND feed_ref = \($0)" } ?? "") \
            ORDER BY \(group), \(quoted(layer.order ?? "rowid"))
            """)
        var lines: [Line] = []
        var count = 0
        var current: (feed: String, name: String)?
        while try statement.step() {
            guard let latitude = statement.value(at: 2).double, let longitude = statement.value(at: 3).double else {
                continue
            }
            let feed = statement.value(at: 0).description, name = statement.value(at: 1).description
            if current?.feed != feed || current?.name != name {
                current = (feed, name)
                let key = feed + "\u{1F}" + name
                lines.append(Line(name: name, color: colors[key], points: [], route: routes[key]))
            }
            lines[lines.count - 1].points.append(MercatorPoint(lat: latitude, lon: longitude))
            count += 1
        }
        self.lines = lines
        pointCount = count
    }

    /// The route colour of each shape (`feed \u{1F} shape_id`), from the trips that follow it.
    private static func colors(
        _ layer: MapLayer, seed: ReportSeed, scoped: Bool
    ) throws(SQLiteError) -> [String:
        String]
    {
        guard layer.table == "shapes", seed.tables.contains("trips"), seed.tables.contains("routes"),
            try seed.columns(of: "trips").contains("route_ref")
        else { return [:] }
        let feed = scoped ? "t.feed_ref" : "''"
        var colors: [String: String] = [:]
        for row in try seed.connection.rows(
            """
            SELECT \(feed), t.shape_id, min(r.route_color) FROM trips AS t JOIN routes AS r ON r.id = t.route_ref \
            WHERE t.shape_id IS NOT NULL GROUP BY \(feed), t.shape_id
            """)
        {
            guard let color = row[2].text, color.count == 6, color.allSatisfy(\.isHexDigit) else { continue }
            colors[row[0].description + "\u{1F}" + row[1].description] = "#" + color.lowercased()
        }
        return colors
    }
}

extension Value {
    /// A number as a Double (an integer too); nil for anything else.
    var double: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }
}
