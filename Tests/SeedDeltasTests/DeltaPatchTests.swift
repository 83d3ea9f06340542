import Foundation
import SeedArchive
@testable import SeedDeltas
import SeedSQLite
import SeedTestSupport
import Testing

/// Delta format 2 (seeds named by content digest) and `DeltaPatch`: what a delta carries (the
/// source rows, not what the seed derives), applying it with re-derivation, and the digest
/// checks on both ends.
@Suite("Delta format 2 and patching")
struct DeltaPatchTests {
    let folder = TemporaryFolder()

    static let digestA = String(repeating: "0123456789abcdef", count: 4)
    static let digestB = String(repeating: "fedcba9876543210", count: 4)

    static let header = DeltaHeader(schemaName: "test", schemaVersion: 3,
                                    from: DeltaHeader.Seed(seedVersion: "v1", contentSHA256: digestA, size: 4096),
                                    to: DeltaHeader.Seed(seedVersion: "v2", contentSHA256: digestB, size: 8192),
                                    sqliteVersion: "3.40.1", toolVersion: "1.0.0")

    func parse(_ text: String) throws(DeltaError) -> DeltaHeader {
        try DeltaHeader.parse(Array(text.utf8), path: "x.delta").header
    }

    @Test("the header of format 2: seeds by version, content digest and size; read back as written")
    func headerRoundTrip() throws {
        let text = String(decoding: Self.header.encoded(), as: UTF8.self)
        #expect(text == """
            seedgen-delta 2
            schema-name=test
            schema-version=3
            from-seed-version=v1
            from-content-sha256=\(Self.digestA)
            from-size=4096
            to-seed-version=v2
            to-content-sha256=\(Self.digestB)
            to-size=8192
            sqlite-version=3.40.1
            tool-version=1.0.0


            """)
        let (parsed, length) = try DeltaHeader.parse(Self.header.encoded() + [0x1f, 0x8b], path: "x.delta")
        #expect(parsed == Self.header && length == Self.header.encoded().count)
        // Unknown keys are ignored (format 1's among them); the optional ones may be absent.
        let lean = try parse("seedgen-delta 2\nschema-version=3\nfrom-seed-version=v1\nfrom-content-sha256=\(Self.digestA)\nfrom-size=1\nfrom-sha256=\(Self.digestB)\nto-seed-version=v2\nto-content-sha256=\(Self.digestB)\nto-size=2\nto-schema-cookie=5\n\n")
        #expect(lean.schemaName == nil && lean.sqliteVersion == nil && lean.toolVersion == nil && lean.to.contentSHA256 == Self.digestB)
    }

    @Test("format 1 (file SHA-256s, from a seedgen before content digests) is refused, saying to install the full seed; so is a later format")
    func otherFormats() {
        let old = "seedgen-delta 1\nschema-version=3\nfrom-seed-version=v1\nfrom-size=1\nfrom-sha256=\(Self.digestA)\nto-seed-version=v2\nto-size=2\nto-sha256=\(Self.digestB)\nto-schema-cookie=5\n\n"
        let error = #expect(throws: DeltaError.self) { try parse(old) }
        #expect(error?.code == .unsupportedVersion && error?.message.contains("format version 1") == true
                && error?.message.contains("install the full seed") == true, "\(String(describing: error))")
        let later = #expect(throws: DeltaError.self) { try parse("seedgen-delta 3\nanything=1\n\n") }
        #expect(later?.code == .unsupportedVersion && later?.message.contains("format version 3") == true && later?.message.contains("install the full seed") == true)
    }

    @Test("a content digest is 64 lower-case hexadecimal digits, and required on both sides")
    func digestsRequired() {
        let good = String(decoding: Self.header.encoded(), as: UTF8.self)
        let cases = [
            ("missing", good.replacingOccurrences(of: "to-content-sha256=\(Self.digestB)\n", with: ""), "has no 'to-content-sha256'"),
            ("upper case", good.replacingOccurrences(of: Self.digestA, with: Self.digestA.uppercased()), "'from-content-sha256' must be 64 lower-case hexadecimal digits"),
            ("short", good.replacingOccurrences(of: Self.digestB, with: String(Self.digestB.dropLast())), "'to-content-sha256' must be 64 lower-case hexadecimal digits"),
        ]
        for (name, text, message) in cases {
            let error = #expect(throws: DeltaError.self, "\(name)") { try parse(text) }
            #expect(error?.code == .invalidHeader && error?.message.contains(message) == true, "\(name): \(String(describing: error))")
        }
    }

    // MARK: Patching

    enum FailureKind { case mismatch, baseMismatch, resultMismatch }

    /// The message of `failure` when it is of `kind`.
    static func message(_ failure: DeltaPatch.Failure?, _ kind: FailureKind) -> String? {
        switch (failure, kind) {
        case (.mismatch(let message)?, .mismatch), (.baseMismatch(let message)?, .baseMismatch), (.resultMismatch(let message)?, .resultMismatch): return message
        default: return nil
        }
    }

    /// A seed with a loaded table, a table derived from it, a loaded table with derived rows
    /// (marker `derived`), their recipes and its recorded digest; `change` runs before the
    /// recipes derive and the digest is recorded.
    func seed(_ name: String, version: String, change: String = "") throws -> String {
        let scratch = folder.file(name + ".scratch"), path = folder.file(name)
        let db = try Connection(path: scratch)
        try db.execute("""
            PRAGMA application_id = 1397048644;
            PRAGMA user_version = 3;
            CREATE TABLE seedgen_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO seedgen_metadata VALUES ('schema_name', 'test'), ('schema_version', '3'), ('seed_version', '\(version)');
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind INTEGER);
            CREATE TABLE kinds (kind INTEGER PRIMARY KEY, n INTEGER NOT NULL);
            CREATE TABLE notes (id INTEGER PRIMARY KEY, item_ref INTEGER, text TEXT, derived INTEGER NOT NULL DEFAULT 0);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
              INSERT INTO items SELECT i, 'item ' || i, i % 7 FROM n;
            INSERT INTO notes (item_ref, text) VALUES (1, 'loaded one'), (2, 'loaded two'), (3, 'loaded three');
            \(change)
            """)
        try DeriveRecipe.write(Self.recipes, to: db)
        for recipe in Self.recipes { try recipe.derive(db) }
        try db.execute("ANALYZE")
        try db.prepare("INSERT INTO seedgen_metadata VALUES ('content_sha256', ?)").run([.text(try ContentDigest.compute(db))])
        try db.execute("VACUUM INTO '\(path)'")
        return path
    }

    static let recipes = [
        DeriveRecipe(kind: .table, target: "kinds", reads: ["items"], fill: "INSERT INTO kinds SELECT kind, count(*) FROM items GROUP BY kind ORDER BY kind"),
        DeriveRecipe(kind: .rows, target: "notes", reads: ["kinds"], rows: "\"derived\" = 1",
                     fill: "INSERT INTO notes (text, derived) SELECT 'kind ' || kind || ': ' || n, 1 FROM kinds ORDER BY kind"),
    ]

    /// Writes the delta between two seeds as `seedgen delta` does (the builder's wrapper aside).
    func delta(_ old: String, _ new: String, name: String = "d.delta") throws -> (path: String, header: DeltaHeader, tables: [TableChanges]) {
        let connection = try Connection(path: ":memory:")
        try connection.execute("ATTACH '\(old)' AS old; ATTACH '\(new)' AS new")
        func side(_ path: String, _ schema: String) throws -> DeltaHeader.Seed {
            DeltaHeader.Seed(seedVersion: try connection.scalar("SELECT value FROM \(schema).seedgen_metadata WHERE key = 'seed_version'")?.text ?? "?",
                             contentSHA256: try ContentDigest.compute(connection, schema: schema),
                             size: Int64(FileManager.default.contents(atPath: path)?.count ?? 0))
        }
        let header = DeltaHeader(schemaName: "test", schemaVersion: 3, from: try side(old, "old"), to: try side(new, "new"), sqliteVersion: nil, toolVersion: nil)
        let path = folder.file(name)
        let writer = try DeltaWriter(path: path, header: header)
        let tables = try DeltaComparison.write(connection, old: "old", new: "new", to: writer, spools: (1...3).map { path + ".spool\($0)" })
        try writer.finish(sync: false)
        return (path, header, tables)
    }

    @Test("what a delta carries: every table with storage but what the seed derives; a rows recipe's table without its derived rows")
    func sourceTables() throws {
        let path = try seed("a.sqlite", version: "v1")
        let db = try Connection(path: path, mode: .readOnly)
        let tables = try DeltaComparison.sourceTables(db, schema: "main")
        #expect(tables.map(\.name) == ["items", "notes", "seedgen_derive", "seedgen_metadata", "sqlite_stat1"], "\(tables)")
        #expect(tables.first { $0.name == "notes" }?.filter == "\"derived\" = 1")
        #expect(tables.filter { $0.name != "notes" }.allSatisfy { $0.filter == nil })
    }

    @Test("applied to its from seed: the source rows change, what they feed is derived again, the result has the to seed's content")
    func applies() throws {
        let old = try seed("old.sqlite", version: "v1")
        // Items renamed, removed and added (a unique value swapped), a loaded note changed: the
        // derived kinds and derived notes follow.
        let new = try seed("new.sqlite", version: "v2", change: """
            DELETE FROM items WHERE id % 10 = 0;
            UPDATE items SET name = 'swap' WHERE id = 1; UPDATE items SET name = 'item 1' WHERE id = 2; UPDATE items SET name = 'item 2' WHERE id = 1;
            INSERT INTO items VALUES (500, 'new', 3), (501, 'newer', 3);
            UPDATE notes SET text = 'loaded 2, changed' WHERE item_ref = 2;
            """)
        let (path, header, changes) = try delta(old, new)
        #expect(changes.map(\.name) == ["items", "notes", "seedgen_metadata", "sqlite_stat1"], "kinds is derived: \(changes.map(\.name))")
        #expect(changes.first { $0.name == "notes" }?.changed == 1, "only the loaded note: \(changes)")
        let patch = try DeltaPatch(path: path)
        #expect(patch.header == header)
        let tables = try patch.checkBody()
        #expect(tables == Set(changes.map(\.name)))

        let output = folder.file("patched.sqlite")
        try patch.apply(base: old, baseIsProven: false, changedTables: tables, output: output)
        #expect(try ContentDigest.compute(path: output) == header.to.contentSHA256)
        let expected = try Connection(path: new, mode: .readOnly).rows("SELECT * FROM kinds"), patched = try Connection(path: output, mode: .readOnly)
        #expect(try patched.rows("SELECT * FROM kinds") == expected)
        #expect(try patched.scalar("SELECT group_concat(text, '|') FROM (SELECT text FROM notes ORDER BY id)")?.text
                == (try Connection(path: new, mode: .readOnly).scalar("SELECT group_concat(text, '|') FROM (SELECT text FROM notes ORDER BY id)")?.text))
        #expect(try Connection(path: old, mode: .readOnly).rows("SELECT * FROM kinds") != expected, "kinds did change")
        #expect(FileManager.default.contents(atPath: output) != FileManager.default.contents(atPath: new), "not the built file's bytes (no VACUUM): only its content")
    }

    @Test("the base is proven by its content digest unless the caller vouches for it; the result must be the promised content")
    func digestChecks() throws {
        let old = try seed("old.sqlite", version: "v1"), new = try seed("new.sqlite", version: "v2", change: "DELETE FROM items WHERE id = 5")
        let (path, header, _) = try delta(old, new)
        let patch = try DeltaPatch(path: path)
        let tables = try patch.checkBody()

        // Another base: a value changed (the file's size is the same).
        let other = folder.file("other.sqlite")
        try FileManager.default.copyItem(atPath: old, toPath: other)
        try Connection(path: other, mode: .readWrite).execute("UPDATE items SET name = 'ITEM 9' WHERE id = 9")
        let base = #expect(throws: DeltaPatch.Failure.self) {
            try patch.apply(base: other, baseIsProven: false, changedTables: tables, output: folder.file("o1.sqlite"))
        }
        #expect(Self.message(base, .baseMismatch)?.contains(header.from.contentSHA256) == true, "\(String(describing: base))")
        // Vouched for wrongly: the result's digest tells.
        let result = #expect(throws: DeltaPatch.Failure.self) {
            try patch.apply(base: other, baseIsProven: true, changedTables: tables, output: folder.file("o2.sqlite"))
        }
        #expect(Self.message(result, .resultMismatch)?.contains(header.to.contentSHA256) == true, "\(String(describing: result))")
        // The base in another layout (page size, VACUUM): the same content, patched.
        let relaid = folder.file("relaid.sqlite")
        try FileManager.default.copyItem(atPath: old, toPath: relaid)
        try Connection(path: relaid, mode: .readWrite).execute("PRAGMA page_size = 512; VACUUM")
        try patch.apply(base: relaid, baseIsProven: false, changedTables: tables, output: folder.file("o3.sqlite"))
        #expect(try ContentDigest.compute(path: folder.file("o3.sqlite")) == header.to.contentSHA256)
        #expect(try Connection(path: folder.file("o3.sqlite"), mode: .readOnly).scalar("PRAGMA page_size")?.integer == 512, "patched in place, in its own layout")

        // A header promising another result.
        var promised = header
        promised.to.contentSHA256 = Self.digestB
        let body = try #require(FileManager.default.contents(atPath: path)).dropFirst(header.encoded().count)
        let lying = folder.file("lying.delta")
        try (Data(promised.encoded()) + body).write(to: URL(fileURLWithPath: lying))
        let promisedOther = #expect(throws: DeltaPatch.Failure.self) {
            let patch = try DeltaPatch(path: lying)
            try patch.apply(base: old, baseIsProven: false, changedTables: try patch.checkBody(), output: folder.file("o4.sqlite"))
        }
        #expect(Self.message(promisedOther, .resultMismatch) != nil, "\(String(describing: promisedOther))")
    }

    @Test("a delta that changes a recipe derives everything again with it; one whose recipe writes another table is refused")
    func recipeChanges() throws {
        let old = try seed("old.sqlite", version: "v1")
        // The new seed counts kinds twice over: another recipe, other derived rows.
        let new = folder.file("new.sqlite")
        do {
            let db = try Connection(path: try seed("new-base.sqlite", version: "v2"), mode: .readWrite)
            let doubled = DeriveRecipe(kind: .table, target: "kinds", reads: ["items"], fill: "INSERT INTO kinds SELECT kind, 2 * count(*) FROM items GROUP BY kind ORDER BY kind")
            try db.execute("DELETE FROM seedgen_derive WHERE position = 1; INSERT INTO seedgen_derive VALUES (1, 'table', 'kinds', 'items', NULL, '\(doubled.fill)')")
            for recipe in Self.recipes.reversed() { try recipe.clear(db) }
            for recipe in try DeriveRecipe.read(db) { try recipe.derive(db) }
            try db.execute("DELETE FROM seedgen_metadata WHERE key = 'content_sha256'")
            try db.prepare("INSERT INTO seedgen_metadata VALUES ('content_sha256', ?)").run([.text(try ContentDigest.compute(db))])
            try db.execute("VACUUM INTO '\(new)'")
        }
        let (path, header, changes) = try delta(old, new)
        #expect(changes.map(\.name) == ["seedgen_derive", "seedgen_metadata"], "only the recipe and the metadata: \(changes.map(\.name))")
        let patch = try DeltaPatch(path: path)
        let output = folder.file("patched.sqlite")
        try patch.apply(base: old, baseIsProven: false, changedTables: try patch.checkBody(), output: output)
        #expect(try ContentDigest.compute(path: output) == header.to.contentSHA256)
        #expect(try Connection(path: output, mode: .readOnly).scalar("SELECT sum(n) FROM kinds")?.integer == 200)

        // The same delta with a recipe that writes items: refused by the authorizer.
        let reader = try DeltaReader(path: path)
        let hostile = folder.file("hostile.delta")
        let writer = try DeltaWriter(path: hostile, header: reader.header)
        while case let record = try reader.next(), record != .end {
            if case .update(let key, var changes) = record, let index = changes.firstIndex(where: { $0.column == 4 }) {
                changes[index].value = .text(Array("INSERT INTO items (name, kind) VALUES ('planted', 1)".utf8))
                try writer.write(.update(key: key, changes: changes))
            } else {
                try writer.write(record)
            }
        }
        try writer.finish(sync: false)
        let refused = #expect(throws: DeltaPatch.Failure.self) {
            let patch = try DeltaPatch(path: hostile)
            try patch.apply(base: old, baseIsProven: false, changedTables: try patch.checkBody(), output: folder.file("hostile.sqlite"))
        }
        guard case .sqlite(let sqlite, let table)? = refused else {
            Issue.record("expected an SQLite refusal, got \(String(describing: refused))")
            return
        }
        #expect(table == "kinds" && sqlite.message.contains("not authorized"), "\(sqlite)")
    }

    @Test("a delta that does not fit the seed is refused: a table it lacks, a row it lacks, a body changed between check and apply")
    func mismatches() throws {
        let old = try seed("old.sqlite", version: "v1")
        var header = Self.header
        header.from = DeltaHeader.Seed(seedVersion: "v1", contentSHA256: try ContentDigest.compute(path: old), size: 1 << 20)
        header.to.size = 1 << 20
        func write(_ name: String, _ records: [DeltaRecord]) throws -> String {
            let path = folder.file(name)
            let writer = try DeltaWriter(path: path, header: header)
            for record in records { try writer.write(record) }
            try writer.finish(sync: false)
            return path
        }
        let missingTable = try write("table.delta", [.table(DeltaTable(name: "nowhere", isRowID: true, keyCount: 1, valueCount: 1)), .delete(key: [.integer(1)])])
        let missingRow = try write("row.delta", [.table(DeltaTable(name: "items", isRowID: true, keyCount: 1, valueCount: 2)), .delete(key: [.integer(4242)])])
        for path in [missingTable, missingRow] {
            let error = #expect(throws: DeltaPatch.Failure.self, "\(path)") {
                let patch = try DeltaPatch(path: path)
                try patch.apply(base: old, baseIsProven: true, changedTables: try patch.checkBody(), output: path + ".sqlite")
            }
            #expect(Self.message(error, .mismatch) != nil, "\(String(describing: error))")
        }
        // The tables checkBody found must be the ones the body names when it is applied.
        let patch = try DeltaPatch(path: missingRow)
        #expect(try patch.checkBody() == ["items"])
        let changed = #expect(throws: DeltaPatch.Failure.self) {
            try patch.apply(base: old, baseIsProven: true, changedTables: ["seedgen_metadata"], output: folder.file("out2.sqlite"))
        }
        #expect(Self.message(changed, .mismatch)?.contains("changed while it was read") == true, "\(String(describing: changed))")
    }
}
