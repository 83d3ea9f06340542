import SeedKit
import SeedSQLite

/// Where a shape's route runs: the box of the stops that one trip following the shape serves,
/// grown by a quarter of its size and at least 0.01° (about 1 km) each way. A shape point
/// outside it is off its route (a point typed with a wrong sign or digit), even when it lies
/// among the other lines and is no outlier of the map.
struct RouteBox {
    let south: Double, north: Double, west: Double, east: Double

    init(south: Double, north: Double, west: Double, east: Double) {
        let latMargin = max((north - south) / 4, 0.01), lonMargin = max((east - west) / 4, 0.01)
        self.south = south - latMargin
        self.north = north + latMargin
        self.west = west - lonMargin
        self.east = east + lonMargin
    }

    func contains(_ point: MercatorPoint) -> Bool {
        let south = MercatorPoint(lat: self.south, lon: west), north = MercatorPoint(lat: self.north, lon: east)
        // Mercator's y grows southwards.
        return point.x >= south.x && point.x <= north.x && point.y <= south.y && point.y >= north.y
    }

    /// The box of each shape (`feed \u{1F} shape_id`) of the transit schema's `shapes` layer:
    /// one trip per shape (its lowest id), its stops through `stop_times`' key.
    static func boxes(_ layer: MapLayer, seed: ReportSeed, scoped: Bool) throws(SQLiteError) -> [String: RouteBox] {
        guard layer.table == "shapes", ["trips", "stop_times", "stops"].allSatisfy(seed.tables.contains),
            try seed.columns(of: "stop_times").contains("trip_ref"),
            try seed.columns(of: "stop_times").contains("stop_ref")
        else { return [:] }
        let feed = scoped ? "feed_ref" : "''"
        var boxes: [String: RouteBox] = [:]
        for row in try seed.connection.rows(
            """
            WITH one AS (SELECT \(feed) AS feed, shape_id, min(id) AS trip FROM trips WHERE shape_id IS NOT NULL \
            GROUP BY 1, 2) \
            SELECT one.feed, one.shape_id, min(s.stop_lat), max(s.stop_lat), min(s.stop_lon), max(s.stop_lon) \
            FROM one JOIN stop_times AS st ON st.trip_ref = one.trip JOIN stops AS s ON s.id = st.stop_ref \
            WHERE s.stop_lat IS NOT NULL AND s.stop_lon IS NOT NULL GROUP BY 1, 2
            """)
        {
            guard let south = row[2].double, let north = row[3].double, let west = row[4].double,
                let east = row[5].double
            else { continue }
            boxes[row[0].description + "\u{1F}" + row[1].description] = RouteBox(
                south: south, north: north, west: west, east: east)
        }
        return boxes
    }
}
