import Foundation
import SeedSQLite

/// Turns the records of one XML file into rows: each column's sources are tried in order
/// and the first that has a value is set through the table's `TableLoader`; then come the
/// rows of the record's lists. Also names each value's source in the loader's messages, as
/// written in this file (`osm/node/@lat`).
struct XMLRecordWriter {
    private let mapping: XMLMapping
    /// Per mapping table, its loader.
    private let loaders: [TableLoader]
    /// The input's name (`$file`).
    private let fileName: String
    private var order: XMLWriteOrder
    private let listDelimiters: [(separator: [UInt8]?, open: [UInt8], close: [UInt8])?]
    /// Per table: its record element's path in this file; and per column, the source whose
    /// path the loader shows (a slot, `-2 - index` for an ancestor source, -1 for none).
    private var recordPaths: [String?]
    private var shownSources: [[Int]]
    /// Per mapping table and column: whether some source of the column matched (an element
    /// or attribute was there, even empty) in a record of this file.
    private(set) var matchedColumns: [[Bool]]

    init(mapping: XMLMapping, loaders: [TableLoader], fileName: String, context: BuildContext) {
        self.mapping = mapping
        self.loaders = loaders
        self.fileName = fileName
        order = XMLWriteOrder(mapping: mapping, loaders: loaders, context: context)
        listDelimiters = mapping.tables.map { table in
            table.table.list.map { list in
                (list.separator.map { Array($0.utf8) }, Array((list.open ?? "").utf8), Array((list.close ?? "").utf8))
            }
        }
        recordPaths = Array(repeating: nil, count: mapping.tables.count)
        shownSources = mapping.tables.map { Array(repeating: -1, count: $0.columns.count) }
        matchedColumns = mapping.tables.map { Array(repeating: false, count: $0.columns.count) }
    }

    /// Takes the record paths found in this file (`feed/entry`) so far: the loader's field
    /// names of a table whose path is new are reset to each column's first source below it.
    mutating func showSources(of paths: [String?]) {
        for (table, path) in paths.enumerated() where recordPaths[table] == nil {
            if let path { showSources(of: table, recordPath: path) }
        }
    }

    private mutating func showSources(of table: Int, recordPath path: String) {
        recordPaths[table] = path
        for column in shownSources[table].indices { shownSources[table][column] = -1 }
        let mapping = self.mapping.tables[table]
        for (column, sources) in mapping.columns.enumerated() {
            if case .slot(let slot) = sources.first {
                shownSources[table][column] = slot
                loaders[table].sourceNames[column] = path + "/" + mapping.slotPaths[slot]
            }
        }
    }

    /// Writes `record`, nested in the row `parentID` (if any), then the rows of its lists.
    /// Returns false when the loader skipped the row (a bad value, reported).
    mutating func write(_ record: XMLRecord, parentID: Int64?) throws -> Bool {
        let table = record.table
        let mapping = self.mapping.tables[table]
        let loader = loaders[table]
        loader.beginRow(line: record.line, column: record.column)
        for (column, sources) in mapping.columns.enumerated() {
            if mapping.exists[column] {
                let found = sources.contains { matched($0, in: record, of: mapping) }
                if found { matchedColumns[table][column] = true }
                var text = found ? "1" : "0"
                loader.setPlace(line: record.line, column: record.column)
                try text.withUTF8 { try loader.set(column, UnsafeRawBufferPointer($0)) }
            } else if try !setFirstValue(column, sources, of: record, of: mapping, into: loader) {
                loader.setPlace(line: record.line, column: record.column)
                try loader.set(column, nil)
            }
        }
        loader.setPlace(line: record.line, column: record.column)
        if let parentID { loader.setParent(parentID) }
        try order.flushTargets(of: table)
        guard let id = try loader.finishRow(id: record.id) else { return false }
        order.rowAdded(to: table)
        for child in mapping.children where listDelimiters[child] != nil {
            try writeList(child, of: record, parentID: id)
        }
        return true
    }

    /// Sets `column` from the first of its `sources` that has a value in `record`; false
    /// when none has.
    @inline(__always)
    private mutating func setFirstValue(
        _ column: Int, _ sources: [XMLMapping.ValueSource], of record: XMLRecord,
        of mapping: XMLMapping.TableMapping, into loader: TableLoader
    ) throws -> Bool {
        let table = record.table
        for source in sources {
            switch source {
            case .slot(let slot):
                guard record.isPresent(slot) else { continue }
                matchedColumns[table][column] = true
                guard !record.isEmpty(slot) else { continue }
                if shownSources[table][column] != slot {
                    show(slot, path: mapping.slotPaths[slot], for: column, of: table)
                }
                let place = record.place(of: slot)
                loader.setPlace(line: place.line, column: place.column)
                try record.withValue(slot) { try loader.set(column, $0) }
            case .position:
                try XMLText.withDecimal(record.position) { digits throws(SQLiteError) in try loader.set(column, digits)
                }
            case .file:
                var text = fileName
                try text.withUTF8 { try loader.set(column, UnsafeRawBufferPointer($0)) }
            case .feed:
                try loader.setFeed(column)
            case .item:
                continue
            case .name:
                let name = record.name
                loader.setPlace(line: record.line, column: record.column)
                try loader.set(
                    column,
                    UnsafeRawBufferPointer(
                        start: name, count: strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))))
            case .ancestor(let index):
                let ancestor = mapping.ancestors[index]
                guard let value = record.ancestorValue(ancestor) else { continue }
                matchedColumns[table][column] = true
                guard !value.isEmpty else { continue }
                if shownSources[table][column] != -2 - index {
                    show(-2 - index, path: ancestor.written, for: column, of: table)
                }
                loader.setPlace(line: record.line, column: record.column)
                try value.withUnsafeBytes { try loader.set(column, $0) }
            }
            return true
        }
        return false
    }

    /// Has the loader name `path` (below the record's) as the source of `column`.
    private mutating func show(_ source: Int, path: String, for column: Int, of table: Int) {
        shownSources[table][column] = source
        loaders[table].sourceNames[column] = (recordPaths[table] ?? "") + "/" + path
    }

    /// True when `source` matched something in `record` (`exists: true`).
    private func matched(
        _ source: XMLMapping.ValueSource, in record: XMLRecord, of mapping: XMLMapping.TableMapping
    ) -> Bool {
        switch source {
        case .slot(let slot): return record.isPresent(slot)
        case .ancestor(let index): return record.ancestorValue(mapping.ancestors[index]) != nil
        case .position, .name, .item, .file, .feed: return true
        }
    }

    /// Writes one row per item of the list `table` reads from `record`.
    private mutating func writeList(_ table: Int, of record: XMLRecord, parentID: Int64) throws {
        let mapping = self.mapping.tables[table]
        guard let slot = record.firstValue(mapping.listSlots), let delimiters = listDelimiters[table] else { return }
        let loader = loaders[table]
        try order.flushTargets(of: table)
        order.rowAdded(to: table)
        let items = record.items(
            of: slot, separator: delimiters.separator, open: delimiters.open, close: delimiters.close)
        let place = record.place(of: slot)
        try record.withValue(slot) { bytes in
            for (index, range) in items.enumerated() {
                loader.beginRow(line: place.line, column: place.column)
                for (column, sources) in mapping.columns.enumerated() {
                    if case .file = sources.first {
                        var text = fileName
                        try text.withUTF8 { try loader.set(column, UnsafeRawBufferPointer($0)) }
                    } else if case .feed = sources.first {
                        try loader.setFeed(column)
                    } else if case .position = sources.first {
                        try XMLText.withDecimal(index + 1) { digits throws(SQLiteError) in
                            try loader.set(column, digits)
                        }
                    } else {
                        try loader.set(column, UnsafeRawBufferPointer(rebasing: bytes[range]))
                    }
                }
                loader.setParent(parentID)
                try loader.finishRow()
            }
        }
    }

    /// Removes the rows nested in the row `parentID` of `table` (see `XMLWriteOrder`).
    func deleteRows(nestedIn table: Int, parentID: Int64) throws {
        try order.deleteNestedRows(of: table, parentID: parentID)
    }
}
