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
        CREATE TABLE many (id INTEGER PRIMARY KEY, v TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO many SELECT i * 3, 'v' || i FROM n;
        CREATE TABLE keyed (a TEXT, b INTEGER, c, PRIMARY KEY (a, b)) WITHOUT ROWID;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO keyed SELECT 'k' || (i % 37), i, i * 0.25 FROM n;
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
    /// (not from ContentDigest's code). `orderBy` gives the ORDER BY of each WITHOUT ROWID table
    /// (its key's columns, each maybe with a collation); `average` the chunks' average rows.
    static func reference(_ db: Connection, orderBy: [String: String], average: UInt64 = 128) throws -> String {
        var root: [UInt8] = Array("seedgen-content-2\n".utf8)
        func u32(_ n: Int, _ out: inout [UInt8]) { out += withUnsafeBytes(of: UInt32(n).bigEndian, Array.init) }
        func text(_ s: String, _ out: inout [UInt8]) { u32(s.utf8.count, &out); out += s.utf8 }
        func value(_ value: Value, _ out: inout [UInt8]) {
            switch value {
            case .null: out.append(UInt8(ascii: "N"))
            case .integer(let n): out.append(UInt8(ascii: "I")); out += withUnsafeBytes(of: n.bigEndian, Array.init)
            case .real(let d): out.append(UInt8(ascii: "F")); out += withUnsafeBytes(of: d.bitPattern.bigEndian, Array.init)
            case .text(let s): out.append(UInt8(ascii: "T")); text(s, &out)
            case .blob(let b): out.append(UInt8(ascii: "B")); u32(b.count, &out); out += b
            }
        }
        func h(_ bytes: [UInt8]) -> UInt64 {
            var x: UInt64 = 0xcbf29ce484222325
            for c in bytes { x = (x ^ UInt64(c)) &* 0x100000001b3 }
            x ^= x >> 33; x &*= 0xff51afd7ed558ccd; x ^= x >> 33; x &*= 0xc4ceb9fe1a85ec53; x ^= x >> 33
            return x
        }
        let shadows = Set(try db.rows("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'").map { $0[0].description })
        let entries = try db.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type COLLATE BINARY, name COLLATE BINARY")
            .filter { !$0[1].description.hasPrefix("sqlite_") && !shadows.contains($0[1].description) && $0[1].description != "seedgen_content_chunks" }
        var tables: [String] = []
        for entry in entries {
            root.append(UInt8(ascii: "S"))
            for value in entry { text(value.text ?? "", &root) }
            if entry[0].text == "table" && !(entry[3].text ?? "").hasPrefix("CREATE VIRTUAL TABLE") { tables.append(entry[1].description) }
        }
        for table in tables.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let name = quoted(table)
            let keys = orderBy[table].map { $0.split(separator: ",").map { $0.split(separator: " ")[0] }.joined(separator: ", ") }
            let sql = orderBy[table].map { "SELECT *, \(keys!) FROM \(name) ORDER BY \($0)" } ?? "SELECT rowid, * FROM \(name) ORDER BY rowid"
            let statement = try db.prepare(sql)
            let width = statement.columnCount - (keys.map { $0.split(separator: ",").count } ?? 0)
            root.append(UInt8(ascii: "T"))
            text(table, &root)
            u32(width, &root)
            var chunk: [UInt8] = []
            while try statement.step() {
                if table == "seedgen_metadata", statement.value(at: 1) == .text("content_sha256") { continue }
                chunk.append(UInt8(ascii: "R"))
                for index in 0..<width { value(statement.value(at: index), &chunk) }
                var key: [UInt8] = []
                for index in (keys == nil ? 0..<1 : width..<statement.columnCount) { value(statement.value(at: index), &key) }
                if h(key) % average == 0 {
                    root.append(UInt8(ascii: "C")); root += SHA256.hex(of: chunk).hexBytes; chunk = []
                }
            }
            if !chunk.isEmpty { root.append(UInt8(ascii: "C")); root += SHA256.hex(of: chunk).hexBytes }
        }
        root.append(UInt8(ascii: "E"))
        return SHA256.hex(of: root)
    }

    static let sampleOrder = ["pairs": "k COLLATE NOCASE, n", "swapped": "c, a", "keyed": "a, b"]

    @Test("the specification, implemented again from its text, gives the same digest; the key's collation orders WITHOUT ROWID rows")
    func matchesTheSpecification() throws {
        let db = try Connection(path: try sample(), mode: .readOnly)
        let digest = try ContentDigest.compute(db)
        #expect(digest.count == 64 && digest.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
        #expect(try Self.reference(db, orderBy: Self.sampleOrder) == digest)
        // Rows in another order are another digest: the key's collation (NOCASE: apple, Banana,
        // banana2, cherry) and the key's column order (c, then a), not the table's.
        #expect(try Self.reference(db, orderBy: ["pairs": "k COLLATE BINARY, n", "swapped": "c, a", "keyed": "a, b"]) != digest)
        #expect(try Self.reference(db, orderBy: ["pairs": "k COLLATE NOCASE, n", "swapped": "a, c", "keyed": "a, b"]) != digest)
        // Other chunk boundaries are another digest.
        #expect(try Self.reference(db, orderBy: Self.sampleOrder, average: 64) != digest)
        // A digest of an attached database is the same as of the file itself.
        let other = try Connection(path: ":memory:")
        try other.execute("ATTACH '\(try sample("attached.sqlite"))' AS seed")
        #expect(try ContentDigest.compute(other, schema: "seed") == digest)
    }

    @Test("chunks end where a row's key says: a row inserted or deleted changes its own chunk (or two), no other; the record is outside the digest")
    func chunks() throws {
        let path = try sample()
        let tree = try ContentDigest.tree(Connection(path: path, mode: .readOnly))
        let many = try #require(tree.tables.first { $0.name == "many" })
        let keyed = try #require(tree.tables.first { $0.name == "keyed" })
        #expect(many.chunks.count > 10 && keyed.chunks.count > 5, "\(many.chunks.count), \(keyed.chunks.count) chunks")
        #expect(many.chunks.reduce(0) { $0 + $1.rows } == 3000 && many.chunks.last?.lastRowID == 9000)
        #expect(keyed.chunks.allSatisfy { $0.lastRowID == nil } && keyed.chunks.reduce(0) { $0 + $1.rows } == 2000)
        func differing(_ sql: String, _ name: String, table: String) throws -> Int {
            let other = try ContentDigest.tree(Connection(path: try changed(name, sql), mode: .readOnly))
            let old = try #require(tree.tables.first { $0.name == table }).chunks
            let new = try #require(other.tables.first { $0.name == table }).chunks
            #expect(other.root != tree.root)
            // The chunks before and after the change are the same: count those that are not.
            let prefix = zip(old, new).prefix { $0 == $1 }.count
            let suffix = zip(old.reversed(), new.reversed()).prefix { $0 == $1 }.count
            return max(old.count, new.count) - min(prefix + suffix, min(old.count, new.count))
        }
        #expect(try differing("INSERT INTO many VALUES (4501, 'new')", "insert.sqlite", table: "many") <= 2)
        #expect(try differing("DELETE FROM many WHERE id = 4497", "delete.sqlite", table: "many") <= 2)
        #expect(try differing("UPDATE many SET v = 'x' WHERE id = 6000", "update.sqlite", table: "many") == 1)
        #expect(try differing("INSERT INTO keyed VALUES ('k5', 0, 1)", "insert-keyed.sqlite", table: "keyed") <= 2)
        // The chunk record: written, read back the same, outside what it hashes.
        let recorded = try changed("recorded.sqlite", "")
        let connection = try Connection(path: recorded, mode: .readWrite)
        try ContentChunkRecord.write(tree.tables, to: connection)
        #expect(try ContentChunkRecord.read("many", connection: connection) == many.chunks)
        #expect(try ContentChunkRecord.difference(tree, connection: connection) == nil)
        #expect(try ContentDigest.compute(connection) == tree.root)
        #expect(try ContentChunkRecord.read("keyed", connection: connection) == keyed.chunks)
        // A record written before last_key (no such column) still agrees; the next write adds it.
        try connection.execute("ALTER TABLE seedgen_content_chunks DROP COLUMN last_key")
        #expect(try ContentChunkRecord.difference(tree, connection: connection) == nil)
        #expect(try ContentChunkRecord.read("keyed", connection: connection)?.allSatisfy { $0.lastKey == nil } == true)
        try ContentChunkRecord.write(tree.tables, to: connection)
        #expect(try ContentChunkRecord.read("keyed", connection: connection) == keyed.chunks)
        try connection.execute("UPDATE seedgen_content_chunks SET sha256 = zeroblob(32) WHERE table_name = 'many' AND position = 3")
        #expect(try ContentDigest.compute(connection) == tree.root)
        let difference = try ContentChunkRecord.difference(tree, connection: connection)
        #expect(difference?.contains("chunk 3 of table 'many'") == true, "\(difference ?? "nil")")
        // A tree that takes a table's chunks from the (now wrong) record has another root.
        let reused = try ContentDigest.tree(connection) { table throws(SQLiteError) in
            table == "many" ? try ContentChunkRecord.read(table, connection: connection) : nil
        }
        #expect(reused.root != tree.root)
    }

    @Test("an apply's rows hash again only their chunks: the same chunks as hashing the whole table, after any change; two cores cut where one does")
    func rechunk() throws {
        let path = try changed("rechunk.sqlite", """
            CREATE TABLE wide (id INTEGER PRIMARY KEY, v);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000) INSERT INTO wide SELECT i * 50, i FROM n;
            """)
        let connection = try Connection(path: path, mode: .readWrite)
        let chunker = try ContentChunker(table: "wide", schema: "main", connection: connection)
        let before = try chunker.chunks(connection)
        #expect(try chunker.chunks(connection, helper: Connection(path: path, mode: .readOnly)) == before)
        // A WITHOUT ROWID table splits at the middle of its key's first column (integers), a
        // real value among them included.
        try connection.execute("""
            CREATE TABLE keyed2 (a, b INTEGER, v, PRIMARY KEY (a, b)) WITHOUT ROWID;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO keyed2 SELECT i / 7, i, i FROM n;
            INSERT INTO keyed2 VALUES (214.5, 1, 'real'), (214.0, 9999, 'real, the same as an integer');
            """)
        let keyed = try ContentChunker(table: "keyed2", schema: "main", connection: connection)
        let whole = try keyed.chunks(connection)
        #expect(whole.count > 10 && whole.reduce(0) { $0 + $1.rows } == 3002)
        #expect(try keyed.chunks(connection, helper: Connection(path: path, mode: .readOnly)) == whole)
        try connection.execute("DROP TABLE keyed2")
        let boundary = try #require(before[3].lastRowID)
        let changes = [
            "an insert in the middle": "INSERT INTO wide VALUES (1001, 'new')",
            "an insert before all": "INSERT INTO wide VALUES (-5, 'first')",
            "an insert after all": "INSERT INTO wide VALUES (900000, 'last')",
            "many rows after all": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 700) INSERT INTO wide SELECT 300000 + i, i FROM n",
            "rows after all and a change before": "UPDATE wide SET v = 0 WHERE id = 50; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 900) INSERT INTO wide SELECT 200000 + i, 'n' FROM n",
            "an update": "UPDATE wide SET v = 'changed' WHERE id = 5000",
            "a boundary row deleted": "DELETE FROM wide WHERE id = \(boundary)",
            "the last rows deleted": "DELETE FROM wide WHERE id > 150000",
            "rows here and there": "DELETE FROM wide WHERE id % 1700 = 0; INSERT INTO wide VALUES (77777, 'x'), (3, 'y')",
            "every row deleted": "DELETE FROM wide WHERE id > -100",
        ]
        for (name, sql) in changes {
            try connection.execute("SAVEPOINT change")
            let log = RowChangeLog(connection)
            try connection.execute(sql)
            log.stop()
            let rowids = try #require(log.rowids["wide"], "\(name)")
            let whole = try chunker.chunks(connection)
            #expect(try chunker.rechunk(connection, old: before, touched: rowids) == whole, "\(name)")
            try connection.execute("ROLLBACK TO change; RELEASE change")
        }
        // On two cores (the installer's way): a second connection reads the later half of the
        // runs, so the change is committed, to a copy of the table.
        for (name, sql) in changes {
            let copy = path + ".two-cores"
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            let changed = try Connection(path: copy, mode: .readWrite)
            let log = RowChangeLog(changed)
            try changed.execute(sql)
            log.stop()
            let rowids = try #require(log.rowids["wide"], "\(name)")
            let helper = try Connection(path: copy, mode: .readOnly)
            let whole = try chunker.chunks(changed)
            #expect(
                try chunker.rechunk(changed, old: before, touched: rowids, helper: helper) == whole,
                "\(name), on two cores")
        }
        // A row log that missed a change, so that a run's scan reaches into the next run: the
        // table is hashed whole (nil), not patched wrong.
        let missed = path + ".missed"
        try? FileManager.default.removeItem(atPath: missed)
        try FileManager.default.copyItem(atPath: path, toPath: missed)
        let changed = try Connection(path: missed, mode: .readWrite)
        let ends = before.prefix(6).compactMap(\.lastRowID)
        try changed.execute("DELETE FROM wide WHERE id IN (\(ends[1]), \(ends[2]), \(ends[3]))")
        let told = [ends[1], ends[4] - 1]
        let helper = try Connection(path: missed, mode: .readOnly)
        #expect(try chunker.rechunk(changed, old: before, touched: told, helper: helper) == nil)
    }

    @Test("in a WITHOUT ROWID table, an apply's rows hash again only the chunks their key's first value may reach: the same chunks as the whole table")
    func rechunkByKey() throws {
        // Trips of 1 to 400 stops: some span several chunks, and chunks end inside one trip.
        let path = try changed("rechunk-key.sqlite", """
            CREATE TABLE stops (trip INTEGER, seq INTEGER, v, PRIMARY KEY (trip, seq)) WITHOUT ROWID;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
            INSERT INTO stops SELECT t.i * 10, s.i, t.i * s.i FROM n AS t JOIN n AS s ON s.i <= 1 + (t.i * 37) % 40;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) INSERT INTO stops SELECT 1505, i, 'long' FROM n;
            """)
        let connection = try Connection(path: path, mode: .readWrite)
        let chunker = try ContentChunker(table: "stops", schema: "main", connection: connection)
        let before = try chunker.chunks(connection)
        #expect(before.count > 20 && before.allSatisfy { $0.lastKey?.count == 18 && $0.lastRowID == nil })
        let boundaryTrip = try #require(before[5].lastKey.flatMap(ContentChunker.firstInteger))
        let lastTrip = try #require(before.last?.lastKey.flatMap(ContentChunker.firstInteger))
        let changes: [(String, String, [Int64])] = [
            ("a trip replaced", "DELETE FROM stops WHERE trip = 500; INSERT INTO stops VALUES (500, 1, 'x'), (500, 2, 'y')", [500]),
            ("a new trip in the middle", "INSERT INTO stops SELECT 1234, seq, v FROM stops WHERE trip = 1230", [1234]),
            ("a trip before all", "INSERT INTO stops VALUES (-7, 1, 'first')", [-7]),
            ("trips after all", "INSERT INTO stops SELECT trip + 10000, seq, v FROM stops WHERE trip > 2000", Array(2001...3000)),
            ("a stop of the long trip", "UPDATE stops SET v = 'changed' WHERE trip = 1505 AND seq = 200", [1505]),
            ("the long trip deleted", "DELETE FROM stops WHERE trip = 1505", [1505]),
            ("a trip that ends a chunk deleted", "DELETE FROM stops WHERE trip = \(boundaryTrip)", [boundaryTrip]),
            ("the last trip deleted", "DELETE FROM stops WHERE trip = \(lastTrip)", [lastTrip]),
            ("trips here and there", "DELETE FROM stops WHERE trip % 170 = 0; UPDATE stops SET v = 1 WHERE trip = 20", [20, 170, 340, 510, 680, 850, 1020, 1190, 1360, 1530, 1700, 1870, 2040, 2210, 2380, 2550, 2720, 2890]),
            ("every row deleted", "DELETE FROM stops", Array(stride(from: 0, through: 3000, by: 10)) + [1505]),
            ("nothing named", "SELECT 1", []),
        ]
        for (name, sql, keys) in changes {
            try connection.execute("SAVEPOINT change")
            try connection.execute(sql)
            let whole = try chunker.chunks(connection)
            #expect(try chunker.rechunk(connection, old: before, touchedKeys: keys) == whole, "\(name)")
            try connection.execute("ROLLBACK TO change; RELEASE change")
        }
        // On two cores (the installer's way): a second connection reads the later half of the
        // runs, so the change is committed, to a copy of the table.
        for (name, sql, keys) in changes {
            let copy = path + ".two-cores"
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            let changed = try Connection(path: copy, mode: .readWrite)
            try changed.execute(sql)
            let helper = try Connection(path: copy, mode: .readOnly)
            let whole = try chunker.chunks(changed)
            #expect(
                try chunker.rechunk(changed, old: before, touchedKeys: keys, helper: helper) == whole,
                "\(name), on two cores")
        }
        // Without last keys (a record written before them), or by a key that is not an integer,
        // the table is hashed whole.
        let unkeyed = before.map { ContentChunk(lastRowID: nil, rows: $0.rows, sha256: $0.sha256) }
        #expect(try chunker.rechunk(connection, old: unkeyed, touchedKeys: [500]) == nil)
        var touched = TouchedRows(tables: ["stops"])
        let table = DeltaTable(name: "stops", isRowID: false, keyCount: 2, valueCount: 1)
        touched.note(.delete(key: [.integer(500)]), of: table)
        touched.note(.insert(key: [.integer(500), .integer(1)], values: [.null]), of: table)
        touched.note(.update(key: [.integer(730), .integer(1)], changes: []), of: table)
        #expect(touched.keys["stops"] == [500, 730])
        touched.note(.delete(key: [.text(Array("a".utf8))]), of: table)
        touched.note(.delete(key: [.integer(9)]), of: table)
        #expect(touched.keys["stops"] == nil)
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

extension String {
    /// The bytes a string of hexadecimal digits spells.
    var hexBytes: [UInt8] {
        let digits = Array(utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
}
