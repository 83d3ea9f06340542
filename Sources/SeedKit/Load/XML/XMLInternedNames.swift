import CLibXML2

/// The names a schema mentions, as one parser interns them: an element or attribute name is
/// numbered with one hash probe of its pointer, and a namespace test compares pointers
/// (falling back to the bytes, for names the parser did not intern).
struct XMLInternedNames {
    /// Local names, numbered as `XMLMapping.localNames`.
    private let numbers: XMLNameIndex
    private let namespaceURIs: [UnsafePointer<xmlChar>]
    private let prefixes: [UnsafePointer<xmlChar>]

    /// No names: every name is unknown (-1).
    init() {
        numbers = XMLNameIndex([])
        namespaceURIs = []
        prefixes = []
    }

    /// The names of `mapping`, interned in `parser`'s dictionary.
    init(_ mapping: XMLMapping, parser: XMLPushParser) {
        numbers = XMLNameIndex(mapping.localNames.map(parser.intern))
        namespaceURIs = mapping.namespaceURIs.map(parser.intern)
        prefixes = mapping.prefixes.map(parser.intern)
    }

    /// The number of the local name `name` (see `XMLMapping.localNames`), or -1.
    @inline(__always)
    func number(of name: UnsafePointer<xmlChar>) -> Int { numbers.index(of: name) }

    /// True when a name numbered `local`, in `namespace` and written with `prefix`, passes `test`.
    @inline(__always)
    func matches(
        _ test: XMLMapping.NameTest, local: Int, namespace: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?
    ) -> Bool {
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
}
