import SeedArchive
import SeedSQLite

/// Applies one table's records of a delta to the database being patched: deletes (of a row, or
/// of every row under a key prefix), inserts and updates by key, each checked to change the
/// rows it names, with its statements prepared once (updates: one per set of changed columns,
/// a few dozen at most kept). Consecutive inserts go in batches of up to 32 rows per statement,
/// which halves their cost; call ``finish()`` after the table's last record.
///
/// The installer applies deltas with it, and `seedgen delta` checks the deltas it writes with it.
package final class DeltaTableEditor {
    package let shape: DeltaTableShape
    private let connection: Connection
    private let deleteStatement: Statement
    private var prefixDeleteStatements: [Int: Statement] = [:]
    private let insertStatement: Statement
    private let batchInsertStatement: Statement?
    private var updateStatements: [[Int]: Statement] = [:]
    private var pending: [(key: [DeltaValue], values: [DeltaValue])] = []
    private let batchRows: Int

    /// The most update statements kept; past it the cache starts again (tables whose rows
    /// change in many different column sets are rare).
    static let updateStatementLimit = 64
    /// Rows per batched insert, fewer for wide tables: a statement binds at most 999
    /// parameters, SQLite's limit before version 3.32.
    static let maximumBatchRows = 32

    /// Prepares the statements for `table`, after checking that the database's table has the
    /// shape the delta's section says.
    package init(_ table: DeltaTable, connection: Connection) throws(DeltaPatch.Failure) {
        self.connection = connection
        let tables: [String]
        do { tables = try DeltaTableShape.tables(connection) } catch { throw .sqlite(error, table: table.name) }
        guard tables.contains(table.name) else {
            throw .mismatch("the delta changes table '\(table.name)', which the seed does not have")
        }
        do { shape = try DeltaTableShape.read(connection, table: table.name) } catch {
            throw .mismatch("cannot read table '\(table.name)' of the seed: \(error)")
        }
        guard shape.deltaTable == table else {
            throw .mismatch(
                """
                table '\(table.name)' of the delta has \(table.keyCount) key and \(table.valueCount) other columns \
                (\(table.isRowID ? "rowid" : "WITHOUT ROWID")); the seed's has \(shape.keyColumns.count) and \
                \(shape.valueColumns.count) (\(shape.isRowID ? "rowid" : "WITHOUT ROWID"))
                """
            )
        }
        let name = quoted(table.name)
        let width = shape.keyColumns.count + shape.valueColumns.count
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        batchRows = max(1, min(Self.maximumBatchRows, 999 / width))
        do {
            deleteStatement = try connection.prepare("DELETE FROM \(name) WHERE \(shape.keyCondition())")
            insertStatement = try connection.prepare("INSERT INTO \(name) (\(shape.columnList())) VALUES \(row)")
            batchInsertStatement =
                batchRows > 1
                ? try connection.prepare(
                    "INSERT INTO \(name) (\(shape.columnList())) VALUES "
                        + Array(repeating: row, count: batchRows).joined(separator: ", "))
                : nil
        } catch {
            throw .sqlite(error, table: table.name)
        }
    }

    /// Applies a delete, insert or update of this table (a `table` or `end` record does nothing).
    package func apply(_ record: DeltaRecord) throws(DeltaPatch.Failure) {
        switch record {
        case .insert(let key, let values):
            pending.append((key, values))
            if pending.count == batchRows { try flush() }
        case .delete(let key):
            try flush()
            if key.count == shape.keyColumns.count {
                try run(deleteStatement, values: key, expecting: 1, what: "delete of the row \(Self.describe(key))")
            } else {
                try run(
                    try prefixDeleteStatement(key.count), values: key, expecting: nil,
                    what: "delete of the rows under \(Self.describe(key))")
            }
        case .update(let key, let changes):
            try flush()
            try run(
                try updateStatement(changes.map(\.column)), values: changes.map(\.value) + key, expecting: 1,
                what: "update of the row \(Self.describe(key))")
        case .table, .end:
            try flush()
        }
    }

    /// Inserts the rows still waiting for a batch. Call after the table's last record.
    package func finish() throws(DeltaPatch.Failure) {
        try flush()
    }

    private func flush() throws(DeltaPatch.Failure) {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        if pending.count == batchRows, let batchInsertStatement {
            try run(
                batchInsertStatement, values: pending.flatMap { $0.key + $0.values }, expecting: pending.count,
                what: "insert of the rows from \(Self.describe(pending[0].key))")
        } else {
            for row in pending {
                try run(
                    insertStatement, values: row.key + row.values, expecting: 1,
                    what: "insert of the row \(Self.describe(row.key))")
            }
        }
    }

    private func prefixDeleteStatement(_ length: Int) throws(DeltaPatch.Failure) -> Statement {
        if let statement = prefixDeleteStatements[length] { return statement }
        let condition = shape.keyColumns.prefix(length).enumerated().map { "\(quoted($1)) = ?\($0 + 1)" }.joined(
            separator: " AND ")
        do {
            let statement = try connection.prepare("DELETE FROM \(quoted(shape.name)) WHERE \(condition)")
            prefixDeleteStatements[length] = statement
            return statement
        } catch {
            throw .sqlite(error, table: shape.name)
        }
    }

    private func updateStatement(_ columns: [Int]) throws(DeltaPatch.Failure) -> Statement {
        if let cached = updateStatements[columns] { return cached }
        if updateStatements.count >= Self.updateStatementLimit { updateStatements.removeAll() }
        let assignments = columns.enumerated().map { "\(quoted(shape.valueColumns[$1])) = ?\($0 + 1)" }
        let sql =
            """
            UPDATE \(quoted(shape.name)) SET \(assignments.joined(separator: ", ")) WHERE \
            \(shape.keyCondition(first: columns.count + 1))
            """
        do {
            let statement = try connection.prepare(sql)
            updateStatements[columns] = statement
            return statement
        } catch {
            throw .sqlite(error, table: shape.name)
        }
    }

    /// Binds `values` to parameters 1, 2, ..., runs the statement, and checks that it changed
    /// `expecting` rows (at least one when nil).
    private func run(
        _ statement: Statement, values: [DeltaValue], expecting: Int?, what: String
    ) throws(DeltaPatch.Failure) {
        defer { statement.reset() }
        do {
            for (index, value) in values.enumerated() { try statement.bind(value, at: Int32(index + 1)) }
            try statement.step()
        } catch {
            throw .sqlite(error, table: shape.name)
        }
        let changed = statement.changes
        guard expecting.map({ changed == $0 }) ?? (changed > 0) else {
            throw .mismatch("the delta's \(what) of table '\(shape.name)' changes \(changed) rows of the seed")
        }
    }

    /// A key as text for messages, cut short.
    package static func describe(_ key: [DeltaValue]) -> String {
        let parts = key.map { value -> String in
            switch value {
            case .null: return "NULL"
            case .integer(let number): return String(number)
            case .real(let number): return String(number)
            case .text(let bytes): return "'" + String(decoding: bytes.prefix(40), as: UTF8.self) + "'"
            case .blob(let bytes): return "<\(bytes.count) bytes>"
            }
        }
        return "(" + parts.joined(separator: ", ") + ")"
    }
}
