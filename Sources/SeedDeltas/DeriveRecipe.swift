import SeedArchive
import SeedSQLite

/// One part of a seed computed from its other tables, as the seed records it in
/// `seedgen_derive`: a derived table (`derive:` in the schema, such as GTFS `service_dates`),
/// the derived rows of a loaded table (NeTEx passing times computed from time demand types), or
/// a search (FTS5) or spatial (R*Tree) index.
///
/// The builder writes the recipes and derives with them; a delta carries changes to the other
/// tables only, and the installer derives again, with the device's SQLite, what the changed
/// tables feed (``DeltaPatch``). So the recipes are content: they count in the content digest
/// (the plain tables they fill do too; the indexes do not, `seedgen verify` checks them).
///
/// A recipe's `fill` is a single `INSERT INTO` its target. The installer runs it with an
/// authorizer that lets it read any table and write only its target (and the index's shadow
/// tables): a seed's SQL cannot attach files, change the schema or touch other tables.
package struct DeriveRecipe: Equatable, Sendable {
    package enum Kind: String, Sendable, CaseIterable {
        /// Every row of the target table is derived.
        case table
        /// The rows of the (loaded) target table that `rows` selects are derived.
        case rows
        /// An FTS5 index over its content table, rebuilt from it.
        case search
        /// An R*Tree index, refilled by `fill`.
        case spatial
    }

    package var kind: Kind
    /// The table or index the recipe writes.
    package var target: String
    /// The tables `fill` reads: a change to one of them means deriving again.
    package var reads: [String]
    /// For `rows`: an SQL condition true for the derived rows of `target` (and only those).
    package var rows: String?
    /// The statement that writes the derived rows (an `INSERT INTO` the target).
    package var fill: String

    package init(kind: Kind, target: String, reads: [String], rows: String? = nil, fill: String) {
        self.kind = kind
        self.target = target
        self.reads = reads
        self.rows = rows
        self.fill = fill
    }

    /// The one parameter of a region seed's recipe: the feed whose rows it derives. The
    /// recipe runs once per row of `feeds`, in id order, with the feed's id bound to it.
    package static let feedParameter = ":feed"

    /// The table that holds a seed's recipes, in the order they run.
    package static let tableName = "seedgen_derive"
    package static let createStatement = """
        CREATE TABLE seedgen_derive (position INTEGER PRIMARY KEY, kind TEXT NOT NULL, target TEXT NOT NULL, \
        reads TEXT NOT NULL, "rows" TEXT, fill TEXT NOT NULL)
        """

    /// The tables an index's module writes beside it (FTS5, R*Tree); none for a plain table.
    private var shadowTables: Set<String> {
        switch kind {
        case .table, .rows: return []
        case .search: return Set(["data", "idx", "content", "docsize", "config"].map { target + "_" + $0 })
        case .spatial: return Set(["node", "rowid", "parent"].map { target + "_" + $0 })
        }
    }

    /// Removes what the recipe wrote, leaving what it reads and the target's other rows.
    package var clearStatement: String {
        let name = quoted(target)
        switch kind {
        case .table, .spatial: return "DELETE FROM \(name)"
        case .rows: return "DELETE FROM \(name) WHERE (\(rows ?? "0"))"
        case .search: return "INSERT INTO \(name)(\(name)) VALUES('delete-all')"
        }
    }

    /// What runs after `fill`: an FTS5 index is merged into one segment, as the builder leaves it.
    package var finishStatement: String? {
        guard kind == .search else { return nil }
        let name = quoted(target)
        return "INSERT INTO \(name)(\(name)) VALUES('optimize')"
    }

    /// The recipes of the database attached as `schema`, in order; empty for a seed without
    /// the table (built before recipes were recorded, or with nothing derived).
    package static func read(_ connection: Connection, schema: String = "main") throws(SQLiteError) -> [DeriveRecipe] {
        let exists =
            try connection.scalar(
                "SELECT count(*) FROM \(quoted(schema)).sqlite_schema WHERE type = 'table' AND name = ?",
                [.text(tableName)])?.integer ?? 0
        guard exists == 1 else { return [] }
        return try connection.rows(
            "SELECT kind, target, reads, \"rows\", fill FROM \(quoted(schema)).seedgen_derive ORDER BY position"
        )
        .map { row throws(SQLiteError) in
            guard let kindText = row[0].text, let kind = Kind(rawValue: kindText), let target = row[1].text,
                let fill = row[4].text
            else {
                throw SQLiteError(
                    .error,
                    message: "seedgen_derive has a recipe of unknown kind \(row[0].description.debugDescription)")
            }
            let reads = (row[2].text ?? "").split(separator: " ").map(String.init)
            return DeriveRecipe(kind: kind, target: target, reads: reads, rows: row[3].text, fill: fill)
        }
    }

    /// Creates `seedgen_derive` in `connection`'s main database and records `recipes` in order.
    package static func write(_ recipes: [DeriveRecipe], to connection: Connection) throws(SQLiteError) {
        try connection.execute(createStatement)
        let insert = try connection.prepare(
            "INSERT INTO seedgen_derive (position, kind, target, reads, \"rows\", fill) VALUES (?, ?, ?, ?, ?, ?)")
        for (position, recipe) in recipes.enumerated() {
            try insert.run([
                .integer(Int64(position + 1)), .text(recipe.kind.rawValue), .text(recipe.target),
                .text(recipe.reads.joined(separator: " ")), recipe.rows.map { .text($0) } ?? .null, .text(recipe.fill)
            ])
        }
    }

    /// Runs the recipe: `fill`, then `finishStatement`, allowed to write the target only.
    package func derive(_ connection: Connection) throws(SQLiteError) {
        try connectTarget(connection)
        try connection.withAuthorizer(allowsOnlyItsWrites) { () throws(SQLiteError) in
            let statement = try connection.prepare(fill)
            guard statement.isSingleStatement, fill.uppercased().hasPrefix("INSERT INTO ") else {
                throw SQLiteError(.auth, message: "the recipe of '\(target)' is not one INSERT INTO statement")
            }
            if statement.parameterNames == [Self.feedParameter] {
                // A region seed's recipe: run once per feed, each feed's rows from its own.
                for feed in try connection.rows("SELECT id FROM feeds ORDER BY id") {
                    try statement.run([feed[0]])
                }
            } else {
                try statement.step()
            }
            if let finishStatement { try connection.execute(finishStatement) }
        }
        try flushIndex(connection)
    }

    /// Runs `clearStatement`, allowed to write the target only.
    package func clear(_ connection: Connection) throws(SQLiteError) {
        try connectTarget(connection)
        try connection.withAuthorizer(allowsOnlyItsWrites) { () throws(SQLiteError) in
            try connection.execute(clearStatement)
        }
        try flushIndex(connection)
    }

    /// Connects an index's virtual table before the authorizer is installed: connecting it
    /// (its first use on a connection, as when a delta is applied) declares its columns with a
    /// CREATE TABLE that SQLite authorizes as an UPDATE of sqlite_schema (compiled, never run),
    /// which the rule below refuses.
    private func connectTarget(_ connection: Connection) throws(SQLiteError) {
        guard kind == .search || kind == .spatial else { return }
        _ = try connection.prepare("SELECT 1 FROM \(quoted(target)) LIMIT 0")
    }

    /// Makes an FTS5 index write what it holds in memory (its pending terms and row totals)
    /// now, outside the authorizer: FTS5 writes them to its shadow tables at the next savepoint
    /// of the transaction, which would otherwise be a statement of the next recipe, whose rule
    /// refuses writes to this index.
    private func flushIndex(_ connection: Connection) throws(SQLiteError) {
        guard kind == .search else { return }
        try connection.execute("SAVEPOINT seedgen_derive_flush; RELEASE seedgen_derive_flush")
    }

    /// The authorizer's rule for this recipe's statements: reads and queries anywhere, writes to
    /// the target and (for an index) its shadow tables, nothing else (no ATTACH, no DDL, no PRAGMA).
    private func allowsOnlyItsWrites(_ request: AuthorizerRequest) -> Bool {
        switch request.action {
        case .read, .query: return true
        case .insert(let table), .update(let table), .delete(let table):
            guard request.database == nil || request.database == "main" else { return false }
            if table == target { return true }
            return shadowTables.contains(table)
        case .pragma(let name):
            // FTS5 and R*Tree read their own configuration with `PRAGMA data_version` and the like.
            return (kind == .search || kind == .spatial) && ["data_version", "page_size"].contains(name)
        case .other:
            return false
        }
    }

    /// The recipes to run again when `tables` changed, in order: those that read a changed table
    /// or the target of a recipe run again before them. A change to `seedgen_derive` itself
    /// means every recipe.
    package static func affected(_ recipes: [DeriveRecipe], byChangesTo tables: Set<String>) -> [DeriveRecipe] {
        if tables.contains(tableName) { return recipes }
        var changed = tables
        var result: [DeriveRecipe] = []
        for recipe in recipes
        where recipe.reads.contains(where: changed.contains)
            || (recipe.kind == .rows && changed.contains(recipe.target))
        {
            result.append(recipe)
            changed.insert(recipe.target)
        }
        return result
    }
}
