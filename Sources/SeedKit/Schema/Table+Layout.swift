import SeedSQLite

/// One column of a table as SQLite stores it (`Table.layout`).
public struct StoredColumn: Sendable, Equatable {
    /// What the column holds.
    public enum Role: Sendable, Equatable {
        /// The integer primary key (`Table.rowID`).
        case rowID
        /// `Table.columns[index]`.
        case column(Int)
        /// The enclosing row's id (`Table.parent`).
        case parent
        /// `Table.references[index]`.
        case reference(Int)
    }

    public var name: String
    /// The column definition of `CREATE TABLE` and `ALTER TABLE ... ADD COLUMN`.
    public var definition: String
    public var role: Role
}

extension Table {
    /// The stored columns in storage order: the row id, the stored columns, the parent link,
    /// the references, then the `trailing` columns and references, then `extras`.
    ///
    /// Columns that most rows leave empty go last because SQLite stores nothing for the
    /// trailing columns a row was written without: a build creates the table with the columns
    /// its input can fill, loads it, and adds the rest with `ALTER TABLE ... ADD COLUMN`
    /// (`createStatement(columnCount:)`, `addColumnStatements(after:)`). The final table is the
    /// same, to the byte of its `CREATE TABLE` text, whichever columns the input had.
    public var layout: [StoredColumn] {
        var head: [StoredColumn] =
            withoutRowID
            ? [] : [StoredColumn(name: rowID, definition: "\(quoted(rowID)) INTEGER PRIMARY KEY", role: .rowID)]
        var tail: [StoredColumn] = [], trailingReferences: [StoredColumn] = [], last: [StoredColumn] = []
        for (index, column) in columns.enumerated() where column.stored {
            let notNull = column.required || (withoutRowID && key.contains(column.name)) ? " NOT NULL" : ""
            let foreignKey = column.foreignKey.map { " REFERENCES \(quoted($0))" } ?? ""
            let stored = StoredColumn(
                name: column.name, definition: "\(quoted(column.name)) \(column.type.sqlType)\(notNull)\(foreignKey)",
                role: .column(index))
            if extras && index == columns.count - 1 {
                last.append(stored)
            } else if column.trailing {
                tail.append(stored)
            } else {
                head.append(stored)
            }
        }
        if let parent {
            head.append(
                StoredColumn(
                    name: parent.column,
                    definition: "\(quoted(parent.column)) INTEGER REFERENCES \(quoted(parent.table))", role: .parent))
        }
        for (index, reference) in references.enumerated() {
            let notNull = withoutRowID && key.contains(reference.column) ? " NOT NULL" : ""
            let stored = StoredColumn(
                name: reference.column,
                definition: "\(quoted(reference.column)) INTEGER\(notNull) REFERENCES \(quoted(reference.to))",
                role: .reference(index))
            if reference.trailing { trailingReferences.append(stored) } else { head.append(stored) }
        }
        return head + tail + trailingReferences + last
    }

    /// `CREATE TABLE` with the first `count` columns of `layout`. Definitions are separated
    /// by ", " because that is what `ALTER TABLE ... ADD COLUMN` inserts: adding the other
    /// columns then gives the text of `createStatement`.
    public func createStatement(columnCount count: Int) -> String {
        var definitions = layout.prefix(count).map(\.definition)
        if withoutRowID {
            definitions.append("PRIMARY KEY (\(key.map(quoted).joined(separator: ", ")))")
        }
        return "CREATE TABLE \(quoted(name)) (" + definitions.joined(separator: ", ") + ")"
            + (withoutRowID ? " WITHOUT ROWID" : "")
    }

    /// The statements that add the columns of `layout` after the first `count`.
    public func addColumnStatements(after count: Int) -> [String] {
        layout.dropFirst(count).map { "ALTER TABLE \(quoted(name)) ADD COLUMN \($0.definition)" }
    }

    /// How many columns of `layout` a table must be created with to store an input that
    /// fills the columns named in `supplied` (names of `columns`, stored or not): up to the
    /// last one that can hold a value. Columns with a default, required and key columns can;
    /// a reference can when one of its `from` columns can. Columns that can only be NULL
    /// after that one are left to `addColumnStatements(after:)`.
    public func createdColumnCount(supplied: Set<String>) -> Int {
        func fills(_ column: Column) -> Bool {
            supplied.contains(column.name) || column.defaultValue != nil || column.required || key.contains(column.name)
        }
        let layout = self.layout
        let last = layout.lastIndex { stored in
            switch stored.role {
            case .rowID, .parent: return true
            case .column(let index): return fills(columns[index])
            case .reference(let index):
                let reference = references[index]
                return key.contains(reference.column)
                    || reference.from.contains { name in column(named: name).map(fills) ?? false }
            }
        }
        return last.map { $0 + 1 } ?? 0
    }
}
