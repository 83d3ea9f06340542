/// The row ids of one table by its integer key, for keys that arrive in ascending order
/// (OSM ids): a sorted array of keys and, beside it, the row ids as runs of consecutive
/// values, searched by bisection. Memory is bounded: at most `capacity` keys (8 bytes each)
/// and `capacity / 16` runs. Once a key does not ascend or the bounds are reached, the map
/// takes no more keys and answers only for those it holds; lookups of other keys go the
/// slower way (cache, then a query). Used on the writer thread only.
final class IDMap {
    /// 2,097,152 keys: 16 MiB of keys per table.
    static let defaultCapacity = 2_097_152

    /// The most keys kept.
    let capacity: Int
    // Used from the writer thread only, once per row: no dynamic exclusivity checks.
    /// Sorted, strictly ascending.
    @exclusivity(unchecked) private var keys: [Int64] = []
    /// Per run of consecutive row ids: the index in `keys` where it begins ...
    @exclusivity(unchecked) private var runStarts: [Int] = []
    /// ... and the row id of that key.
    @exclusivity(unchecked) private var runIDs: [Int64] = []
    /// True once the map takes no more keys.
    @exclusivity(unchecked) private(set) var isClosed = false

    /// - Parameter capacity: the most keys kept; 0 keeps none.
    init(capacity: Int) {
        self.capacity = capacity
        isClosed = capacity <= 0
    }

    /// Keys held.
    var count: Int { keys.count }

    /// Runs of consecutive row ids held.
    var runCount: Int { runStarts.count }

    /// Records that the row with key `key` has row id `id`. Once a key is not above the
    /// previous one, or the map is full, the map closes: later keys are not kept.
    func record(key: Int64, id: Int64) {
        guard !isClosed else { return }
        let index = keys.count
        if index > 0 && key <= keys[index - 1] || index == capacity {
            isClosed = true
            return
        }
        if index == 0 || id != runIDs[runIDs.count - 1] &+ Int64(index - runStarts[runStarts.count - 1]) {
            guard runStarts.count < max(1, capacity / 16) else {
                isClosed = true
                return
            }
            runStarts.append(index)
            runIDs.append(id)
        }
        keys.append(key)
    }

    /// Records the key in `column` of `row` of `batch`, a row just inserted (keys that are
    /// not integers are not kept: lookups by such a key go the slower way).
    @inline(__always)
    func record(_ batch: RowBatch, row: Int, column: Int) {
        let cell = batch.cell(row, column)
        if batch.tags[cell] == RowBatch.Tag.integer.rawValue { record(key: batch.words[cell], id: batch.ids[row]) }
    }

    /// The row id recorded for `key`, or nil when the map does not hold it (which does not
    /// mean that no row has it once the map is closed).
    func id(for key: Int64) -> Int64? {
        keys.withUnsafeBufferPointer { keys -> Int64? in
            guard let first = keys.first, key >= first, key <= keys[keys.count - 1] else { return nil }
            // Dense keys (renumbered extracts): the key's offset is its index.
            var index = -1
            let offset = key &- first
            if offset < keys.count && keys[Int(offset)] == key {
                index = Int(offset)
            } else {
                var low = 0, high = keys.count
                while low < high {
                    let middle = (low + high) >> 1
                    if keys[middle] < key { low = middle + 1 } else { high = middle }
                }
                guard low < keys.count, keys[low] == key else { return nil }
                index = low
            }
            // The last run that begins at or before `index`.
            var low = 0, high = runStarts.count
            while low < high {
                let middle = (low + high) >> 1
                if runStarts[middle] <= index { low = middle + 1 } else { high = middle }
            }
            return runIDs[low - 1] &+ Int64(index - runStarts[low - 1])
        }
    }

    /// Forgets every key and takes no more: rows of the table were deleted.
    func discard() {
        keys = []
        runStarts = []
        runIDs = []
        isClosed = true
    }
}
