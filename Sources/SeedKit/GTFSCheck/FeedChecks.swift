import SeedSQLite

/// The canonical validator's rules about a feed's small files (agency, routes, stops, trips,
/// feed_info, fare_attributes), each reported under its notice code: queries over the loaded
/// tables find what is wrong, and the file is read again only when something is, to place it
/// (`CSVRowLocator`).
///
/// - The validator's ERRORs that we report as warnings (errors under `--strict`), since other
///   consumers read such feeds as meant (see the GTFS guide's table): `invalid_url`,
///   `missing_required_agency_id`.
/// - Its WARNINGs, warnings whatever the flags (best practice, not data an app would show
///   wrongly): `missing_recommended_file` (feed_info.txt), `missing_recommended_field`,
///   `missing_feed_contact_email_and_url`, `route_short_name_too_long`,
///   `mixed_case_recommended_field`.
struct FeedChecks {
    let checks: GTFSChecks

    func run() throws {
        try checkFeedInfo()
        try checkAgencyIDs()
        try checkURLs()
        try checkNames()
    }

    // MARK: feed_info.txt

    private func checkFeedInfo() throws {
        guard checks.has(table: "feed_info") else { return }
        guard let file = checks.file(of: "feed_info") else {
            var issue = BuildIssue(
                kind: .bestPractice, file: "feed_info.txt",
                message: "is missing: it says who publishes the feed, for which dates, in which version",
                code: NoticeCode.missingRecommendedFile)
            issue.feed = checks.feed
            checks.issues.record(issue)
            return
        }
        for field in ["feed_start_date", "feed_end_date", "feed_version"] {
            try placeEmpty(field, of: "feed_info", file: file, code: NoticeCode.missingRecommendedField) {
                "is empty: the validator recommends it"
            }
        }
        guard checks.has(table: "feed_info", column: "feed_contact_email") else { return }
        let rows = try checks.connection.rows(
            """
            SELECT count(*) FROM feed_info WHERE coalesce(feed_contact_email, '') = '' \
            AND coalesce(feed_contact_url, '') = ''
            """)
        guard case .integer(let count) = rows.first?.first, count > 0 else { return }
        try checks.places.locate(
            "feed_info", matching: ["feed_contact_email", "feed_contact_url"], keys: [["", ""]], showing: []
        ) { _, row in
            checks.issues.record(
                BuildIssue(
                    kind: .bestPractice, file: file, line: row.line, row: row.key, field: "feed_contact_email",
                    message: "and feed_contact_url are both empty: riders and consumers have no one to tell",
                    code: NoticeCode.missingFeedContactEmailAndURL))
        }
    }

    // MARK: agency_id

    /// With one agency, an empty agency_id (agency, routes, fare_attributes) is
    /// `missing_recommended_field`; with several, routes and fares without one name no agency:
    /// `missing_required_agency_id`.
    private func checkAgencyIDs() throws {
        guard checks.has(table: "agency", column: "agency_id"), checks.file(of: "agency") != nil else { return }
        guard case .integer(let agencies) = try checks.connection.rows("SELECT count(*) FROM agency").first?.first
        else { return }
        if agencies == 1, let file = checks.file(of: "agency") {
            try placeEmpty("agency_id", of: "agency", file: file, code: NoticeCode.missingRecommendedField) {
                "is empty: the validator recommends it even for a feed of one agency"
            }
        }
        for table in ["routes", "fare_attributes"] {
            guard checks.has(table: table, column: "agency_id"), let file = checks.file(of: table) else { continue }
            let rows = try checks.connection.rows(
                "SELECT count(*) FROM \(quoted(table)) WHERE coalesce(agency_id, '') = ''")
            guard case .integer(let count) = rows.first?.first, count > 0 else { continue }
            if agencies == 1 {
                try placeEmpty("agency_id", of: table, file: file, code: NoticeCode.missingRecommendedField) {
                    "is empty: the validator recommends it even for a feed of one agency"
                }
            } else if agencies > 1 {
                try placeEmpty(
                    "agency_id", of: table, file: file, code: NoticeCode.missingRequiredAgencyID,
                    kind: .misleading(strict: checks.options.strict)
                ) { "is empty, and agency.txt has \(agencies) agencies: which one is meant is not said" }
            }
        }
    }

    // MARK: URLs

    /// The URL fields of the transit schema, by table.
    static let urlFields: [(table: String, field: String)] = [
        ("agency", "agency_url"), ("agency", "agency_fare_url"), ("routes", "route_url"), ("stops", "stop_url"),
        ("feed_info", "feed_publisher_url"), ("feed_info", "feed_contact_url"), ("attributions", "attribution_url"),
        ("booking_rules", "info_url"), ("booking_rules", "booking_url"), ("fare_products", "fare_url"),
        ("rider_categories", "eligibility_url")
    ]

    /// Whether `text` is a URL a browser opens: `http://` or `https://`, then a host, no spaces.
    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lower.hasPrefix($0) }) else { return false }
        let rest = lower.dropFirst(scheme.count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && host.first != "." && !text.contains(where: { $0 == " " || $0 == "\t" })
    }

    private func checkURLs() throws {
        for (table, field) in Self.urlFields {
            guard checks.has(table: table, column: field), let file = checks.file(of: table) else { continue }
            let values = try checks.connection.rows(
                "SELECT DISTINCT \(quoted(field)) FROM \(quoted(table)) WHERE coalesce(\(quoted(field)), '') <> ''")
            let invalid = Set(values.map { CSVRowLocator.key($0[0]) }.filter { !Self.isURL($0) }.map { [$0] })
            try place(invalid, field: field, of: table, file: file) { row in
                row.issue(
                    .misleading(strict: checks.options.strict), file: file, field: field,
                    value: row.fields[field]?.text,
                    message: "is not a URL (http:// or https://, then a host): an app cannot open it",
                    code: NoticeCode.invalidURL)
            }
        }
    }

    // MARK: Names

    /// The names the validator wants in mixed case, by table.
    static let mixedCaseFields: [(table: String, field: String)] = [
        ("agency", "agency_name"), ("stops", "stop_name"), ("routes", "route_short_name"),
        ("routes", "route_long_name"), ("routes", "route_desc"), ("trips", "trip_headsign")
    ]

    /// Whether `text` reads as all capitals or all small letters: it has words of two cased
    /// letters or more (runs of letters; scripts without case have none), none of them mixes
    /// cases, and it is not one word in capitals (an acronym: `CNPS`).
    static func isSingleCase(_ text: String) -> Bool {
        var words = 0, mixed = false, allUpper = true
        var upper = false, lower = false, letters = 0
        func endWord() {
            if letters >= 2 {
                words += 1
                if upper && lower { mixed = true }
                if lower { allUpper = false }
            }
            (upper, lower, letters) = (false, false, 0)
        }
        for character in text {
            guard character.isLetter else { endWord(); continue }
            if character.isUppercase {
                upper = true
                letters += 1
            } else if character.isLowercase {
                lower = true
                letters += 1
            }
        }
        endWord()
        return words > 0 && !mixed && !(words == 1 && allUpper)
    }

    private func checkNames() throws {
        if checks.has(table: "routes", column: "route_short_name"), let file = checks.file(of: "routes") {
            let values = try checks.connection.rows(
                "SELECT DISTINCT route_short_name FROM routes WHERE length(route_short_name) > 12")
            try place(
                Set(values.map { [CSVRowLocator.key($0[0])] }), field: "route_short_name", of: "routes", file: file
            ) { row in
                row.issue(
                    .bestPractice, file: file, field: "route_short_name", value: row.fields["route_short_name"]?.text,
                    message: "is longer than 12 characters: a short name is what fits on a sign; use route_long_name",
                    code: NoticeCode.routeShortNameTooLong)
            }
        }
        for (table, field) in Self.mixedCaseFields {
            guard checks.has(table: table, column: field), let file = checks.file(of: table) else { continue }
            let values = try checks.connection.rows(
                "SELECT DISTINCT \(quoted(field)) FROM \(quoted(table)) WHERE coalesce(\(quoted(field)), '') <> ''")
            let single = Set(values.map { CSVRowLocator.key($0[0]) }.filter(Self.isSingleCase).map { [$0] })
            try place(single, field: field, of: table, file: file) { row in
                row.issue(
                    .bestPractice, file: file, field: field, value: row.fields[field]?.text,
                    message: "is all capitals or all small letters: the validator wants names in mixed case",
                    code: NoticeCode.mixedCaseRecommendedField)
            }
        }
    }

    // MARK: Placing

    /// Records `issue(row)` for every row of `file` (table `table`) whose `field` is one of `values`.
    private func place(
        _ values: Set<[String]>, field: String, of table: String, file: String,
        issue: (PlacedRow) -> BuildIssue
    ) throws {
        try checks.places.locate(table, matching: [field], keys: values, showing: [field]) { _, row in
            checks.issues.record(issue(row))
        }
    }

    /// Records `code` for every row of `file` (table `table`) whose `field` is empty, when the
    /// loaded table has such rows.
    private func placeEmpty(
        _ field: String, of table: String, file: String, code: String, kind: BuildIssue.Kind = .bestPractice,
        message: () -> String
    ) throws {
        guard checks.has(table: table, column: field) else { return }
        let rows = try checks.connection.rows(
            "SELECT count(*) FROM \(quoted(table)) WHERE coalesce(\(quoted(field)), '') = ''")
        guard case .integer(let count) = rows.first?.first, count > 0 else { return }
        let text = message()
        try checks.places.locate(table, matching: [field], keys: [[""]], showing: [field]) { _, row in
            checks.issues.record(
                row.issue(
                    kind, file: file, field: field, value: nil, message: text, code: code))
        }
    }
}
