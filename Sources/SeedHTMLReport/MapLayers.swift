import Foundation
import SeedKit
import SeedSQLite

/// What the map draws of one table: its points (stops, nodes, quays) or its lines (shapes,
/// grouped by a column and ordered by another).
struct MapLayer {
    enum Kind { case points, lines }

    let table: String
    let kind: Kind
    let lat: String
    let lon: String
    /// Lines: the column whose values name a line (`shape_id`), and the one that orders its points.
    var groupBy: String?
    var order: String?
    /// Points: the column a mark's hover text comes from.
    var label: String?

    /// The layers of `seed`: each table with a spatial index in its schema (`spatial:`), and
    /// each other table with a pair of coordinate columns (`lat`/`lon`, `latitude`/`longitude`,
    /// `X_lat`/`X_lon`); lines first, so that points are drawn over them.
    static func find(in seed: ReportSeed) throws(SQLiteError) -> [MapLayer] {
        var layers: [MapLayer] = []
        for table in seed.schema?.tables ?? [] where seed.tables.contains(table.name) {
            guard let spatial = table.spatial else { continue }
            let columns = try seed.columns(of: table.name)
            if let groupBy = spatial.groupBy {
                let order = table.key.last.flatMap { $0 == groupBy ? nil : $0 } ?? table.rowID
                layers.append(
                    MapLayer(
                        table: table.name, kind: .lines, lat: spatial.lat, lon: spatial.lon, groupBy: groupBy,
                        order: order))
            } else {
                layers.append(
                    MapLayer(
                        table: table.name, kind: .points, lat: spatial.lat, lon: spatial.lon,
                        label: label(in: columns)))
            }
        }
        let covered = Set(layers.map(\.table))
        for table in seed.tables.sorted() where !covered.contains(table) {
            let columns = try seed.columns(of: table)
            let pairs =
                [("lat", "lon"), ("latitude", "longitude")]
                + columns.filter { $0.hasSuffix("_lat") }.map {
                    ($0, String($0.dropLast(4)) + "_lon")
                }
            if let pair = pairs.first(where: { columns.contains($0.0) && columns.contains($0.1) }) {
                layers.append(
                    MapLayer(table: table, kind: .points, lat: pair.0, lon: pair.1, label: label(in: columns)))
            }
        }
        return layers.sorted { $0.kind == .lines && $1.kind == .points }
    }

    /// The column that names a row best: a name, else an id.
    private static func label(in columns: [String]) -> String? {
        let preferred = ["stop_name", "name", "quay_name", "stop_id", "osm_id", "id"]
        return preferred.first(where: columns.contains) ?? columns.first { $0.hasSuffix("_name") }
    }
}

/// A point in Web Mercator, x and y from 0 to 1 (y down, as SVG draws).
struct MercatorPoint {
    var x: Double
    var y: Double

    init(lat: Double, lon: Double) {
        let clamped = max(-85.05, min(85.05, lat)) * .pi / 180
        x = (lon + 180) / 360
        y = (1 - log(tan(clamped) + 1 / cos(clamped)) / .pi) / 2
    }
}

/// The box the map shows: every point but the outliers, with a margin, fitted into a view 1000
/// units wide. An outlier is a point far outside the box of the middle half of the points (the
/// first to the third quartile in each direction): more than three times that box's size beyond
/// it (Tukey's far-out fences), which holds for a few points as for many.
struct MapFrame {
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    let scale: Double
    let width = 1000.0
    let height: Double
    /// Points outside this box are outliers.
    let outerMinX: Double, outerMinY: Double, outerMaxX: Double, outerMaxY: Double

    init(points: [MercatorPoint]) {
        func quartiles(_ values: [Double]) -> (Double, Double) {
            guard !values.isEmpty else { return (0.5, 0.5) }
            let sorted = values.sorted()
            let low = sorted[Int(Double(sorted.count - 1) * 0.25)]
            let high = sorted[Int((Double(sorted.count - 1) * 0.75).rounded(.up))]
            return (low, high)
        }
        let (x0, x1) = quartiles(points.map(\.x)), (y0, y1) = quartiles(points.map(\.y))
        // At least 2e-5 of the world's width (about 800 m): points on one street are not outliers.
        let spanX = max(x1 - x0, 2e-5), spanY = max(y1 - y0, 2e-5)
        outerMinX = x0 - spanX * 3
        outerMaxX = x1 + spanX * 3
        outerMinY = y0 - spanY * 3
        outerMaxY = y1 + spanY * 3
        // The view holds every point that is not an outlier, with a margin.
        var low = (x: x0, y: y0), high = (x: x1, y: y1)
        for point in points
        where point.x >= outerMinX && point.x <= outerMaxX && point.y >= outerMinY && point.y <= outerMaxY {
            low = (min(low.x, point.x), min(low.y, point.y))
            high = (max(high.x, point.x), max(high.y, point.y))
        }
        let marginX = max(high.x - low.x, 1e-6) * 0.03, marginY = max(high.y - low.y, 1e-6) * 0.03
        minX = low.x - marginX
        maxX = high.x + marginX
        minY = low.y - marginY
        maxY = high.y + marginY
        height = max(300, min(700, (maxY - minY) / (maxX - minX) * 1000)).rounded()
        scale = min(width / (maxX - minX), height / (maxY - minY))
    }

    /// `point` in the view's units.
    func project(_ point: MercatorPoint) -> (x: Double, y: Double) {
        (
            (point.x - (minX + maxX) / 2) * scale + width / 2,
            (point.y - (minY + maxY) / 2) * scale + height / 2
        )
    }

    /// True when `point` is far outside the box most points are in.
    func isOutlier(_ point: MercatorPoint) -> Bool {
        point.x < outerMinX || point.x > outerMaxX || point.y < outerMinY || point.y > outerMaxY
    }
}
