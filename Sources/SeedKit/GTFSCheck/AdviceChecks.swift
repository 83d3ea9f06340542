import SeedSQLite

/// The canonical validator's best-practice WARNINGs about routes, trips and ids, warnings here
/// whatever the flags:
///
/// - `same_route_and_agency_url`: a route_url that is its feed's agency_url (compared trimmed,
///   in small letters): the route has no page of its own.
/// - `route_long_name_contains_short_name`: a route_long_name that begins with its
///   route_short_name, followed by nothing, a space, `-` or `(` (riders read the name twice).
/// - `missing_bike_allowance`: a ferry trip (route_type 4) without bikes_allowed.
/// - `non_ascii_or_non_printable_char`: an id (a `*_id` column of the schema's tables; of trips
///   and shapes, their own ids only) with a character beyond ASCII, once per distinct value and
///   table (control characters are not looked for: that would cost a scan of each column).
struct AdviceChecks {
    let checks: GTFSChecks

    func run() throws {
        try checkRouteURLs()
        try checkRouteNames()
        let ferries =
            try checks.has(table: "routes", column: "route_type")
            && !checks.connection.rows("SELECT 1 FROM routes WHERE route_type = 4 LIMIT 1").isEmpty
        if ferries {
            try checkBikes()
        }
        try checkIDs()
    }

    private func checkBikes() throws {
        try checks.flagRows(
            of: "trips", key: "trip_id", columns: ["route_id", "bikes_allowed"],
            condition:
                "bikes_allowed IS NULL AND route_ref IN (SELECT \(quoted("id")) FROM routes WHERE route_type = 4)",
            field: "bikes_allowed", kind: .bestPractice, code: NoticeCode.missingBikeAllowance
        ) { _, _ in "is empty for a ferry trip: riders want to know whether they can take a bicycle on board" }
    }

    private func checkRouteURLs() throws {
        guard checks.has(table: "agency", column: "agency_url") else { return }
        let normalized = { (column: String) in "lower(trim(\(column)))" }
        try checks.flagRows(
            of: "routes", key: "route_id", columns: ["route_url"],
            condition:
                """
                coalesce(route_url, '') <> '' AND \(normalized("route_url")) IN \
                (SELECT \(normalized("agency_url")) FROM agency WHERE agency_url IS NOT NULL)
                """,
            field: "route_url", kind: .bestPractice, code: NoticeCode.sameRouteAndAgencyURL
        ) { _, _ in "is the agency's agency_url: a route_url is for the route's own page" }
    }

    /// Whether `long` begins with `short` (in small letters), followed by nothing, a space, `-` or `(`.
    static func longNameRepeats(short: String, long: String) -> Bool {
        let short = short.trimmingSpaces().lowercased()
        let long = long.trimmingSpaces().lowercased()
        guard !short.isEmpty, long.hasPrefix(short) else { return false }
        guard let next = long.dropFirst(short.count).first else { return true }
        return next.isWhitespace || next == "-" || next == "("
    }

    private func checkRouteNames() throws {
        let ids = Set(try checks.routes(with: "route_short_name", "route_long_name", where: Self.longNameRepeats))
        guard !ids.isEmpty else { return }
        try checks.flagRows(
            of: "routes", key: "route_id", columns: ["route_long_name"],
            condition: GTFSChecks.column("route_id", isOneOf: ids),
            field: "route_long_name", kind: .bestPractice, code: NoticeCode.routeLongNameContainsShortName
        ) { _, _ in "begins with the route's route_short_name: riders read the name twice" }
    }

    /// Every `*_id` column of the transit schema's tables, each id once at the row that has it.
    /// One scan a table finds the rows with a character beyond ASCII (its UTF-8 longer than its
    /// characters: a cheap test); only their values are then tested whole.
    private func checkIDs() throws {
        for table in checks.schema.tables where checks.has(table: table.name) {
            let columns = table.columns.filter {
                $0.stored && $0.name.hasSuffix("_id")
                    && (!Self.bigTables.contains(table.name) || table.key.contains($0.name))
            }.map(\.name)
            guard !columns.isEmpty else { continue }
            let beyondASCII = { (column: String) in
                "length(CAST(\(quoted(column)) AS BLOB)) <> length(\(quoted(column)))"
            }
            let rows = try checks.connection.rows(
                """
                SELECT 1 FROM \(quoted(table.name)) WHERE \(columns.map(beyondASCII).joined(separator: " OR ")) LIMIT 1
                """)
            guard !rows.isEmpty else { continue }
            for column in columns {
                try checks.flagValues(
                    of: column, in: table.name, where: beyondASCII(column), kind: .bestPractice,
                    code: NoticeCode.nonASCIIOrNonPrintableChar,
                    message: { _ in "has a character that is not printable ASCII: ids are best kept to it" },
                    isFlagged: { !Self.isPrintableASCII($0) })
            }
        }
    }

    /// Tables of a row per trip or more, whose ids are checked where they are defined only (a
    /// trip's route_id is checked in routes.txt): a scan of each of their columns would cost.
    static let bigTables: Set<String> = ["trips", "shapes", "stop_times"]

    /// Whether every character of `text` is printable ASCII (space to tilde).
    static func isPrintableASCII(_ text: String) -> Bool { text.utf8.allSatisfy { (0x20...0x7E).contains($0) } }
}

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }
}
