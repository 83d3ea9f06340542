import SeedSQLite

/// More of the canonical validator's best-practice WARNINGs, warnings here whatever the flags,
/// each a query over a small table (no pass over stop_times):
///
/// - `inconsistent_agency_lang`: an agency_lang other than the first agency's that has one;
///   `feed_info_lang_and_agency_lang_mismatch`: an agency_lang other than feed_info.txt's
///   feed_lang (unless that is `mul`, a feed in several languages). Compared in small letters.
/// - `missing_feed_info_date`: feed_start_date without feed_end_date or the reverse (at the
///   empty one); `more_than_one_entity`: feed_info.txt of more than one row (at the second).
/// - `route_color_contrast`: a route_color and route_text_color whose brightness (Rec. 601
///   luma, 0.30 R + 0.59 G + 0.11 B, truncated) differs by less than 72.
/// - `same_name_and_description_for_route`: a route_desc that is the route_short_name or the
///   route_long_name, `same_name_and_description_for_stop`: a stop_desc that is the stop_name
///   (both ignoring case).
/// - `same_stop_and_agency_url`, `same_stop_and_route_url`: a stop_url that is an agency's
///   agency_url or a route's route_url (in small letters): once per stop, not per agency or route.
/// - `attribution_without_role`: none of is_producer, is_operator, is_authority is 1.
/// - `duplicate_fare_media`: the fare_media_name (empty counts) and fare_media_type of an
///   earlier fare medium, at the later one.
/// - `translation_unknown_table_name`: a table_name whose file (table_name + `.txt`) the feed
///   does not have.
struct FeedAdviceChecks {
    let checks: GTFSChecks

    func run() throws {
        try checkAgencyLanguages()
        try checkFeedInfo()
        try checkRouteColors()
        try checkRouteDescriptions()
        try checkStopDescriptions()
        try checkStopURLs()
        try checkAttributions()
        try checkFareMedia()
        try checkTranslationTables()
    }

    // MARK: agency.txt and feed_info.txt

    private func checkAgencyLanguages() throws {
        guard checks.has(table: "agency", column: "agency_lang"), let agency = checks.schema.table(named: "agency")
        else { return }
        let first = try checks.connection.rows(
            """
            SELECT agency_lang FROM agency WHERE coalesce(agency_lang, '') <> '' ORDER BY \(quoted(agency.rowID)) \
            LIMIT 1
            """)
        if let first = first.first.map({ CSVRowLocator.key($0[0]) }) {
            try flagLanguages(
                otherThan: first, code: NoticeCode.inconsistentAgencyLang,
                message: "is not '\(first)', the first agency's agency_lang: the agencies speak one language")
        }
        guard checks.has(table: "feed_info", column: "feed_lang") else { return }
        let feed = try checks.connection.rows(
            "SELECT feed_lang FROM feed_info WHERE coalesce(feed_lang, '') <> '' LIMIT 1")
        guard let feedLang = feed.first.map({ CSVRowLocator.key($0[0]) }), feedLang.lowercased() != "mul" else {
            return
        }
        try flagLanguages(
            otherThan: feedLang, code: NoticeCode.feedInfoLangAndAgencyLangMismatch,
            message: "is not '\(feedLang)', feed_info.txt's feed_lang (`mul` there: a feed in several languages)")
    }

    /// Records `code` at each agency whose agency_lang is given and is not `language` (in small letters).
    private func flagLanguages(otherThan language: String, code: String, message: String) throws {
        try checks.flagRows(
            of: "agency", matching: ["agency_lang"],
            condition: "coalesce(agency_lang, '') <> '' AND lower(agency_lang) <> lower(\(quotedLiteral(language)))",
            field: "agency_lang", kind: .bestPractice, code: code, message: message)
    }

    private func checkFeedInfo() throws {
        let dates = ["feed_start_date", "feed_end_date"]
        guard dates.allSatisfy({ checks.has(table: "feed_info", column: $0) }), let file = checks.file(of: "feed_info")
        else { return }
        for (given, missing) in [(dates[0], dates[1]), (dates[1], dates[0])] {
            try checks.flagRows(
                of: "feed_info", matching: dates, condition: "\(given) IS NOT NULL AND \(missing) IS NULL",
                field: missing, kind: .bestPractice, code: NoticeCode.missingFeedInfoDate,
                message: "is empty while \(given) is given: the feed's dates are both or neither")
        }
        guard checks.has(table: "feed_info", column: "feed_publisher_name"),
            case .integer(let count) = try checks.connection.rows("SELECT count(*) FROM feed_info").first?.first,
            count > 1
        else { return }
        let names = try checks.connection.rows("SELECT DISTINCT feed_publisher_name FROM feed_info")
        var lines: [Int] = []
        var keys: [String?] = []
        try checks.places.locate(
            "feed_info", matching: ["feed_publisher_name"], keys: Set(names.map { [CSVRowLocator.key($0[0])] }),
            showing: []
        ) { _, row in
            lines.append(row.line ?? 0)
            keys.append(row.key)
        }
        let second = lines.enumerated().sorted { $0.element < $1.element }.dropFirst().first
        checks.issues.record(
            BuildIssue(
                kind: .bestPractice, file: file, line: second.map { lines[$0.offset] },
                row: second.flatMap { keys[$0.offset] }, value: String(count),
                message: "has \(count) rows: it describes the feed in one (consumers read one of them)",
                code: NoticeCode.moreThanOneEntity))
    }

    // MARK: routes.txt and stops.txt

    /// The Rec. 601 luma of a color of six hexadecimal digits (as the validator computes it).
    static func luma(_ color: String) -> Int? {
        guard color.utf8.count == 6, let rgb = Int(color, radix: 16) else { return nil }
        let (r, g, b) = (Double(rgb >> 16 & 0xFF), Double(rgb >> 8 & 0xFF), Double(rgb & 0xFF))
        return Int(0.30 * r + 0.59 * g + 0.11 * b)
    }

    /// Whether text on `background` in `text` is too close in brightness to be read.
    static func lacksContrast(background: String, text: String) -> Bool {
        guard let one = luma(background), let other = luma(text) else { return false }
        return abs(one - other) < 72
    }

    private func checkRouteColors() throws {
        let ids = try checks.routes(with: "route_color", "route_text_color") {
            Self.lacksContrast(background: $0, text: $1)
        }
        try flag(
            routes: ids, field: "route_text_color", code: NoticeCode.routeColorContrast,
            message: "is too close in brightness to route_color to be read on it")
    }

    private func checkRouteDescriptions() throws {
        let fields = ["route_short_name", "route_long_name", "route_desc"]
        guard fields.allSatisfy({ checks.has(table: "routes", column: $0) }) else { return }
        let rows = try checks.connection.rows(
            "SELECT route_id, route_short_name, route_long_name, route_desc FROM routes WHERE route_desc IS NOT NULL")
        var byName: [String: [String]] = [:]
        for row in rows {
            let description = CSVRowLocator.key(row[3]).lowercased()
            // The short name first, as the validator: one notice per route.
            for (index, name) in fields.prefix(2).enumerated()
            where row[index + 1] != .null && CSVRowLocator.key(row[index + 1]).lowercased() == description {
                byName[name, default: []].append(CSVRowLocator.key(row[0]))
                break
            }
        }
        for name in fields.prefix(2) {
            try flag(
                routes: byName[name] ?? [], field: "route_desc", code: NoticeCode.sameNameAndDescriptionForRoute,
                message: "is the route's \(name): a description says more than the name")
        }
    }

    /// Records `code` at each route of `ids`, at `field`.
    private func flag(routes ids: [String], field: String, code: String, message: String) throws {
        guard !ids.isEmpty else { return }
        try checks.flagRows(
            of: "routes", key: "route_id", columns: [field],
            condition: GTFSChecks.column("route_id", isOneOf: ids),
            field: field, kind: .bestPractice, code: code
        ) { _, _ in message }
    }

    private func checkStopDescriptions() throws {
        guard checks.has(table: "stops", column: "stop_desc"), checks.has(table: "stops", column: "stop_name") else {
            return
        }
        // Same length in characters first (cheap in SQL); the comparison ignoring case in Swift.
        let rows = try checks.connection.rows(
            """
            SELECT stop_id, stop_name, stop_desc FROM stops WHERE stop_desc IS NOT NULL AND stop_name IS NOT NULL \
            AND length(stop_desc) = length(stop_name)
            """)
        let ids = rows.filter { CSVRowLocator.key($0[1]).lowercased() == CSVRowLocator.key($0[2]).lowercased() }
            .map { CSVRowLocator.key($0[0]) }
        guard !ids.isEmpty else { return }
        try checks.flagRows(
            of: "stops", key: "stop_id", columns: ["stop_desc"],
            condition: GTFSChecks.column("stop_id", isOneOf: ids),
            field: "stop_desc", kind: .bestPractice, code: NoticeCode.sameNameAndDescriptionForStop
        ) { _, _ in "is the stop's stop_name: a description says more than the name" }
    }

    private func checkStopURLs() throws {
        let targets = [
            ("agency", "agency_url", NoticeCode.sameStopAndAgencyURL),
            ("routes", "route_url", NoticeCode.sameStopAndRouteURL)
        ]
        for (table, field, code) in targets where checks.has(table: table, column: field) {
            try checks.flagRows(
                of: "stops", key: "stop_id", columns: ["stop_url"],
                condition:
                    """
                    coalesce(stop_url, '') <> '' AND lower(stop_url) IN \
                    (SELECT lower(\(field)) FROM \(table) WHERE \(field) IS NOT NULL)
                    """,
                field: "stop_url", kind: .bestPractice, code: code
            ) { _, _ in "is a \(field) of \(table).txt: a stop_url is for the stop's own page" }
        }
    }

    // MARK: attributions, fare media, translations

    private func checkAttributions() throws {
        let roles = ["is_producer", "is_operator", "is_authority"]
        try checks.flagRows(
            of: "attributions", matching: roles,
            condition: roles.map { "coalesce(\($0), 0) <> 1" }.joined(separator: " AND "), field: "is_producer",
            kind: .bestPractice, code: NoticeCode.attributionWithoutRole,
            message: "is not 1, nor is is_operator or is_authority: the attribution gives no role")
    }

    private func checkFareMedia() throws {
        guard checks.has(table: "fare_media", column: "fare_media_name"),
            checks.has(table: "fare_media", column: "fare_media_type"), let file = checks.file(of: "fare_media"),
            let table = checks.schema.table(named: "fare_media")
        else { return }
        let rows = try checks.connection.rows(
            """
            SELECT fare_media_id, first FROM (SELECT fare_media_id, first_value(fare_media_id) OVER same AS first, \
            row_number() OVER same AS n FROM fare_media WINDOW same AS (PARTITION BY coalesce(fare_media_name, ''), \
            fare_media_type ORDER BY \(quoted(table.rowID)))) WHERE n > 1
            """)
        let first = Dictionary(
            rows.map { (CSVRowLocator.key($0[0]), CSVRowLocator.key($0[1])) }, uniquingKeysWith: { a, _ in a })
        try checks.places.locate(
            "fare_media", matching: ["fare_media_id"], keys: Set(first.keys.map { [$0] }),
            showing: ["fare_media_name"]
        ) { key, row in
            let name = row.fields["fare_media_name"]?.text
            checks.issues.record(
                row.issue(
                    .bestPractice, file: file, field: "fare_media_name", value: name?.isEmpty == false ? name : nil,
                    message: """
                        and fare_media_type are those of fare_media_id '\(first[key[0]] ?? "?")': riders cannot \
                        tell the two apart
                        """,
                    code: NoticeCode.duplicateFareMedia))
        }
    }

    private func checkTranslationTables() throws {
        try checks.flagValues(
            of: "table_name", in: "translations", kind: .bestPractice, code: NoticeCode.translationUnknownTableName,
            message: { "names no file of the feed (\($0).txt): the translation is of nothing" },
            isFlagged: { name in
                checks.schema.table(named: name)?.file != name + ".txt" || checks.file(of: name) == nil
            })
    }
}
