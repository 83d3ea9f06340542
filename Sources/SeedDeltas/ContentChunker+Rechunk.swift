import SeedSQLite

extension ContentChunker {
    /// The table's chunks after the rows whose rowids are `touched` were inserted, updated or
    /// deleted, given `old`, its chunks before: only the chunks that held (or now hold) a touched
    /// row are read and hashed again; the others are `old`'s.
    ///
    /// Old chunk `i` holds the rowids after chunk `i - 1`'s last up to its own last (the first
    /// from the smallest; rowids after the last chunk's last join it unless a boundary ended it,
    /// else they start a new chunk). A run of touched chunks is scanned again from the last row
    /// of the clean chunk before it to the first boundary at or after the run's last boundary:
    /// whether a row ends a chunk depends on its rowid only, so that is the run's last boundary,
    /// or, when its row was deleted, the clean chunk after it's (a row added or deleted there
    /// would have touched it). The runs are scanned on two cores with `helper` (another
    /// connection to the same database); were one to reach past the next run's start (a row
    /// log that missed a change), the table is hashed whole.
    /// - Returns: nil for a table without a rowid, or `old` chunks without one (hash it whole).
    func rechunk(
        _ connection: Connection, old: [ContentChunk], touched: [Int64], helper: Connection? = nil
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
        var runs: [ClosedRange<Int>] = []
        for index in order {
            if let last = runs.last, last.upperBound + 1 == index {
                runs[runs.count - 1] = last.lowerBound...index
            } else {
                runs.append(index...index)
            }
        }
        // A run that takes in the open last chunk reads to the table's end: rows added after it
        // may end chunks of their own, and no old boundary follows.
        let ranges = runs.map {
            ScanRange(
                afterRowID: $0.lowerBound == 0 ? nil : lasts[$0.lowerBound - 1],
                untilRowID: $0.upperBound < openEnd ? lasts[$0.upperBound] : nil)
        }
        let scans = try scan(connection, ranges, sizes: runs.map(\.count), helper: helper)
        var result: [ContentChunk] = []
        var index = 0
        for (run, scanned) in zip(runs, scans) {
            guard run.lowerBound >= index else { return nil }
            result += old[index..<run.lowerBound]
            result += scanned.chunks
            guard !scanned.reachedEnd, let stop = scanned.chunks.last?.lastRowID else { return result }
            index = run.upperBound
            while index < lasts.count && lasts[index] <= stop { index += 1 }
        }
        return result + old[index...]
    }
}

extension ContentChunker {
    /// A `WITHOUT ROWID` table's chunks after rows whose key's first column is one of `touched`
    /// (integers) were inserted, updated or deleted, given `old`, its chunks before: as
    /// ``rechunk(_:old:touched:helper:)`` does by rowid, by each old chunk's last key (its first
    /// column and its encoding).
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
