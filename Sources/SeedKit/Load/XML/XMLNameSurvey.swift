import CLibXML2

/// The element and attribute names an XML input actually uses, with their namespaces: read
/// only when a mapping matched nothing, to suggest the names the schema probably meant.
final class XMLNameSurvey: XMLEventHandler {
    /// Distinct element names: local name → the namespace URIs it appears in ("" for none).
    private(set) var elements: [String: Set<String>] = [:]
    /// Distinct attribute local names.
    private(set) var attributes: Set<String> = []
    /// Every namespace URI elements are in.
    var namespaces: Set<String> { elements.values.reduce(into: Set<String>()) { $0.formUnion($1) }.subtracting([""]) }
    /// Per file (its display path): the namespace URIs it declares, in the order declared.
    private(set) var declaredNamespaces: [String: [String]] = [:]
    private var file = ""

    // Names are interned by the parser: each distinct pointer pair is converted once.
    private var seenElements: Set<[Int]> = []
    private var seenAttributes: Set<Int> = []
    /// Past this many distinct names the survey stops collecting (a file of generated names).
    private static let limit = 20_000

    /// Reads `files` (errors end the survey of that file quietly: the build reported them),
    /// knowing `entities` as the build did.
    init(files: [InputFile], entities: Schema.Entities = .xml) {
        for file in files { survey(file, entities: entities) }
    }

    private func survey(_ file: InputFile, entities: Schema.Entities) {
        guard let source = try? file.open() else { return }
        let parser = XMLPushParser(file: file.displayPath, handler: self, entities: entities)
        self.file = file.displayPath
        declaredNamespaces[self.file] = []
        seenElements = []
        seenAttributes = []
        try? parser.parse(source)
    }

    func startElement(_ tag: XMLStartTag, parser: XMLPushParser) {
        for index in 0..<tag.declarationCount {
            guard let uri = tag.declaredNamespace(index).map(Self.string), declaredNamespaces[file]!.count < 100,
                !declaredNamespaces[file]!.contains(uri)
            else { continue }
            declaredNamespaces[file]!.append(uri)
        }
        guard seenElements.count < Self.limit else { return }
        if seenElements.insert([Int(bitPattern: tag.localName), Int(bitPattern: tag.namespace)]).inserted {
            elements[Self.string(tag.localName), default: []].insert(tag.namespace.map(Self.string) ?? "")
        }
        for index in 0..<tag.attributeCount
        where seenAttributes.insert(Int(bitPattern: tag.attributeLocalName(index))).inserted {
            attributes.insert(Self.string(tag.attributeLocalName(index)))
        }
    }

    func endElement(parser: XMLPushParser) {}
    func characters(_ text: UnsafeRawBufferPointer, parser: XMLPushParser) {}

    private static func string(_ name: UnsafePointer<xmlChar>) -> String {
        String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
    }
}
