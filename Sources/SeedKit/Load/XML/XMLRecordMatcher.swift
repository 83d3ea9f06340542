import CLibXML2

/// Follows the elements of one XML file as the parser reports them and finds the records
/// in them: each element that is a record of some table opens an `XMLRecordFrame`, which
/// captures the values its paths name while the element is open; when the element ends,
/// `endElement` hands the closed records to the caller to write (`withRecord`).
///
/// Everything here changes with every event, millions of times per file, and only through
/// the matcher's own mutating methods: the importer keeps it in one stored property, so they
/// change the state in place (no copy, no retain, no exclusivity check per touch).
struct XMLRecordMatcher {
    /// The longest text value kept; a longer one fails the build (libxml2's own limit for
    /// a text node without XML_PARSE_HUGE).
    static let maximumValueLength = 10_000_000

    /// Text being collected for a slot of an open record until the element at `depth` ends.
    private struct Capture {
        var frame: Int
        var slot: Int
        var depth: Int
    }

    private let mapping: XMLMapping
    /// Per mapping table: whether this file feeds it.
    private let active: [Bool]
    /// The deepest element nesting accepted (`InputLimits.xmlDepth`).
    private let maximumDepth: Int
    private let slotCount: Int
    private var names = XMLInternedNames()
    /// The entities libxml2 leaves in attribute values (`&uuml;` with `entities: html`);
    /// nil when the document can have none. Owned by the parser.
    private unowned(unsafe) var entities: XMLEntityTable?
    private var elements: [XMLOpenElement] = []
    /// The record frames; the first `openCount` are the open records, outermost first.
    private var frames: [XMLRecordFrame] = []
    private var openCount = 0
    /// How many records are open.
    var openRecordCount: Int { openCount }
    /// The open frames whose paths can still match below the current element, in frame
    /// order. A frame whose path stopped matching at some element is `dormant` until that
    /// element ends: each event touches only the live frames, so deeply nested records
    /// cost linear time, not time (and memory) proportional to depth squared.
    private var live: [Int] = []
    /// Frames whose paths stopped matching, with the depth of the element where they did.
    private var dormant: [(frame: Int, depth: Int)] = []
    private var captures: [Capture] = []
    /// Inside a record dropped by its filter: the depth of its element; 0 otherwise.
    private var skipDepth = 0
    /// Per table: top-level records so far (their positions).
    private var topLevelCounts: [Int]
    /// Per table: its innermost open frame, or -1. A nested record finds its parent here in
    /// constant time, however deep the records it is inside.
    private var innermost: [Int]
    private var ancestors: XMLAncestorAttributes
    /// Per table: its record element's path in this file (`feed/entry`), as found at its
    /// first record, for messages.
    private(set) var recordPaths: [String?]
    /// Per mapping table: records skipped by its filter in this file.
    private(set) var filtered: [Int]
    /// Where each table's records were found in this file (a path the schema did not mean
    /// shows here).
    private(set) var foundPaths: XMLRecordPaths
    /// Per mapping table and slot: records written in which the slot's path matched more
    /// than once (only the first is kept).
    private(set) var repeatedRecords: [[Int]]

    /// - Parameters:
    ///   - active: per mapping table, whether the file feeds it.
    ///   - maximumDepth: the deepest element nesting accepted.
    init(mapping: XMLMapping, active: [Bool], maximumDepth: Int) {
        self.mapping = mapping
        self.active = active
        self.maximumDepth = maximumDepth
        let count = mapping.tables.count
        slotCount = mapping.tables.map(\.slotPaths.count).max() ?? 0
        topLevelCounts = Array(repeating: 0, count: count)
        innermost = Array(repeating: -1, count: count)
        filtered = Array(repeating: 0, count: count)
        recordPaths = Array(repeating: nil, count: count)
        ancestors = XMLAncestorAttributes(wants: mapping.ancestorWants)
        foundPaths = XMLRecordPaths(mapping: mapping)
        repeatedRecords = mapping.tables.map { Array(repeating: 0, count: $0.slotPaths.count) }
    }

    /// Numbers the schema's names as `parser` interns them; before its first event.
    mutating func intern(in parser: XMLPushParser) {
        names = XMLInternedNames(mapping, parser: parser)
        entities = parser.entities
    }

    // MARK: Events

    /// An element starts: the open records follow it down their path trees, and the records
    /// it is the element of open. Returns true when it is the first record element of some
    /// table in this file (its path is then in `recordPaths`).
    mutating func startElement(_ tag: XMLStartTag, parser: XMLPushParser) -> Bool {
        let local = names.number(of: tag.localName)
        elements.append(XMLOpenElement(local: local, name: tag.localName, namespace: tag.namespace, prefix: tag.prefix))
        let depth = elements.count
        if depth > maximumDepth {
            parser.fail(
                XMLSyntaxError(
                    file: parser.file, line: parser.line, column: parser.column,
                    message: "elements are nested more than \(maximumDepth) deep (raise the limit with --max-xml-depth)"
                ))
            return false
        }
        guard skipDepth == 0 else { return false }
        if !ancestors.isEmpty { ancestors.keep(tag, local: local, depth: depth, names: names, entities: entities) }
        let named = local >= 0 || mapping.hasWildcards
        let liveCount = live.count
        var kept = 0
        for index in 0..<liveCount {
            let frame = live[index]
            var node = -1
            if named {
                for child in mapping.tables[frames[frame].table].nodes[frames[frame].currentNode].children
                where names.matches(child.test, local: local, namespace: tag.namespace, prefix: tag.prefix) {
                    node = child.node
                    break
                }
            }
            if node >= 0 {
                frames[frame].nodes.append(node)
                live[kept] = frame
                kept += 1
                capture(frame, node: node, tag: tag, depth: depth, parser: parser)
            } else {
                dormant.append((frame, depth))
            }
        }
        live.removeLast(liveCount - kept)
        var foundPath = false
        if local >= 0 {
            for table in mapping.tablesByLocalName[local] where active[table] {
                foundPath = startRecord(of: table, tag: tag, depth: depth, parser: parser) || foundPath
            }
        }
        for table in mapping.wildcardTables where active[table] {
            foundPath = startRecord(of: table, tag: tag, depth: depth, parser: parser) || foundPath
        }
        return foundPath
    }

    /// Text inside the innermost open element: added to the values being captured.
    mutating func characters(_ text: UnsafeRawBufferPointer, parser: XMLPushParser) {
        guard skipDepth == 0, !captures.isEmpty else { return }
        for capture in captures {
            guard frames[capture.frame].appendText(text, to: capture.slot) > Self.maximumValueLength else { continue }
            let table = frames[capture.frame].table
            let path = recordPaths[table].map { $0 + "/" } ?? ""
            parser.fail(
                XMLSyntaxError(
                    file: parser.file, line: parser.line, column: parser.column,
                    message:
                        """
                        the text of \(path)\(mapping.tables[table].slotPaths[capture.slot]) is longer than \
                        \(Self.maximumValueLength) bytes
                        """
                ))
            return
        }
    }

    /// The innermost open element ends: the values it held are complete, and the records it
    /// is the element of close. Returns the closed records, outermost first; each stays
    /// readable (`withRecord`) until the next element starts.
    mutating func endElement() -> Range<Int> {
        let depth = elements.count
        elements.removeLast()
        if skipDepth != 0 {
            guard depth == skipDepth else { return openCount..<openCount }
            skipDepth = 0
        }
        if !captures.isEmpty {
            var index = captures.count - 1
            while index >= 0 {
                let capture = captures[index]
                if capture.depth == depth {
                    frames[capture.frame].endText(capture.slot)
                    captures.remove(at: index)
                }
                index -= 1
            }
        }
        let end = openCount
        while openCount > 0 && frames[openCount - 1].depth == depth {
            openCount -= 1
            // A record's own element ends with the record live, the last one open.
            live.removeLast()
            innermost[frames[openCount].table] = frames[openCount].outerOfSameTable
        }
        for frame in live { frames[frame].nodes.removeLast() }
        if let last = dormant.last, last.depth == depth {
            while let last = dormant.last, last.depth == depth {
                live.append(last.frame)
                dormant.removeLast()
            }
            live.sort()
        }
        return openCount..<end
    }

    // MARK: Closed records

    /// The table of the closed record `index`.
    @inline(__always)
    func table(of index: Int) -> Int { frames[index].table }

    /// The row id of the closed record `index`, if one was allocated while it was open.
    @inline(__always)
    func id(of index: Int) -> Int64? { frames[index].id }

    /// False when the closed record `index` fails the filters its table checks at the end
    /// (those it could not check at its start); it is then counted as filtered.
    @inline(__always)
    mutating func passesFilters(_ index: Int) -> Bool {
        let table = frames[index].table
        let mapping = self.mapping.tables[table]
        guard !mapping.filtersAtStart && !mapping.filters.isEmpty && !frames[index].passes(mapping.filters) else {
            return true
        }
        filtered[table] += 1
        return false
    }

    /// The row id of the record the closed record `index` is nested in, allocated now (by
    /// `allocateID`, given the parent's table) if it has none yet; nil for a top-level record.
    @inline(__always)
    mutating func parentID(of index: Int, allocateID: (String) -> Int64) -> Int64? {
        let parent = frames[index].parent
        guard parent >= 0 else { return nil }
        if let id = frames[parent].id { return id }
        let id = allocateID(mapping.tables[frames[parent].table].table.name)
        frames[parent].id = id
        return id
    }

    /// Counts the slots of the closed record `index` whose paths matched more than once: the
    /// record was written, keeping the first of each.
    @inline(__always)
    mutating func countRepeats(of index: Int) {
        guard !frames[index].repeatedSlots.isEmpty else { return }
        let table = frames[index].table
        for slot in frames[index].repeatedSlots { repeatedRecords[table][slot] += 1 }
    }

    /// Lends the closed record `index` to `body`, in place. Mutating only so that nothing
    /// is copied: the record is not changed.
    mutating func withRecord<R>(_ index: Int, _ body: (XMLRecord) throws -> R) throws -> R {
        try Self.lend(&frames, index, &ancestors, to: body)
    }

    private static func lend<R>(
        _ frames: inout [XMLRecordFrame], _ index: Int, _ ancestors: inout XMLAncestorAttributes,
        to body: (XMLRecord) throws -> R
    ) throws -> R {
        try withUnsafePointer(to: &ancestors) { ancestors in
            try frames.withUnsafeBufferPointer { frames in
                try body(XMLRecord(frame: frames.baseAddress! + index, ancestors: ancestors))
            }
        }
    }

    // MARK: Records

    /// Opens a record of `table` at the element `tag` if the element is one (its path
    /// matches, and a nested table's record is inside one of its parent). Returns true when
    /// it is the table's first record in this file.
    private mutating func startRecord(of table: Int, tag: XMLStartTag, depth: Int, parser: XMLPushParser) -> Bool {
        let mapping = self.mapping.tables[table]
        let alternative: Int
        if matchesPattern(mapping.pattern, anchored: mapping.anchored, depth: depth) {
            alternative = 0
        } else if let other = mapping.otherPatterns.firstIndex(where: {
            matchesPattern($0.steps, anchored: $0.anchored, depth: depth)
        }) {
            alternative = other + 1
        } else {
            return false
        }
        var parent = -1
        if let parentTable = mapping.parent {
            // A nested table's records are only those inside a record of its parent.
            let enclosing = innermost[parentTable]
            guard enclosing >= 0 else { return false }
            parent = enclosing
        }
        countPath(of: table, alternative: alternative, depth: depth, from: parent >= 0 ? frames[parent].depth - 1 : 0)
        let position: Int
        if parent >= 0 {
            frames[parent].childCounts[table] += 1
            position = frames[parent].childCounts[table]
        } else {
            topLevelCounts[table] += 1
            position = topLevelCounts[table]
        }
        let isFirst = recordPaths[table] == nil
        if isFirst { recordPaths[table] = path(depth: depth) }
        let frame = openCount
        if frame == frames.count {
            frames.append(XMLRecordFrame(slotCount: slotCount, tableCount: self.mapping.tables.count))
        }
        frames[frame].start(
            table: table, depth: depth, name: tag.localName, line: parser.line, column: parser.column,
            position: position, parent: parent)
        openCount += 1
        live.append(frame)
        frames[frame].outerOfSameTable = innermost[table]
        innermost[table] = frame
        capture(frame, node: 0, tag: tag, depth: depth, parser: parser)
        if mapping.filtersAtStart && !frames[frame].passes(mapping.filters) {
            filtered[table] += 1
            openCount -= 1
            live.removeLast()
            innermost[table] = frames[frame].outerOfSameTable
            // Drop the captures this record started: its subtree is skipped.
            captures.removeAll { $0.frame == frame }
            skipDepth = depth
        }
        return isFirst
    }

    /// Counts the path (from the element at `start`, 0-based, down to the one at `depth`) at
    /// which a record of `table` was found (see `XMLRecordPaths`).
    @inline(__always)
    private mutating func countPath(of table: Int, alternative: Int, depth: Int, from start: Int) {
        elements.withUnsafeBufferPointer { elements in
            foundPaths.count(table: table, alternative: alternative, elements: elements, start: start) {
                Self.path(elements[start...])
            }
        }
    }

    /// True when the open elements end with `steps` (from the root when `anchored`).
    @inline(__always)
    private func matchesPattern(_ steps: [XMLMapping.NameTest], anchored: Bool, depth: Int) -> Bool {
        guard depth >= steps.count, !anchored || depth == steps.count else { return false }
        for (offset, step) in steps.enumerated() {
            let element = elements[depth - steps.count + offset]
            guard names.matches(step, local: element.local, namespace: element.namespace, prefix: element.prefix) else {
                return false
            }
        }
        return true
    }

    /// Reads the attributes `node` wants from `tag` and starts capturing its text.
    private mutating func capture(_ frame: Int, node index: Int, tag: XMLStartTag, depth: Int, parser: XMLPushParser) {
        let tableMapping = mapping.tables[frames[frame].table]
        // The wanted attributes' name numbers, scanned as plain integers; a test is checked in
        // full only when its name is the attribute's (or `*`).
        let wantedLocals = tableMapping.nodes[index].attributeLocals
        if !wantedLocals.isEmpty {
            let line = parser.line, column = parser.column
            for attribute in 0..<tag.attributeCount {
                let local = names.number(of: tag.attributeLocalName(attribute))
                guard local >= 0 else { continue }
                for candidate in wantedLocals.indices
                where wantedLocals[candidate] == local || wantedLocals[candidate] == XMLMapping.wildcard {
                    let wanted = tableMapping.nodes[index].attributes[candidate]
                    guard
                        names.matches(
                            wanted.test, local: local, namespace: tag.attributeNamespace(attribute),
                            prefix: tag.attributePrefix(attribute))
                    else { continue }
                    // The first occurrence wins; a later one is counted, for the mapping check.
                    guard !frames[frame].present[wanted.slot] else {
                        frames[frame].markRepeated(wanted.slot)
                        continue
                    }
                    frames[frame].setAttribute(
                        wanted.slot, tag.attributeValue(attribute), line: line, column: column, entities: entities)
                }
            }
        }
        for slot in tableMapping.nodes[index].textSlots {
            guard frames[frame].isOpen(slot) else {
                frames[frame].markRepeated(slot)
                continue
            }
            frames[frame].beginText(slot, line: parser.line, column: parser.column)
            captures.append(Capture(frame: frame, slot: slot, depth: depth))
        }
    }

    /// The path of the open element at `depth` as written in this file (`feed/entry`).
    private func path(depth: Int) -> String {
        elements.withUnsafeBufferPointer { Self.path($0[0..<depth]) }
    }

    /// `elements` as a path written as in the file (`feed/entry`).
    private static func path(_ elements: Slice<UnsafeBufferPointer<XMLOpenElement>>) -> String {
        elements.map { element -> String in
            let local = String(cString: element.name)
            return element.prefix.map { String(cString: $0) + ":" + local } ?? local
        }.joined(separator: "/")
    }
}
