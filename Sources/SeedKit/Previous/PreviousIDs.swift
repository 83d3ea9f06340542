import SeedSystem
import Foundation
import SeedSQLite

/// With `--previous`: the id a row read from a CSV file had in the previous seed, found by its
/// natural key while the row is read, so that the row and every reference to it are written
/// with the id it keeps. A row whose key is new gets the next id above the table's high-water
/// mark, in input order: what the stable-ids stage would give it. That stage stays the judge of
/// every id (it checks and renumbers what this could not decide, such as keys made of
/// references); with the ids given here it finds nothing to renumber, and the big child tables
/// (a feed's stop_times) need no second pass.
///
/// For tables with a row id and a key of plain columns. Thread-safe; one read-only connection
/// to the previous seed, one prepared lookup per table.
final class PreviousIDs: @unchecked Sendable {
    // @unchecked: `tables` and the connection's statements are used behind `lock` only.
    private let previous: PreviousSeed
    private let connection: Connection
    private let lock = Lock()
    private var tables: [String: Lookup] = [:]

    /// One table's lookup: the statement (nil when the previous seed cannot answer) and the
    /// next new id.
    private final class Lookup {
        let statement: Statement?
        let keyColumns: [Int]
        /// The id of the first new row.
        let firstNew: Int64
        var next: Int64

        init(statement: Statement?, keyColumns: [Int], next: Int64) {
            self.statement = statement
            self.keyColumns = keyColumns
            firstNew = next
            self.next = next
        }
    }

    init(previous: PreviousSeed) throws {
        self.previous = previous
        connection = try Connection(path: ":memory:")
        try connection.attachReadOnly(previous.path, as: "previous")
    }

    /// True when ids of `table` can be found while its rows are read.
    static func applies(to table: Table) -> Bool {
        !table.withoutRowID && !table.key.isEmpty && table.derive == nil
            && table.key.allSatisfy { name in
                table.column(named: name)?.stored == true && table.column(named: name)?.expression == nil
            }
    }

    /// The id of row `row` of `batch`, a row of `table`: its previous id, or a new one.
    func id(in table: Table, batch: RowBatch, row: Int) -> Int64 {
        lock.withLock {
            let lookup = self.lookup(table)
            if let statement = lookup.statement {
                defer { statement.reset() }
                var bound = true
                for (position, column) in lookup.keyColumns.enumerated() {
                    let cell = batch.cell(row, column), index = Int32(position + 1)
                    do {
                        switch batch.tags[cell] {
                        case RowBatch.Tag.integer.rawValue: try statement.bind(batch.words[cell], at: index)
                        case RowBatch.Tag.real.rawValue:
                            try statement.bind(Double(bitPattern: UInt64(bitPattern: batch.words[cell])), at: index)
                        case RowBatch.Tag.text.rawValue: try statement.bindText(batch.text(cell), at: index)
                        default: bound = false
                        }
                    } catch {
                        bound = false
                    }
                }
                if bound, (try? statement.step()) == true { return statement.int64(at: 0) }
            }
            defer { lookup.next += 1 }
            return lookup.next
        }
    }

    /// The id the first row of `table` new in this build gets: every id from it on is a new row's;
    /// nil when the ids of `table` are not found while its rows are read.
    func firstNewID(in table: Table) -> Int64? {
        guard Self.applies(to: table) else { return nil }
        return lock.withLock { lookup(table).firstNew }
    }

    private func lookup(_ table: Table) -> Lookup {
        if let lookup = tables[table.name] { return lookup }
        let name = quoted(table.name)
        let highWater = max(
            previous.recordedMaximumID(table.name) ?? 0,
            (try? connection.scalar("SELECT max(\(quoted(table.rowID))) FROM previous.\(name)")?.integer) ?? 0)
        let condition = table.key.map { "\(quoted($0)) = ?" }.joined(separator: " AND ")
        let statement = try? connection.prepare(
            "SELECT \(quoted(table.rowID)) FROM previous.\(name) WHERE \(condition)")
        let keyColumns = table.key.compactMap { name in table.columns.firstIndex { $0.name == name } }
        let lookup = Lookup(
            statement: keyColumns.count == table.key.count ? statement : nil, keyColumns: keyColumns,
            next: highWater + 1)
        tables[table.name] = lookup
        return lookup
    }
}
