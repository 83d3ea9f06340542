import SeedSQLite

extension ContentChunker {
    /// The table's chunks after the rows whose rowids are `touched` were inserted, updated or
    /// deleted, given `old`, its chunks before: only the chunks that held (or now hold) a touched
    /// row are read and hashed again; the others are `old`'s.
    ///
    /// Old chunk `i` holds the rowids after chunk `i - 1`'s last up to its own last (the first
    /// from the smallest; rowids after the last chunk's last join it unless a boundary ended it,
    /// else they start a new chunk). A run of
    /// touched chunks is scanned again from the last row of the clean chunk before it to the first
    /// boundary at or after the run's last boundary: a boundary no touched row moved, so the
    /// chunks after it are `old`'s (a run ends at an old boundary, or at the table's end).
    /// - Returns: nil for a table without a rowid, or `old` chunks without one (hash it whole).
    func rechunk(
        _ connection: Connection, old: [ContentChunk], touched: [Int64]
    ) throws(SQLiteError) -> [ContentChunk]? {
        guard hasRowID else { return nil }
        var lasts: [Int64] = []
        lasts.reserveCapacity(old.count)
        for chunk in old {
            guard let last = chunk.lastRowID, last > (lasts.last ?? .min) || lasts.isEmpty else { return nil }
            lasts.append(last)
        }
        // The chunks touched: the first whose last rowid is at least the row's; after all of them,
        // the last chunk when the table's end ended it (not a boundary), else a new one (old.count).
        let openEnd = lasts.last.map { Self.isBoundary(rowid: $0) ? lasts.count : lasts.count - 1 } ?? 0
        var dirty = Set<Int>()
        for rowid in touched {
            var low = 0
            var high = lasts.count
            while low < high {
                let middle = (low + high) / 2
                if lasts[middle] < rowid { low = middle + 1 } else { high = middle }
            }
            dirty.insert(min(low, openEnd))
        }
        let order = dirty.sorted()
        var result: [ContentChunk] = []
        var index = 0
        var next = 0
        while true {
            while next < order.count && order[next] < index { next += 1 }
            guard next < order.count else {
                if index < old.count { result += old[index...] }
                return result
            }
            let start = order[next]
            result += old[index..<start]
            var end = start
            while next + 1 < order.count && order[next + 1] == end + 1 {
                next += 1
                end += 1
            }
            let after = start == 0 ? nil : lasts[start - 1]
            // A run that takes in the open last chunk reads to the table's end: rows added after it
            // may end chunks of their own, and no old boundary follows.
            let until = end < openEnd ? lasts[end] : nil
            let run = try scan(connection, ScanRange(afterRowID: after, untilRowID: until))
            result += run.chunks
            guard !run.reachedEnd, let stop = run.chunks.last?.lastRowID else { return result }
            index = end
            while index < lasts.count && lasts[index] <= stop { index += 1 }
        }
    }
}
