/// Rows of a table computed by SQL over the other tables once every input is loaded (`derive:`
/// in a schema): the one way a schema computes rows. Data every app would otherwise compute on
/// the device: GTFS `service_dates` (every date each service runs, from `calendar` and
/// `calendar_dates`), the days of a NeTEx operating period, passing times computed from time
/// demand types.
///
/// The seed records each table's recipe (`seedgen_derive`); a delta carries changes to the
/// other tables only, and the installer derives these rows again with the device's SQLite.
///
/// - A table with no input (no `file`, no `element`) is derived whole: the query gives all its rows.
/// - A table that also reads rows (passing times read from the XML, and more computed) names a
///   `marker` column: the query's rows set it to 1, the rows read leave it at its default 0.
public struct TableDerive: Sendable, Equatable {
    /// A `SELECT` whose result columns are named like columns of the table (stored columns,
    /// reference and parent columns); the others take their default. Rows go in in the query's
    /// order, which numbers a rowid table's rows: give it an `ORDER BY` that orders every row
    /// (a unique combination), so that every SQLite numbers them alike.
    public var sql: String
    /// Optional: a `SELECT` run before `sql` whose rows (one text column each) are reported as
    /// warnings, e.g. the calendars it had to cut short.
    public var warnings: String?
    /// For a table that also reads rows: the boolean column that is 1 on the derived rows only.
    public var marker: String?

    /// A recipe of `sql`, with its `warnings` query and the `marker` column of a table that also reads rows.
    public init(sql: String, warnings: String? = nil, marker: String? = nil) {
        self.sql = sql
        self.warnings = warnings
        self.marker = marker
    }
}
