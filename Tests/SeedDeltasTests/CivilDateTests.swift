import SeedSQLite
import Testing

/// Dates as days since 1970-01-01 (SeedSQLite's CivilDate, which the builder's date values, the
/// report's calendar and the router's service days share), read against SQLite's own calendar.
@Suite("Civil dates")
struct CivilDateTests {
    /// Every 97th day from 1600 to 2400, and the days around leap-year edges.
    static let days =
        Array(stride(from: -135_140, through: 157_054, by: 97))
        + [-1, 0, 1, 10_956, 10_957, 11_016, 11_017, 47_540, 47_541, 47_542]

    @Test("days to YYYY-MM-DD and back agree with SQLite's date() on every sampled day")
    func againstSQLite() throws {
        let db = try Connection(path: ":memory:")
        for day in Self.days {
            let text = CivilDate.text(day)
            let sqlite = try db.scalar("SELECT date(? * 86400, 'unixepoch')", [.integer(Int64(day))])
            #expect(sqlite == .text(text), "day \(day)")
            #expect(CivilDate.days(text) == day, "\(text)")
        }
    }

    @Test("weekday: 0 for Monday, 6 for Sunday, as SQLite's strftime('%w') counts from Sunday")
    func weekdays() throws {
        let db = try Connection(path: ":memory:")
        for day in Self.days.prefix(200) {
            let sunday0 = try db.scalar(
                "SELECT CAST(strftime('%w', ? * 86400, 'unixepoch') AS INTEGER)", [.integer(Int64(day))])
            #expect(sunday0 == .integer(Int64((CivilDate.weekday(day) + 1) % 7)), "day \(day)")
        }
    }

    @Test("days(_:) refuses what is not a date of three numbers")
    func refused() {
        for text in ["2026-13-01", "2026-00-10", "2026-01-32", "2026-01", "20260101", "a-b-c", ""] {
            #expect(CivilDate.days(text) == nil, "\(text)")
        }
        #expect(CivilDate.days("2024-02-29") == 19_782)
    }
}
