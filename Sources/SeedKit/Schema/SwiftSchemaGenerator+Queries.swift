/// The generated code of a schema's `queries:`: per query its name and SQL, and with GRDB a
/// row struct and a typed request (`TransitSchema.Queries.departures(stop:date:from:to:)`);
/// for a query with a `clock`, also the rows from an instant on, in absolute time. Each query
/// that reads tables of every feed also has its one-feed form, for a region seed
/// (`oneFeedSQL`, `departures(stop:date:from:to:feed:)`; see `Schema.oneFeedQuery(_:)`).
extension SwiftSchemaGenerator {
    /// Each query's one-feed form, by name: for the queries that read tables holding rows of
    /// every feed, when the schema can be a region seed's (no table `feeds` of its own). A
    /// query that takes `:feed` itself has none.
    private func oneFeedQueries() -> [String: SchemaQuery] {
        guard !schema.queries.isEmpty, schema.table(named: Schema.feedsTable) == nil, let scope = try? FeedScope(schema)
        else { return [:] }
        var forms: [String: SchemaQuery] = [:]
        for query in schema.queries {
            if let form = try? scope.oneFeedQuery(query) { forms[query.name] = form }
        }
        return forms
    }

    /// The lines of `static let oneFeedSQL`: the expressions that narrow the tables to one
    /// feed, then `sql` (the constant above it) wrapped, so the query's text is there once.
    private func oneFeedSQLLines(_ form: SchemaQuery, of query: SchemaQuery, access: String) -> [String] {
        let body = "\n" + query.sql.trimmingTrailingNewlines + "\n)"
        let head: String, tail: String
        if form.sql.hasSuffix(body) {
            (head, tail) = (String(form.sql.dropLast(body.count)), " + \"\\n\" + sql + \"\\n)\"")
        } else {
            (head, tail) = (form.sql, "")
        }
        return [
            "            /// The one-feed form, for a region seed (several feeds): the query on the rows of the",
            "            /// feed `:feed` (a `feeds.id`) alone, each table of every feed it reads narrowed to them.",
            "            \(access)static let oneFeedSQL = #\"\"\""
        ] + head.split(separator: "\n", omittingEmptySubsequences: false).map { "                " + $0 } + [
            "                \"\"\"#" + tail
        ]
    }

    /// `enum Queries` inside the schema's enum: each query's name and SQL.
    func queryLines(access: String) -> [String] {
        guard !schema.queries.isEmpty else { return [] }
        let forms = oneFeedQueries()
        var lines = [
            "",
            "    /// The schema's queries (`queries:`), as Documentation/querying.md prints them.",
            "    \(access)enum Queries {"
        ]
        for query in schema.queries {
            lines += [
                "        /// `\(query.name)`: \(query.summary)",
                "        \(access)enum \(Self.identifier(Self.upperCamel(query.name))) {",
                "            \(access)static let name = \(literal(query.name))",
                "            \(access)static let sql = #\"\"\""
            ]
            lines += query.sql.trimmingTrailingNewlines.split(separator: "\n", omittingEmptySubsequences: false).map {
                "                " + $0
            }
            lines += [
                "                \"\"\"#"
            ]
            if let form = forms[query.name] { lines += oneFeedSQLLines(form, of: query, access: access) }
            lines += [
                "            /// The parameters, as the SQL names them (without the colon).",
                """
                            \(access)static let parameters: [String] = \
                [\(query.parameters.map { literal($0.name) }.joined(separator: ", "))]
                """,
                "        }"
            ]
        }
        lines.append("    }")
        return lines
    }

    /// With GRDB: each query's row struct and request, and the service-day clock.
    func grdbQueryLines(access: String) -> [String] {
        guard !schema.queries.isEmpty else { return [] }
        let queries = "\(typeName).Queries"
        let forms = oneFeedQueries()
        var lines: [String] = []
        for query in schema.queries {
            let type = Self.identifier(Self.upperCamel(query.name))
            let function = Self.identifier(Self.lowerCamel(query.name))
            let members = query.columns.map { Self.identifier(Self.lowerCamel($0.name)) }
            func request(_ query: SchemaQuery, sql: String) -> [String] {
                let parameters = query.parameters.map { parameter in
                    """
                    \(Self.identifier(Self.lowerCamel(parameter.name))): \
                    \(Self.swiftType(parameter.type))\(parameter.optional ? "? = nil" : "")
                    """
                }
                let arguments = query.parameters.map {
                    "\(literal($0.name)): \(Self.identifier(Self.lowerCamel($0.name)))"
                }
                return [
                    "    /// \(query.summary)",
                    """
                        \(access)static func \(function)(\(parameters.joined(separator: ", "))) -> \
                    SQLRequest<\(type).Row> {
                    """,
                    """
                            SQLRequest(sql: \(type).\(sql), arguments: \
                    StatementArguments([\(arguments.isEmpty ? ":" : arguments.joined(separator: ", "))]))
                    """,
                    "    }"
                ]
            }
            lines += [
                "",
                "extension \(queries).\(type) {",
                "    /// A row of `\(query.name)`.",
                "    \(access)struct Row: Codable, Sendable, Hashable, FetchableRecord {"
            ]
            for (column, member) in zip(query.columns, members) {
                lines.append(
                    "        \(access)var \(member): \(Self.swiftType(column.type))\(column.optional ? "?" : "")")
            }
            lines += ["", "        private enum CodingKeys: String, CodingKey {"]
            for (column, member) in zip(query.columns, members) {
                lines.append("            case \(member) = \(literal(column.name))")
            }
            lines += [
                "        }",
                "    }",
                "}",
                "",
                "extension \(queries) {"
            ]
            lines += request(query, sql: "sql")
            if let form = forms[query.name] {
                lines += [""] + request(form, sql: "oneFeedSQL")
            }
            if let clock = query.clock {
                lines += clockLines(
                    query, clock: clock, oneFeed: forms[query.name], type: type, function: function, access: access)
            }
            lines.append("}")
        }
        if schema.queries.contains(where: { $0.clock != nil }) { lines += serviceDayClockLines(access: access) }
        return lines
    }

    /// `departures(_ db:, stop:, after:, limit:)`: the query's window, widened until it holds
    /// `limit` rows, with each row's instant from its service day's clock. In a region seed
    /// (a table `feeds`), the one-feed form for the feed the clock's `feed` query finds, on
    /// that feed's time zone.
    private func clockLines(
        _ query: SchemaQuery, clock: SchemaQuery.Clock, oneFeed: SchemaQuery?, type: String, function: String,
        access: String
    ) -> [String] {
        let clockNames: Set<String> = [clock.date, clock.from, clock.to]
        let others = query.parameters.filter { !clockNames.contains($0.name) }
        let parameters = others.map {
            "\(Self.identifier(Self.lowerCamel($0.name))): \(Self.swiftType($0.type))\($0.optional ? "?" : "")"
        }
        func argument(_ name: String) -> String {
            switch name {
            case clock.date: return "day"
            case clock.from: return "from - slack"
            case clock.to: return "from + window + slack"
            default: return Self.identifier(Self.lowerCamel(name))
            }
        }
        let arguments = query.parameters.map { "\(literal($0.name)): \(argument($0.name))" }.joined(separator: ", ")
        let timeColumn = query.columns.first { $0.name == clock.time }
        let time = "row." + Self.identifier(Self.lowerCamel(clock.time))
        let serviceDate = "row." + Self.identifier(Self.lowerCamel(clock.serviceDate))
        var lines = [
            "",
            "    /// The first `limit` rows of `\(query.name)` from `instant` on, in time order, each with its",
            "    /// instant: the service day's clock counts from noon minus 12 hours in the time zone of",
            "    /// `\(clock.timeZone)` (GTFS), so the times after a change of the clocks are right.",
            "    /// The window starts at an hour and widens (to eight days at most) until it holds `limit` rows."
        ]
        let region = oneFeed.flatMap { form in schema.clockFeedQuery(of: query).map { (form, $0) } }
        if let (form, feedSQL) = region {
            let feedArguments = others.map { "\(literal($0.name)): \(Self.identifier(Self.lowerCamel($0.name)))" }
                .joined(separator: ", ")
            lines += [
                "    /// In a region seed (several feeds), the rows of the feed of `\(feedSQL)`, on its time zone.",
                """
                    \(access)static func \(function)(_ db: Database, \(parameters.map { $0 + ", " }.joined())after \
                instant: Date, limit: Int) throws -> [Timed<\(type).Row>] {
                """,
                "        var feed: Int64?",
                "        if try db.tableExists(\(literal(Schema.feedsTable))) {",
                """
                            guard let found = try Int64.fetchOne(db, sql: \(literal(feedSQL)), arguments: \
                [\(feedArguments.isEmpty ? ":" : feedArguments)]) else { return [] }
                """,
                "            feed = found",
                "        }",
                """
                        let zoneSQL = feed == nil ? \(literal(clock.timeZone)) : \
                \(literal(form.clock?.timeZone ?? clock.timeZone))
                """,
                """
                        let zone = try String.fetchOne(db, sql: zoneSQL, arguments: feed.map { \
                [\(literal(Schema.feedParameter)): $0] } ?? []).flatMap(TimeZone.init(identifier:)) ?? \
                TimeZone(identifier: \"UTC\")!
                """
            ]
        } else {
            lines += [
                """
                    \(access)static func \(function)(_ db: Database, \(parameters.map { $0 + ", " }.joined())after \
                instant: Date, limit: Int) throws -> [Timed<\(type).Row>] {
                """,
                """
                        let zone = try String.fetchOne(db, sql: \
                \(literal(clock.timeZone))).flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: \"UTC\")!
                """
            ]
        }
        lines += [
            "        let clock = ServiceDayClock(timeZone: zone)",
            "        let day = clock.date(of: instant)",
            """
                    guard let origin = clock.origin(of: day), let before = clock.origin(of: clock.date(day, plus: \
            -1)),
            """,
            "              let after = clock.origin(of: clock.date(day, plus: 1)) else { return [] }",
            "        // The query counts the days around `day` as 86,400 s each: exact unless the clocks change.",
            """
                    let exact = origin.timeIntervalSince(before) == 86_400 && after.timeIntervalSince(origin) == \
            86_400
            """,
            "        let slack: Int64 = exact ? 0 : 3600",
            "        let from = Int64(instant.timeIntervalSince(origin).rounded(.up))",
            "        var window: Int64 = 3600",
            "        while true {",
            """
                        // Exact: the window's first `limit` rows are the answer; else the slack's rows may be \
            before the instant.
            """
        ]
        if region != nil {
            lines += [
                "            let query = feed == nil ? \(type).sql : \(type).oneFeedSQL",
                "            let sql = exact ? query + \"\\nLIMIT \\(limit)\" : query",
                "            var arguments: StatementArguments = [\(arguments)]",
                "            if let feed { arguments += [\(literal(Schema.feedParameter)): feed] }",
                "            let rows = try \(type).Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)"
            ]
        } else {
            lines += [
                "            let sql = exact ? \(type).sql + \"\\nLIMIT \\(limit)\" : \(type).sql",
                """
                            let rows = try \(type).Row.fetchAll(db.cachedStatement(sql: sql), arguments: \
                [\(arguments)])
                """
            ]
        }
        lines += [
            "            let timed = rows.enumerated().compactMap { index, row -> (Timed<\(type).Row>, Int)? in",
            """
                            guard \(timeColumn?.optional == true ? "let time = \(time), " : "")let serviceOrigin = \
            clock.origin(of: \(serviceDate)) else { return nil }
            """,
            timeColumn?.optional == true ? "" : "                let time = \(time)",
            """
                            let at = serviceOrigin.addingTimeInterval(TimeInterval(time - Int64(clock.days(from: \
            day, to: \(serviceDate))) * 86_400))
            """,
            "                return at >= instant ? (Timed(at: at, row: row), index) : nil",
            """
                        }.sorted { $0.0.at != $1.0.at ? $0.0.at < $1.0.at : \
            ($0.0.row.\(Self.identifier(Self.lowerCamel(clock.serviceDate))), $0.1) < \
            ($1.0.row.\(Self.identifier(Self.lowerCamel(clock.serviceDate))), $1.1) }.map(\\.0)
            """,
            "            if timed.count >= limit || window >= 8 * 86_400 { return Array(timed.prefix(limit)) }",
            "            window *= 4",
            "        }",
            "    }"
        ]
        return lines.filter { !$0.isEmpty }
    }

    private func serviceDayClockLines(access: String) -> [String] {
        [
            "",
            "extension \(typeName).Queries {",
            "    /// A row with the instant it happens at.",
            "    \(access)struct Timed<Row: Sendable & Hashable>: Sendable, Hashable {",
            "        \(access)var at: Date",
            "        \(access)var row: Row",
            "    }",
            "",
            "    /// A service day's clock (GTFS): a day's times count from its noon minus 12 hours, local",
            "    /// time: midnight, but on the days the clocks change.",
            "    \(access)struct ServiceDayClock: Sendable {",
            "        \(access)let timeZone: TimeZone",
            "        private let local: Calendar",
            "        private let plain: Calendar",
            "",
            "        \(access)init(timeZone: TimeZone) {",
            "            self.timeZone = timeZone",
            "            var local = Calendar(identifier: .gregorian)",
            "            local.timeZone = timeZone",
            "            self.local = local",
            "            var plain = Calendar(identifier: .gregorian)",
            "            plain.timeZone = TimeZone(identifier: \"UTC\")!",
            "            self.plain = plain",
            "        }",
            "",
            "        /// The instant the times of `date` (`2026-03-29`) count from: its noon minus 12 hours.",
            "        \(access)func origin(of date: String) -> Date? {",
            "            guard let parts = Self.parts(date),",
            """
                              let noon = local.date(from: DateComponents(year: parts.0, month: parts.1, day: \
            parts.2, hour: 12)) else { return nil }
            """,
            "            return noon.addingTimeInterval(-12 * 3600)",
            "        }",
            "",
            "        /// The local date of `instant`.",
            "        \(access)func date(of instant: Date) -> String {",
            "            let parts = local.dateComponents([.year, .month, .day], from: instant)",
            "            return Self.text(parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)",
            "        }",
            "",
            "        /// The date `days` after `date`.",
            "        \(access)func date(_ date: String, plus days: Int) -> String {",
            """
                        guard let parts = Self.parts(date), let start = plain.date(from: DateComponents(year: \
            parts.0, month: parts.1, day: parts.2)),
            """,
            "                  let moved = plain.date(byAdding: .day, value: days, to: start) else { return date }",
            "            let result = plain.dateComponents([.year, .month, .day], from: moved)",
            "            return Self.text(result.year ?? 0, result.month ?? 0, result.day ?? 0)",
            "        }",
            "",
            "        /// The days from `start` to `end` (negative when `end` is earlier).",
            "        \(access)func days(from start: String, to end: String) -> Int {",
            "            guard let a = Self.parts(start), let b = Self.parts(end),",
            "                  let first = plain.date(from: DateComponents(year: a.0, month: a.1, day: a.2)),",
            """
                              let second = plain.date(from: DateComponents(year: b.0, month: b.1, day: b.2)) else \
            { return 0 }
            """,
            "            return plain.dateComponents([.day], from: first, to: second).day ?? 0",
            "        }",
            "",
            "        private static func parts(_ date: String) -> (Int, Int, Int)? {",
            "            let numbers = date.split(separator: \"-\").compactMap { Int($0) }",
            "            return numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : nil",
            "        }",
            "",
            "        private static func text(_ year: Int, _ month: Int, _ day: Int) -> String {",
            "            String(format: \"%04d-%02d-%02d\", year, month, day)",
            "        }",
            "    }",
            "}"
        ]
    }
}
