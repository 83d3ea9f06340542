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
