/// One record being read: the values captured so far and where its paths stand. Holds only
/// the record's own values (its nested records are written as they end), so memory is
/// bounded by one record whatever the size of the file. Frames are reused.
final class XMLRecordFrame {
    /// The table (index in `XMLMapping.tables`).
    let table: Int
    /// The depth of the record's element (the root element is 1).
    private(set) var depth = 0
    /// The row id; allocated early when a nested record needs it, else when written.
    var id: Int64?
    /// 1-based position among the records of its table in its parent (or in the file).
    private(set) var position = 0
    /// Where the record's start tag ends.
    private(set) var line = 0
    private(set) var column = 0
    /// The record this one is nested in, when its table has a parent.
    private(set) var parent: XMLRecordFrame?
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

    init(table: Int, slotCount: Int, tableCount: Int) {
        self.table = table
        values = Array(repeating: [], count: slotCount)
        present = Array(repeating: false, count: slotCount)
        capturing = Array(repeating: false, count: slotCount)
        valueLines = Array(repeating: 0, count: slotCount)
        valueColumns = Array(repeating: 0, count: slotCount)
        childCounts = Array(repeating: 0, count: tableCount)
    }

    /// Makes the frame a new record, forgetting the previous one.
    func start(depth: Int, line: Int, column: Int, position: Int, parent: XMLRecordFrame?) {
        self.depth = depth
        self.line = line
        self.column = column
        self.position = position
        self.parent = parent
        id = nil
        for slot in present.indices {
            present[slot] = false
            capturing[slot] = false
        }
        for table in childCounts.indices { childCounts[table] = 0 }
        nodes.removeAll(keepingCapacity: true)
        nodes.append(0)
    }

    /// Drops the link to the parent (a recycled frame must not keep it alive).
    func release() { parent = nil }

    /// The value of the first of `slots` that was found with a non-empty value.
    func firstValue(_ slots: [Int]) -> Int? {
        slots.first { present[$0] && !values[$0].isEmpty }
    }
}
