import SeedKit
import SeedSQLite

/// The service calendar as a heat map: a square a day (weeks in columns, Monday on top), one
/// picture per year and feed, months labelled, the trips of the day in its shade, days without
/// service and exception dates marked; then a table of the same facts in words.
enum CalendarSection {
    static func html(_ seed: ReportSeed) throws(ShipError) -> (html: String, days: Int) {
        guard seed.hasTransit, seed.tables.contains("calendar"), seed.tables.contains("calendar_dates") else {
            let note = HTMLText.note(
                """
                No service calendar: it needs the transit tables (trips, calendar, calendar_dates and \
                service_days), which this seed does not have.
                """)
            return (HTMLText.section(id: "calendar", title: "Service calendar", body: note), 0)
        }
        var calendars: [ServiceCalendar] = []
        do {
            let query = try ServiceCalendar.query(region: seed.isRegion)
            if seed.isRegion {
                for feed in seed.feeds { calendars.append(try ServiceCalendar(seed: seed, feed: feed, query: query)) }
            } else {
                calendars.append(try ServiceCalendar(seed: seed, feed: nil, query: query))
            }
        } catch {
            throw seed.failure("the service calendar", error)
        }
        var body = HTMLText.note(
            """
            Trips a day over each feed's validity, from the services that run that day (the \
            services-on-a-date query). Darker is more trips; a pale red square \
            has no service; an orange-ringed square is a date of calendar_dates.
            """)
        for calendar in calendars { body += feedHTML(calendar) }
        let days = calendars.reduce(0) { $0 + $1.days.count }
        return (HTMLText.section(id: "calendar", title: "Service calendar", body: body), days)
    }

    private static func feedHTML(_ calendar: ServiceCalendar) -> String {
        var html = calendar.feed.map { "<h3>Feed \(HTMLText.escape($0))</h3>\n" } ?? ""
        guard let first = calendar.days.first, let last = calendar.days.last else {
            return html + HTMLText.note("No calendar rows: no service on any day.")
        }
        let most = calendar.days.map(\.trips).max() ?? 0
        let feedName = calendar.feed ?? ""
        html += "<div class=\"calendar\" data-feed=\"\(HTMLText.escape(feedName))\">\n"
        var year = CivilDate.civil(first.day).year
        while year <= CivilDate.civil(last.day).year {
            let days = calendar.days.filter { CivilDate.civil($0.day).year == year }
            if !days.isEmpty { html += yearSVG(year: year, days: days, most: most, feed: calendar.feed) }
            year += 1
        }
        html += "</div>\n"
        let empty = calendar.days.filter { $0.services == 0 }
        let emptyList = empty.prefix(40).map { CivilDate.text($0.day) }.joined(separator: ", ")
        let busiest = calendar.days.max { $0.trips < $1.trips }
        var rows = [
            ["validity", "\(CivilDate.text(first.day)) to \(CivilDate.text(last.day)) (\(calendar.days.count) days)"],
            ["days with service", HTMLText.count(calendar.days.count - empty.count)],
            [
                "days without service",
                empty.isEmpty ? "none" : "\(empty.count): \(emptyList)\(empty.count > 40 ? ", ..." : "")"
            ],
            ["dates with exceptions (calendar_dates)", HTMLText.count(calendar.days.filter(\.exception).count)],
            [
                "busiest day",
                busiest.map { "\(CivilDate.text($0.day)): \(HTMLText.count($0.trips)) trips" } ?? "-"
            ]
        ]
        if calendar.daysLeftOut > 0 {
            rows.append(["left out", "\(calendar.daysLeftOut) days after the first \(ServiceCalendar.maxDays)"])
        }
        let caption = "Service calendar" + (calendar.feed.map { " of feed \($0)" } ?? "") + " in words"
        return html + HTMLText.table(caption: caption, headers: ["fact", "value"], rows: rows)
    }

    /// One year: 53 columns of weeks, 7 rows of weekdays, month names above.
    private static func yearSVG(year: Int, days: [ServiceCalendar.Day], most: Int, feed: String?) -> String {
        let size = 11, step = 13, left = 30, top = 16
        let january = CivilDate.days(year: year, month: 1, day: 1)
        let firstMonday = january - CivilDate.weekday(january)
        let width = left + 54 * step, height = top + 7 * step
        let title = "Trips a day in \(year)" + (feed.map { ", feed \($0)" } ?? "")
        var svg =
            """
            <svg class="year" viewBox="0 0 \(width) \(height)" role="img" aria-label="\(HTMLText.escape(title))">
            <title>\(HTMLText.escape(title))</title>
            <text class="yl" x="0" y="\(top + 9)">\(year)</text>

            """
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        for (index, name) in months.enumerated() {
            let start = CivilDate.days(year: year, month: index + 1, day: 1)
            svg += "<text x=\"\(left + (start - firstMonday) / 7 * step)\" y=\"10\">\(name)</text>\n"
        }
        for day in days {
            let column = (day.day - firstMonday) / 7, row = CivilDate.weekday(day.day)
            let level = day.trips == 0 ? 0 : min(4, 1 + (day.trips * 4 - 1) / max(most, 1))
            var classes = "l\(level)"
            if day.services == 0 { classes += " none" }
            if day.exception { classes += " x" }
            let date = CivilDate.text(day.day)
            svg +=
                """
                <rect class="\(classes)" x="\(left + column * step)" y="\(top + row * step)" width="\(size)" \
                height="\(size)" data-date="\(date)" data-services="\(day.services)" data-trips="\(day.trips)">\
                <title>\(date): \(day.trips) trips, \(day.services) services\(day.exception ? ", exception" : "")\
                </title></rect>

                """
        }
        return svg + "</svg>\n"
    }
}
