/// The shape of a set of XML files as a draft sees it: every distinct element path (an
/// element under a given parent path, by namespace and local name), how often it occurs
/// and at most how often under one parent, its attributes and its text, each with a
/// `DraftValueProfile`. Built by `XMLStructureSurvey`, planned into tables by
/// `SchemaDraftPlan`.
struct XMLStructure {
    /// A namespace-qualified name as the files write it.
    struct Name: Hashable {
        var localName: String
        /// The namespace URI; "" for none.
        var namespace: String
    }

    /// One element path.
    struct Element {
        /// The enclosing element path, or -1 for a root element.
        var parent: Int
        var name: Name
        /// The prefix it was first written with, if any.
        var prefix: String?
        /// Element paths below it, in the order first seen.
        var children: [Int] = []
        /// Occurrences.
        var count = 0
        /// The most occurrences inside one occurrence of the parent: 2 or more is a list.
        var maxPerParent = 0
        /// Occurrences with child elements, with text of their own, and with both.
        var withChildren = 0
        var withText = 0
        var mixed = 0
        /// Its attributes (indexes in `fields`), in the order first seen.
        var attributes: [Int] = []
        /// Its own text (an index in `fields`), once some occurrence had text.
        var text: Int?
        /// The files it occurs in (indexes in `files`), in order; at most `fileLimit`.
        var files: [Int] = []
        var moreFiles = false
        // While reading: the occurrence of the parent last seen, and the count inside it.
        var lastParentSerial = -1
        var countInParent = 0
    }

    /// An attribute or an element's text.
    struct Field {
        var element: Int
        /// The attribute's name and the prefix it was written with; nil for the element's text.
        var attribute: Name?
        var prefix: String?
        var profile = DraftValueProfile()
    }

    static let fileLimit = 64

    var elements: [Element] = []
    var fields: [Field] = []
    /// The input files read, by name.
    var files: [String] = []
    /// Namespace URIs used by elements or attributes, with the first prefix each was written
    /// with, in the order first seen.
    var namespaces: [(uri: String, prefix: String?)] = []
    /// True when a document used one of HTML's named character references.
    var usesHTMLEntities = false
    /// What could not be described, for the draft's header.
    var notes: [String] = []
    /// The input files not read, not being XML: a table's `file` pattern leaves them out.
    var unreadFiles: [String] = []
    /// Elements at paths past `XMLStructureSurvey.elementLimit`, not described.
    var skippedElements = 0

    /// The element paths from a root down to `element`.
    func path(_ element: Int) -> [Int] {
        var path: [Int] = []
        var current = element
        while current >= 0 {
            path.append(current)
            current = elements[current].parent
        }
        return path.reversed()
    }
}
