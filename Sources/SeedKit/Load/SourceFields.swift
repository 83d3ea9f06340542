import SeedSystem
import Foundation

/// Where each column of a table is read from, for messages: the input file, the source field
/// (CSV header name, XML path) and the field's position in a CSV record. The reader sets them
/// (XML: whenever a fall-back source is used), the writer thread reads them to report issues,
/// so access is locked; neither does so per value.
final class SourceFields: @unchecked Sendable {
    // @unchecked: every stored property is behind `lock`.
    private let lock = Lock()
    private var storedFile: String
    private var storedNames: [String?]
    private var storedPositions: [Int?]
    /// True when the writer's messages take their column from `RowBatch.valueColumns` (CSV:
    /// where each key or reference field begins), not from the row (XML: where the record
    /// element begins). Set before the first row is handed to the writer.
    var columnsPerValue = false
    /// True when the table keeps every field of the file (in a column or in `extras`), so that
    /// two rows it stores alike were alike in the file: a row refused for its key that equals
    /// the row holding it is a copy (`DuplicateKeys`). Set by the CSV reader before the first row.
    var keepsEveryField: Bool {
        get { lock.withLock { storedKeepsEveryField } }
        set { lock.withLock { storedKeepsEveryField = newValue } }
    }
    private var storedKeepsEveryField = false

    /// CSV: the line of the first row before a line whose fields (source names) have the given
    /// values, found by reading the file again (`CSVRowLocator.firstLine`): for messages
    /// about a table without row ids, which keeps no places. Set by the CSV reader.
    var firstLine: (@Sendable (_ fields: [String], _ values: [String], _ before: Int) -> Int?)? {
        get { lock.withLock { storedFirstLine } }
        set { lock.withLock { storedFirstLine = newValue } }
    }
    private var storedFirstLine: (@Sendable ([String], [String], Int) -> Int?)?

    init(file: String, table: Table) {
        storedFile = file
        storedNames = table.columns.map { $0.source.first }
        storedPositions = Array(repeating: nil, count: table.columns.count)
    }

    var file: String {
        get { lock.withLock { storedFile } }
        set { lock.withLock { storedFile = newValue } }
    }

    var names: [String?] {
        get { lock.withLock { storedNames } }
        set { lock.withLock { storedNames = newValue } }
    }

    var positions: [Int?] {
        get { lock.withLock { storedPositions } }
        set { lock.withLock { storedPositions = newValue } }
    }

    /// The place of column `index` for an issue: (file, field, position).
    func place(of index: Int) -> (file: String, field: String?, position: Int?) {
        lock.withLock { (storedFile, storedNames[index], storedPositions[index]) }
    }
}
