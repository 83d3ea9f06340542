import SeedArchive
import SeedSQLite

/// How a delta addresses the rows of one table, read from the database the same way by the
/// writer (`seedgen delta`) and by the installer, so both agree: a rowid table's rows by their
/// rowid, a `WITHOUT ROWID` table's by its primary key; the row's other values are its other
/// writable columns in table order (a rowid table's `INTEGER PRIMARY KEY` column is its rowid,
/// and generated columns are computed by SQLite, so neither is among them).
package struct DeltaTableShape: Equatable {
    /// The table's name.
    package let name: String
    /// The key columns: the rowid (under a name no column hides) or the primary key columns.
    package let keyColumns: [String]
    /// The other writable columns, in table order.
    package let valueColumns: [String]
    /// True for a rowid table.
    package let isRowID: Bool

    /// The section header a delta writes for this table.
    package var deltaTable: DeltaTable {
        DeltaTable(name: name, isRowID: isRowID, keyCount: keyColumns.count, valueCount: valueColumns.count)
    }

    /// The tables whose rows a delta carries, in the order it carries them (by name, as
    /// SQLite's BINARY collation sorts): every table with storage, `sqlite_stat1` and the
    /// shadow tables of virtual tables included; virtual tables themselves (no storage of their
    /// own) and views are not.
    package static func tables(_ connection: Connection, schema: String = "main") throws(SQLiteError) -> [String] {
        try connection.rows(
            "SELECT name FROM \(quoted(schema)).sqlite_schema WHERE type = 'table' AND rootpage > 0 ORDER BY name"
        )
        .compactMap { $0.first?.text }
    }

    /// Reads the shape of table `name` of database `schema` (`main` or an attached name).
    /// - Throws: `DeltaTableShape.Unsupported` for a rowid table whose columns are named
    ///   `rowid`, `_rowid_` and `oid`, leaving no name to reach its rowid.
    package static func read(
        _ connection: Connection, schema: String = "main", table name: String
    ) throws -> DeltaTableShape {
        let info = try connection.rows(
            "SELECT name, type, pk, hidden FROM pragma_table_xinfo(?, ?) ORDER BY cid", [.text(name), .text(schema)])
        let columns = info.map {
            (name: $0[0].text ?? "", type: $0[1].text ?? "", pk: $0[2].integer ?? 0, writable: $0[3].integer == 0)
        }
        let taken = Set(columns.map { $0.name.lowercased() })
        guard let rowid = ["rowid", "_rowid_", "oid"].first(where: { !taken.contains($0) }) else {
            throw Unsupported(table: name, reason: "its columns named rowid, _rowid_ and oid hide its rowid")
        }
        // A WITHOUT ROWID table has no rowid to select.
        let isRowID = (try? connection.prepare("SELECT \(rowid) FROM \(quoted(schema)).\(quoted(name)) LIMIT 0")) != nil
        let primaryKey = columns.filter { $0.pk > 0 }.sorted { $0.pk < $1.pk }
        let values: [(name: String, type: String, pk: Int64, writable: Bool)]
        if isRowID {
            let alias = primaryKey.count == 1 && primaryKey[0].type.uppercased() == "INTEGER" ? primaryKey[0].name : nil
            values = columns.filter { $0.writable && $0.name != alias }
        } else {
            let keyNames = Set(primaryKey.map(\.name))
            values = columns.filter { $0.writable && !keyNames.contains($0.name) }
        }
        return DeltaTableShape(
            name: name, keyColumns: isRowID ? [rowid] : primaryKey.map(\.name), valueColumns: values.map(\.name),
            isRowID: isRowID)
    }

    /// The key and value columns as an SQL list (`"k1", "k2", "v1", ...`), prefixed with `alias.`.
    package func columnList(_ alias: String? = nil, key: Bool = true, values: Bool = true) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return ((key ? keyColumns : []) + (values ? valueColumns : [])).map { prefix + quoted($0) }.joined(
            separator: ", ")
    }

    /// `k1 = ? AND k2 = ?` over the key columns, numbered from parameter `first`.
    package func keyCondition(_ alias: String? = nil, first: Int = 1) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return keyColumns.enumerated().map { "\(prefix)\(quoted($1)) = ?\(first + $0)" }.joined(separator: " AND ")
    }

    /// A table a delta cannot address.
    package struct Unsupported: Error, CustomStringConvertible {
        package let table: String
        package let reason: String
        package var description: String { "table '\(table)': \(reason)" }
    }
}

extension Statement {
    /// Result column `index` as a delta value: its storage class and exact content.
    package func deltaValue(at index: Int) -> DeltaValue {
        switch storageClass(at: index) {
        case .integer: return .integer(int64(at: index))
        case .real: return .real(double(at: index))
        case .text: return .text(bytes(at: index))
        case .blob: return .blob(bytes(at: index))
        case .null: return .null
        }
    }

    /// Binds a delta value to the 1-based parameter `index`, in its own storage class.
    package func bind(_ value: DeltaValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let number): try bind(number, at: index)
        case .real(let number): try bind(number, at: index)
        case .text(let bytes):
            try bytes.withUnsafeBytes { buffer in Result { () throws(SQLiteError) in try bindText(buffer, at: index) } }
                .get()
        case .blob(let bytes): try bindBlob(bytes, at: index)
        }
    }
}
