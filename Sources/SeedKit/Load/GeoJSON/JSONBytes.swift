/// Bytes that grow as they are appended, owned by this one object: the canonical JSON
/// writer's output and its scratch copy. Its capacity only grows to the largest text it held
/// (one GeoJSON feature, bounded by `--max-record-size` and the writer's expansion of it).
final class JSONBytes {
    // @exclusivity(unchecked): used by one thread (a file's reader) and touched for every
    // value of every feature; the runtime's checks took 10% of a GeoJSON build (perf, 32 MB).
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// The bytes held: `base[0..<count]`.
    @exclusivity(unchecked) private(set) var count = 0

    init(capacity: Int = 1 << 12) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = byte
        count += 1
    }

    func append(_ bytes: UnsafePointer<UInt8>, count added: Int) {
        guard added > 0 else { return }
        if count + added > capacity { grow(toHold: count + added) }
        (base + count).update(from: bytes, count: added)
        count += added
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0.baseAddress!, count: $0.count) }
    }

    /// Drops the bytes from `length` on.
    func truncate(to length: Int) {
        precondition(length >= 0 && length <= count)
        count = length
    }

    /// The bytes in `range`, as an array (a copy that outlives the next append).
    func array(_ range: Range<Int>) -> [UInt8] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return Array(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    private func grow(toHold needed: Int) {
        var larger = capacity
        while larger < needed { larger *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = larger
    }
}
