/// What one search or spatial index, or one derived table, adds to a seed (the build summary
/// and `seedgen inspect` show it).
public struct QueryIndexCost: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// A full-text index (`search:`, FTS5).
        case search
        /// A spatial index (`spatial:`, R*Tree).
        case spatial
        /// A table computed after loading (`derive:`).
        case derived
        /// A declared index that stands in for the plain index of a reference column, with more
        /// columns (`stop_times_departures` on `(stop_ref, departure_time)` instead of `stop_ref`).
        case index
    }

    /// The index's (or derived table's) name.
    public var name: String
    /// The table it indexes (the derived table itself for `derived`); nil when a seed does not
    /// say (an R*Tree not named `<table>_rtree`).
    public var table: String?
    public var kind: Kind
    /// Rows indexed (search), derived (derived) or boxes (spatial).
    public var rows: Int64
    /// Spatial: rows of the table left out because a coordinate is missing.
    public var leftOut: Int64?
    /// Bytes of its pages in the seed (the virtual table's shadow tables); nil when SQLite
    /// cannot say (no `dbstat`). For an `index`: what it adds beyond the index it replaces.
    public var bytes: Int64?
    /// For an `index`: the reference column whose plain index it replaces, and its own bytes.
    public var replaces: String?
    public var indexBytes: Int64?

    package init(
        name: String, table: String?, kind: Kind, rows: Int64, leftOut: Int64? = nil, bytes: Int64? = nil,
        replaces: String? = nil, indexBytes: Int64? = nil
    ) {
        (self.name, self.table, self.kind, self.rows, self.leftOut, self.bytes, self.replaces, self.indexBytes) =
            (name, table, kind, rows, leftOut, bytes, replaces, indexBytes)
    }
}
