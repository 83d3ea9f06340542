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
        let statements = ScanStatements()
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
            let run = try scan(connection, ScanRange(afterRowID: after, untilRowID: until), statements: statements)
            result += run.chunks
            guard !run.reachedEnd, let stop = run.chunks.last?.lastRowID else { return result }
            index = end
            while index < lasts.count && lasts[index] <= stop { index += 1 }
        }
    }
}

extension ContentChunker {
    /// A `WITHOUT ROWID` table's chunks after rows whose key's first column is one of `touched`
    /// (integers) were inserted, updated or deleted, given `old`, its chunks before: as
    /// ``rechunk(_:old:touched:)`` does by rowid, by each old chunk's last key (its first column
    /// and its encoding).
    ///
    /// The rows whose first column is `t` lie in the old chunks from the first whose last key's
    /// first column is at least `t` to the first whose is greater (the open last chunk when
    /// none). A run of such chunks is scanned again from the row after the last key of the chunk
    /// before it (found by its encoding) to the first boundary whose first column reaches the
    /// run's last chunk's: that chunk's own last row, since no touched row has that first column
    /// and every chunk of the run before it ends lower. The chunks after it are `old`'s.
    /// - Returns: nil for a table with a rowid, or `old` chunks whose last keys do not start with
    ///   an integer, or a run that does not end where it must (hash it whole).
    func rechunk(
        _ connection: Connection, old: [ContentChunk], touchedKeys: [Int64], helper: Connection? = nil
    ) throws(SQLiteError) -> [ContentChunk]? {
        guard !hasRowID else { return nil }
        var firsts: [Int64] = []
        firsts.reserveCapacity(old.count)
        for chunk in old {
            guard let key = chunk.lastKey, let first = Self.firstInteger(key), first >= (firsts.last ?? .min) else {
                return nil
            }
            firsts.append(first)
        }
        let openEnd = old.last?.lastKey.map { Self.isBoundary(key: $0) ? old.count : old.count - 1 } ?? 0
        var dirty = [Bool](repeating: false, count: openEnd + 1)
        for key in touchedKeys {
            let from = min(Self.firstIndex(firsts) { $0 >= key }, openEnd)
            let through = min(Self.firstIndex(firsts) { $0 > key }, openEnd)
            for index in from...through { dirty[index] = true }
        }
        var runs: [(chunks: ClosedRange<Int>, range: ScanRange)] = []
        var start = 0
        while start <= openEnd {
            guard dirty[start] else {
                start += 1
                continue
            }
            var end = start
            while end < openEnd && dirty[end + 1] { end += 1 }
            var range = ScanRange()
            if start > 0 {
                range.fromKey = firsts[start - 1]
                range.afterKey = old[start - 1].lastKey
            }
            if end < openEnd { range.untilKey = firsts[end] }
            runs.append((start...end, range))
            start = end + 1
        }
        let scans = try scan(connection, runs.map(\.range), sizes: runs.map(\.chunks.count), helper: helper)
        var result: [ContentChunk] = []
        var index = 0
        for (run, scanned) in zip(runs, scans) {
            result += old[index..<run.chunks.lowerBound]
            result += scanned.chunks
            let end = run.chunks.upperBound
            if end == openEnd { return scanned.reachedEnd ? result : nil }
            guard !scanned.reachedEnd, scanned.chunks.last?.lastKey == old[end].lastKey else { return nil }
            index = end + 1
        }
        return result + old[index...]
    }

    /// True when the row whose key's encoding is `key` ends a chunk.
    static func isBoundary(key: [UInt8]) -> Bool {
        key.withUnsafeBytes { boundaryHash($0) } % averageRows == 0
    }

    /// The integer a key's encoding starts with (`'I'` and 8 bytes, big-endian), if it does.
    static func firstInteger(_ key: [UInt8]) -> Int64? {
        guard key.count >= 9, key[0] == UInt8(ascii: "I") else { return nil }
        return key[1..<9].reduce(0) { $0 << 8 | Int64($1) }
    }

    /// The first index of `sorted` (ascending) where `isPast` holds, or its count.
    private static func firstIndex(_ sorted: [Int64], where isPast: (Int64) -> Bool) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if isPast(sorted[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
