/// Rows converted by a reader and waiting for the writer: per cell a type tag and a 64-bit
/// word (an integer, a double's bits, or an offset into the text arena). Reused batch after
/// batch, so steady-state loading allocates nothing.
final class RowBatch: @unchecked Sendable {
    // @unchecked: owned by one thread at a time: the reader fills it, hands it to the writer queue and takes it back
    // only when the writer is done (the hot path, measured: no lock per cell).
    enum Tag: UInt8 {
        case null = 0, integer, real, text
    }

    let columnCount: Int
    let capacity: Int
    /// Rows in the batch.
    @exclusivity(unchecked) var count = 0
    let tags: UnsafeMutablePointer<UInt8>
    let words: UnsafeMutablePointer<Int64>
    let lengths: UnsafeMutablePointer<Int32>
    /// Per row: the source line and column, the row id (0 for WITHOUT ROWID tables) and the
    /// enclosing row's id (0 for none).
    let lines: UnsafeMutablePointer<Int32>
    let sourceColumns: UnsafeMutablePointer<Int32>
    let ids: UnsafeMutablePointer<Int64>
    let parents: UnsafeMutablePointer<Int64>
    /// Per cell, for the writer's messages: the 1-based character column where the value's
    /// field begins (CSV, set only for key and reference columns; 0: not known).
    let valueColumns: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private(set) var arena: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var arenaCapacity: Int
    @exclusivity(unchecked) private(set) var arenaCount = 0

    init(columnCount: Int, capacity: Int) {
        self.columnCount = columnCount
        self.capacity = capacity
        let cells = max(1, columnCount * capacity)
        tags = .allocate(capacity: cells)
        words = .allocate(capacity: cells)
        lengths = .allocate(capacity: cells)
        lines = .allocate(capacity: capacity)
        sourceColumns = .allocate(capacity: capacity)
        ids = .allocate(capacity: capacity)
        parents = .allocate(capacity: capacity)
        valueColumns = .allocate(capacity: cells)
        valueColumns.initialize(repeating: 0, count: cells)
        arenaCapacity = 64 * capacity
        arena = .allocate(capacity: arenaCapacity)
    }

    deinit {
        tags.deallocate(); words.deallocate(); lengths.deallocate()
        lines.deallocate(); sourceColumns.deallocate(); ids.deallocate(); parents.deallocate()
        valueColumns.deallocate()
        arena.deallocate()
    }

    var isFull: Bool { count == capacity }

    func reset() {
        count = 0
        arenaCount = 0
    }

    @inline(__always)
    func cell(_ row: Int, _ column: Int) -> Int { row * columnCount + column }

    /// Copies text into the arena and stores it in a cell.
    @inline(__always)
    func setText(_ cell: Int, _ bytes: UnsafeRawBufferPointer) {
        if arenaCount + bytes.count > arenaCapacity { growArena(to: arenaCount + bytes.count) }
        if let base = bytes.baseAddress, bytes.count > 0 {
            (arena + arenaCount).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        tags[cell] = Tag.text.rawValue
        words[cell] = Int64(arenaCount)
        lengths[cell] = Int32(bytes.count)
        arenaCount += bytes.count
    }

    /// The text of a text cell.
    @inline(__always)
    func text(_ cell: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: arena + Int(words[cell]), count: Int(lengths[cell]))
    }

    /// A cell as text, for messages (`NULL` for none).
    func messageText(_ cell: Int) -> String {
        switch tags[cell] {
        case Tag.integer.rawValue: return String(words[cell])
        case Tag.real.rawValue: return String(Double(bitPattern: UInt64(bitPattern: words[cell])))
        case Tag.text.rawValue: return String(decoding: text(cell), as: UTF8.self)
        default: return "NULL"
        }
    }

    private func growArena(to needed: Int) {
        var capacity = arenaCapacity * 2
        while capacity < needed { capacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        bigger.update(from: arena, count: arenaCount)
        arena.deallocate()
        arena = bigger
        arenaCapacity = capacity
    }
}
