import Foundation
@testable import SeedDeltas
import SeedSQLite
import SeedTestSupport
import Testing

/// `seedgen delta` compares only the keys outside the chunks both seeds share.
@Suite("Changed key ranges")
struct ChangedKeyRangesTests {
    let folder = TemporaryFolder()

    /// Trips of 1 to 40 stops (WITHOUT ROWID, integer key), codes (WITHOUT ROWID, text key) and
    /// a rowid table; `change` runs, then the chunk record is written.
    func seed(_ name: String, change: String = "") throws -> String {
        let path = folder.file(name)
        let db = try Connection(path: path)
        try db.execute("""
            CREATE TABLE stops (trip INTEGER, seq INTEGER, v, PRIMARY KEY (trip, seq)) WITHOUT ROWID;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
            INSERT INTO stops SELECT t.i * 10, s.i, t.i * s.i FROM n AS t JOIN n AS s ON s.i <= 1 + (t.i * 37) % 40;
            CREATE TABLE codes (code TEXT PRIMARY KEY, v) WITHOUT ROWID;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO codes SELECT printf('c%05d', i), i FROM n;
            CREATE TABLE wide (id INTEGER PRIMARY KEY, v);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000) INSERT INTO wide SELECT i * 5, i FROM n;
            \(change)
            """)
        try ContentChunkRecord.write(try ContentDigest.tree(db).tables, to: db)
        return path
    }

    /// Each table's delta records, comparing every row, only the changed ranges, or those on two
    /// threads (the later ranges with a second connection, whatever their size).
    func records(_ old: String, _ new: String) throws -> [String: (whole: [DeltaRecord], ranged: [DeltaRecord], twoThreads: [DeltaRecord], ranges: Int)] {
        let connection = try Connection(path: ":memory:"), second = try Connection(path: ":memory:")
        try connection.execute("ATTACH '\(old)' AS old; ATTACH '\(new)' AS new")
        try second.execute("ATTACH '\(old)' AS old; ATTACH '\(new)' AS new")
        let helper = TableComparison.Helper(
            connection: second, deletes: RecordSpool(path: folder.file("deletes")), inserts: RecordSpool(path: folder.file("inserts")),
            splitRows: 1)
        var result: [String: (whole: [DeltaRecord], ranged: [DeltaRecord], twoThreads: [DeltaRecord], ranges: Int)] = [:]
        for table in ["stops", "codes", "wide"] {
            let shape = try DeltaTableShape.read(connection, schema: "new", table: table)
            var comparison = TableComparison(shape: shape, old: ("old", table), new: ("new", table), connection: connection)
            let spool = RecordSpool(path: folder.file("spool"))
            var whole: [DeltaRecord] = []
            _ = try comparison.run(spool: spool) { whole.append($0) }
            let oldChunks = try #require(try ContentChunkRecord.read(table, connection: connection, schema: "old"))
            let newChunks = try #require(try ContentChunkRecord.read(table, connection: connection, schema: "new"))
            let ranges = try #require(ChangedKeyRanges.between(old: oldChunks, new: newChunks))
            comparison.ranges = ranges
            var ranged: [DeltaRecord] = []
            _ = try comparison.run(spool: spool) { ranged.append($0) }
            var twoThreads: [DeltaRecord] = []
            _ = try comparison.run(spool: spool, helper: helper) { twoThreads.append($0) }
            result[table] = (whole, ranged, twoThreads, ranges.count)
        }
        return result
    }

    @Test("the records of the changed ranges are those of the whole table, after any change, on one thread or two; shared chunks are skipped")
    func sameRecords() throws {
        let old = try seed("old.sqlite")
        let changes = [
            "trips replaced here and there": "DELETE FROM stops WHERE trip % 130 = 0; INSERT INTO stops SELECT trip + 5, seq, 'new' FROM stops WHERE trip % 170 = 0",
            "values updated": "UPDATE stops SET v = 'x' WHERE trip = 2010 AND seq = 3; UPDATE codes SET v = 0 WHERE code = 'c01500'; UPDATE wide SET v = 'y' WHERE id = 100",
            "rows before and after all": "INSERT INTO stops VALUES (-1, 1, 'first'), (99999, 1, 'last'); INSERT INTO codes VALUES ('a', 1), ('z', 2); INSERT INTO wide VALUES (-3, 1), (900000, 2)",
            "the first and last rows deleted": "DELETE FROM stops WHERE trip IN (10, 4000); DELETE FROM codes WHERE code IN ('c00001', 'c03000'); DELETE FROM wide WHERE id IN (5, 20000)",
            "nothing": "",
        ]
        for (name, sql) in changes {
            let new = try seed("new \(name).sqlite", change: sql)
            for (table, outcome) in try records(old, new) {
                #expect(outcome.ranged == outcome.whole, "\(name): \(table)")
                #expect(outcome.twoThreads == outcome.whole, "\(name): \(table), on two threads")
                #expect(!outcome.whole.isEmpty || sql.isEmpty || !sql.contains(table), "\(name): \(table)")
                if sql.isEmpty { #expect(outcome.ranges == 1 && outcome.whole.isEmpty, "\(table)") }
            }
        }
    }

    @Test("a chunk's last key reads back as the key's values; a chunk without one, or bytes that are no encoding, compare the whole table")
    func decoding() throws {
        let path = try seed("keys.sqlite")
        let connection = try Connection(path: path)
        let stops = try #require(try ContentChunkRecord.read("stops", connection: connection))
        let codes = try #require(try ContentChunkRecord.read("codes", connection: connection))
        let stopEnd = try #require(stops[3].lastKey)
        let codeEnd = try #require(codes[3].lastKey)
        let stopKey = try #require(ChangedKeyRanges.decode(stopEnd))
        let codeKey = try #require(ChangedKeyRanges.decode(codeEnd))
        // The fourth chunk's last row: three boundaries before it, in key order.
        guard case .integer(let trip) = stopKey[0], case .integer(let seq) = stopKey[1], case .text(let code) = codeKey[0] else {
            Issue.record("keys \(stopKey) \(codeKey)")
            return
        }
        #expect(try connection.scalar("SELECT count(*) FROM stops WHERE (trip, seq) <= (?, ?)", [.integer(trip), .integer(seq)])?.integer
                == stops[0...3].reduce(0) { $0 + $1.rows })
        #expect(try connection.scalar("SELECT count(*) FROM codes WHERE code <= ?", [.text(String(decoding: code, as: UTF8.self))])?.integer
                == codes[0...3].reduce(0) { $0 + $1.rows })
        #expect(ChangedKeyRanges.decode([UInt8(ascii: "T"), 0, 0, 0, 9, 65]) == nil)
        #expect(ChangedKeyRanges.decode([UInt8(ascii: "X")]) == nil)
        let unkeyed = stops.map { ContentChunk(lastRowID: nil, rows: $0.rows, sha256: $0.sha256) }
        #expect(ChangedKeyRanges.between(old: unkeyed, new: stops) == nil)
        // Two lists that share no chunk: one range, every key.
        #expect(ChangedKeyRanges.between(old: [], new: stops) == [KeyRange(rows: stops.reduce(0) { $0 + $1.rows })])
    }
}
