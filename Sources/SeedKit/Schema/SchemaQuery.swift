import SeedSQLite

/// A named query an app runs on the seed (`queries:` in a schema): its SQL, its named
/// parameters and its result columns, each with a type. The schema checks the SQL against its
/// tables when it is read, and `seedgen schema swift --grdb` turns each query into a typed
/// request (`TransitSchema.Queries.departures(stop:date:from:to:)`). The transit
/// schema's queries are those of Documentation/querying.md, which prints them: one SQL, in the
/// schema, the guide and the app.
public struct SchemaQuery: Sendable, Equatable {
    /// A parameter or a result column: a name, a type and whether it may be NULL.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var type: ColumnType
        public var optional: Bool
    }

    /// How a query of times on a service day's clock answers "from an instant on": the time
    /// zone of the clock, the parameters that give a window on it, and the result columns of a
    /// row's time and service day. The query must end with its ORDER BY (by time): a `LIMIT`
    /// is appended to it. GTFS counts a day's times from noon minus 12 hours in the
    /// agency's time zone, which is midnight but on the days the clocks change.
    public struct Clock: Sendable, Equatable {
        /// A query for the time zone's name (IANA: `Europe/Berlin`).
        public var timeZone: String
        /// The date and window parameters.
        public var date: String, from: String, to: String
        /// The result columns: a row's time on the clock of `date`, and its service day.
        public var time: String, serviceDate: String
        /// In a region seed, a query for the feed the query's other parameters belong to
        /// (`SELECT feed_ref FROM stops WHERE id = :stop`): the generated code then runs the
        /// query's one-feed form (`Schema.oneFeedQuery(_:)`) for that feed, on its time zone.
        /// Nil: found from the query's parameters (`Schema.clockFeedQuery(of:)`).
        public var feed: String?
    }

    /// The name, as the guide's block names it (`departures`, `services-on-a-date`).
    public var name: String
    /// One line on what it answers (the guide's block starts with it).
    public var summary: String
    public var sql: String
    public var parameters: [Field]
    public var columns: [Field]
    public var clock: Clock?

    /// The guide's block of this query: `-- name: summary`, then the SQL.
    public var guideText: String {
        "-- \(name): \(summary)\n" + sql.trimmingTrailingNewlines
    }
}

extension SchemaQuery {
    static func parse(_ object: inout YAMLObject) throws(SchemaError) -> SchemaQuery {
        let name = try object.requiredString("name", in: "a query")
        let what = "query '\(name)'"
        var query = SchemaQuery(
            name: name, summary: try object.requiredString("summary", in: what),
            sql: try object.requiredString("sql", in: what),
            parameters: try fields(&object, "parameters", of: what),
            columns: try fields(&object, "columns", of: what))
        if var clock = try object.object("clock", what: "the clock of \(what)") {
            func text(_ key: String) throws(SchemaError) -> String {
                try clock.requiredString(key, in: "the clock of \(what)")
            }
            query.clock = Clock(
                timeZone: try text("timeZone"), date: try text("date"), from: try text("from"), to: try text("to"),
                time: try text("time"), serviceDate: try text("serviceDate"), feed: try clock.string("feed"))
            try clock.rejectUnknownKeys(in: "the clock of \(what)")
        }
        try object.rejectUnknownKeys(in: what)
        return query
    }

    /// `{ stop: integer, limit: integer? }`, in order.
    private static func fields(
        _ object: inout YAMLObject, _ key: String, of what: String
    ) throws(SchemaError) -> [Field] {
        var fields: [Field] = []
        for (name, typeText) in try object.orderedStrings(key) {
            let optional = typeText.hasSuffix("?")
            guard let type = ColumnType(rawValue: optional ? String(typeText.dropLast()) : typeText) else {
                throw object.error(
                    """
                    \(what): '\(key)': '\(name)' has an unknown type '\(typeText)' \
                    (\(ColumnType.allCases.map(\.rawValue).joined(separator: ", ")), with '?' when it may be NULL)
                    """
                )
            }
            fields.append(Field(name: name, type: type, optional: optional))
        }
        return fields
    }
}

extension Schema {
    /// Each query must compile against the schema's tables and indexes, take exactly the
    /// parameters it declares and return the columns it declares, in order.
    func validateQueries(file: String) throws(SchemaError) {
        guard !queries.isEmpty else { return }
        func fail(_ query: SchemaQuery, _ message: String) -> SchemaError {
            SchemaError(file: file, message: "query '\(query.name)': \(message)")
        }
        guard Set(queries.map(\.name)).count == queries.count else {
            throw SchemaError(file: file, message: "two queries have the same name")
        }
        do {
            let connection = try emptyDatabase()
            for query in queries {
                let statement: Statement
                do { statement = try connection.prepare(query.sql) } catch {
                    throw fail(query, "'sql' is not a valid query over the schema's tables: \(error.message)")
                }
                let names = (0..<statement.columnCount).map { statement.columnName(at: $0) }
                guard names == query.columns.map(\.name) else {
                    throw fail(
                        query,
                        """
                        'sql' returns \(names.joined(separator: ", ")); 'columns' says \
                        \(query.columns.map(\.name).joined(separator: ", "))
                        """
                    )
                }
                let parameters = statement.parameterNames.map { String($0.dropFirst()) }
                guard Set(parameters) == Set(query.parameters.map(\.name)) else {
                    throw fail(
                        query,
                        """
                        'sql' takes :\(parameters.sorted().joined(separator: ", :")); 'parameters' says \
                        :\(query.parameters.map(\.name).sorted().joined(separator: ", :"))
                        """
                    )
                }
                if let clock = query.clock {
                    for name in [clock.date, clock.from, clock.to] where !parameters.contains(name) {
                        throw fail(query, "'clock' names a parameter '\(name)' the query does not take")
                    }
                    for name in [clock.time, clock.serviceDate] where !names.contains(name) {
                        throw fail(query, "'clock' names a column '\(name)' the query does not return")
                    }
                    do { _ = try connection.prepare(clock.timeZone) } catch {
                        throw fail(query, "'clock': 'timeZone' is not a valid query: \(error.message)")
                    }
                    if let feed = clock.feed { try validateClockFeed(feed, of: query, clock: clock, file: file) }
                }
            }
        } catch let error as SchemaError {
            throw error
        } catch {
            throw SchemaError(file: file, message: "cannot check the queries: \(error)")
        }
    }
}

extension Schema {
    /// The query for the feed of a clock's query in a region seed: its `feed`, else the feed of
    /// the row its first integer parameter (other than the clock's) names, where that
    /// parameter is named after a table read from the inputs (`stop`: `stops` or `stop`):
    /// `SELECT feed_ref FROM "stops" WHERE "id" = :stop`. Nil when there is no such parameter.
    /// (The transit schema's departures and arrivals find their feed this way, so the schema
    /// file, whose digest every seed records, did not change for region seeds.)
    public func clockFeedQuery(of query: SchemaQuery) -> String? {
        guard let clock = query.clock else { return nil }
        if let feed = clock.feed { return feed }
        for parameter in query.parameters
        where parameter.type == .integer && ![clock.date, clock.from, clock.to].contains(parameter.name) {
            guard let table = [parameter.name + "s", parameter.name].lazy.compactMap({ self.table(named: $0) }).first,
                table.file != nil || table.element != nil, !table.withoutRowID
            else { continue }
            return
                """
                SELECT \(quoted(Self.feedColumn)) FROM \(quoted(table.name)) WHERE \(quoted(table.rowID)) = \
                :\(parameter.name)
                """
        }
        return nil
    }

    /// A clock's `feed` query must compile against the tables of a region seed, return one
    /// column and take only parameters of the query that are not the clock's.
    private func validateClockFeed(
        _ sql: String, of query: SchemaQuery, clock: SchemaQuery.Clock, file: String
    ) throws(SchemaError) {
        func fail(_ message: String) -> SchemaError {
            SchemaError(file: file, message: "query '\(query.name)': 'clock': 'feed' \(message)")
        }
        let statement: Statement
        do { statement = try scopedByFeed().emptyDatabase().prepare(sql) } catch {
            throw fail("is not a valid query over the tables of a region seed: \(error.message)")
        }
        guard statement.columnCount == 1 else {
            throw fail("must return one column (the feed's id), not \(statement.columnCount)")
        }
        let others = Set(query.parameters.map(\.name)).subtracting([clock.date, clock.from, clock.to])
        for name in statement.parameterNames.map({ String($0.dropFirst()) }) where !others.contains(name) {
            throw fail(
                """
                takes :\(name), which is not a parameter of the query besides the clock's \
                (\(others.sorted().map { ":" + $0 }.joined(separator: ", ")))
                """
            )
        }
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
