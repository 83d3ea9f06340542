import Foundation
import SeedSQLite

/// A service date of one feed as a search sees it: its Julian day number, and the instant its
/// times count from (noon in the feed's time zone minus 12 hours, which is midnight except on
/// the days the clocks change).
struct ServiceDay {
    let julianDay: Int64
    let origin: Int

    /// The service dates whose trips may run at or after `instant` in `zone`: from the local
    /// date minus the days the longest trip lasts to the day after.
    static func around(_ instant: Int, in zone: TimeZone, latestTime: Int32) -> [ServiceDay] {
        let local = instant + zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
        let today = Int64((Double(local) / 86400).rounded(.down))
        let back = Int64((Int(latestTime) + 86399) / 86400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return (today - back...today + 1).map { days in
            let (y, m, d) = CivilDate.civil(Int(days))
            let noon = calendar.date(from: DateComponents(year: y, month: m, day: d, hour: 12))
            let origin = Int((noon?.timeIntervalSince1970 ?? Double(days * 86400 + 43200)).rounded()) - 43200
            return ServiceDay(julianDay: days + 2_440_588, origin: origin)
        }
    }
}
