import SeedSQLite

/// Inserts the rows of a WITHOUT ROWID table `size` at a time with one multi-row INSERT,
/// which costs SQLite far less per row than stepping a one-row INSERT (stop_times: millions
/// of rows clustered on integer keys that come in order).
///
/// A row may wait for a group only when its key is made of integers and is greater than
/// every key inserted before it, so it cannot repeat a key: a group statement never fails on
/// a duplicate halfway through (without a journal, part of it could stay inserted), and rows
/// that could be duplicates take the one-row path, where they are reported as before. The rows
/// stay in the batch until the group is inserted; the writer binds them (`parameterOffset`).
final class InsertGroup {
    /// Rows per group statement.
    static let size = 32
    /// SQLite's default SQLITE_MAX_VARIABLE_NUMBER: wider rows are not grouped.
    static let parameterLimit = 32766

    /// Where one part of the key comes from.
    enum KeyPart: Equatable {
        /// An integer column of the batch.
        case column(Int)
        /// A reference's resolved id.
        case reference(Int)
    }

    /// `INSERT ... VALUES (...), (...), ...` with `size` rows.
    let statement: Statement
    /// Parameters of one row.
    let parametersPerRow: Int32
    /// The parameters of `statement` holding NULL.
    let nulls: BoundNulls
    private let key: [KeyPart]
    /// The greatest key inserted so far (`hasLast`), and the key of the row being judged.
    private let last: UnsafeMutablePointer<Int64>
    private let candidate: UnsafeMutablePointer<Int64>
    @exclusivity(unchecked) private var hasLast = false
    /// The waiting rows: their index in the batch, in input order.
    private let rows: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private(set) var count = 0

    /// - Parameters:
    ///   - head: the one-row INSERT up to its values (`INSERT INTO t (a, b) VALUES `); the
    ///     group statement follows it with `size` rows of `parametersPerRow` parameters.
    ///   - parametersPerRow: the one-row statement's parameter count.
    ///   - key: the table's key, part by part (`integerKey(of:)`).
    init(head: String, parametersPerRow: Int32, key: [KeyPart], connection: Connection) throws(SQLiteError) {
        let values = "(" + Array(repeating: "?", count: Int(parametersPerRow)).joined(separator: ", ") + ")"
        statement = try connection.prepare(head + Array(repeating: values, count: Self.size).joined(separator: ", "))
        self.parametersPerRow = parametersPerRow
        nulls = BoundNulls(parameterCount: Int(parametersPerRow) * Self.size)
        self.key = key
        last = .allocate(capacity: max(1, key.count))
        candidate = .allocate(capacity: max(1, key.count))
        rows = .allocate(capacity: Self.size)
    }

    deinit {
        last.deallocate()
        candidate.deallocate()
        rows.deallocate()
    }

    /// The key parts of `table` when every one is an integer (an `integer` column or a
    /// reference's id); nil when the table cannot be grouped.
    static func integerKey(of table: Table) -> [KeyPart]? {
        guard table.withoutRowID, !table.key.isEmpty else { return nil }
        var parts: [KeyPart] = []
        for name in table.key {
            if let index = table.columns.firstIndex(where: { $0.name == name }) {
                guard table.columns[index].type == .integer, table.columns[index].stored else { return nil }
                parts.append(.column(index))
            } else if let r = table.references.firstIndex(where: { $0.column == name }) {
                parts.append(.reference(r))
            } else {
                return nil
            }
        }
        return parts
    }

    var isFull: Bool { count == Self.size }

    /// The batch index of waiting row `slot`.
    @inline(__always)
    func row(_ slot: Int) -> Int { rows[slot] }

    /// Where row `slot`'s parameters start in `statement`: parameter `p` of the one-row
    /// statement is `parameterOffset(slot) + p`.
    @inline(__always)
    func parameterOffset(_ slot: Int) -> Int32 { Int32(slot) * parametersPerRow }

    /// Takes `row` into the group when its key (read from the batch and from `resolved`,
    /// the row's references) ascends past every key inserted or waiting; false otherwise,
    /// and the caller inserts it alone.
    @inline(__always)
    func admit(_ batch: RowBatch, _ row: Int, resolved: ResolvedIDs, slot: Int) -> Bool {
        guard readKey(batch, row, resolved, slot) else { return false }
        guard !hasLast || ascends() else { return false }
        rows[count] = row
        count += 1
        keepCandidate()
        return true
    }

    /// Forgets the waiting rows (once inserted).
    func removeAll() { count = 0 }

    private func readKey(_ batch: RowBatch, _ row: Int, _ resolved: ResolvedIDs, _ slot: Int) -> Bool {
        for (i, part) in key.enumerated() {
            switch part {
            case .column(let column):
                let cell = batch.cell(row, column)
                guard batch.tags[cell] == RowBatch.Tag.integer.rawValue else { return false }
                candidate[i] = batch.words[cell]
            case .reference(let r):
                guard let id = resolved.id(slot: slot, r) else { return false }
                candidate[i] = id
            }
        }
        return true
    }

    /// True when the candidate key is greater than the last one, part by part.
    private func ascends() -> Bool {
        for i in 0..<key.count where candidate[i] != last[i] {
            return candidate[i] > last[i]
        }
        return false
    }

    private func keepCandidate() {
        last.update(from: candidate, count: key.count)
        hasLast = true
    }
}
