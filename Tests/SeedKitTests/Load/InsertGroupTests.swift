import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Trips and their stop times, clustered on (trip_ref, stop_sequence) like the transit schema.
private let groupSchema = """
    name: groups
    schemaVersion: 1
    format: csv
    tables:
      - name: trips
        file: trips.txt
        key: trip_id
        columns:
          - { name: trip_id, required: true }
      - name: stop_times
        file: stop_times.txt
        key: [trip_ref, stop_sequence]
        withoutRowID: true
        columns:
          - { name: trip_id, required: true, stored: false }
          - { name: stop_sequence, type: integer, required: true }
          - { name: arrival_time, type: time }
          - { name: stop_headsign }
        references:
          - { column: trip_ref, from: trip_id, to: trips }
    """

private let tripsFile = "trip_id\nT1\nT2\nT3\n"

/// `stop_times.txt` with one line per (trip, sequence), in the order given.
private func stopTimes(_ rows: [(String, Int)]) -> String {
    "trip_id,stop_sequence,arrival_time,stop_headsign\n"
        + rows.map { "\($0.0),\($0.1),08:\(String(format: "%02d", $0.1 % 60)):00,to \($0.0)-\($0.1)\n" }.joined()
}

/// `count` stop times of each trip, trip after trip: keys ascend throughout.
private func ascending(_ trips: [String], _ count: Int) -> [(String, Int)] {
    trips.flatMap { trip in (1...count).map { (trip, $0) } }
}

/// Loads trips and `stopTimes` into a database of `groupSchema` through `TableLoader`s, the way
/// the CSV importer feeds them, with or without insert groups. Returns the database's bytes
/// (before any VACUUM: its pages as the inserts left them), the stored stop times and the issues.
private func load(_ stopTimesText: String, groups: Bool, lenient: Bool = false) throws -> (bytes: Data, rows: [[Value]], issues: String, count: Int) {
    let folder = TemporaryFolder()
    let schema = try Schema.parse(Array(groupSchema.utf8), file: "groups.yaml")
    let path = folder.file("scratch.sqlite")
    var count = 0
    let issues = IssueLog()
    do {
        let database = try Connection(path: path, mode: .create)
        try database.execute("PRAGMA journal_mode = OFF; PRAGMA page_size = 4096")
        let queue = WriteQueue(connection: database)
        defer { queue.stop() }
        let context = BuildContext(
            writeQueue: queue, schema: schema, issues: issues, allowDangling: lenient, cacheSize: nil, lenient: lenient)
        for (table, text) in [(schema.table(named: "trips")!, tripsFile), (schema.table(named: "stop_times")!, stopTimesText)] {
            try queue.execute(table.createStatement)
            if let statement = table.keyIndexStatement { try queue.execute(statement) }
            let loader = try TableLoader(table: table, file: "\(table.name).txt", context: context, insertsInGroups: groups)
            try queue.execute("BEGIN")
            for (offset, line) in text.split(separator: "\n").dropFirst().enumerated() {
                loader.beginRow(line: offset + 2)
                for (index, field) in line.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
                    try Array(field.utf8).withUnsafeBytes { try loader.set(index, $0) }
                }
                try loader.finishRow()
            }
            try loader.finish()
            try queue.execute("COMMIT")
            count = loader.rowCount
        }
    }
    let rows = try Connection(path: path, mode: .readOnly).rows("SELECT * FROM stop_times ORDER BY trip_ref, stop_sequence")
    return (try Data(contentsOf: URL(fileURLWithPath: path)), rows, issues.report(errors: true) + issues.report(errors: false), count)
}

/// Builds the feed with `seedgen build` (the library) and returns the issues, or the summary.
private func build(_ stopTimesText: String, lenient: Bool = false) throws -> Result<(BuildSummary, Connection), BuildError> {
    let folder = TemporaryFolder()
    let schema = folder.write("groups.yaml", groupSchema)
    folder.write("feed/trips.txt", tripsFile)
    folder.write("feed/stop_times.txt", stopTimesText)
    let output = folder.file("seed.sqlite")
    let summary: BuildSummary
    do {
        summary = try SeedBuilder(options: BuildOptions(inputs: [folder.file("feed")], output: output, schemaPath: schema, lenient: lenient)).build()
    } catch {
        return .failure(error)
    }
    return .success((summary, try Connection(path: output, mode: .readOnly)))
}

@Suite("Insert groups: stop times go in 32 rows per statement, with the one-row path's results")
struct InsertGroupTests {
    /// A batch of (trip_ref, stop_sequence) keys, the trip already resolved.
    private func judge(_ keys: [(Int64, Int64)]) -> (group: InsertGroup, admitted: [Bool]) {
        let database = try! Connection(path: ":memory:", mode: .create)
        try! database.execute("CREATE TABLE t (trip_ref INTEGER NOT NULL, stop_sequence INTEGER NOT NULL, PRIMARY KEY (trip_ref, stop_sequence)) WITHOUT ROWID")
        let group = try! InsertGroup(head: "INSERT INTO \"t\" (\"stop_sequence\", \"trip_ref\") VALUES ", parametersPerRow: 2,
                                     key: [.reference(0), .column(0)], connection: database)
        let batch = RowBatch(columnCount: 1, capacity: keys.count)
        let resolved = ResolvedIDs(slots: InsertGroup.size, referenceCount: 1)
        var admitted: [Bool] = []
        for (row, key) in keys.enumerated() {
            batch.tags[row] = RowBatch.Tag.integer.rawValue
            batch.words[row] = key.1
            resolved.set(slot: group.count, 0, key.0)
            admitted.append(group.admit(batch, row, resolved: resolved, slot: group.count))
            if group.isFull { group.removeAll() }
        }
        batch.count = keys.count
        return (group, admitted)
    }

    @Test("the group statement repeats the one-row VALUES 32 times")
    func statement() throws {
        let (group, _) = judge([])
        #expect(group.statement.sql.hasPrefix("INSERT INTO \"t\" (\"stop_sequence\", \"trip_ref\") VALUES (?, ?), (?, ?), "))
        #expect(group.statement.sql.components(separatedBy: "(?, ?)").count - 1 == 32)
        #expect(group.parameterOffset(0) == 0 && group.parameterOffset(3) == 6)
    }

    @Test("ascending keys fill groups of 32; the rest waits")
    func groupsOf32() {
        let keys: [(Int64, Int64)] = (1...70).map { (n: Int) -> (Int64, Int64) in (Int64(1 + (n - 1) / 40), Int64(n)) }
        let (group, admitted) = judge(keys)
        #expect(admitted.allSatisfy { $0 })
        #expect(group.count == 70 - 64, "two full groups were inserted; 6 rows wait")
        #expect(group.row(0) == 64)
    }

    @Test("a key that could repeat one inserted so far is inserted alone; one outside every range of inserted keys waits for a group")
    func breaksOrder() {
        // Trip 2 sequence 1 and 2, then trip 1 (a smaller key than any so far: a range of its
        // own, it cannot be a duplicate), then the same key twice, a key inside the range
        // 2/1...2/3, then a larger key again.
        let (_, admitted) = judge([(2, 1), (2, 2), (1, 9), (2, 3), (2, 3), (2, 2), (3, 1)])
        #expect(admitted == [true, true, true, true, false, false, true])
        // Inside the range of trip 1's keys (1/5...1/9), or repeating its first: alone.
        let (_, again) = judge([(1, 5), (1, 9), (1, 7), (1, 5), (1, 10)])
        #expect(again == [true, true, false, false, true])
    }

    @Test("only integer keys group: a text or real key column, or a rowid table, does not")
    func integerKeys() throws {
        let schema = try Schema.parse(Array(groupSchema.utf8), file: "groups.yaml")
        #expect(InsertGroup.integerKey(of: schema.table(named: "stop_times")!) == [.reference(0), .column(1)])
        #expect(InsertGroup.integerKey(of: schema.table(named: "trips")!) == nil)
        let text = try Schema.parse(Array(groupSchema.replacingOccurrences(of: "stop_sequence, type: integer", with: "stop_sequence").utf8), file: "t.yaml")
        #expect(InsertGroup.integerKey(of: text.table(named: "stop_times")!) == nil)
    }

    /// Stop times in several orders, by name.
    static let orders: [String: [(String, Int)]] = {
        var orders: [String: [(String, Int)]] = [:]
        orders["70 ascending rows: 2 groups and 6 alone"] = ascending(["T1", "T2", "T3"], 23) + [("T3", 24)]
        orders["4194 rows: groups across batches of 4096"] = ascending(["T1", "T2", "T3"], 1398)
        orders["trips out of order"] = ascending(["T2"], 40) + ascending(["T1"], 40) + ascending(["T3"], 40)
        let back: [(String, Int)] = [("T1", 25), ("T1", 21), ("T1", 40)]
        let rest: [(String, Int)] = (41...90).map { (n: Int) -> (String, Int) in ("T1", n) }
        orders["sequences out of order within a trip"] = ascending(["T1"], 20) + back + rest
        return orders
    }()

    @Test("grouped and one-row loads leave byte-identical databases", arguments: orders.keys.sorted())
    func byteIdentical(_ name: String) throws {
        let rows = Self.orders[name]!
        let grouped = try load(stopTimes(rows), groups: true)
        let alone = try load(stopTimes(rows), groups: false)
        #expect(grouped.count == rows.count)
        #expect(grouped.rows.count == rows.count)
        #expect(grouped.rows == alone.rows)
        #expect(grouped.bytes == alone.bytes, "the pages are the same, not only the rows")
    }

    @Test("a duplicate inside a run of ascending keys is rejected like on the one-row path, under --lenient too")
    func duplicates() throws {
        // Rows 2...21 ascend; line 22 repeats line 11's key, line 23 its own predecessor's.
        let rows = ascending(["T1"], 20) + [("T1", 10), ("T2", 1), ("T2", 1)] + ascending(["T3"], 40)
        // The repeated keys with other values (a row repeated whole is a copy: see RepeatedRowTests).
        var lines = stopTimes(rows).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[21] += " again"
        lines[23] += " again"
        let text = lines.joined(separator: "\n")
        for lenient in [false, true] {
            let grouped = try load(text, groups: true, lenient: lenient)
            let alone = try load(text, groups: false, lenient: lenient)
            #expect(grouped.issues == alone.issues)
            #expect(grouped.issues.contains("appears twice"))
            #expect(grouped.count == rows.count - 2 && alone.count == rows.count - 2)
            #expect(grouped.bytes == alone.bytes)
        }

        guard case .failure(let error) = try build(text) else { Issue.record("a duplicate key fails the build"); return }
        let duplicates = error.issues.filter { $0.kind == .duplicateKey }
        #expect(duplicates.map(\.line) == [22, 24])
        // The first copy of a key of this WITHOUT ROWID table is found in the file again.
        let first = duplicates.first?.description ?? ""
        #expect(first.contains("stop_times.txt:22:1: trip_id+stop_sequence: 'trip_id=T1, stop_sequence=10' appears twice: the key of 'stop_times' must be unique; first copy at "), "\(first)")
        #expect(first.hasSuffix("stop_times.txt:11"), "\(first)")
        #expect(duplicates.last?.description.hasSuffix("stop_times.txt:23") == true)

        guard case .success(let (summary, db)) = try build(text, lenient: true) else { Issue.record("--lenient keeps going"); return }
        #expect(summary.rejected["stop_times"] == 2)
        #expect(try db.int("SELECT rejected FROM seedgen_inputs WHERE name = 'stop_times.txt'") == 2)
        #expect(try db.int("SELECT count(*) FROM stop_times") == Int64(rows.count - 2))
        #expect(summary.warningReport.contains("'trip_id=T1, stop_sequence=10' appears twice: the key of 'stop_times' must be unique; first copy at "),
                "\(summary.warningReport)")
        #expect(summary.warningReport.contains("stop_times.txt:11; the later row is left out"))
    }

    @Test("a row whose trip names no row is left out under --lenient, and the groups go on")
    func danglingInsideGroup() throws {
        let rows = ascending(["T1"], 40) + [("T9", 1)] + ascending(["T2"], 40)
        guard case .success(let (summary, db)) = try build(stopTimes(rows), lenient: true) else { Issue.record("--lenient keeps going"); return }
        #expect(summary.rejected["stop_times"] == 1)
        #expect(try db.int("SELECT count(*) FROM stop_times") == 80)
        #expect(summary.warningReport.contains("stop_times.txt:42:1: trip_id: 'T9' names no trip_id in trips.txt; the row is left out"), "\(summary.warningReport)")
    }
}
