import SeedKit
import SeedSQLite

/// The service calendar of one feed: for each day of its validity, the services that run
/// (the transit schema's `services-on-a-date` query, its one-feed form in a region seed) and
/// the trips of those services.
struct ServiceCalendar {
    struct Day {
        /// Days since 1970-01-01.
        var day: Int
        var services: Int
        var trips: Int
        /// A date of `calendar_dates` (a service added or removed that day).
        var exception: Bool
    }

    /// The feed's name in a region seed; nil for a seed of one feed.
    let feed: String?
    let days: [Day]
    /// Days of the validity left out (the calendar shows at most `maxDays`).
    let daysLeftOut: Int

    static let maxDays = 3 * 366

    /// The calendar of the feed `feed` (`feeds.id`; nil for a seed of one feed), read with `query`
    /// (the SQL of `services-on-a-date`, or its one-feed form taking `:feed`).
    init(seed: ReportSeed, feed: (id: Int64, name: String)?, query: String) throws(SQLiteError) {
        self.feed = feed?.name
        let filter = feed.map { "WHERE feed_ref = \($0.id)" } ?? ""
        let bounds = try seed.connection.rows(
            """
            SELECT min(d), max(d) FROM (SELECT start_date AS d FROM calendar \(filter) \
            UNION ALL SELECT end_date FROM calendar \(filter) UNION ALL SELECT date FROM calendar_dates \(filter))
            """
        ).first
        guard let first = bounds?[0].text.flatMap(CivilDate.days), let last = bounds?[1].text.flatMap(CivilDate.days),
            first <= last
        else {
            days = []
            daysLeftOut = 0
            return
        }
        var tripsOf: [String: Int] = [:]
        for row in try seed.connection.rows("SELECT service_id, count(*) FROM trips \(filter) GROUP BY service_id") {
            tripsOf[row[0].description] = Int(row[1].integer ?? 0)
        }
        let exceptions = Set(
            try seed.connection.rows("SELECT DISTINCT date FROM calendar_dates \(filter)").compactMap {
                $0[0].text.flatMap(CivilDate.days)
            })
        let end = min(last, first + Self.maxDays - 1)
        daysLeftOut = last - end
        let statement = try seed.connection.prepare(query)
        let names = statement.parameterNames
        var days: [Day] = []
        for day in first...end {
            statement.reset()
            // By name: the one-feed form names `:feed` before `:date`.
            try statement.bind(
                names.map { $0 == ":date" ? .text(CivilDate.text(day)) : .integer(feed?.id ?? 0) })
            var services = 0, trips = 0
            while try statement.step() {
                services += 1
                trips += tripsOf[statement.value(at: 0).description] ?? 0
            }
            days.append(Day(day: day, services: services, trips: trips, exception: exceptions.contains(day)))
        }
        self.days = days
    }

    /// The SQL of the transit schema's `services-on-a-date`, in its one-feed form for a region
    /// seed (taking `:date`, then `:feed`).
    static func query(region: Bool) throws -> String {
        guard let transit = SchemaLocator.builtIns.first(where: { $0.name == "transit" }) else {
            throw ShipError(code: .invalidFile, path: "transit", message: "the transit schema is not built in")
        }
        let schema = try transit.load()
        guard let query = schema.queries.first(where: { $0.name == "services-on-a-date" }) else {
            throw ShipError(code: .invalidFile, path: "transit", message: "no query services-on-a-date")
        }
        return region ? try schema.oneFeedSQL(of: query.sql) : query.sql
    }
}

/// Dates as days since 1970-01-01 (the proleptic Gregorian calendar), and back.
enum CivilDate {
    /// `YYYY-MM-DD` as days since 1970-01-01; nil when it is not such a date.
    static func days(_ text: String) -> Int? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return days(year: year, month: month, day: day)
    }

    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
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

    /// `YYYY-MM-DD`.
    static func text(_ days: Int) -> String {
        let (year, month, day) = civil(days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// 0 for Monday ... 6 for Sunday (1970-01-01 was a Thursday).
    static func weekday(_ days: Int) -> Int { ((days % 7) + 7 + 3) % 7 }
}
