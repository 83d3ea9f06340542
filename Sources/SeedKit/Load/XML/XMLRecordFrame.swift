/// One record being read: the values captured so far and where its paths stand. Holds only
/// the record's own values (its nested records are written as they end), so memory is
/// bounded by one record per nesting level, whatever the size of the file. Frames live on a
/// stack in `XMLRecordMatcher` and are reused, keeping their buffers.
struct XMLRecordFrame {
    /// The table (index in `XMLMapping.tables`).
    var table = 0
    /// The depth of the record's element (the root element is 1).
    var depth = 0
    /// The local name of the record's element (`$name`), as the parser interns it.
    var name: UnsafePointer<UInt8>?
    /// The row id; allocated early when a nested record needs it, else when written.
    var id: Int64?
    /// 1-based position among the records of its table in its parent (or in the file).
    var position = 0
    /// Where the record's start tag ends.
    var line = 0
    var column = 0
    /// The frame (index on the stack) of the record this one is nested in, or -1.
    var parent = -1
    /// The next open frame of the same table further out, or -1 (see `XMLRecordMatcher`).
    var outerOfSameTable = -1
    /// Per slot: the bytes read, whether the source was found, and where.
    private(set) var values: [[UInt8]]
    private(set) var present: [Bool]
    private(set) var capturing: [Bool]
    private(set) var valueLines: [Int]
    private(set) var valueColumns: [Int]
    /// The path-tree node of each open element from the record's element down (-1: none).
    var nodes: [Int] = []
    /// Per table: records of it nested in this one so far (their positions).
    var childCounts: [Int]
    /// The slots whose path matched again after the first value was found (see
    /// `markRepeated`), each once.
    private(set) var repeatedSlots: [Int] = []
    private var repeated: [Bool]

    /// A frame with room for `slotCount` values (the most any table has).
    init(slotCount: Int, tableCount: Int) {
        values = Array(repeating: [], count: slotCount)
        present = Array(repeating: false, count: slotCount)
        capturing = Array(repeating: false, count: slotCount)
        valueLines = Array(repeating: 0, count: slotCount)
        valueColumns = Array(repeating: 0, count: slotCount)
        childCounts = Array(repeating: 0, count: tableCount)
        repeated = Array(repeating: false, count: slotCount)
    }

    /// Makes the frame a new record of `table`, forgetting the previous one.
    mutating func start(
        table: Int, depth: Int, name: UnsafePointer<UInt8>, line: Int, column: Int, position: Int, parent: Int
    ) {
        self.table = table
        self.depth = depth
        self.name = name
        self.line = line
        self.column = column
        self.position = position
        self.parent = parent
        id = nil
        // One uniqueness check per array, not one per element.
        present.withUnsafeMutableBufferPointer { $0.update(repeating: false) }
        capturing.withUnsafeMutableBufferPointer { $0.update(repeating: false) }
        childCounts.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        nodes.removeAll(keepingCapacity: true)
        nodes.append(0)
        if !repeatedSlots.isEmpty {
            for slot in repeatedSlots { repeated[slot] = false }
            repeatedSlots.removeAll(keepingCapacity: true)
        }
    }

    /// Notes that the path of `slot` matched again in this record: its first value is kept.
    @inline(__always)
    mutating func markRepeated(_ slot: Int) {
        guard !repeated[slot] else { return }
        repeated[slot] = true
        repeatedSlots.append(slot)
    }

    /// The path-tree node of the innermost open element of the record.
    @inline(__always)
    var currentNode: Int { nodes[nodes.count - 1] }

    /// Keeps an attribute's value (read at `line`, `column`) as the value of `slot`.
    @inline(__always)
    mutating func setAttribute(
        _ slot: Int, _ value: UnsafeRawBufferPointer, line: Int, column: Int, entities: XMLEntityTable?
    ) {
        XMLText.decodeAttribute(value, into: &values[slot], entities: entities)
        present[slot] = true
        valueLines[slot] = line
        valueColumns[slot] = column
    }

    /// True when `slot` may still take a value: none was found and none is being collected.
    @inline(__always)
    func isOpen(_ slot: Int) -> Bool { !present[slot] && !capturing[slot] }

    /// Starts collecting the text of an element (starting at `line`, `column`) for `slot`.
    @inline(__always)
    mutating func beginText(_ slot: Int, line: Int, column: Int) {
        values[slot].removeAll(keepingCapacity: true)
        capturing[slot] = true
        valueLines[slot] = line
        valueColumns[slot] = column
    }

    /// Adds a piece of text to `slot`; returns the length of its value so far.
    @inline(__always)
    mutating func appendText(_ text: UnsafeRawBufferPointer, to slot: Int) -> Int {
        values[slot].append(contentsOf: text)
        return values[slot].count
    }

    /// The element whose text `slot` collects ended: its value is complete.
    @inline(__always)
    mutating func endText(_ slot: Int) {
        Self.trimWhitespace(&values[slot])
        present[slot] = true
        capturing[slot] = false
    }

    /// The first of `slots` that was found with a non-empty value.
    @inline(__always)
    func firstValue(_ slots: [Int]) -> Int? {
        slots.first { present[$0] && !values[$0].isEmpty }
    }

    /// True when the record passes every filter of its table.
    func passes(_ filters: [(slots: [Int], test: Condition.Test)]) -> Bool {
        for filter in filters {
            let value = firstValue(filter.slots).map { values[$0] }
            switch filter.test {
            case .present: if value == nil { return false }
            case .absent: if value != nil { return false }
            case .equals(let options):
                if !options.contains(where: { value?.elementsEqual($0.utf8) == true }) { return false }
            case .notEquals(let options):
                if options.contains(where: { value?.elementsEqual($0.utf8) == true }) { return false }
            }
        }
        return true
    }

    private static func trimWhitespace(_ bytes: inout [UInt8]) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 10 || byte == 13 || byte == 9 }
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        if let first = bytes.first, isSpace(first) {
            let start = bytes.firstIndex { !isSpace($0) } ?? bytes.count
            bytes.removeFirst(start)
        }
    }
}
