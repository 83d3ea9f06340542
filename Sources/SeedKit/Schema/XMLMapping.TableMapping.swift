extension XMLMapping {
    /// How one table's rows are read. A class: the importer reads it at every event, and a
    /// struct this size would be copied (and its arrays retained) at each read. Built as a
    /// `Draft`, then immutable: its reads need no exclusivity checks.
    final class TableMapping {
        let table: Table
        /// The element path of a record (empty for list tables) and whether it starts at the root.
        let pattern: [NameTest]
        let anchored: Bool
        /// Further element paths whose elements are records too (`element: [A, B]`).
        let otherPatterns: [(steps: [NameTest], anchored: Bool)]
        /// The mapping index of the enclosing table, for nested records and lists.
        let parent: Int?
        /// Mapping indexes of the tables nested in this one (records and lists).
        let children: [Int]
        /// The input files a top-level table reads (a name or a `*` pattern).
        let filePattern: String?
        let nodes: [PathNode]
        /// Per slot: its path as written, for messages.
        let slotPaths: [String]
        /// Per column: its sources, in fall-back order.
        let columns: [[ValueSource]]
        /// Per column: true for `exists: true` (1 when a source matched, else 0).
        let exists: [Bool]
        /// The enclosing elements' attributes the columns read (`ValueSource.ancestor`).
        let ancestors: [AncestorSource]
        /// Filter conditions, each with the slots of its source.
        let filters: [(slots: [Int], test: Condition.Test)]
        /// True when every filter reads only attributes of the record's element, so a record
        /// can be dropped (with its subtree) as soon as its start tag is read.
        let filtersAtStart: Bool
        /// List tables: the parent's slots holding the list.
        let listSlots: [Int]

        /// The finished `draft`, with the tables nested in it.
        init(_ draft: Draft, children: [Int]) {
            table = draft.table
            pattern = draft.pattern
            anchored = draft.anchored
            otherPatterns = draft.otherPatterns
            parent = draft.parent
            self.children = children
            filePattern = draft.filePattern
            nodes = draft.nodes.map { node in
                var node = node
                node.attributeLocals = node.attributes.map(\.test.local)
                return node
            }
            slotPaths = draft.slotPaths
            columns = draft.columns
            exists = draft.exists
            ancestors = draft.ancestors
            filters = draft.filters
            filtersAtStart = draft.filtersAtStart
            listSlots = draft.listSlots
        }

        /// A table mapping while `XMLMapping` builds it (see `TableMapping` for the fields).
        struct Draft {
            let table: Table
            var pattern: [NameTest] = []
            var anchored = false
            var otherPatterns: [(steps: [NameTest], anchored: Bool)] = []
            var parent: Int?
            var filePattern: String?
            var nodes: [PathNode] = [PathNode()]
            var slotPaths: [String] = []
            /// Per slot: its path as read (slots of one table are shared by columns, filters
            /// and lists reading the same path).
            var slotKeys: [XMLValuePath] = []
            var columns: [[ValueSource]] = []
            var exists: [Bool] = []
            var ancestors: [AncestorSource] = []
            var filters: [(slots: [Int], test: Condition.Test)] = []
            var filtersAtStart = false
            var listSlots: [Int] = []

            init(table: Table) { self.table = table }
        }
    }
}
