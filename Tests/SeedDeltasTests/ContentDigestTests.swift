import Foundation
import SeedArchive
@testable import SeedDeltas
import SeedSQLite
import SeedTestSupport
import Testing

/// A seed's identity (`Documentation/content-digest.md`): the same schema and rows give the same
/// digest whatever the file's page layout; any other value, storage class, schema entry or table
/// gives another; what SQLite derives (statistics, FTS5 and R*Tree indexes) and the digest's own
/// record do not count.
@Suite("Content digest")
struct ContentDigestTests {
    let folder = TemporaryFolder()

    /// A small seed with every kind of table the digest reads or leaves out: a rowid table with
    /// an INTEGER PRIMARY KEY and one with a TEXT key, two WITHOUT ROWID tables (a NOCASE key, a
    /// key in another order than the columns), a table with an odd name, an index, a view, an
    /// FTS5 index and an R*Tree (shadow tables), statistics, and the digest's own row.
    static let sampleSQL = """
        PRAGMA application_id = 1397048644;
        CREATE TABLE seedgen_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO seedgen_metadata VALUES ('schema_name', 'sample'), ('seed_version', 'v1'), ('content_sha256', 'not yet');
        CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, weight REAL, data BLOB, note);
        CREATE INDEX items_name ON items (name);
        CREATE TABLE pairs (k TEXT COLLATE NOCASE NOT NULL, n INTEGER NOT NULL, v, PRIMARY KEY (k, n)) WITHOUT ROWID;
        CREATE TABLE swapped (a INTEGER, b TEXT, c INTEGER, PRIMARY KEY (c, a)) WITHOUT ROWID;
        CREATE TABLE "odd ""name" (x, y);
        CREATE VIEW heavy AS SELECT id, name FROM items WHERE weight > 10;
        CREATE VIRTUAL TABLE docs USING fts5 (name, content='items', content_rowid='id');
        CREATE VIRTUAL TABLE boxes USING rtree (id, x0, x1);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
          INSERT INTO items SELECT i, 'item ' || i, i * 0.5, CASE WHEN i % 4 = 0 THEN CAST(hex(i * 7919) AS BLOB) END,
                                   CASE i % 5 WHEN 0 THEN i WHEN 1 THEN i * 1.0 WHEN 2 THEN 'text ' || i WHEN 3 THEN x'00ff' END FROM n;
        INSERT INTO pairs VALUES ('cherry', 1, 1), ('Banana', 2, 2.5), ('apple', 3, 'three'), ('apple', 1, NULL), ('banana2', 1, x'01');
        INSERT INTO swapped VALUES (1, 'one', 30), (2, 'two', 10), (3, 'three', 20), (0, 'zero', 20);
        INSERT INTO "odd ""name" VALUES (1, 2), ('a', NULL);
        INSERT INTO docs(docs) VALUES ('rebuild');
        INSERT INTO boxes SELECT id, weight, weight + 1 FROM items;
        ANALYZE;
        """

    /// Writes the sample seed (compacted) to `name` and returns its path.
    func sample(_ name: String = "sample.sqlite") throws -> String {
        let scratch = folder.file(name + ".scratch")
        let path = folder.file(name)
        try Connection(path: scratch).execute(Self.sampleSQL + "VACUUM INTO '\(path)';")
        return path
    }

    /// A copy of the sample seed changed by `sql`.
    func changed(_ name: String, _ sql: String) throws -> String {
        let path = try sample(name)
        try Connection(path: path, mode: .readWrite).execute(sql)
        return path
    }

    // MARK: An independent implementation of the specification

    /// The digest as `Documentation/content-digest.md` specifies it, written here from the text
    /// (not from ContentDigest's code). `orderBy` gives the ORDER BY of each WITHOUT ROWID table.
    static func reference(_ db: Connection, orderBy: [String: String]) throws -> String {
        var stream: [UInt8] = Array("seedgen-content-1\n".utf8)
        func u32(_ n: Int) { stream += withUnsafeBytes(of: UInt32(n).bigEndian, Array.init) }
        func bytes(_ b: [UInt8]) { u32(b.count); stream += b }
        func text(_ s: String) { bytes(Array(s.utf8)) }
        let shadows = Set(try db.rows("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'").map { $0[0].description })
        let entries = try db.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type COLLATE BINARY, name COLLATE BINARY")
            .filter { !$0[1].description.hasPrefix("sqlite_") && !shadows.contains($0[1].description) }
        var tables: [String] = []
        for entry in entries {
            stream.append(UInt8(ascii: "S"))
            for value in entry { text(value.text ?? "") }
            if entry[0].text == "table" && !(entry[3].text ?? "").hasPrefix("CREATE VIRTUAL TABLE") { tables.append(entry[1].description) }
        }
        for table in tables.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let name = quoted(table)
            let sql = orderBy[table].map { "SELECT * FROM \(name) ORDER BY \($0)" } ?? "SELECT rowid, * FROM \(name) ORDER BY rowid"
            let statement = try db.prepare(sql)
            stream.append(UInt8(ascii: "T"))
            text(table)
            u32(statement.columnCount)
            while try statement.step() {
                if table == "seedgen_metadata", statement.value(at: 1) == .text("content_sha256") { continue }
                stream.append(UInt8(ascii: "R"))
                for index in 0..<statement.columnCount {
                    switch statement.value(at: index) {
                    case .null: stream.append(UInt8(ascii: "N"))
                    case .integer(let n): stream.append(UInt8(ascii: "I")); stream += withUnsafeBytes(of: n.bigEndian, Array.init)
                    case .real(let d): stream.append(UInt8(ascii: "F")); stream += withUnsafeBytes(of: d.bitPattern.bigEndian, Array.init)
                    case .text(let s): stream.append(UInt8(ascii: "T")); text(s)
                    case .blob(let b): stream.append(UInt8(ascii: "B")); bytes(b)
                    }
                }
            }
        }
        stream.append(UInt8(ascii: "E"))
        return SHA256.hex(of: stream)
    }

    static let sampleOrder = ["pairs": "k COLLATE NOCASE, n", "swapped": "c, a"]

    @Test("the specification, implemented again from its text, gives the same digest; the key's collation orders WITHOUT ROWID rows")
    func matchesTheSpecification() throws {
        let db = try Connection(path: try sample(), mode: .readOnly)
        let digest = try ContentDigest.compute(db)
        #expect(digest.count == 64 && digest.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
        #expect(try Self.reference(db, orderBy: Self.sampleOrder) == digest)
        // Rows in another order are another digest: the key's collation (NOCASE: apple, Banana,
        // banana2, cherry) and the key's column order (c, then a), not the table's.
        #expect(try Self.reference(db, orderBy: ["pairs": "k COLLATE BINARY, n", "swapped": "c, a"]) != digest)
        #expect(try Self.reference(db, orderBy: ["pairs": "k COLLATE NOCASE, n", "swapped": "a, c"]) != digest)
        // A digest of an attached database is the same as of the file itself.
        let other = try Connection(path: ":memory:")
        try other.execute("ATTACH '\(try sample("attached.sqlite"))' AS seed")
        #expect(try ContentDigest.compute(other, schema: "seed") == digest)
    }

    @Test("the page layout does not count: VACUUM INTO, another page size, rows deleted and inserted again in another order, free pages")
    func independentOfLayout() throws {
        let base = try ContentDigest.compute(path: try sample())
        let vacuumed = folder.file("vacuumed.sqlite")
        try Connection(path: try sample("source.sqlite"), mode: .readOnly).execute("VACUUM INTO '\(vacuumed)'")
        let layouts = [
            "vacuum into": vacuumed,
            "page size 1024": try changed("small-pages.sqlite", "PRAGMA page_size = 1024; VACUUM"),
            "page size 65536": try changed("big-pages.sqlite", "PRAGMA page_size = 65536; VACUUM"),
            "rows again, backwards": try changed("reinserted.sqlite", """
                CREATE TEMP TABLE keep AS SELECT * FROM items; DELETE FROM items;
                INSERT INTO items SELECT * FROM keep ORDER BY id DESC;
                CREATE TEMP TABLE keep_pairs AS SELECT * FROM pairs; DELETE FROM pairs;
                INSERT INTO pairs SELECT * FROM keep_pairs ORDER BY n DESC, k DESC;
                CREATE TEMP TABLE keep_odd AS SELECT rowid AS r, * FROM "odd ""name"; DELETE FROM "odd ""name";
                INSERT INTO "odd ""name" (rowid, x, y) SELECT * FROM keep_odd ORDER BY r DESC;
                """),
            "free pages": try changed("free-pages.sqlite", """
                CREATE TABLE filler AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) SELECT i, zeroblob(200) AS b FROM n;
                DROP TABLE filler;
                UPDATE items SET data = randomblob(3000) WHERE id = 7; UPDATE items SET data = NULL WHERE id = 7;
                """),
        ]
        for (name, path) in layouts {
            #expect(try ContentDigest.compute(path: path) == base, "\(name)")
        }
        #expect(try Connection(path: layouts["page size 1024"]!, mode: .readOnly).scalar("PRAGMA page_size")?.integer == 1024)
        #expect(try Connection(path: layouts["free pages"]!, mode: .readOnly).scalar("PRAGMA freelist_count")?.integer ?? 0 > 0)
        #expect(bytes(layouts["page size 1024"]!) != bytes(layouts["vacuum into"]!))
    }

    @Test("what is not content does not count: the digest's own row, the sequence stamp, sqlite_stat1, FTS5 and R*Tree indexes")
    func leavesOut() throws {
        let base = try ContentDigest.compute(path: try sample())
        let same = [
            "its own row": "UPDATE seedgen_metadata SET value = '\(String(repeating: "e", count: 64))' WHERE key = 'content_sha256'",
            "its own row absent": "DELETE FROM seedgen_metadata WHERE key = 'content_sha256'",
            "the install's sequence stamp": "INSERT INTO seedgen_metadata (rowid, key, value) VALUES (-1, 'publication_sequence', '42')",
            "statistics": "DELETE FROM sqlite_stat1 WHERE tbl = 'items'",
            "statistics gone": "DROP TABLE sqlite_stat1",
            "search index emptied": "INSERT INTO docs(docs) VALUES ('delete-all')",
            "spatial index emptied": "DELETE FROM boxes",
            "search index unmerged": "INSERT INTO docs(docs) VALUES ('rebuild')",
        ]
        for (index, (name, sql)) in same.enumerated() {
            #expect(try ContentDigest.compute(path: try changed("same-\(index).sqlite", sql)) == base, "\(name)")
        }
    }

    @Test("every value, storage class, schema entry and table counts")
    func changesWithContent() throws {
        let base = try ContentDigest.compute(path: try sample())
        let changes = [
            "a text value": "UPDATE items SET name = 'item 1 ' WHERE id = 1",
            "a real value": "UPDATE items SET weight = 0.5000000000000001 WHERE id = 1",
            "1 and 1.0 in an untyped column": "UPDATE items SET note = 5.0 WHERE id = 5",
            "an integer and its text": "UPDATE items SET note = '5' WHERE id = 5",
            "text and a blob of the same bytes": "UPDATE items SET note = CAST(note AS BLOB) WHERE id = 2",
            "NULL and the empty text": "UPDATE items SET note = '' WHERE id = 4",
            "0.0": "UPDATE items SET note = 0.0 WHERE id = 4",
            "-0.0 (another sign bit)": "UPDATE items SET note = -0.0 WHERE id = 4",
            "a rowid": "UPDATE items SET id = 1000 WHERE id = 60",
            "a rowid of a table without a key": "UPDATE \"odd \"\"name\" SET rowid = 9 WHERE x = 'a'",
            "a WITHOUT ROWID key": "UPDATE pairs SET n = 4 WHERE k = 'cherry'",
            "a row added": "INSERT INTO swapped VALUES (5, 'five', 50)",
            "a row removed": "DELETE FROM pairs WHERE k = 'banana2'",
            "a metadata row": "INSERT INTO seedgen_metadata VALUES ('content_sha256 ', 'near')",
            "a metadata row near the stamp's key": "INSERT INTO seedgen_metadata VALUES ('publication_sequence ', '42')",
            "an empty table": "CREATE TABLE extra (x)",
            "an index": "CREATE INDEX items_weight ON items (weight)",
            "a view's text": "DROP VIEW heavy; CREATE VIEW heavy AS SELECT id, name FROM items WHERE weight >  10",
            "a trigger": "CREATE TRIGGER t AFTER DELETE ON items BEGIN SELECT 1; END",
            "a table's name": "ALTER TABLE swapped RENAME TO swapped2",
            "a column": "ALTER TABLE items ADD COLUMN extra INTEGER",
            "an index dropped": "DROP INDEX items_name",
        ]
        var digests: [String: String] = [:]
        for (index, (name, sql)) in changes.enumerated() {
            let digest = try ContentDigest.compute(path: try changed("changed-\(index).sqlite", sql))
            #expect(digest != base, "\(name)")
            digests[name] = digest
        }
        #expect(Set(digests.values).count == changes.count, "each change gives its own digest")
    }

    @Test("a table whose columns hide every rowid name cannot be digested; the digest is the same in every mode the file is opened")
    func edges() throws {
        let path = folder.file("hidden.sqlite")
        try Connection(path: path).execute("CREATE TABLE t (rowid, _rowid_, oid); INSERT INTO t VALUES (1, 2, 3)")
        #expect(throws: SQLiteError.self) { try ContentDigest.compute(path: path) }
        let seed = try sample("modes.sqlite")
        #expect(try ContentDigest.compute(Connection(path: seed, mode: .readWrite)) == ContentDigest.compute(path: seed))
    }

    private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}
