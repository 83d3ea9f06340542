/// One record being read: the values captured so far and where its paths stand. Holds only
/// the record's own values (its nested records are written as they end), so memory is
/// bounded by one record per nesting level, whatever the size of the file. Frames live on a
/// stack in `XMLStreamState` and are reused, keeping their buffers.
struct XMLRecordFrame {
    /// The table (index in `XMLMapping.tables`).
    var table = 0
    /// The depth of the record's element (the root element is 1).
    var depth = 0
    /// The row id; allocated early when a nested record needs it, else when written.
    var id: Int64?
    /// 1-based position among the records of its table in its parent (or in the file).
    var position = 0
    /// Where the record's start tag ends.
    var line = 0
    var column = 0
    /// The frame (index on the stack) of the record this one is nested in, or -1.
    var parent = -1
    /// The next open frame of the same table further out, or -1 (see `XMLStreamState.innermost`).
    var outerOfSameTable = -1
    /// Per slot: the bytes read, whether the source was found, and where.
    var values: [[UInt8]]
    var present: [Bool]
    var capturing: [Bool]
    var valueLines: [Int]
    var valueColumns: [Int]
    /// The path-tree node of each open element from the record's element down (-1: none).
    var nodes: [Int] = []
    /// Per table: records of it nested in this one so far (their positions).
    var childCounts: [Int]

    /// A frame with room for `slotCount` values (the most any table has).
    init(slotCount: Int, tableCount: Int) {
        values = Array(repeating: [], count: slotCount)
        present = Array(repeating: false, count: slotCount)
        capturing = Array(repeating: false, count: slotCount)
        valueLines = Array(repeating: 0, count: slotCount)
        valueColumns = Array(repeating: 0, count: slotCount)
        childCounts = Array(repeating: 0, count: tableCount)
    }

    /// Makes the frame a new record of `table`, forgetting the previous one.
    mutating func start(table: Int, depth: Int, line: Int, column: Int, position: Int, parent: Int) {
        self.table = table
        self.depth = depth
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
    }

    /// The first of `slots` that was found with a non-empty value.
    func firstValue(_ slots: [Int]) -> Int? {
        slots.first { present[$0] && !values[$0].isEmpty }
    }
}

/// What changes with every parser event while a file streams: the open elements, the open
/// records and the values being captured. The importer keeps it behind one pointer: the
/// callbacks touch it millions of times, and through a pointer Swift neither retains nor
/// checks exclusive access on each touch.
struct XMLStreamState {
    /// An open element: its name (as a number of `XMLMapping.localNames`, or -1) and the
    /// parser's interned name, namespace and prefix.
    struct Element {
        var local: Int
        var name: UnsafePointer<UInt8>
        var namespace: UnsafePointer<UInt8>?
        var prefix: UnsafePointer<UInt8>?
    }

    /// Text being collected for a slot of an open record until the element at `depth` ends.
    struct Capture {
        var frame: Int
        var slot: Int
        var depth: Int
    }

    var elements: [Element] = []
    /// The record frames; the first `openCount` are the open records, outermost first.
    var frames: [XMLRecordFrame] = []
    var openCount = 0
    /// The open frames whose paths can still match below the current element, in frame
    /// order. A frame whose path stopped matching at some element is `dormant` until that
    /// element ends: each event touches only the live frames, so deeply nested records
    /// cost linear time, not time (and memory) proportional to depth squared.
    var live: [Int] = []
    /// Frames whose paths stopped matching, with the depth of the element where they did.
    var dormant: [(frame: Int, depth: Int)] = []
    var captures: [Capture] = []
    /// Inside a record dropped by its filter: the depth of its element; 0 otherwise.
    var skipDepth = 0
    /// Per table: top-level records so far (their positions) and records filtered out.
    var topLevelCounts: [Int]
    var filtered: [Int]
    /// Per table: its innermost open frame, or -1. A nested record finds its parent here in
    /// constant time, however deep the records it is inside.
    var innermost: [Int]

    init(tableCount: Int) {
        innermost = Array(repeating: -1, count: tableCount)
        topLevelCounts = Array(repeating: 0, count: tableCount)
        filtered = Array(repeating: 0, count: tableCount)
    }
}
