import SeedSQLite

/// Inserts the rows of a WITHOUT ROWID table `size` at a time with one multi-row INSERT,
/// which costs SQLite far less per row than stepping a one-row INSERT (stop_times: millions
/// of rows clustered on integer keys that come in order).
///
/// A row may wait for a group only when its key is made of integers and cannot repeat a key
/// inserted before it, so a group statement never fails on a duplicate halfway through (without
/// a journal, part of it could stay inserted); rows that could be duplicates take the one-row
/// path, where they are reported as before. The rows stay in the batch until the group is
/// inserted; the writer binds them (`parameterOffset`).
///
/// What has been inserted is kept as a few disjoint ranges of keys, each grown at its end: a
/// key past a range's end and before the next range cannot be a duplicate. Keys usually ascend
/// (one range); with `--previous`, a feed's new trips get ids above the kept ones, so their
/// stop_times interleave a second run of keys with the first: a key whose first part jumps
/// past the end of the last range starts a range of its own, and both runs keep grouping.
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
    /// Where the waiting rows' resolved ids start: row `slot`'s are at `firstSlot + slot`.
    let firstSlot: Int
    /// Parameters of one row.
    let parametersPerRow: Int32
    /// The parameters of `statement` holding NULL.
    let nulls: BoundNulls
    private let key: [KeyPart]
    /// The key of the row being judged.
    private let candidate: UnsafeMutablePointer<Int64>
    /// The ranges of keys inserted or waiting: `rangeCount` ranges in ascending order, each
    /// `key.count` integers for its first key (`heads`) and its last (`tails`).
    private let heads: UnsafeMutablePointer<Int64>
    private let tails: UnsafeMutablePointer<Int64>
    @exclusivity(unchecked) private var rangeCount = 0
    /// The most ranges kept; past it, a range grows over the gap after it instead.
    static let maximumRanges = 8
    /// The waiting rows: their index in the batch, in input order.
    private let rows: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private(set) var count = 0

    /// - Parameters:
    ///   - head: the one-row INSERT up to its values (`INSERT INTO t (a, b) VALUES `); the
    ///     group statement follows it with `size` rows of `parametersPerRow` parameters.
    ///   - parametersPerRow: the one-row statement's parameter count.
    ///   - key: the table's key, part by part (`integerKey(of:)`).
    ///   - firstSlot: where the waiting rows' resolved ids start (`ResolvedIDs`): row `slot`'s are
    ///     at `firstSlot + slot`.
    init(
        head: String, parametersPerRow: Int32, key: [KeyPart], firstSlot: Int = 0, connection: Connection
    ) throws(SQLiteError) {
        self.firstSlot = firstSlot
        let values = "(" + Array(repeating: "?", count: Int(parametersPerRow)).joined(separator: ", ") + ")"
        statement = try connection.prepare(head + Array(repeating: values, count: Self.size).joined(separator: ", "))
        self.parametersPerRow = parametersPerRow
        nulls = BoundNulls(parameterCount: Int(parametersPerRow) * Self.size)
        self.key = key
        candidate = .allocate(capacity: max(1, key.count))
        heads = .allocate(capacity: max(1, key.count) * Self.maximumRanges)
        tails = .allocate(capacity: max(1, key.count) * Self.maximumRanges)
        rows = .allocate(capacity: Self.size)
    }

    deinit {
        candidate.deallocate()
        heads.deallocate()
        tails.deallocate()
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
    /// the row's references) cannot be one inserted or waiting; false otherwise, and the caller
    /// inserts it alone.
    @inline(__always)
    func admit(_ batch: RowBatch, _ row: Int, resolved: ResolvedIDs, slot: Int) -> Bool {
        guard readKey(batch, row, resolved, slot), claimCandidate() else { return false }
        rows[count] = row
        count += 1
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

    /// Finds where the candidate key goes among the ranges and records it there: true when it
    /// lies outside every range (it cannot be a duplicate), false when it lies inside one.
    private func claimCandidate() -> Bool {
        let width = key.count
        // The last range whose head is at most the candidate.
        var index = rangeCount - 1
        while index >= 0 && compare(candidate, heads + index * width) < 0 { index -= 1 }
        if index >= 0 && compare(candidate, tails + index * width) <= 0 { return false }
        if index < 0 {
            // Before every range: a range of its own in front, or the first range grows down.
            if rangeCount < Self.maximumRanges {
                insertRange(at: 0)
            } else {
                heads.update(from: candidate, count: width)
            }
            return true
        }
        let jumps = index == rangeCount - 1 && candidate[0] > tails[index * width] &+ 1
        if jumps && rangeCount < Self.maximumRanges {
            insertRange(at: rangeCount)
        } else {
            (tails + index * width).update(from: candidate, count: width)
        }
        return true
    }

    /// Adds the range [candidate, candidate] at `position`.
    private func insertRange(at position: Int) {
        let width = key.count
        var index = rangeCount
        while index > position {
            (heads + index * width).update(from: heads + (index - 1) * width, count: width)
            (tails + index * width).update(from: tails + (index - 1) * width, count: width)
            index -= 1
        }
        (heads + position * width).update(from: candidate, count: width)
        (tails + position * width).update(from: candidate, count: width)
        rangeCount += 1
    }

    /// Compares two keys part by part: negative, zero or positive.
    @inline(__always)
    private func compare(_ a: UnsafeMutablePointer<Int64>, _ b: UnsafeMutablePointer<Int64>) -> Int {
        for i in 0..<key.count where a[i] != b[i] {
            return a[i] < b[i] ? -1 : 1
        }
        return 0
    }
}
