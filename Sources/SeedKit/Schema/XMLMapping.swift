/// The XML side of a schema, compiled for streaming: for every table, which elements are
/// its records and, as a small tree of paths below the record's element, where each value
/// is read. Names are numbered so that matching an element is comparing integers.
struct XMLMapping {
    /// The `local` of `*`, which any element matches.
    static let wildcard = -2

    /// A name test with its names numbered (see `XMLNameTest` for the rules).
    struct NameTest {
        enum Namespace { case any, none, uri(Int), prefix(Int) }
        /// Index into `localNames`, or `wildcard`.
        var local: Int
        var namespace: Namespace
    }

    /// A node of a table's path tree; node 0 is the record's element.
    struct PathNode {
        /// Child elements that lead to values.
        var children: [(test: NameTest, node: Int)] = []
        /// Attributes of this element that are values: the attribute and the slot it fills.
        var attributes: [(test: NameTest, slot: Int)] = []
        /// Per attribute, its test's `local`: what the importer scans first.
        var attributeLocals: [Int] = []
        /// Slots filled with this element's text.
        var textSlots: [Int] = []
    }

    /// Where a column's value comes from, tried in order.
    enum ValueSource {
        /// A captured value.
        case slot(Int)
        /// The record's position.
        case position
        /// The input file's name (`$file`), as listed in `seedgen_inputs`.
        case file
        /// The feed's id in a region seed (`$feed`, `feed_ref`).
        case feed
        /// The list item itself (list tables).
        case item
        /// The local name of the record's element (`$name`).
        case name
        /// An attribute of an enclosing element: index into the table's `ancestors`.
        case ancestor(Int)
    }

    /// An enclosing element's attribute a table reads: which `ancestorWants` entry keeps it,
    /// and how the element is found (`levels` up, or with 0 the nearest named by the want).
    struct AncestorSource {
        var want: Int
        var levels: Int
        var written: String
    }

    /// The source that reads the input file's name.
    static let fileSource = "$file"

    /// Local names of every element and attribute the schema mentions.
    private(set) var localNames: [String] = []
    /// Namespace URIs and document prefixes the schema mentions.
    private(set) var namespaceURIs: [String] = []
    private(set) var prefixes: [String] = []
    /// The tables read from XML (records or lists), in the schema's load order.
    private(set) var tables: [TableMapping] = []
    /// Per local name: the tables whose record element has that name.
    private(set) var tablesByLocalName: [[Int]] = []
    /// The tables whose record element is `*` (any element).
    private(set) var wildcardTables: [Int] = []
    /// True when some path has a `*` step: elements the schema does not name may match.
    private(set) var hasWildcards = false
    /// Attributes of enclosing elements that some table reads (`../@id`,
    /// `ancestor::Name/@id`), kept for every open element they may belong to. Empty unless
    /// the schema uses such paths, so other schemas pay nothing.
    private(set) var ancestorWants: [(element: NameTest?, attribute: NameTest)] = []

    init(schema: Schema) throws(XMLPathError) {
        let readTables = schema.loadOrder.filter { $0.element != nil || $0.list != nil }
        let indexOfTable = Dictionary(uniqueKeysWithValues: readTables.enumerated().map { ($1.name, $0) })
        var drafts: [TableMapping.Draft] = []
        for table in readTables {
            var mapping = TableMapping.Draft(table: table)
            mapping.parent = table.parent.flatMap { indexOfTable[$0.table] }
            for (index, element) in table.elementAlternatives.enumerated() {
                let (steps, anchored) = try XMLValuePath.elementPattern(element, namespaces: schema.namespaces)
                if index == 0 {
                    mapping.pattern = steps.map { compile($0) }
                    mapping.anchored = anchored
                } else {
                    mapping.otherPatterns.append((steps.map { compile($0) }, anchored))
                }
            }
            if mapping.parent == nil { mapping.filePattern = table.file ?? "*.xml" }
            for column in table.columns {
                var sources: [ValueSource] = []
                for source in column.source {
                    if source == XMLMapping.fileSource {
                        sources.append(.file)
                        continue
                    }
                    if source == Schema.feedSource {
                        sources.append(.feed)
                        continue
                    }
                    if table.list != nil {
                        sources.append(source == "$position" ? .position : .item)
                        continue
                    }
                    for path in try XMLValuePath.alternatives(source, namespaces: schema.namespaces) {
                        switch path {
                        case .position: sources.append(.position)
                        case .name: sources.append(.name)
                        case .ancestor(let levels, let element, let attribute):
                            let want = ancestorWant(element: element.map { compile($0) }, attribute: compile(attribute))
                            mapping.ancestors.append(AncestorSource(want: want, levels: levels, written: source))
                            sources.append(.ancestor(mapping.ancestors.count - 1))
                        default: sources.append(.slot(slot(for: path, written: source, in: &mapping)))
                        }
                    }
                }
                mapping.columns.append(sources)
                mapping.exists.append(column.exists)
            }
            for condition in table.filter {
                let paths = try XMLValuePath.alternatives(condition.source, namespaces: schema.namespaces).filter(
                    \.isCaptured)
                let slots = paths.map { slot(for: $0, written: condition.source, in: &mapping) }
                mapping.filters.append((slots, condition.test))
            }
            if hasWildcards { Self.mergeWildcards(&mapping.nodes) }
            let startSlots = Set(mapping.nodes[0].attributes.map(\.slot))
            mapping.filtersAtStart =
                !mapping.filters.isEmpty && mapping.filters.allSatisfy { $0.slots.allSatisfy(startSlots.contains) }
            drafts.append(mapping)
        }
        // Lists are read from their parent's record: give the parent the slots.
        for index in drafts.indices {
            guard let list = drafts[index].table.list, let parent = drafts[index].parent else { continue }
            for source in list.sources {
                for path in try XMLValuePath.alternatives(source, namespaces: schema.namespaces) where path.isCaptured {
                    let listSlot = slot(for: path, written: source, in: &drafts[parent])
                    drafts[index].listSlots.append(listSlot)
                }
            }
        }
        var children = Array(repeating: [Int](), count: drafts.count)
        for index in drafts.indices {
            if let parent = drafts[index].parent { children[parent].append(index) }
        }
        tables = drafts.indices.map { TableMapping(drafts[$0], children: children[$0]) }
        tablesByLocalName = Array(repeating: [], count: localNames.count)
        for (index, table) in tables.enumerated() {
            var lasts = table.pattern.last.map { [$0.local] } ?? []
            for other in table.otherPatterns where !lasts.contains(other.steps.last!.local) {
                lasts.append(other.steps.last!.local)
            }
            // A table with a `*` alternative is tried at every element, and only there.
            if lasts.contains(Self.wildcard) {
                wildcardTables.append(index)
            } else {
                for last in lasts { tablesByLocalName[last].append(index) }
            }
        }
    }

    /// The slot of `path` in `mapping`, adding it (and its nodes) the first time.
    private mutating func slot(for path: XMLValuePath, written: String, in mapping: inout TableMapping.Draft) -> Int {
        // Slots of one table are shared by columns, filters and lists reading the same path.
        if let existing = mapping.slotKeys.firstIndex(of: path) { return existing }
        let slot = mapping.slotPaths.count
        mapping.slotPaths.append(written)
        mapping.slotKeys.append(path)
        func node(_ steps: [XMLNameTest]) -> Int {
            var current = 0
            for step in steps {
                let test = compile(step)
                if let next = mapping.nodes[current].children.first(where: { Self.same($0.test, test) })?.node {
                    current = next
                } else {
                    mapping.nodes.append(PathNode())
                    mapping.nodes[current].children.append((test, mapping.nodes.count - 1))
                    current = mapping.nodes.count - 1
                }
            }
            return current
        }
        switch path {
        case .text(let steps): mapping.nodes[node(steps)].textSlots.append(slot)
        case .attribute(let steps, let name): mapping.nodes[node(steps)].attributes.append((compile(name), slot))
        case .position, .name, .ancestor: break
        }
        return slot
    }

    /// An open element follows one path-tree node, the first child whose test it matches.
    /// So that an element matching both a name and a `*` sibling reads the values of both,
    /// each named child also gets (a copy of) its wildcard siblings' subtrees, and wildcard
    /// children are tried last.
    private static func mergeWildcards(_ nodes: inout [PathNode]) {
        func copy(_ index: Int) -> Int {
            var node = nodes[index]
            node.children = node.children.map { ($0.test, copy($0.node)) }
            nodes.append(node)
            return nodes.count - 1
        }
        func merge(_ source: Int, into target: Int) {
            guard source != target else { return }
            nodes[target].attributes += nodes[source].attributes
            nodes[target].textSlots += nodes[source].textSlots
            for child in nodes[source].children {
                if let same = nodes[target].children.first(where: { Self.same($0.test, child.test) }) {
                    merge(child.node, into: same.node)
                } else {
                    nodes[target].children.append((child.test, copy(child.node)))
                }
            }
        }
        var index = 0
        while index < nodes.count {
            let wildcards = nodes[index].children.filter { $0.test.local == wildcard }
            if !wildcards.isEmpty {
                for named in nodes[index].children where named.test.local != wildcard {
                    for card in wildcards { merge(card.node, into: named.node) }
                }
                nodes[index].children = nodes[index].children.filter { $0.test.local != wildcard } + wildcards
            }
            index += 1
        }
    }

    /// The index of the enclosing-element attribute `element`/`attribute` in `ancestorWants`.
    private mutating func ancestorWant(element: NameTest?, attribute: NameTest) -> Int {
        if let index = ancestorWants.firstIndex(where: { want in
            Self.same(want.attribute, attribute) && (want.element == nil) == (element == nil)
                && (element.map { e in Self.same(want.element!, e) } ?? true)
        }) {
            return index
        }
        ancestorWants.append((element, attribute))
        return ancestorWants.count - 1
    }

    private static func same(_ a: NameTest, _ b: NameTest) -> Bool {
        guard a.local == b.local else { return false }
        switch (a.namespace, b.namespace) {
        case (.any, .any), (.none, .none): return true
        case (.uri(let x), .uri(let y)), (.prefix(let x), .prefix(let y)): return x == y
        default: return false
        }
    }

    private mutating func compile(_ test: XMLNameTest) -> NameTest {
        if test.localName == "*" {
            hasWildcards = true
            return NameTest(local: Self.wildcard, namespace: .any)
        }
        let local = Self.number(test.localName, in: &localNames)
        switch test.namespace {
        case .any: return NameTest(local: local, namespace: .any)
        case .none: return NameTest(local: local, namespace: .none)
        case .uri(let uri): return NameTest(local: local, namespace: .uri(Self.number(uri, in: &namespaceURIs)))
        case .prefix(let prefix): return NameTest(local: local, namespace: .prefix(Self.number(prefix, in: &prefixes)))
        }
    }

    private static func number(_ name: String, in names: inout [String]) -> Int {
        if let index = names.firstIndex(of: name) { return index }
        names.append(name)
        return names.count - 1
    }
}
