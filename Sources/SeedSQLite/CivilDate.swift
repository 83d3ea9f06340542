/// The dates seeds store (`YYYY-MM-DD`, in the proleptic Gregorian calendar SQLite's date
/// functions use) as days since 1970-01-01, and back: Howard Hinnant's algorithms
/// ("chrono-Compatible Low-Level Date Algorithms"), exact for every `Int` year range they reach.
package enum CivilDate {
    /// Days since 1970-01-01 of a year, month (1...12) and day (1...31); a day past its month's
    /// end counts on into the next month.
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a count of days since 1970-01-01.
    package static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `YYYY-MM-DD` as days since 1970-01-01; nil when it is not three numbers with a month of
    /// 1...12 and a day of 1...31.
    package static func days(_ text: String) -> Int? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return days(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    package static func text(_ days: Int) -> String {
        let (year, month, day) = civil(days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// 0 for Monday ... 6 for Sunday (1970-01-01 was a Thursday).
    package static func weekday(_ days: Int) -> Int { ((days % 7) + 7 + 3) % 7 }
}
