import CLibXML2
import Foundation
import SeedSQLite

/// Streams one XML file into the tables it feeds. libxml2 parses it with SAX (no tree);
/// each element that is a record of some table opens an `XMLRecordFrame`, which captures
/// the values its paths name while the element is open, and is written through the
/// table's `TableLoader` when the element ends. Nested records are written as they end,
/// with their parent's id (allocated when first needed), so memory holds one record per
/// level, whatever the size of the file.
final class XMLImporter: XMLEventHandler {
    /// The longest text value kept; a longer one fails the build (libxml2's own limit for
    /// a text node without XML_PARSE_HUGE).
    static let maximumValueLength = 10_000_000

    let file: InputFile
    let mapping: XMLMapping
    /// Per mapping table, its loader (shared by every file of the build).
    let loaders: [TableLoader]
    let context: BuildContext
    let progress: BuildProgress?

    // The stored properties the parser's callbacks read and write at every event opt out of
    // dynamic exclusivity checks: the importer is used from one thread, and no access to
    // them overlaps another (the checks cost 5% of the instructions of an OSM build).
    private let state: UnsafeMutablePointer<XMLStreamState>
    @exclusivity(unchecked) private var parser: XMLPushParser!
    @exclusivity(unchecked) private var source: MeasuredByteSource!
    private let active: [Bool]
    private let slotCount: Int
    /// The schema's names as the parser interns them, numbered as `XMLMapping.localNames`.
    @exclusivity(unchecked) private var names = XMLNameIndex([])
    @exclusivity(unchecked) private var namespaceURIs: [UnsafePointer<xmlChar>] = []
    @exclusivity(unchecked) private var prefixes: [UnsafePointer<xmlChar>] = []
    /// Per table: its record element's path in this file (for messages), and per column the
    /// slot whose path the loader shows.
    @exclusivity(unchecked) private var recordPaths: [String?]
    @exclusivity(unchecked) private var shownSlots: [[Int]]
    private let listDelimiters: [(separator: [UInt8]?, open: [UInt8], close: [UInt8])?]
    /// Per table: the tables read here whose rows its references look up. Rows go to the
    /// database through the writer thread in batches, so a target with rows not yet handed
    /// over (`unflushed`) is flushed before a row that may look them up.
    private let referenceTargets: [[Int]]
    @exclusivity(unchecked) private var unflushed: [Bool]
    @exclusivity(unchecked) private var records = 0
    @exclusivity(unchecked) private var failure: (any Error)?
    /// The deepest element nesting accepted (`InputLimits.xmlDepth`).
    private var maximumDepth: Int { context.limits.xmlDepth }
    /// Per open element (by depth) and `XMLMapping.ancestorWants` entry: the attribute's
    /// value, for records inside it that read `../@id` or `ancestor::Name/@id`.
    @exclusivity(unchecked) private var ancestorValues: [[UInt8]] = []
    @exclusivity(unchecked) private var ancestorPresent: [Bool] = []

    /// Per mapping table: records skipped by its filter in this file.
    var filtered: [Int] { state.pointee.filtered }
    /// Per mapping table and column: whether some source of the column matched (an element
    /// or attribute was there, even empty) in a record of this file.
    @exclusivity(unchecked) private(set) var matchedColumns: [[Bool]]

    init(file: InputFile, mapping: XMLMapping, loaders: [TableLoader], context: BuildContext, progress: BuildProgress?) {
        self.file = file
        self.mapping = mapping
        self.loaders = loaders
        self.context = context
        self.progress = progress
        let count = mapping.tables.count
        state = UnsafeMutablePointer.allocate(capacity: 1)
        state.initialize(to: XMLStreamState(tableCount: count))
        slotCount = mapping.tables.map(\.slotPaths.count).max() ?? 0
        recordPaths = Array(repeating: nil, count: count)
        shownSlots = mapping.tables.map { Array(repeating: -1, count: $0.columns.count) }
        var active: [Bool] = []
        for table in mapping.tables {
            if let parent = table.parent {
                active.append(active[parent])
            } else {
                active.append(table.filePattern.map { Self.name(file.name, matches: $0) } ?? false)
            }
        }
        self.active = active
        let indexOfTable = Dictionary(uniqueKeysWithValues: mapping.tables.enumerated().map { ($1.table.name, $0) })
        referenceTargets = mapping.tables.map { table in
            table.table.references.compactMap { $0.to == table.table.name ? nil : indexOfTable[$0.to] }
        }
        unflushed = Array(repeating: false, count: count)
        matchedColumns = mapping.tables.map { Array(repeating: false, count: $0.columns.count) }
        listDelimiters = mapping.tables.map { table in
            table.table.list.map { list in
                (list.separator.map { Array($0.utf8) }, Array((list.open ?? "").utf8), Array((list.close ?? "").utf8))
            }
        }
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// True when a top-level table reading `pattern` (a name, or `*` wildcards) reads `name`.
    static func name(_ name: String, matches pattern: String) -> Bool {
        fnmatch(pattern.lowercased(), name.lowercased(), 0) == 0
    }

    /// The tables this file feeds, for progress and planning.
    var tableNames: [String] { mapping.tables.indices.filter { active[$0] }.map { mapping.tables[$0].table.name } }

    /// Reads the file to its end; returns the input's record for the seed's metadata.
    /// Malformed or refused XML is recorded in the issue log (the build then fails).
    func run() throws(BuildError) -> InputRecord {
        do { source = MeasuredByteSource(try file.open()) } catch { throw .input(error) }
        parser = XMLPushParser(file: file.displayPath, handler: self)
        defer {
            parser = nil
            state.pointee.openCount = 0
            state.pointee.live = []
            state.pointee.dormant = []
            state.pointee.innermost = Array(repeating: -1, count: mapping.tables.count)
            state.pointee.captures = []
            state.pointee.elements = []
        }
        names = XMLNameIndex(mapping.localNames.map(parser.intern))
        namespaceURIs = mapping.namespaceURIs.map(parser.intern)
        prefixes = mapping.prefixes.map(parser.intern)
        for (index, loader) in loaders.enumerated() where active[index] { loader.file = file.displayPath }
        let rowsBefore = loaders.reduce(0) { $0 + $1.rowCount }
        progress?.started(file: file.name, table: tableNames.joined(separator: ", "), bytes: file.size)

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        do {
            while true {
                let count = try source.read(into: buffer)
                try parser.push(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), final: count == 0)
                if count == 0 { break }
            }
        } catch let error as XMLSyntaxError where failure == nil {
            context.issues.record(BuildIssue(kind: .malformedXML, file: error.file, line: error.line, column: error.column, message: error.message))
        } catch let error as InputError {
            throw .input(error)
        } catch {
            // The handler stopped the parser; `failure` says why.
        }
        if let failure { throw .seed(failure) }
        let rows = loaders.reduce(0) { $0 + $1.rowCount } - rowsBefore
        progress?.finished(file: file.name, rows: rows)
        return InputRecord(name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: rows)
    }

    // MARK: Events

    func startElement(_ tag: XMLStartTag) {
        let local = localIndex(tag.localName)
        state.pointee.elements.append(XMLStreamState.Element(local: local, name: tag.localName, namespace: tag.namespace, prefix: tag.prefix))
        let depth = state.pointee.elements.count
        if depth > maximumDepth {
            parser.fail(XMLSyntaxError(file: file.displayPath, line: parser.line, column: parser.column,
                                       message: "elements are nested more than \(maximumDepth) deep (raise the limit with --max-xml-depth)"))
            return
        }
        guard state.pointee.skipDepth == 0 else { return }
        if !mapping.ancestorWants.isEmpty { keepAncestorAttributes(tag, local: local, depth: depth) }
        let named = local >= 0 || mapping.hasWildcards
        let liveCount = state.pointee.live.count
        var kept = 0
        for index in 0..<liveCount {
            let frame = state.pointee.live[index]
            let parentNode = state.pointee.frames[frame].nodes[state.pointee.frames[frame].nodes.count - 1]
            var node = -1
            if named {
                for child in mapping.tables[state.pointee.frames[frame].table].nodes[parentNode].children
                where matches(child.test, local: local, namespace: tag.namespace, prefix: tag.prefix) {
                    node = child.node
                    break
                }
            }
            if node >= 0 {
                state.pointee.frames[frame].nodes.append(node)
                state.pointee.live[kept] = frame
                kept += 1
                capture(frame, node: node, tag: tag, depth: depth)
            } else {
                state.pointee.dormant.append((frame, depth))
            }
        }
        state.pointee.live.removeLast(liveCount - kept)
        if local >= 0 {
            for table in mapping.tablesByLocalName[local] where active[table] {
                startRecord(of: table, tag: tag, depth: depth)
            }
        }
        for table in mapping.wildcardTables where active[table] {
            startRecord(of: table, tag: tag, depth: depth)
        }
    }

    /// Keeps the attributes of this element that records inside it may read as an
    /// enclosing element's value.
    private func keepAncestorAttributes(_ tag: XMLStartTag, local: Int, depth: Int) {
        let wants = mapping.ancestorWants
        let base = (depth - 1) * wants.count
        if ancestorPresent.count < base + wants.count {
            ancestorPresent.append(contentsOf: repeatElement(false, count: base + wants.count - ancestorPresent.count))
            ancestorValues.append(contentsOf: repeatElement([], count: base + wants.count - ancestorValues.count))
        }
        for (index, want) in wants.enumerated() {
            ancestorPresent[base + index] = false
            if let element = want.element, !matches(element, local: local, namespace: tag.namespace, prefix: tag.prefix) { continue }
            for attribute in 0..<tag.attributeCount
            where matches(want.attribute, local: localIndex(tag.attributeLocalName(attribute)), namespace: tag.attributeNamespace(attribute), prefix: tag.attributePrefix(attribute)) {
                ancestorValues[base + index].removeAll(keepingCapacity: true)
                XMLText.decodeAttribute(tag.attributeValue(attribute), into: &ancestorValues[base + index])
                ancestorPresent[base + index] = true
                break
            }
        }
    }

    /// The kept value of an enclosing element's attribute for the record in `frame`, or nil.
    private func ancestorValue(_ source: XMLMapping.AncestorSource, depth recordDepth: Int) -> Int? {
        let wants = mapping.ancestorWants
        var depth = recordDepth - source.levels
        if source.levels == 0, let element = wants[source.want].element {
            depth = recordDepth - 1
            while depth >= 1 {
                let open = state.pointee.elements[depth - 1]
                if matches(element, local: open.local, namespace: open.namespace, prefix: open.prefix) { break }
                depth -= 1
            }
        }
        guard depth >= 1 else { return nil }
        let index = (depth - 1) * wants.count + source.want
        return index < ancestorPresent.count && ancestorPresent[index] ? index : nil
    }

    /// True when `source` matched something for the record in `frame` (`exists: true`).
    private func matched(_ source: XMLMapping.ValueSource, in frame: UnsafePointer<XMLRecordFrame>, table: Int) -> Bool {
        switch source {
        case .slot(let slot): return frame.pointee.present[slot]
        case .ancestor(let index): return ancestorValue(mapping.tables[table].ancestors[index], depth: frame.pointee.depth) != nil
        case .position, .name, .item, .file: return true
        }
    }

    func characters(_ text: UnsafeRawBufferPointer) {
        guard state.pointee.skipDepth == 0, !state.pointee.captures.isEmpty else { return }
        for capture in state.pointee.captures {
            state.pointee.frames[capture.frame].values[capture.slot].append(contentsOf: text)
            if state.pointee.frames[capture.frame].values[capture.slot].count > Self.maximumValueLength {
                let table = state.pointee.frames[capture.frame].table
                let path = recordPaths[table].map { $0 + "/" } ?? ""
                parser.fail(XMLSyntaxError(file: file.displayPath, line: parser.line, column: parser.column,
                                           message: "the text of \(path)\(mapping.tables[table].slotPaths[capture.slot]) is longer than \(Self.maximumValueLength) bytes"))
                return
            }
        }
    }

    func endElement() {
        let depth = state.pointee.elements.count
        defer { state.pointee.elements.removeLast() }
        if state.pointee.skipDepth != 0 {
            guard depth == state.pointee.skipDepth else { return }
            state.pointee.skipDepth = 0
        }
        if !state.pointee.captures.isEmpty {
            var index = state.pointee.captures.count - 1
            while index >= 0 {
                let capture = state.pointee.captures[index]
                if capture.depth == depth {
                    Self.trimWhitespace(&state.pointee.frames[capture.frame].values[capture.slot])
                    state.pointee.frames[capture.frame].present[capture.slot] = true
                    state.pointee.frames[capture.frame].capturing[capture.slot] = false
                    state.pointee.captures.remove(at: index)
                }
                index -= 1
            }
        }
        while state.pointee.openCount > 0 && state.pointee.frames[state.pointee.openCount - 1].depth == depth {
            state.pointee.openCount -= 1
            // A record's own element ends with the record live, the last one open.
            state.pointee.live.removeLast()
            let closed = state.pointee.openCount
            state.pointee.innermost[state.pointee.frames[closed].table] = state.pointee.frames[closed].outerOfSameTable
            do { try finish(state.pointee.openCount) } catch { stop(error) }
        }
        for frame in state.pointee.live { state.pointee.frames[frame].nodes.removeLast() }
        if let last = state.pointee.dormant.last, last.depth == depth {
            while let last = state.pointee.dormant.last, last.depth == depth {
                state.pointee.live.append(last.frame)
                state.pointee.dormant.removeLast()
            }
            state.pointee.live.sort()
        }
    }

    // MARK: Records

    private func startRecord(of table: Int, tag: XMLStartTag, depth: Int) {
        let mapping = self.mapping.tables[table]
        guard matchesPattern(mapping.pattern, anchored: mapping.anchored, depth: depth)
            || mapping.otherPatterns.contains(where: { matchesPattern($0.steps, anchored: $0.anchored, depth: depth) }) else { return }
        var parent = -1
        if let parentTable = mapping.parent {
            // A nested table's records are only those inside a record of its parent.
            let enclosing = state.pointee.innermost[parentTable]
            guard enclosing >= 0 else { return }
            parent = enclosing
        }
        let position: Int
        if parent >= 0 {
            state.pointee.frames[parent].childCounts[table] += 1
            position = state.pointee.frames[parent].childCounts[table]
        } else {
            state.pointee.topLevelCounts[table] += 1
            position = state.pointee.topLevelCounts[table]
        }
        if recordPaths[table] == nil { describePaths(of: table, depth: depth) }
        let frame = state.pointee.openCount
        if frame == state.pointee.frames.count {
            state.pointee.frames.append(XMLRecordFrame(slotCount: slotCount, tableCount: self.mapping.tables.count))
        }
        state.pointee.frames[frame].start(table: table, depth: depth, line: parser.line, column: parser.column, position: position, parent: parent)
        state.pointee.openCount += 1
        state.pointee.live.append(frame)
        state.pointee.frames[frame].outerOfSameTable = state.pointee.innermost[table]
        state.pointee.innermost[table] = frame
        capture(frame, node: 0, tag: tag, depth: depth)
        if mapping.filtersAtStart && !passesFilters(frame) {
            state.pointee.filtered[table] += 1
            state.pointee.openCount -= 1
            state.pointee.live.removeLast()
            state.pointee.innermost[table] = state.pointee.frames[frame].outerOfSameTable
            // Drop the captures this record started: its subtree is skipped.
            state.pointee.captures.removeAll { $0.frame == frame }
            state.pointee.skipDepth = depth
        }
    }

    /// True when the open elements end with `steps` (from the root when `anchored`).
    private func matchesPattern(_ steps: [XMLMapping.NameTest], anchored: Bool, depth: Int) -> Bool {
        guard depth >= steps.count, !anchored || depth == steps.count else { return false }
        for (offset, step) in steps.enumerated() {
            let element = state.pointee.elements[depth - steps.count + offset]
            guard matches(step, local: element.local, namespace: element.namespace, prefix: element.prefix) else { return false }
        }
        return true
    }

    /// Reads the attributes `node` wants from `tag` and starts capturing its text.
    private func capture(_ frame: Int, node index: Int, tag: XMLStartTag, depth: Int) {
        let tableMapping = mapping.tables[state.pointee.frames[frame].table]
        // The wanted attributes' name numbers, scanned as plain integers; a test is checked in
        // full only when its name is the attribute's (or `*`).
        let wantedLocals = tableMapping.nodes[index].attributeLocals
        if !wantedLocals.isEmpty {
            let line = parser.line, column = parser.column
            for attribute in 0..<tag.attributeCount {
                let local = localIndex(tag.attributeLocalName(attribute))
                guard local >= 0 else { continue }
                for candidate in wantedLocals.indices where wantedLocals[candidate] == local || wantedLocals[candidate] == XMLMapping.wildcard {
                    let wanted = tableMapping.nodes[index].attributes[candidate]
                    guard !state.pointee.frames[frame].present[wanted.slot],
                          matches(wanted.test, local: local, namespace: tag.attributeNamespace(attribute), prefix: tag.attributePrefix(attribute)) else { continue }
                    XMLText.decodeAttribute(tag.attributeValue(attribute), into: &state.pointee.frames[frame].values[wanted.slot])
                    state.pointee.frames[frame].present[wanted.slot] = true
                    state.pointee.frames[frame].valueLines[wanted.slot] = line
                    state.pointee.frames[frame].valueColumns[wanted.slot] = column
                }
            }
        }
        for slot in tableMapping.nodes[index].textSlots where !state.pointee.frames[frame].present[slot] && !state.pointee.frames[frame].capturing[slot] {
            state.pointee.frames[frame].values[slot].removeAll(keepingCapacity: true)
            state.pointee.frames[frame].capturing[slot] = true
            state.pointee.frames[frame].valueLines[slot] = parser.line
            state.pointee.frames[frame].valueColumns[slot] = parser.column
            state.pointee.captures.append(XMLStreamState.Capture(frame: frame, slot: slot, depth: depth))
        }
    }

    private func passesFilters(_ index: Int) -> Bool {
        let frame = state.pointee.frames[index]
        for filter in mapping.tables[frame.table].filters {
            let value = frame.firstValue(filter.slots).map { frame.values[$0] }
            switch filter.test {
            case .present: if value == nil { return false }
            case .absent: if value != nil { return false }
            case .equals(let options): if !options.contains(where: { value?.elementsEqual($0.utf8) == true }) { return false }
            case .notEquals(let options): if options.contains(where: { value?.elementsEqual($0.utf8) == true }) { return false }
            }
        }
        return true
    }

    /// Writes a record whose element ended, then the rows of its lists.
    private func finish(_ index: Int) throws {
        let table = state.pointee.frames[index].table
        let mapping = self.mapping.tables[table]
        if !mapping.filtersAtStart && !mapping.filters.isEmpty && !passesFilters(index) {
            state.pointee.filtered[table] += 1
            if let id = state.pointee.frames[index].id { try deleteNestedRows(of: table, parentID: id) }
            return
        }
        let parentID = state.pointee.frames[index].parent >= 0 ? id(of: state.pointee.frames[index].parent) : nil
        // The frame is read in place: a copy would retain and release each of its arrays.
        try state.pointee.frames.withUnsafeBufferPointer { frames in
            try write(frames.baseAddress! + index, of: mapping, parentID: parentID)
        }
    }

    /// Writes the record in `frame`, a record of `mapping`'s table, then the rows of its lists.
    private func write(_ frame: UnsafePointer<XMLRecordFrame>, of mapping: XMLMapping.TableMapping, parentID: Int64?) throws {
        let table = frame.pointee.table
        let loader = loaders[table]
        loader.beginRow(line: frame.pointee.line, column: frame.pointee.column)
        for (column, sources) in mapping.columns.enumerated() {
            var found = false
            if mapping.exists[column] {
                let found = sources.contains { matched($0, in: frame, table: table) }
                if found { matchedColumns[table][column] = true }
                var text = found ? "1" : "0"
                loader.setPlace(line: frame.pointee.line, column: frame.pointee.column)
                try text.withUTF8 { try loader.set(column, UnsafeRawBufferPointer($0)) }
                continue
            }
            for source in sources {
                switch source {
                case .slot(let slot):
                    guard frame.pointee.present[slot] else { continue }
                    matchedColumns[table][column] = true
                    guard !frame.pointee.values[slot].isEmpty else { continue }
                    if shownSlots[table][column] != slot {
                        shownSlots[table][column] = slot
                        loader.sourceNames[column] = (recordPaths[table] ?? "") + "/" + mapping.slotPaths[slot]
                    }
                    loader.setPlace(line: frame.pointee.valueLines[slot], column: frame.pointee.valueColumns[slot])
                    try frame.pointee.values[slot].withUnsafeBytes { try loader.set(column, $0) }
                case .position:
                    try XMLText.withDecimal(frame.pointee.position) { digits throws(SQLiteError) in try loader.set(column, digits) }
                case .file:
                    var text = file.name
                    try text.withUTF8 { try loader.set(column, UnsafeRawBufferPointer($0)) }
                case .item:
                    continue
                case .name:
                    let name = state.pointee.elements[frame.pointee.depth - 1].name
                    loader.setPlace(line: frame.pointee.line, column: frame.pointee.column)
                    try loader.set(column, UnsafeRawBufferPointer(start: name, count: strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))))
                case .ancestor(let index):
                    let ancestor = mapping.ancestors[index]
                    guard let kept = ancestorValue(ancestor, depth: frame.pointee.depth) else { continue }
                    matchedColumns[table][column] = true
                    guard !ancestorValues[kept].isEmpty else { continue }
                    if shownSlots[table][column] != -2 - index {
                        shownSlots[table][column] = -2 - index
                        loader.sourceNames[column] = (recordPaths[table] ?? "") + "/" + ancestor.written
                    }
                    loader.setPlace(line: frame.pointee.line, column: frame.pointee.column)
                    try ancestorValues[kept].withUnsafeBytes { try loader.set(column, $0) }
                }
                found = true
                break
            }
            if !found {
                loader.setPlace(line: frame.pointee.line, column: frame.pointee.column)
                try loader.set(column, nil)
            }
        }
        loader.setPlace(line: frame.pointee.line, column: frame.pointee.column)
        if let parentID { loader.setParent(parentID) }
        try flushTargets(of: table)
        guard let id = try loader.finishRow(id: frame.pointee.id) else { return }
        unflushed[table] = true
        for child in mapping.children where listDelimiters[child] != nil {
            try writeList(child, of: frame, parentID: id)
        }
        records += 1
        if records & 0x3FFF == 0 { progress?.advanced(rows: records, bytes: source.bytesRead) }
    }

    /// Writes one row per item of the list `table` reads from `frame`.
    private func writeList(_ table: Int, of frame: UnsafePointer<XMLRecordFrame>, parentID: Int64) throws {
        let mapping = self.mapping.tables[table]
        guard let slot = frame.pointee.firstValue(mapping.listSlots), let delimiters = listDelimiters[table] else { return }
        let loader = loaders[table]
        try flushTargets(of: table)
        unflushed[table] = true
        let items = XMLText.items(of: frame.pointee.values[slot], separator: delimiters.separator, open: delimiters.open, close: delimiters.close)
        try frame.pointee.values[slot].withUnsafeBytes { bytes in
            for (index, range) in items.enumerated() {
                loader.beginRow(line: frame.pointee.valueLines[slot], column: frame.pointee.valueColumns[slot])
                for (column, sources) in mapping.columns.enumerated() {
                    if case .file = sources.first {
                        var text = file.name
                        try text.withUTF8 { try loader.set(column, UnsafeRawBufferPointer($0)) }
                    } else if case .position = sources.first {
                        try XMLText.withDecimal(index + 1) { digits throws(SQLiteError) in try loader.set(column, digits) }
                    } else {
                        try loader.set(column, UnsafeRawBufferPointer(rebasing: bytes[range]))
                    }
                }
                loader.setParent(parentID)
                try loader.finishRow()
            }
        }
    }

    /// Hands the rows of `table`'s reference targets read so far to the writer, so that the
    /// lookups of rows finished after this see them (OSM: the nodes before the first way).
    private func flushTargets(of table: Int) throws {
        for target in referenceTargets[table] where unflushed[target] {
            try loaders[target].flush()
            unflushed[target] = false
        }
    }

    /// The row id of an open record, allocated now if needed (its nested records need it).
    private func id(of frame: Int) -> Int64 {
        if let id = state.pointee.frames[frame].id { return id }
        let id = context.allocateID(in: mapping.tables[state.pointee.frames[frame].table].table.name)
        state.pointee.frames[frame].id = id
        return id
    }

    /// Removes the rows nested (at any depth) in the row `parentID` of `table`: they were
    /// written before their parent turned out to fail its filter. The deletion is queued on
    /// the writer thread after those rows.
    private func deleteNestedRows(of table: Int, parentID: Int64) throws {
        var statements: [String] = []
        func collect(_ table: Int, _ parentIDs: String) throws {
            for child in mapping.tables[table].children {
                try loaders[child].flush()
                let nested = mapping.tables[child].table
                let selection = "\(quoted(nested.parent!.column)) IN (\(parentIDs))"
                try collect(child, "SELECT \(quoted(nested.rowID)) FROM \(quoted(nested.name)) WHERE \(selection)")
                statements.append("DELETE FROM \(quoted(nested.name)) WHERE \(selection)")
            }
        }
        try collect(table, String(parentID))
        let idMaps = context.idMaps
        let nestedNames = statements.isEmpty ? [] : descendants(of: table).map { mapping.tables[$0].table.name }
        try context.writeQueue.submit { connection throws(SQLiteError) in
            for statement in statements { try connection.execute(statement) }
            for name in nestedNames { idMaps.discard(name) } // their maps may hold the deleted rows
        }
    }

    /// The tables nested (at any depth) in `table`.
    private func descendants(of table: Int) -> [Int] {
        mapping.tables[table].children.flatMap { [$0] + descendants(of: $0) }
    }

    private func stop(_ error: any Error) {
        if failure == nil { failure = error }
        parser.fail(XMLSyntaxError(file: file.displayPath, line: parser.line, column: parser.column, message: "\(error)"))
    }

    // MARK: Names

    /// The record element's path as written in this file (`feed/entry`), for messages; and
    /// the loader's field names reset to each column's first source.
    private func describePaths(of table: Int, depth: Int) {
        let path = (0..<depth).map { level -> String in
            let element = state.pointee.elements[level]
            let local = String(cString: element.name)
            return element.prefix.map { String(cString: $0) + ":" + local } ?? local
        }.joined(separator: "/")
        recordPaths[table] = path
        for column in shownSlots[table].indices { shownSlots[table][column] = -1 }
        let mapping = self.mapping.tables[table]
        for (column, sources) in mapping.columns.enumerated() {
            if case .slot(let slot) = sources.first {
                shownSlots[table][column] = slot
                loaders[table].sourceNames[column] = path + "/" + mapping.slotPaths[slot]
            }
        }
    }

    @inline(__always)
    private func localIndex(_ name: UnsafePointer<xmlChar>) -> Int { names.index(of: name) }

    @inline(__always)
    private func matches(_ test: XMLMapping.NameTest, local: Int, namespace: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) -> Bool {
        guard test.local == local else { return test.local == XMLMapping.wildcard }
        switch test.namespace {
        case .any: return true
        case .none: return namespace == nil
        case .uri(let index): return Self.same(namespace, namespaceURIs[index])
        case .prefix(let index): return Self.same(prefix, prefixes[index])
        }
    }

    @inline(__always)
    private static func same(_ name: UnsafePointer<xmlChar>?, _ interned: UnsafePointer<xmlChar>) -> Bool {
        guard let name else { return false }
        return name == interned || xmlStrEqual(name, interned) != 0
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
