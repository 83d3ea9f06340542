/// A spatial index over a table's coordinates (`spatial:` in a schema): an SQLite R*Tree
/// `<table>_rtree(id, min_lat, max_lat, min_lon, max_lon)`.
///
/// Without `groupBy`, each row with both coordinates is a point (min = max) under its own
/// `id`. With `groupBy`, the rows sharing a value of that column (a shape's points) make one
/// bounding box, under the smallest `id` of the group. Rows missing a coordinate are left out
/// (and counted). The R*Tree stores 32-bit floats rounded outwards, so a box query may return
/// a few rows just outside the box: check the exact distance on the table's own columns.
public struct SpatialIndex: Sendable, Equatable {
    /// The R*Tree table's name; default `<table>_rtree`.
    public var name: String
    /// The latitude and longitude columns (real or integer).
    public var lat: String
    public var lon: String
    /// The column whose values group rows into one box; nil for one point per row.
    public var groupBy: String?

    public init(name: String, lat: String, lon: String, groupBy: String? = nil) {
        self.name = name
        self.lat = lat
        self.lon = lon
        self.groupBy = groupBy
    }

    /// The R*Tree's columns, in order.
    public static let columns = ["id", "min_lat", "max_lat", "min_lon", "max_lon"]

    /// The tables the R*Tree keeps its nodes in (its shadow tables), for sizes and checks.
    public var shadowTables: [String] { ["node", "parent", "rowid"].map { name + "_" + $0 } }

    var createStatement: String {
        "CREATE VIRTUAL TABLE \(quoted(name)) USING rtree(\(Self.columns.joined(separator: ", ")))"
    }

    /// The rows of the R*Tree as a query over `table`, in id order (the order they are
    /// inserted in, which makes the tree's bytes deterministic).
    func contentQuery(table: String, rowID: String) -> String {
        let lat = quoted(lat), lon = quoted(lon), id = quoted(rowID)
        let located = "\(lat) IS NOT NULL AND \(lon) IS NOT NULL"
        guard let groupBy else {
            return "SELECT \(id), \(lat), \(lat), \(lon), \(lon) FROM \(quoted(table)) WHERE \(located) ORDER BY \(id)"
        }
        return "SELECT min(\(id)), min(\(lat)), max(\(lat)), min(\(lon)), max(\(lon)) FROM \(quoted(table)) WHERE \(located) GROUP BY \(quoted(groupBy)) ORDER BY 1"
    }

    /// The rows of `table` left out: those missing a coordinate.
    func leftOutQuery(table: String) -> String {
        "SELECT count(*) FROM \(quoted(table)) WHERE \(quoted(lat)) IS NULL OR \(quoted(lon)) IS NULL"
    }
}
