import Dispatch
import SeedSQLite

extension ContentChunker {
    /// A table with fewer rowids than this is hashed on one core.
    static let splitRows: Int64 = 1 << 16

    /// The table's chunks, the rows after the first boundary at or past its middle (by rowid,
    /// or by the integers of a `WITHOUT ROWID` key's first column) hashed on another thread with
    /// `helper` (another connection to the same database): where chunks end depends on the rows'
    /// keys only, so both halves cut them where one pass would.
    func chunks(_ connection: Connection, helper: Connection) throws(SQLiteError) -> [ContentChunk] {
        guard !skipsOwnRows, let middle = try middle(connection) else { return try chunks(connection) }
        let second = BackgroundWork { [self] () throws(SQLiteError) -> [ContentChunk] in
            if hasRowID {
                guard let boundary = try firstBoundary(helper, from: middle) else { return [] }
                return try scan(helper, ScanRange(afterRowID: boundary)).chunks
            }
            return try scan(helper, ScanRange(fromKey: middle)).chunks
        }
        let first: (chunks: [ContentChunk], reachedEnd: Bool)
        do {
            first = try scan(connection, hasRowID ? ScanRange(untilRowID: middle) : ScanRange(untilKey: middle))
        } catch {
            _ = second.wait()
            throw error
        }
        let rest = try second.wait().get()
        return first.reachedEnd ? first.chunks : first.chunks + rest
    }

    /// The chunks of each of `ranges`, in order: with `helper` (another connection to the same
    /// database), the later ranges, about half of `sizes` (each range's weight: the old chunks it
    /// replaces), are scanned on another thread.
    func scan(
        _ connection: Connection, _ ranges: [ScanRange], sizes: [Int], helper: Connection?
    ) throws(SQLiteError) -> [(chunks: [ContentChunk], reachedEnd: Bool)] {
        var split = ranges.count
        if helper != nil, ranges.count > 1 {
            let half = (sizes.reduce(0, +) + 1) / 2
            var sum = 0
            split = 0
            while split < ranges.count - 1 && sum < half {
                sum += sizes[split]
                split += 1
            }
        }
        let scanAll = { [self] (connection: Connection, ranges: ArraySlice<ScanRange>) throws(SQLiteError) in
            let statements = ScanStatements()
            var scans: [(chunks: [ContentChunk], reachedEnd: Bool)] = []
            for range in ranges { scans.append(try scan(connection, range, statements: statements)) }
            return scans
        }
        guard let helper, split < ranges.count else { return try scanAll(connection, ranges[...]) }
        let second = BackgroundWork { () throws(SQLiteError) in try scanAll(helper, ranges[split...]) }
        let first: [(chunks: [ContentChunk], reachedEnd: Bool)]
        do { first = try scanAll(connection, ranges[..<split]) } catch {
            _ = second.wait()
            throw error
        }
        return first + (try second.wait().get())
    }

    /// Where to split the table: the middle of its rowids, or of the integers its key's first
    /// column holds (both ends integers of at most 2^53, so that a real compares exactly); nil
    /// for a table too small to split, or one whose key does not start with integers.
    private func middle(_ connection: Connection) throws(SQLiteError) -> Int64? {
        guard let column = hasRowID ? rowidName : firstKeyColumn else { return nil }
        let range = try connection.rows("SELECT min(\(column)), max(\(column)) FROM \(qualifiedName)")
        guard case .integer(let low) = range.first?[0], case .integer(let high) = range.first?[1],
            low > -(1 << 53), high < 1 << 53, high - low >= (hasRowID ? Self.splitRows : 2)
        else { return nil }
        return low + (high - low) / 2
    }

    /// The rowid of the first row at or after `rowid` that ends a chunk, if any.
    func firstBoundary(_ connection: Connection, from rowid: Int64) throws(SQLiteError) -> Int64? {
        let statement = try connection.prepare(
            "SELECT \(rowidName) FROM \(qualifiedName) WHERE \(rowidName) >= ? ORDER BY \(rowidName)")
        try statement.bind([.integer(rowid)])
        while try statement.step() {
            let candidate = statement.int64(at: 0)
            if Self.isBoundary(rowid: candidate) { return candidate }
        }
        return nil
    }
}
