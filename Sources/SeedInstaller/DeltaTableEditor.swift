import SeedArchive
import SeedSQLite

/// Applies one table's records of a delta to the database being patched: deletes, inserts and
/// updates by key, each checked to change exactly one row, with its statements prepared once
/// (updates: one per set of changed columns, a few dozen at most kept).
///
/// The installer applies deltas with it; `seedgen build --previous` applies the same records
/// to the previous seed's rows, so both write rows alike.
package final class DeltaTableEditor {
    package let shape: DeltaTableShape
    private let connection: Connection
    private let deleteStatement: Statement
    private let insertStatement: Statement
    private var updateStatements: [[Int]: Statement] = [:]

    /// The most update statements kept; past it the cache starts again (tables whose rows
    /// change in many different column sets are rare).
    static let updateStatementLimit = 64

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
            throw .mismatch("table '\(table.name)' of the delta has \(table.keyCount) key and \(table.valueCount) other columns (\(table.isRowID ? "rowid" : "WITHOUT ROWID")); the seed's has \(shape.keyColumns.count) and \(shape.valueColumns.count) (\(shape.isRowID ? "rowid" : "WITHOUT ROWID"))")
        }
        let name = DeltaTableShape.quoted(table.name)
        let parameters = (1...(shape.keyColumns.count + shape.valueColumns.count)).map { "?\($0)" }.joined(separator: ", ")
        do {
            deleteStatement = try connection.prepare("DELETE FROM \(name) WHERE \(shape.keyCondition())")
            insertStatement = try connection.prepare("INSERT INTO \(name) (\(shape.columnList())) VALUES (\(parameters))")
        } catch {
            throw .sqlite(error, table: table.name)
        }
    }

    /// Applies a delete, insert or update of this table (a `table` or `end` record does nothing).
    package func apply(_ record: DeltaRecord) throws(DeltaPatch.Failure) {
        switch record {
        case .delete(let key): try delete(key)
        case .insert(let key, let values): try insert(key, values)
        case .update(let key, let changes): try update(key, changes)
        case .table, .end: break
        }
    }

    func delete(_ key: [DeltaValue]) throws(DeltaPatch.Failure) {
        try run(deleteStatement, key: key, values: [], what: "delete")
    }

    func insert(_ key: [DeltaValue], _ values: [DeltaValue]) throws(DeltaPatch.Failure) {
        try run(insertStatement, key: key, values: values, what: "insert")
    }

    func update(_ key: [DeltaValue], _ changes: [DeltaRecord.Change]) throws(DeltaPatch.Failure) {
        let columns = changes.map(\.column)
        let statement: Statement
        if let cached = updateStatements[columns] {
            statement = cached
        } else {
            if updateStatements.count >= Self.updateStatementLimit { updateStatements.removeAll() }
            let assignments = columns.enumerated().map { "\(DeltaTableShape.quoted(shape.valueColumns[$1])) = ?\($0 + 1)" }
            let sql = "UPDATE \(DeltaTableShape.quoted(shape.name)) SET \(assignments.joined(separator: ", ")) WHERE \(shape.keyCondition(first: columns.count + 1))"
            do { statement = try connection.prepare(sql) } catch { throw .sqlite(error, table: shape.name) }
            updateStatements[columns] = statement
        }
        try run(statement, key: key, values: changes.map(\.value), what: "update", keyFirst: false)
    }

    /// Binds `key` and `values` (values first when `keyFirst` is false, as in an UPDATE),
    /// runs the statement and checks that it changed exactly one row.
    private func run(_ statement: Statement, key: [DeltaValue], values: [DeltaValue], what: String, keyFirst: Bool = true) throws(DeltaPatch.Failure) {
        defer { statement.reset() }
        do {
            let ordered = keyFirst ? key + values : values + key
            for (index, value) in ordered.enumerated() { try statement.bind(value, at: Int32(index + 1)) }
            try statement.step()
        } catch {
            throw .sqlite(error, table: shape.name)
        }
        guard statement.changes == 1 else {
            throw .mismatch("the delta's \(what) of the row \(Self.describe(key)) of table '\(shape.name)' changes no row of the seed")
        }
    }

    /// A key as text for messages, cut short.
    static func describe(_ key: [DeltaValue]) -> String {
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
