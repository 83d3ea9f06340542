import Foundation
import SeedArchive
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// `RecordFormReader` reads each row's key and column count from a seed file, as SQLite
/// stored it: what `seedgen delta` needs to give a seed byte for byte.
@Suite("Record forms read from a seed file")
struct RecordFormReaderTests {
    let folder = TemporaryFolder()

    /// A database whose tables hold rows written before and after `ALTER TABLE ADD COLUMN`:
    /// `items`, a rowid table, 2 columns then 3 (row 3 updated, so written whole); `pairs`,
    /// `WITHOUT ROWID`, with keys long enough to spill into overflow pages and to fill the
    /// interior pages of its b-tree with rows.
    func database(pairs: Int = 400) throws -> String {
        let path = folder.file("forms.sqlite"), scratch = folder.file("scratch.sqlite")
        let db = try Connection(path: scratch)
        try db.execute("""
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE pairs (k TEXT NOT NULL, n INTEGER NOT NULL, v, PRIMARY KEY (k, n)) WITHOUT ROWID;
            WITH RECURSIVE i(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM i WHERE x < 500) INSERT INTO items SELECT x, 'item ' || x FROM i;
            WITH RECURSIVE i(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM i WHERE x < \(pairs / 2))
              INSERT INTO pairs SELECT printf('%05d', x) || replace(hex(zeroblob(500 + x % 7 * 150)), '0', 'k'), x - 250, x * 0.5 FROM i;
            ALTER TABLE items ADD COLUMN weight REAL;
            ALTER TABLE pairs ADD COLUMN w INTEGER;
            WITH RECURSIVE i(x) AS (SELECT 501 UNION ALL SELECT x + 1 FROM i WHERE x < 1000) INSERT INTO items SELECT x, 'item ' || x, x FROM i;
            WITH RECURSIVE i(x) AS (SELECT \(pairs / 2 + 1) UNION ALL SELECT x + 1 FROM i WHERE x < \(pairs))
              INSERT INTO pairs SELECT printf('%05d', x) || 'short', -x, NULL, x FROM i;
            UPDATE items SET name = name WHERE id = 3;
            VACUUM INTO '\(path)';
            """)
        return path
    }

    func forms(_ path: String, _ table: String, isRowID: Bool, keyCount: Int) throws -> [RecordFormReader.Form] {
        let root = try Connection(path: path, mode: .readOnly).int("SELECT rootpage FROM sqlite_schema WHERE name = '\(table)'")
        var cursor = try RecordFormReader(path: path).forms(rootPage: Int(root), table: table, isRowID: isRowID, keyCount: keyCount)
        var forms: [RecordFormReader.Form] = []
        while let form = try cursor.next() { forms.append(form) }
        return forms
    }

    @Test("rowid table: each rowid in order, 2 columns before the ALTER TABLE, 3 after and when updated")
    func rowidTable() throws {
        let forms = try forms(try database(), "items", isRowID: true, keyCount: 1)
        #expect(forms.map(\.key) == (1...1000).map { [DeltaValue.integer(Int64($0))] })
        #expect(forms.map(\.columnCount) == (1...1000).map { $0 > 500 || $0 == 3 ? 3 : 2 })
    }

    @Test("WITHOUT ROWID table: the keys as SQL orders them, from leaves, interior pages and overflow pages")
    func withoutRowIDTable() throws {
        let path = try database()
        let forms = try forms(path, "pairs", isRowID: false, keyCount: 2)
        let db = try Connection(path: path, mode: .readOnly)
        let expected = try db.rows("SELECT k, n, CASE WHEN w IS NULL AND v IS NOT NULL THEN 3 ELSE 4 END FROM pairs ORDER BY k, n")
        #expect(forms.count == expected.count && expected.count == 400)
        #expect(try db.int("SELECT count(*) FROM dbstat WHERE name = 'pairs' AND pagetype = 'overflow'") > 0, "keys spill into overflow pages")
        #expect(try db.int("SELECT count(*) FROM dbstat WHERE name = 'pairs' AND pagetype = 'internal'") > 0, "the b-tree has interior pages")
        for (form, row) in zip(forms, expected) {
            #expect(form.key == [.text(Array((row[0].text ?? "").utf8)), .integer(row[1].integer ?? 0)])
            #expect(form.columnCount == Int(row[2].integer ?? 0))
        }
    }

    @Test("damaged files: refused with the table and page, never a trap or a hang")
    func damagedFiles() throws {
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: try database(pairs: 60))))
        var random = SplitMix(seed: 19)
        let pageSize = 4096, pages = original.count / pageSize
        var refused = 0
        for round in 0..<200 {
            var bytes = original
            // Mostly the b-tree structure: page headers and cell pointers of pages after the first.
            for _ in 0...random.next(4) {
                let page = 1 + random.next(pages - 1), offset = random.next(4) == 0 ? random.next(pageSize) : random.next(24)
                bytes[page * pageSize + offset] = UInt8(random.next(256))
            }
            if round % 10 == 0 { bytes.removeLast(random.next(bytes.count - 100)) }
            let path = folder.file("damaged-\(round).sqlite")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                for (table, isRowID, keyCount) in [("items", true, 1), ("pairs", false, 2)] {
                    let root = try Connection(path: folder.file("forms.sqlite"), mode: .readOnly).int("SELECT rootpage FROM sqlite_schema WHERE name = '\(table)'")
                    var cursor = try RecordFormReader(path: path).forms(rootPage: Int(root), table: table, isRowID: isRowID, keyCount: keyCount)
                    while try cursor.next() != nil {}
                }
            } catch let error as ShipError {
                #expect(error.path == path && (error.message.contains("the file is damaged") || error.message.contains("page")), "\(error)")
                refused += 1
            }
        }
        #expect(refused > 50, "most damaged files are refused: \(refused) of 200")
    }
}
