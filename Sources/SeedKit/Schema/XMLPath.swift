/// One step of an XML path: a local name and the namespace it must be in.
///
/// How a written name is read (the schema's `namespaces` map prefixes to URIs):
/// - `im:name`: local name `name` in the namespace the schema maps `im` to; when the schema
///   does not map `im`, the element must be written with the prefix `im` in the document.
///   A prefix mapped to `""` names an element in no namespace (as `xmlns=""` does).
/// - `name` (an element): in the schema's default namespace (`namespaces: {"": URI}`) when
///   it declares one (none when it declares `""`), otherwise in any namespace.
/// - `@name` (an attribute): an attribute without a namespace, as XML defines for
///   unprefixed attributes.
struct XMLNameTest: Hashable, Sendable, CustomStringConvertible {
    enum Namespace: Hashable, Sendable {
        /// Any namespace, or none.
        case any
        /// No namespace (unprefixed attributes).
        case none
        /// Exactly this namespace URI.
        case uri(String)
        /// Written with this prefix in the document (the schema does not map it).
        case prefix(String)
    }

    var localName: String
    var namespace: Namespace
    /// The name as written in the schema, for messages.
    var written: String

    var description: String { written }

    /// Reads `text` (`name` or `prefix:name`) as an element (or attribute) name test.
    init(_ text: String, isAttribute: Bool, namespaces: [String: String]) {
        written = text
        if let colon = text.firstIndex(of: ":") {
            let prefix = String(text[..<colon])
            localName = String(text[text.index(after: colon)...])
            namespace = namespaces[prefix].map(Self.namespace) ?? .prefix(prefix)
        } else {
            localName = text
            if isAttribute {
                namespace = .none
            } else {
                namespace = namespaces[""].map(Self.namespace) ?? .any
            }
        }
    }

    /// The namespace a schema maps a prefix to: `""` is none.
    private static func namespace(_ uri: String) -> Namespace {
        uri.isEmpty ? .none : .uri(uri)
    }
}

/// Where a column (or filter) reads its value, relative to the record's element.
///
/// `name` (a child element's text, or else an attribute of that name), `@id` (an attribute),
/// `a/b` (nested child elements), `a/@id` (an attribute of a child), `.` (the record's own
/// text), `$position` (the record's 1-based position among the records of its table within
/// its parent record, or within the file).
enum XMLValuePath: Hashable, Sendable {
    /// The text of the element reached by `steps` (all of it, descendants included); no
    /// steps: the record's own text.
    case text(steps: [XMLNameTest])
    /// The attribute `name` of the element reached by `steps`.
    case attribute(steps: [XMLNameTest], name: XMLNameTest)
    /// The record's position.
    case position
    /// The local name of the record's element (`$name`: `Monday` for `<Monday/>`).
    case name
    /// An attribute of an element enclosing the record: `levels` up (`../@id` is 1), or
    /// with `levels` 0 the nearest enclosing element that `element` names
    /// (`ancestor::TransXChange/@FileName`).
    case ancestor(levels: Int, element: XMLNameTest?, attribute: XMLNameTest)

    /// True for the paths read from the record's own subtree (text and attributes).
    var isCaptured: Bool {
        switch self {
        case .text, .attribute: return true
        case .position, .name, .ancestor: return false
        }
    }

    /// The ways `source` can be read, in the order they are tried: a bare name is a child
    /// element's text first, then an attribute of that name (the codeless convention).
    static func alternatives(_ source: String, namespaces: [String: String]) throws(XMLPathError) -> [XMLValuePath] {
        if source == "$position" { return [.position] }
        if source == "$name" { return [.name] }
        if source == "." { return [.text(steps: [])] }
        if source.hasPrefix("$") { throw XMLPathError(path: source, message: "the variables are $position and $name") }
        let parts = source.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else {
            throw XMLPathError(
                path: source, message: "a path is names separated by single '/', without a leading or trailing '/'")
        }
        if parts[0] == ".." || parts[0].hasPrefix("ancestor::") {
            return [try ancestor(parts, source: source, namespaces: namespaces)]
        }
        if parts.contains("..") || parts.contains(where: { $0.hasPrefix("ancestor::") }) {
            throw XMLPathError(path: source, message: "'..' and 'ancestor::' start a path, they cannot follow a name")
        }
        var steps: [XMLNameTest] = []
        for (index, part) in parts.enumerated() {
            if part.hasPrefix("@") {
                guard index == parts.count - 1 else {
                    throw XMLPathError(path: source, message: "an attribute (@name) must be the last step")
                }
                let name = String(part.dropFirst())
                guard name != "*" else {
                    throw XMLPathError(path: source, message: "'@*' is not supported: name the attribute")
                }
                try check(name, in: source)
                return [.attribute(steps: steps, name: XMLNameTest(name, isAttribute: true, namespaces: namespaces))]
            }
            if part == "." { continue }
            try check(part, in: source)
            steps.append(XMLNameTest(part, isAttribute: false, namespaces: namespaces))
        }
        if steps.count == 1, parts.count == 1, source != "*" {
            return [
                .text(steps: steps),
                .attribute(steps: [], name: XMLNameTest(source, isAttribute: true, namespaces: namespaces))
            ]
        }
        return [.text(steps: steps)]
    }

    /// `../@id`, `../../@id`, `ancestor::Name/@id`: an attribute of an enclosing element.
    /// Only attributes: an enclosing element's text and children are not complete while the
    /// record inside it is read, and keeping them would cost memory on every element.
    private static func ancestor(
        _ parts: [String], source: String, namespaces: [String: String]
    ) throws(XMLPathError) -> XMLValuePath {
        let levels = parts.prefix { $0 == ".." }.count
        var element: XMLNameTest?
        if levels == 0 {
            let name = String(parts[0].dropFirst("ancestor::".count))
            try check(name, in: source)
            guard name != "*" else {
                throw XMLPathError(
                    path: source, message: "'ancestor::' needs an element name; use '..' for any enclosing element")
            }
            element = XMLNameTest(name, isAttribute: false, namespaces: namespaces)
        }
        let rest = parts.dropFirst(max(levels, 1))
        guard rest.count == 1, let last = rest.first, last.hasPrefix("@") else {
            throw XMLPathError(
                path: source,
                message:
                    """
                    an enclosing element's value is one of its attributes (../@id, ancestor::Name/@id): its text \
                    is not complete while the record inside it is read
                    """
            )
        }
        let name = String(last.dropFirst())
        try check(name, in: source)
        return .ancestor(
            levels: levels, element: element, attribute: XMLNameTest(name, isAttribute: true, namespaces: namespaces))
    }

    /// The path of an element that is one record: `entry`, `feed/entry`, or `/feed/entry`
    /// (a leading `/` anchors it at the document's root element).
    static func elementPattern(
        _ text: String, namespaces: [String: String]
    ) throws(XMLPathError) -> (steps: [XMLNameTest], anchored: Bool) {
        let anchored = text.hasPrefix("/")
        let parts = (anchored ? String(text.dropFirst()) : text).split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
        guard !parts.contains(where: \.isEmpty) else {
            throw XMLPathError(path: text, message: "an element path is names separated by single '/'")
        }
        var steps: [XMLNameTest] = []
        for part in parts {
            try check(part, in: text)
            steps.append(XMLNameTest(part, isAttribute: false, namespaces: namespaces))
        }
        return (steps, anchored)
    }

    private static func check(_ name: String, in path: String) throws(XMLPathError) {
        if name == "*" { return } // any element
        let pieces = name.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count <= 2, !pieces.contains(where: \.isEmpty),
            !name.contains(where: { $0 == "@" || $0 == "$" || $0 == "[" || $0 == "*" || $0 == " " })
        else {
            throw XMLPathError(path: path, message: "'\(name)' is not an XML name (name or prefix:name)")
        }
    }
}

/// A source or element path in a schema that cannot be read.
struct XMLPathError: Error, Sendable {
    var path: String
    var message: String
}
