import ArgumentParser
import Foundation
import SeedHTMLReport

extension SeedGen {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write one self-contained HTML page about a seed: summary, map, calendar, notices, changes.",
            discussion: """
                The page opens offline (a CI artifact, a mail attachment): nothing is fetched, its \
                Content-Security-Policy is default-src 'none'. Its sections: the summary (what \
                seedgen inspect says: versions, content digest, rows and bytes per table, the \
                query features' cost, each feed of a region seed); a map of the stops and shapes \
                (or of any table with coordinates) in Web Mercator, with pan, zoom, names on hover \
                and the outliers marked; the service calendar (trips a day over the validity, from \
                the services-on-a-date query, per feed); the notices of --notices grouped by code \
                and severity (without --notices, those the build's GTFS checks find are recomputed \
                from the seed's tables against --today, each named by its table and row key; those \
                about the files themselves, such as CSV repairs, row lengths, encodings and unknown \
                columns, cannot be, and the page lists them); with --previous, what changed (seedgen diff's counts per \
                table and \
                feed, the routes and stops added and removed); and the first rows of each table. \
                Sections that need the transit tables say why they are absent in a seed of another \
                schema.

                Large seeds are sampled: at most 25,000 dots per table (one row in N beyond, as the \
                page says), shapes simplified to a quarter of a map unit.

                Examples:
                  seedgen report out/cairns.sqlite --out cairns.html
                  seedgen report new.sqlite --previous old.sqlite --notices n.json --out r.html
                  seedgen build feed.zip --out seed.sqlite --report report.html
                """)

        @Argument(help: ArgumentHelp("The seed (.sqlite or .sqlite.gz).", valueName: "seed"))
        var seed: String

        @Option(help: ArgumentHelp("An earlier seed: the page says what changed since it.", valueName: "old-seed"))
        var previous: String?

        @Option(help: ArgumentHelp("The build's notices (seedgen build --notices FILE.json).", valueName: "file.json"))
        var notices: String?

        @Option(
            help: ArgumentHelp(
                """
                Without --notices: the day the recomputed notices' date-relative rules take as today \
                (expired_calendar, trip_coverage_not_active_for_next7_days), as seedgen build --today: \
                default today's date (UTC).
                """,
                valueName: "YYYY-MM-DD"))
        var today: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("The HTML file to write.", valueName: "report.html"))
        var out: String

        @Flag(name: .shortAndLong, help: "Print nothing but errors.")
        var quiet = false

        func validate() throws {
            if let today, !Build.isDate(today) { throw ValidationError("--today needs a date as YYYY-MM-DD.") }
        }

        func run() throws {
            let start = Date()
            let figures: HTMLReport.Figures
            do {
                figures = try HTMLReport.write(
                    seed: seed, options: HTMLReport.Options(previous: previous, notices: notices, today: today),
                    to: out)
            } catch {
                throw ShipText.fail(error)
            }
            if !quiet { print(Self.line(out: out, figures, seconds: Date().timeIntervalSince(start))) }
        }

        static func line(out: String, _ figures: HTMLReport.Figures, seconds: Double) -> String {
            """
            report \(out): \(Format.bytes(Int64(figures.bytes))), \(Format.count(figures.stopMarks)) stops drawn, \
            \(Format.count(figures.calendarDays)) calendar days, \(String(format: "%.2f", seconds)) s
            """
        }
    }
}
