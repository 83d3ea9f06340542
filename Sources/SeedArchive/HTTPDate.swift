#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The dates of HTTP headers (`Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110's
/// IMF-fixdate): how a channel's files tell their age, which names a stale `index.json.sig`.
/// Parsed by hand, so this module needs no date formatter (and no ICU).
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date in `text`, or nil when it is not an IMF-fixdate.
    public static func parse(_ text: String) -> Date? {
        // "Sun, 06 Nov 1994 08:49:37 GMT"
        let words = text.split(separator: " ")
        guard words.count == 6, words[0].hasSuffix(","), words[5] == "GMT",
            let day = Int(words[1]), let month = months.firstIndex(of: String(words[2])), let year = Int(words[3])
        else { return nil }
        let time = words[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]),
            (0...60).contains(time[2])
        else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let y = month < 2 ? year - 1 : year, m = month + 1
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]))
    }
}
