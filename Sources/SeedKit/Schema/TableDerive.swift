/// A table whose rows are computed by SQL once every input is loaded (`fill:` in a schema),
/// as `expression` columns are: derived data an app would otherwise compute on the device,
/// such as GTFS `service_dates` (every date each service runs, from `calendar` and
/// `calendar_dates`). Such a table reads no input file and has no element.
public struct TableFill: Sendable, Equatable {
    /// A `SELECT` whose result columns are the table's stored columns, in order (the row id,
    /// if any, is numbered by SQLite). Rows go in in the query's order: give it an `ORDER BY`
    /// so that the seed is deterministic.
    public var sql: String
    /// Optional: a `SELECT` run before `sql` whose rows (one text column each) are reported as
    /// warnings, e.g. the calendars a fill had to cut short.
    public var warnings: String?

    public init(sql: String, warnings: String? = nil) {
        self.sql = sql
        self.warnings = warnings
    }

    /// The statement that fills `table`.
    func insertStatement(_ table: Table) -> String {
        let columns = table.layout.filter { $0.role != .rowID }.map { quoted($0.name) }
        return "INSERT INTO \(quoted(table.name)) (\(columns.joined(separator: ", "))) \(sql)"
    }
}
