import Foundation
import SeedKit
import SeedShip

/// `seedgen report`: one self-contained HTML page about a seed, to open offline (from a CI
/// artifact, a mail): nothing is fetched, no tile, font or script comes from elsewhere.
///
/// Its sections: the summary (`seedgen inspect`'s facts), a map of the seed's points and lines
/// (SVG in Web Mercator, pan and zoom), the service calendar (trips a day from the transit
/// schema's `services-on-a-date`), the build's notices grouped by code, what changed since a
/// previous seed (`seedgen diff`'s counts, routes and stops added and removed) and the first rows
/// of each table. A section that needs what the seed does not have says why it is absent.
package enum HTMLReport {
    /// What the page holds beside the seed.
    package struct Options: Sendable {
        /// An earlier seed to compare with (`--previous`).
        package var previous: String?
        /// A notices report of the build (`--notices`, as `seedgen build --notices` writes it).
        package var notices: String?
        /// At most this many marks per points layer; above it one row in N is drawn.
        package var maxPoints = 25_000
        /// Rows shown per table in the samples.
        package var sampleRows = 5
        /// Without `notices`, the day the recomputed notices' date-relative rules take as today
        /// (`--today`, `YYYY-MM-DD`); nil: today's date (UTC).
        package var today: String?

        package init(previous: String? = nil, notices: String? = nil, today: String? = nil) {
            self.previous = previous
            self.notices = notices
            self.today = today
        }

        /// `today`, or today's date (UTC).
        var effectiveToday: String {
            if let today { return today }
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate]
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: Date())
        }
    }

    /// Figures of a written page, for the command's line and the tests.
    package struct Figures: Sendable, Equatable {
        /// Bytes of the page.
        package var bytes: Int
        /// Dots drawn for the stops (0 without a stops table).
        package var stopMarks: Int
        /// Days in the service calendar, over all feeds.
        package var calendarDays: Int
    }

    /// The page about the seed at `seed` (a .sqlite or .sqlite.gz); with a previous seed, the
    /// delta measured is written beside `scratch` and removed.
    package static func page(
        seed path: String, options: Options, scratch: String
    ) throws(ShipError) -> (String, Figures) {
        let opened = try ReportSeed.Opened(path: path)
        // Without a notices file the GTFS checks run over the seed, on the other core meanwhile.
        let recomputing =
            options.notices == nil ? RecomputedNotices.begin(opened, today: options.effectiveToday) : nil
        let seed = try ReportSeed(opened)
        let (changes, overlay) = try ChangesSection.html(seed, previous: options.previous, scratch: scratch)
        let (map, stopMarks) = try MapSection.html(seed, overlay: overlay, maxPoints: options.maxPoints)
        let (calendar, days) = try CalendarSection.html(seed)
        let sections: [(id: String, title: String, html: String)] = [
            ("summary", "Summary", SummarySection.html(seed)),
            ("map", "Map", map),
            ("calendar", "Service calendar", calendar),
            ("notices", "Notices", try NoticesSection.html(seed, path: options.notices, recomputing: recomputing)),
            ("changes", "What changed", changes),
            ("samples", "Sample rows", try SamplesSection.html(seed, rows: options.sampleRows))
        ]
        let name = URL(fileURLWithPath: path).lastPathComponent
        let html = ReportPage.html(title: "Seed report: \(name)", sections: sections)
        return (html, Figures(bytes: html.utf8.count, stopMarks: stopMarks, calendarDays: days))
    }

    /// Writes the page about `seed` to `out` (beside it first, then renamed into place).
    @discardableResult
    package static func write(seed: String, options: Options, to out: String) throws(ShipError) -> Figures {
        let (html, figures) = try page(seed: seed, options: options, scratch: out)
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw ShipError.io(path: out, message: "cannot write the report", cause: error)
        }
        return figures
    }
}
