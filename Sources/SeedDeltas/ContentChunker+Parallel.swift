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
        let half = SecondHalf(chunker: self, connection: helper, middle: middle)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { half.run() }
        let first: (chunks: [ContentChunk], reachedEnd: Bool)
        do {
            first = try scan(connection, hasRowID ? ScanRange(untilRowID: middle) : ScanRange(untilKey: middle))
        } catch {
            group.wait()
            throw error
        }
        group.wait()
        switch half.result {
        case .success(let second): return first.reachedEnd ? first.chunks : first.chunks + second
        case .failure(let error): throw error
        }
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

/// The second half of a table's chunks, hashed on another thread.
// @unchecked Sendable: written by the one thread that runs it, read only after DispatchGroup.wait().
private final class SecondHalf: @unchecked Sendable {
    let chunker: ContentChunker
    let connection: Connection
    let middle: Int64
    var result: Result<[ContentChunk], SQLiteError> = .success([])

    init(chunker: ContentChunker, connection: Connection, middle: Int64) {
        self.chunker = chunker
        self.connection = connection
        self.middle = middle
    }

    func run() {
        do {
            if chunker.hasRowID {
                guard let boundary = try chunker.firstBoundary(connection, from: middle) else { return }
                result = .success(try chunker.scan(connection, ContentChunker.ScanRange(afterRowID: boundary)).chunks)
            } else {
                result = .success(try chunker.scan(connection, ContentChunker.ScanRange(fromKey: middle)).chunks)
            }
        } catch {
            result = .failure(error)
        }
    }
}
