import SeedKit
import SeedShip

/// The notices section without a notices file: the build's GTFS checks run again over the
/// seed's tables (`SeedNotices`), against `--today`, each notice placed by its table and the
/// row's key. It says which notices cannot be found again (those about the files themselves,
/// which a seed does not keep) and where they come from; a seed of another schema gets why
/// there are none.
enum RecomputedNotices {
    /// Where the notices that are not recomputed come from.
    static let elsewhere =
        """
        seedgen build --notices FILE.json writes them all, for seedgen report --notices FILE.json; \
        seedgen build --report passes the build's own
        """

    /// The checks begun over a seed: running on their own thread, or why they do not apply.
    struct Begun {
        /// The day the date-relative rules take as today.
        let today: String
        /// The checks, when they apply to the seed.
        let pending: SeedNotices.Pending?
        /// Why they do not, otherwise.
        let absent: String?
    }

    /// Starts the checks over `seed` (on a connection and a thread of their own, while the
    /// report gathers `seedgen inspect`'s facts and draws its other sections), when they apply.
    static func begin(_ seed: ReportSeed.Opened, today: String) -> Begun {
        guard let schema = seed.schema, SeedNotices.apply(to: schema) else {
            let name = seed.schemaName.map { "'\($0)'" } ?? "unknown"
            return Begun(
                today: today, pending: nil,
                absent: """
                    No notices file was given, and no notices are recomputed: the GTFS checks apply to seeds of \
                    the transit schema, and this seed's schema is \(name). A seed does not keep its build's \
                    notices: \(elsewhere).
                    """)
        }
        guard seed.schemaSHA256 == schema.sha256, let database = seed.file.databasePath else {
            return Begun(
                today: today, pending: nil,
                absent: """
                    No notices file was given, and no notices are recomputed: this seed was built with a transit \
                    schema other than this seedgen's (its schema_sha256 differs), whose tables the checks may not \
                    read as they are. A seed does not keep its build's notices: \(elsewhere).
                    """)
        }
        let pending = SeedNotices.start(
            database: database, schema: schema, today: today, examples: NoticesSection.samples)
        return Begun(today: today, pending: pending, absent: nil)
    }

    /// The section's body once the checks `begun` end.
    static func html(_ seed: ReportSeed, _ begun: Begun) throws(ShipError) -> String {
        guard let pending = begun.pending else { return HTMLText.note(begun.absent ?? "") }
        let today = begun.today
        let feeds: [SeedNotices.Feed]
        do { feeds = try pending.wait() } catch { throw seed.failure("the tables to check", error) }
        let groups = merged(feeds)
        let warnings = groups.filter { $0.severity != "ERROR" }.reduce(0) { $0 + $1.count }
        let errors = groups.filter { $0.severity == "ERROR" }.reduce(0) { $0 + $1.count }
        var html = HTMLText.note(
            """
            No notices file was given: these notices were recomputed from the seed's tables, with --today \
            \(today) (the build's GTFS checks run again over the rows it stored\
            \(seed.isRegion ? ", feed by feed" : "")): \(HTMLText.count(errors)) errors, \
            \(HTMLText.count(warnings)) warnings in \(groups.count) codes. A seed keeps no lines: each notice \
            names its table and the row's key.
            """)
        html += NoticesSection.grouped(groups, recomputed: true)
        if seed.isRegion { html += perFeed(feeds) }
        return html + notRecomputed
    }

    /// The groups of every feed, by severity and code: counts added, the first samples kept.
    static func merged(_ feeds: [SeedNotices.Feed]) -> [NoticesSection.Group] {
        var groups: [String: NoticesSection.Group] = [:]
        var order: [String] = []
        for feed in feeds {
            for group in feed.groups {
                let severity = group.kind.isError ? "ERROR" : "WARNING"
                let code = group.code ?? group.kind.noticeCode
                let key = severity + "\u{1F}" + code
                if groups[key] == nil {
                    order.append(key)
                    groups[key] = NoticesSection.Group(severity: severity, code: code, count: 0, samples: [])
                }
                groups[key]!.count += group.count
                for issue in group.examples where groups[key]!.samples.count < NoticesSection.samples {
                    groups[key]!.samples.append(
                        NoticesSection.Notice(
                            code: code, severity: severity, file: issue.file, feed: feed.name, line: issue.line,
                            row: issue.row, column: nil, field: issue.field, value: issue.value,
                            message: issue.message))
                }
            }
        }
        return order.compactMap { groups[$0] }
    }

    /// A region's counts per feed and code.
    private static func perFeed(_ feeds: [SeedNotices.Feed]) -> String {
        var rows: [[String]] = []
        for feed in feeds {
            let groups = merged([feed]).sorted { ($0.severity, $0.code) < ($1.severity, $1.code) }
            if groups.isEmpty { rows.append([feed.name ?? "", "", "none", "0"]) }
            for group in groups {
                rows.append([feed.name ?? "", group.severity, group.code, HTMLText.count(group.count)])
            }
        }
        return HTMLText.table(
            caption: "Recomputed notices per feed", headers: ["feed", "severity", "code", "count"], rows: rows,
            numeric: [3])
    }

    /// What is not recomputed, and where it comes from.
    static var notRecomputed: String {
        HTMLText.note(
            """
            Not recomputed: the notices about the source files themselves, since a seed keeps typed rows, \
            not the files (below), and a foreign_key_violation of a reference the build resolved (the GTFS \
            ids the seed keeps as text are checked again). \(elsewhere).
            """, className: "note not-recomputed")
            + HTMLText.table(
                caption: "Notices not recomputed from a seed", headers: ["code", "what it means"],
                rows: SeedNotices.sourceCodes.map { [$0, NoticesSection.meaning($0)] })
    }
}
