import Foundation
import SeedSQLite
import SeedTestSupport
import Testing

/// SQL text's one owner (SeedSQLite): identifiers and literals quoted so that SQLite reads back
/// exactly the name or text given, and seeds attached read-only.
@Suite("SQL text")
struct SQLTextTests {
    let folder = TemporaryFolder()

    static let names = ["plain", "with space", "a\"b", "\"\"", "'single'", "Žirmūnai 東京", "x]y`z", "select", ""]

    @Test("quoted: a table and a column of any name are created and read back under that name")
    func identifiers() throws {
        #expect(quoted("a\"b") == "\"a\"\"b\"")
        #expect(quoted("") == "\"\"")
        let db = try Connection(path: ":memory:")
        for name in Self.names {
            try db.execute("CREATE TABLE \(quoted(name)) (\(quoted(name)) TEXT)")
            try db.execute("INSERT INTO \(quoted(name)) (\(quoted(name))) VALUES ('v')")
            #expect(try db.scalar("SELECT \(quoted(name)) FROM \(quoted(name))") == .text("v"), "\(name.debugDescription)")
            #expect(try db.scalar("SELECT name FROM pragma_table_info(?)", [.text(name)]) == .text(name))
        }
        let stored = Set(try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table'").map { $0[0].description })
        #expect(stored == Set(Self.names))
    }

    @Test("quotedLiteral: SQLite reads back the same text")
    func literals() throws {
        #expect(quotedLiteral("it's") == "'it''s'")
        let db = try Connection(path: ":memory:")
        for text in Self.names + ["''", "a\nb", "%?#"] {
            #expect(try db.scalar("SELECT \(quotedLiteral(text))") == .text(text), "\(text.debugDescription)")
        }
    }

    @Test("attachReadOnly: a path with quotes, spaces, URI characters and unicode is attached read-only by any schema name")
    func attach() throws {
        let path = folder.file("it's a ?seed#1 100% Žirmūnai.sqlite")
        do {
            let seed = try Connection(path: path)
            try seed.execute("CREATE TABLE t (x); INSERT INTO t VALUES (42)")
        }
        let db = try Connection(path: ":memory:")
        for name in ["seed", "old \"one\""] {
            try db.attachReadOnly(path, as: name)
            #expect(try db.scalar("SELECT x FROM \(quoted(name)).t") == .integer(42))
            #expect(throws: SQLiteError.self, "read-only") { try db.execute("INSERT INTO \(quoted(name)).t VALUES (1)") }
        }
        #expect(Connection.uri("/a%b?c#d", immutable: true) == "file:/a%25b%3fc%23d?mode=ro&immutable=1")
        #expect(Connection.uri("/a", immutable: false) == "file:/a?mode=ro")
    }

    @Test("attachReadOnly: a missing file is refused and not created; a file that is not a database fails at once")
    func attachRefused() throws {
        let db = try Connection(path: ":memory:")
        let missing = folder.file("missing.sqlite")
        let error = #expect(throws: SQLiteError.self) { try db.attachReadOnly(missing, as: "seed") }
        #expect(error?.resultCode == .cantOpen && error?.message == "no such file")
        #expect(!FileManager.default.fileExists(atPath: missing))
        let text = folder.write("text.sqlite", String(repeating: "not a database\n", count: 100))
        let notADatabase = #expect(throws: SQLiteError.self) { try db.attachReadOnly(text, as: "other") }
        #expect(notADatabase?.resultCode.primary == .notADatabase, "\(String(describing: notADatabase))")
    }

    @Test("named result codes: SQLite's numbers, the extended codes' primary code, SQLite's words")
    func resultCodes() throws {
        #expect(SQLiteResultCode.constraint.rawValue == 19 && SQLiteResultCode.constraintUnique.rawValue == 2067)
        #expect(SQLiteResultCode.constraintPrimaryKey.rawValue == 1555 && SQLiteResultCode.constraintUnique.primary == .constraint)
        #expect(SQLiteResultCode.full.rawValue == 13 && SQLiteResultCode.notADatabase.rawValue == 26 && SQLiteResultCode.ioError.rawValue == 10)
        #expect(SQLiteResultCode.constraint.description == "constraint failed")
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (x UNIQUE)")
        try db.execute("INSERT INTO t VALUES (1)")
        let error = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(error?.resultCode == .constraintUnique && error?.isUniqueViolation == true && error?.isConstraintViolation == true)
        #expect(SQLiteError(.full, message: "x").isDiskFull && SQLiteError(.full, message: "x").code == 13)
    }
}
