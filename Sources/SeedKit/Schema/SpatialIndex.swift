import SeedSQLite

/// A spatial index over a table's coordinates (`spatial:` in a schema).
///
/// Without `groupBy`, each row is a point: a B-tree index `<table>_location` on
/// `(lat, lon)`, which answers a box query as a range of latitudes read with their longitudes,
/// exactly, at half the bytes of an R*Tree (whose nodes hold at most 51 entries: 98 KB for
/// 1,791 stops, against 48 KB). SQLite keeps it up to date like any index. Its statement ends
/// with the comment `/* seedgen: spatial */`, which is how a seed says what it is.
///
/// With `groupBy`, the rows sharing a value of that column (a shape's points) make one
/// bounding box, under the smallest `id` of the group, in an SQLite R*Tree
/// `<table>_rtree(id, min_lat, max_lat, min_lon, max_lon)`, filled by a recipe. Rows missing a
/// coordinate are left out (and counted). The R*Tree stores 32-bit floats rounded outwards, so
/// a box query may return a few boxes just outside the box.
public struct SpatialIndex: Sendable, Equatable {
    /// The index's name; default `<table>_location` for points, `<table>_rtree` for boxes.
    public var name: String
    /// The latitude and longitude columns (real or integer).
    public var lat: String
    public var lon: String
    /// The column whose values group rows into one box; nil for one point per row.
    public var groupBy: String?
    /// Columns that group rows before `groupBy` (a region seed's `feed_ref`: a shape per feed).
    public var scope: [String] = []

    public init(name: String, lat: String, lon: String, groupBy: String? = nil) {
        self.name = name
        self.lat = lat
        self.lon = lon
        self.groupBy = groupBy
    }

    /// The R*Tree's columns, in order.
    public static let columns = ["id", "min_lat", "max_lat", "min_lon", "max_lon"]

    /// One point per row (a B-tree index), not a box per group (an R*Tree).
    public var isPoints: Bool { groupBy == nil }

    /// The tables the R*Tree keeps its nodes in (its shadow tables), for sizes and checks; none
    /// for points.
    public var shadowTables: [String] { isPoints ? [] : ["node", "parent", "rowid"].map { name + "_" + $0 } }

    /// The comment that ends a points index's statement: a seed's own mark of what it is.
    static let pointsMark = "/* seedgen: spatial */"

    func createStatement(table: String) -> String {
        if isPoints {
            return
                "CREATE INDEX \(quoted(name)) ON \(quoted(table)) (\(quoted(lat)), \(quoted(lon))) \(Self.pointsMark)"
        }
        return "CREATE VIRTUAL TABLE \(quoted(name)) USING rtree(\(Self.columns.joined(separator: ", ")))"
    }

    /// The rows of the R*Tree as a query over `table`, in id order (the order they are
    /// inserted in, which makes the tree's bytes deterministic).
    package func contentQuery(table: String, rowID: String) -> String {
        let lat = quoted(lat), lon = quoted(lon), id = quoted(rowID)
        let located = "\(lat) IS NOT NULL AND \(lon) IS NOT NULL"
        guard let groupBy else {
            return "SELECT \(id), \(lat), \(lat), \(lon), \(lon) FROM \(quoted(table)) WHERE \(located) ORDER BY \(id)"
        }
        return
            """
            SELECT min(\(id)), min(\(lat)), max(\(lat)), min(\(lon)), max(\(lon)) FROM \(quoted(table)) WHERE \
            \(located) GROUP BY \((scope + [groupBy]).map(quoted).joined(separator: ", ")) ORDER BY 1
            """
    }

    /// The rows of `table` left out: those missing a coordinate.
    func leftOutQuery(table: String) -> String {
        "SELECT count(*) FROM \(quoted(table)) WHERE \(quoted(lat)) IS NULL OR \(quoted(lon)) IS NULL"
    }
}
