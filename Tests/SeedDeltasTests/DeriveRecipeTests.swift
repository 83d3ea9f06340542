import Foundation
@testable import SeedDeltas
import SeedSQLite
import SeedTestSupport
import Testing

/// The recipes a seed records in `seedgen_derive`: which run again after a delta, and that a
/// recipe, run on the device with SQL a file brought, writes its own target and nothing else.
@Suite("Derive recipes")
struct DeriveRecipeTests {
    let folder = TemporaryFolder()

    func recipe(_ kind: DeriveRecipe.Kind, _ target: String, reads: [String]) -> DeriveRecipe {
        DeriveRecipe(kind: kind, target: target, reads: reads, rows: kind == .rows ? "derived = 1" : nil, fill: "INSERT INTO \(target) SELECT 1")
    }

    @Test("affected: the recipes that read a changed table, transitively in recipe order; the loaded rows of a rows recipe; all when the recipes change")
    func affected() {
        let totals = recipe(.table, "totals", reads: ["items"])
        let ranks = recipe(.table, "ranks", reads: ["totals", "groups"])
        let notes = recipe(.rows, "notes", reads: ["other"])
        let search = recipe(.search, "ranks_search", reads: ["ranks"])
        let boxes = recipe(.spatial, "boxes", reads: ["places"])
        let recipes = [totals, ranks, notes, search, boxes]
        func names(_ tables: Set<String>) -> [String] { DeriveRecipe.affected(recipes, byChangesTo: tables).map(\.target) }

        #expect(names(["items"]) == ["totals", "ranks", "ranks_search"], "what totals feeds, and what that feeds")
        #expect(names(["groups"]) == ["ranks", "ranks_search"])
        #expect(names(["places", "unrelated"]) == ["boxes"])
        #expect(names(["notes"]) == ["notes"], "the loaded rows of a table with derived rows changed: derive them again")
        #expect(names(["totals"]) == ["ranks", "ranks_search"], "a derived table's own rows are not a reason to derive it")
        #expect(names(["unrelated", "sqlite_stat1", "seedgen_metadata"]).isEmpty)
        #expect(names([]).isEmpty)
        #expect(names([DeriveRecipe.tableName]) == recipes.map(\.target), "a change to the recipes derives everything")
        // In order: a recipe listed before the one whose target it reads is not run again for it.
        #expect(DeriveRecipe.affected([ranks, totals], byChangesTo: ["items"]).map(\.target) == ["totals"])
    }

    @Test("the recipes written and read back, in order; none in a seed without the table; an unknown kind is an error")
    func roundTrip() throws {
        let db = try Connection(path: ":memory:")
        #expect(try DeriveRecipe.read(db).isEmpty)
        let recipes = [
            DeriveRecipe(kind: .table, target: "totals", reads: ["a", "b"], fill: "INSERT INTO totals SELECT count(*) FROM a"),
            DeriveRecipe(kind: .rows, target: "notes", reads: [], rows: "\"derived\" = 1", fill: "INSERT INTO notes (derived) SELECT 1"),
            DeriveRecipe(kind: .search, target: "s", reads: ["notes"], fill: "INSERT INTO s(s) VALUES('rebuild')"),
        ]
        try DeriveRecipe.write(recipes, to: db)
        #expect(try DeriveRecipe.read(db) == recipes)
        try db.execute("ATTACH ':memory:' AS other")
        #expect(try DeriveRecipe.read(db, schema: "other").isEmpty)
        try db.execute("UPDATE seedgen_derive SET kind = 'magic' WHERE position = 2")
        #expect(throws: SQLiteError.self) { try DeriveRecipe.read(db) }
    }

    /// A database with a table of items and a derived table of totals.
    func itemsAndTotals() throws -> Connection {
        let db = try Connection(path: folder.file("items.sqlite"))
        try db.execute("""
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE totals (n INTEGER);
            INSERT INTO items (name) VALUES ('a'), ('b'), ('c');
            """)
        return db
    }

    func count(_ db: Connection, _ table: String) throws -> Int64? { try db.scalar("SELECT count(*) FROM \(table)")?.integer }

    @Test("a recipe writes its target; a fill that writes another table, attaches a file or changes the schema is refused before it runs")
    func authorizer() throws {
        let db = try itemsAndTotals()
        let good = DeriveRecipe(kind: .table, target: "totals", reads: ["items"], fill: "INSERT INTO totals SELECT count(*) FROM items")
        try good.derive(db)
        #expect(try db.scalar("SELECT n FROM totals")?.integer == 3)
        try good.clear(db)
        #expect(try count(db, "totals") == 0)

        let evil = folder.file("evil.sqlite")
        try Connection(path: folder.file("other.sqlite")).execute("CREATE TABLE totals (n INTEGER)")
        let hostile = [
            "another table": "INSERT INTO items (name) VALUES ('planted')",
            "an update of another table": "UPDATE items SET name = 'x'",
            "a file attached": "ATTACH DATABASE '\(evil)' AS evil",
            "a table created": "CREATE TABLE planted (x)",
            "the schema written": "PRAGMA writable_schema = 1",
            "a query, not an insert": "SELECT count(*) FROM items",
            "two statements": "INSERT INTO totals SELECT count(*) FROM items; DELETE FROM items",
            "an insert into a same-named table of another database": "INSERT INTO other.totals SELECT 99",
        ]
        try db.execute("ATTACH '\(folder.file("other.sqlite"))' AS other")
        for (name, fill) in hostile {
            let recipe = DeriveRecipe(kind: .table, target: "totals", reads: ["items"], fill: fill)
            let error = #expect(throws: SQLiteError.self, "\(name)") { try recipe.derive(db) }
            #expect(error?.message.contains("not authorized") == true || error?.message.contains("is not one INSERT INTO statement") == true,
                    "\(name): \(String(describing: error))")
            #expect(try count(db, "items") == 3 && count(db, "totals") == 0 && count(db, "other.totals") == 0, "\(name): nothing ran")
        }
        #expect(!FileManager.default.fileExists(atPath: evil), "no file attached")
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'planted'")?.integer == 0)
        // A hostile condition of derived rows deletes only its own target's rows.
        let rows = DeriveRecipe(kind: .rows, target: "totals", reads: [], rows: "1) OR (1", fill: "INSERT INTO totals VALUES (1)")
        try rows.clear(db)
        #expect(try count(db, "items") == 3)
        // The authorizer is gone once the recipe has run.
        try db.execute("INSERT INTO items (name) VALUES ('d')")
    }

    @Test("search and spatial recipes cleared and derived again on a fresh connection, one after another in one transaction")
    func indexesOnAFreshConnection() throws {
        let path = folder.file("indexes.sqlite")
        let recipes = [
            DeriveRecipe(kind: .search, target: "docs", reads: ["items"], fill: "INSERT INTO docs(docs) VALUES('rebuild')"),
            DeriveRecipe(kind: .spatial, target: "boxes", reads: ["items"], fill: "INSERT INTO boxes SELECT id, id, id + 1 FROM items ORDER BY id"),
            DeriveRecipe(kind: .table, target: "totals", reads: ["items"], fill: "INSERT INTO totals SELECT count(*) FROM items"),
        ]
        do {
            let db = try Connection(path: path)
            try db.execute("""
                CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE totals (n INTEGER);
                CREATE VIRTUAL TABLE docs USING fts5 (name, content='items', content_rowid='id');
                CREATE VIRTUAL TABLE boxes USING rtree (id, x0, x1);
                INSERT INTO items (name) VALUES ('alpha'), ('beta'), ('gamma');
                """)
            try DeriveRecipe.write(recipes, to: db)
            for recipe in recipes { try recipe.derive(db) }
            try db.execute("ANALYZE")
        }
        // As the installer does after a delta: a new connection, the indexes first used under
        // the recipes' authorizer; FTS5 writes what it buffers before the next recipe runs.
        let db = try Connection(path: path, mode: .readWrite)
        try db.execute("BEGIN; UPDATE items SET name = 'delta' WHERE id = 2; INSERT INTO items (name) VALUES ('epsilon')")
        let affected = DeriveRecipe.affected(try DeriveRecipe.read(db), byChangesTo: ["items"])
        #expect(affected.count == 3)
        for recipe in affected.reversed() { try recipe.clear(db) }
        for recipe in affected { try recipe.derive(db) }
        try db.execute("COMMIT")
        #expect(try db.scalar("SELECT group_concat(rowid) FROM docs WHERE docs MATCH 'delta OR epsilon'")?.text == "2,4")
        #expect(try db.scalar("SELECT count(*) FROM docs WHERE docs MATCH 'beta'")?.integer == 0)
        #expect(try db.scalar("SELECT group_concat(id) FROM boxes")?.text == "1,2,3,4")
        #expect(try db.scalar("SELECT n FROM totals")?.integer == 4)
        try db.execute("INSERT INTO docs(docs) VALUES('integrity-check')")
    }
}
