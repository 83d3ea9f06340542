/// The types a column can have, and how each is stored in SQLite.
public enum ColumnType: String, Sendable, CaseIterable {
    /// A 64-bit integer.
    case integer
    /// A double-precision number.
    case real
    /// UTF-8 text, stored as given.
    case text
    /// `1`/`0`, `true`/`false`, `yes`/`no`, `t`/`f`, `y`/`n` (any case), stored as 1 or 0.
    case boolean
    /// A calendar date, stored as ISO 8601 text `YYYY-MM-DD`.
    case date
    /// A moment, stored as ISO 8601 text in UTC at one width: `YYYY-MM-DDTHH:MM:SSZ`, or
    /// with `Column.precision` digits of a second (`YYYY-MM-DDTHH:MM:SS.fffZ`).
    case datetime
    /// A time of day `H:MM:SS`, stored as integer seconds after midnight. Hours may pass 24
    /// (GTFS service days): `25:10:00` is 90600.
    case time
    /// An ISO 8601 duration `PnDTnHnMnS` (also weeks, `PnW`), stored as integer seconds:
    /// `PT1M18S` is 78. Years and months are refused: their length in seconds varies. With a
    /// `format` (`m:ss`, `h:mm:ss`), clock fields instead: `4:45` is 285.
    case duration
    /// The zone of a time of day or a date and time (`06:00:00+02:00`, `06:54:00Z`,
    /// `2024-03-28T06:00:00-01:00`) as signed seconds east of UTC: 7200, 0, -3600. NULL when
    /// the value has no zone. Read beside a `time` column of the same source, which keeps
    /// the local time of day.
    case utcOffset

    /// The declared SQL type, which gives the column its affinity.
    public var sqlType: String {
        switch self {
        case .integer, .boolean, .time, .duration, .utcOffset: return "INTEGER"
        case .real: return "REAL"
        case .text, .date, .datetime: return "TEXT"
        }
    }
}
