import SeedDeltas
import SeedSQLite

/// A query's one-feed form: in a region seed (several feeds, `scopedByFeed()`), the same SQL
/// made to read the rows of one feed. Each table the query reads that holds rows of every feed
/// (a `feed_ref` column) is shadowed by a common table expression of the same name holding the
/// rows of the feed `:feed`:
///
/// ```sql
/// WITH "stops" AS NOT MATERIALIZED (SELECT * FROM main."stops" WHERE "feed_ref" = :feed),
///      "trips" AS NOT MATERIALIZED (SELECT * FROM main."trips" WHERE "feed_ref" = :feed)
/// SELECT * FROM (
/// <the query, unchanged>
/// )
/// ```
///
/// `NOT MATERIALIZED` lets SQLite fold each expression into the query, so the query keeps its
/// indexes. The search (FTS5) and spatial (R*Tree) indexes are not shadowed: they hold no
/// `feed_ref`, and the query reaches their rows through a shadowed table. Derived rows are
/// derived per feed the same way (`DeriveStage.perFeed`).
extension Schema {
    /// The parameter of a one-feed form (`:feed`, named without the colon): the `feeds.id`
    /// of the feed it reads.
    public static let feedParameter = "feed"

    /// `sql`, a query over this schema's tables, in its one-feed form: it takes a parameter
    /// `:feed` more, the `feeds.id` of the feed to read, and returns that feed's answer, as the
    /// seed of that feed alone would (with the region seed's ids).
    ///
    /// - Parameter sql: a query (one statement) over the schema's tables, as for a seed of one
    ///   feed; it must not take a parameter `:feed` itself.
    /// - Returns: the wrapped SQL, or `sql` itself when it reads no table that holds rows of
    ///   every feed (it then answers alike in a region seed and takes no `:feed`).
    /// - Throws: `SchemaError` when `sql` does not compile against the schema's tables or
    ///   already takes `:feed`.
    public func oneFeedSQL(of sql: String) throws(SchemaError) -> String {
        try FeedScope(self).oneFeedSQL(of: sql, what: "the query")
    }

    /// `query` in its one-feed form: its SQL and its clock's time zone query as
    /// `oneFeedSQL(of:)` makes them, a parameter `feed` (integer) last, and its summary saying
    /// so; nil when the query reads no table that holds rows of every feed.
    ///
    /// - Throws: `SchemaError` when the query takes a parameter `:feed` itself.
    public func oneFeedQuery(_ query: SchemaQuery) throws(SchemaError) -> SchemaQuery? {
        try FeedScope(self).oneFeedQuery(query)
    }

    /// `WITH "t" AS (SELECT * FROM main."t" WHERE "feed_ref" = :feed), ...` and a newline:
    /// the common table expressions that narrow `tables` to one feed (empty for no table).
    /// With `notMaterialized`, SQLite folds each into the query that reads it.
    static func feedShadows(_ tables: [String], notMaterialized: Bool) -> String {
        guard !tables.isEmpty else { return "" }
        let shadows = tables.map { name in
            """
            \(quoted(name)) AS \(notMaterialized ? "NOT MATERIALIZED " : "")(SELECT * FROM main.\(quoted(name)) \
            WHERE \(quoted(feedColumn)) = \(DeriveRecipe.feedParameter))
            """
        }
        return "WITH " + shadows.joined(separator: ",\n     ") + "\n"
    }

    /// An in-memory database with the schema's tables and their search and spatial indexes,
    /// empty: what queries are compiled against.
    func emptyDatabase() throws(SQLiteError) -> Connection {
        let connection = try Connection(path: ":memory:")
        for table in tables {
            try connection.execute(table.createStatement)
            if let search = table.search {
                try connection.execute(search.viewStatement(table: table.name, rowID: table.rowID))
                try connection.execute(search.createStatement(rowID: table.rowID))
            }
            if let spatial = table.spatial { try connection.execute(spatial.createStatement(table: table.name)) }
        }
        return connection
    }
}

/// The region form of a schema: its tables scoped by feed in an empty database, to find the
/// tables a query reads, and which of them hold rows of every feed.
struct FeedScope {
    let schema: Schema
    let connection: Connection
    /// The tables with a `feed_ref` column.
    let scoped: Set<String>

    init(_ schema: Schema) throws(SchemaError) {
        self.schema = schema
        let region = schema.scopedByFeed()
        do { connection = try region.emptyDatabase() } catch {
            throw SchemaError(file: schema.name, message: "cannot create the tables of a region seed: \(error.message)")
        }
        scoped = Set(region.tables.filter { $0.column(named: Schema.feedColumn) != nil }.map(\.name))
    }

    func oneFeedSQL(of sql: String, what: String) throws(SchemaError) -> String {
        func fail(_ message: String) -> SchemaError { SchemaError(file: schema.name, message: "\(what): \(message)") }
        var body = sql
        while let last = body.last, last.isWhitespace || last == ";" { body.removeLast() }
        let statement: Statement
        do { statement = try connection.prepare(body) } catch {
            throw fail("it is not a valid query over the tables of a region seed: \(error.message)")
        }
        if statement.parameterNames.contains(DeriveRecipe.feedParameter) {
            throw fail(
                """
                it takes a parameter \(DeriveRecipe.feedParameter) itself, and its one-feed form binds \
                \(DeriveRecipe.feedParameter) to the feed's id: give the parameter another name
                """
            )
        }
        let reads: Set<String>
        do { reads = try connection.tablesRead(by: body) } catch {
            throw fail("cannot find the tables it reads: \(error.message)")
        }
        let shadowed = reads.filter(scoped.contains).sorted()
        guard !shadowed.isEmpty else { return sql }
        return Schema.feedShadows(shadowed, notMaterialized: true) + "SELECT * FROM (\n" + body + "\n)"
    }

    func oneFeedQuery(_ query: SchemaQuery) throws(SchemaError) -> SchemaQuery? {
        let sql = try oneFeedSQL(of: query.sql, what: "query '\(query.name)'")
        guard sql != query.sql else { return nil }
        var region = query
        region.sql = sql
        region.summary += ", in the feed :feed of a region seed (a `feeds.id`)"
        region.parameters.append(SchemaQuery.Field(name: Schema.feedParameter, type: .integer, optional: false))
        if let clock = query.clock {
            region.clock?.timeZone = try oneFeedSQL(of: clock.timeZone, what: "the clock of query '\(query.name)'")
        }
        return region
    }
}
