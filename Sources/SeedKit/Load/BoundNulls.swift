import SeedSQLite

/// Which parameters of one statement hold NULL. SQLite keeps bindings from one run to the
/// next, so a parameter that is NULL again (an empty optional column, row after row) need
/// not be bound again: binding costs as much as a small insert's share of a row.
final class BoundNulls {
    private let isNull: UnsafeMutablePointer<Bool>
    private let count: Int

    /// - Parameter parameterCount: the statement's parameters, all NULL (as a fresh or
    ///   never-bound statement's are).
    init(parameterCount: Int) {
        count = parameterCount + 1 // 1-based
        isNull = .allocate(capacity: count)
        isNull.initialize(repeating: true, count: count)
    }

    deinit { isNull.deallocate() }

    /// Sets parameter `index` of `statement` to NULL, unless it is already.
    @inline(__always)
    func bindNull(_ statement: Statement, at index: Int32) throws(SQLiteError) {
        guard !isNull[Int(index)] else { return }
        try statement.bindNull(at: index)
        isNull[Int(index)] = true
    }

    /// Notes that parameter `index` now holds a value.
    @inline(__always)
    func bound(_ index: Int32) {
        isNull[Int(index)] = false
    }
}
