import CLibXML2

/// Reads XML files once each, streaming, into an `XMLStructure`: memory is bounded by the
/// number of distinct element paths and attributes (`elementLimit`, `fieldLimit`: past them
/// new ones are counted, not described, and the draft says so), each described in constant
/// room whatever its number of values (`DraftValueProfile`: counters, a set of types, three
/// examples; an element's first `XMLStructure.fileLimit` files), by the value hashes' budget
/// (`DraftHashBudget`, about 16 bytes a hash), and by the files' names, whatever the size of
/// the files. Every value is profiled: nothing is sampled.
final class XMLStructureSurvey: XMLEventHandler {
    /// The most distinct element paths described.
    static let elementLimit = 4_000
    /// The most distinct attributes and texts described.
    static let fieldLimit = 16_000
    /// How much of an element's own text is kept to type and hash it (longer text is text,
    /// and no key).
    static let textPrefix = 256

    private(set) var structure = XMLStructure()
    private let budget: DraftHashBudget

    /// An open element: its path (-1 past the limit), its occurrence number, and what it held.
    private struct Open {
        var element: Int
        var serial: Int
        var hasChildren = false
        var hasText = false
        var textLength = 0
    }

    private var stack: [Open] = []
    /// Per depth, the start of the text of the open element there (reused buffers).
    private var texts: [[UInt8]] = []
    private var attributeValue: [UInt8] = []
    private var serial = 0
    private var fileIndex = 0
    private var skippedElements = 0
    private var skippedFields = 0
    // Per file (the parser interns names): element path by (parent, name, namespace)
    // pointers, field by (element, name, namespace) pointers.
    private var elementCache: [PointerKey: Int] = [:]
    private var fieldCache: [PointerKey: Int] = [:]
    private var namespaceIndex: [String: Int] = [:]
    /// The local names of the elements seen, lowercased: an attribute or child named like
    /// one (`label="L1"` beside `<label>` elements) may refer to it, so its values are hashed.
    private var elementNames: Set<String> = []

    private struct PointerKey: Hashable {
        var owner: Int
        var name: UInt
        var namespace: UInt
    }

    /// - Parameter hashBudget: the most value hashes kept in all (`DraftValueHashes`).
    init(hashBudget: Int = 2_000_000) {
        budget = DraftHashBudget(hashBudget)
    }

    /// Reads `file` to its end (HTML's named characters are known, the draft says when one
    /// was used). Throws the file's `InputError`, or the `XMLSyntaxError` that stopped it.
    func read(_ file: InputFile) throws {
        fileIndex = structure.files.count
        structure.files.append(file.name)
        elementCache = [:]
        fieldCache = [:]
        stack = []
        let parser = XMLPushParser(file: file.displayPath, handler: self, entities: .html)
        defer { if parser.entities.usedHTML { structure.usesHTMLEntities = true } }
        try parser.parse(try file.open())
    }

    /// The structure read, with notes on what the limits left out.
    func finish() -> XMLStructure {
        var result = structure
        result.skippedElements = skippedElements
        if skippedElements > 0 {
            result.notes.append(
                """
                more than \(Self.elementLimit) distinct element paths: \(skippedElements) elements at further \
                paths are not described
                """
            )
        }
        if skippedFields > 0 {
            result.notes.append(
                """
                more than \(Self.fieldLimit) distinct attributes: \(skippedFields) values of further ones are not \
                described
                """
            )
        }
        if budget.remaining <= 1 {
            result.notes.append(
                """
                the values checked for keys and references were too many to keep all: a field whose values were \
                not all kept is no key, and a reference from it keeps the values that name no row
                """
            )
        }
        return result
    }

    // MARK: Events

    func startElement(_ tag: XMLStartTag, parser: XMLPushParser) {
        serial += 1
        let parentIndex = stack.count - 1
        let parent = parentIndex >= 0 ? stack[parentIndex].element : -1
        if parentIndex >= 0 { stack[parentIndex].hasChildren = true }
        var element = -1
        if parentIndex < 0 || parent >= 0 {
            element = elementPath(parent: parent, tag: tag)
        }
        if element >= 0 {
            count(element, parentSerial: parentIndex >= 0 ? stack[parentIndex].serial : -fileIndex - 2)
            for index in 0..<tag.attributeCount { readAttribute(index, of: tag, element: element, parser: parser) }
        } else {
            skippedElements += 1
        }
        stack.append(Open(element: element, serial: serial))
        if texts.count < stack.count { texts.append([]) }
        texts[stack.count - 1].removeAll(keepingCapacity: true)
    }

    func characters(_ text: UnsafeRawBufferPointer, parser: XMLPushParser) {
        let depth = stack.count - 1
        guard depth >= 0 else { return }
        if !stack[depth].hasText {
            guard let start = text.firstIndex(where: { !Self.isSpace($0) }) else {
                // Leading white space is not kept, but a value in several pieces keeps its inner spaces.
                return
            }
            stack[depth].hasText = true
            append(UnsafeRawBufferPointer(rebasing: text[start...]), depth: depth)
        } else {
            append(text, depth: depth)
        }
    }

    func endElement(parser: XMLPushParser) {
        guard let open = stack.popLast() else { return }
        let element = open.element
        guard element >= 0 else { return }
        if open.hasChildren { structure.elements[element].withChildren += 1 }
        if open.hasText { structure.elements[element].withText += 1 }
        if open.hasChildren && open.hasText { structure.elements[element].mixed += 1 }
        guard open.hasText else { return }
        let depth = stack.count
        if structure.elements[element].text == nil {
            guard structure.fields.count < Self.fieldLimit else {
                skippedFields += 1
                return
            }
            let name = structure.elements[element].name.localName
            structure.elements[element].text = structure.fields.count
            var field = XMLStructure.Field(element: element, attribute: nil)
            if mayBeKeyOrReference(name: name, element: name) { field.profile.hashes = DraftValueHashes() }
            structure.fields.append(field)
        }
        let field = structure.elements[element].text!
        if open.textLength > Self.textPrefix {
            texts[depth].withUnsafeBytes { structure.fields[field].profile.addLong($0, length: open.textLength) }
            return
        }
        var end = texts[depth].count
        while end > 0, Self.isSpace(texts[depth][end - 1]) { end -= 1 }
        texts[depth].withUnsafeBytes { bytes in
            structure.fields[field].profile.add(
                UnsafeRawBufferPointer(rebasing: bytes[0..<end]), file: fileIndex, budget: budget)
        }
    }

    // MARK: Paths and fields

    private func append(_ text: UnsafeRawBufferPointer, depth: Int) {
        stack[depth].textLength += text.count
        let room = Self.textPrefix + 1 - texts[depth].count
        if room > 0 { texts[depth].append(contentsOf: text.prefix(room)) }
    }

    /// The element path of `tag` under `parent`, added when new (-1 past the limit).
    private func elementPath(parent: Int, tag: XMLStartTag) -> Int {
        let key = PointerKey(
            owner: parent, name: UInt(bitPattern: tag.localName),
            namespace: tag.namespace.map { UInt(bitPattern: $0) } ?? 0)
        if let known = elementCache[key] { return known }
        let name = XMLStructure.Name(
            localName: Self.string(tag.localName), namespace: tag.namespace.map(Self.string) ?? "")
        let siblings =
            parent >= 0
            ? structure.elements[parent].children
            : structure.elements.indices.filter { structure.elements[$0].parent == -1 }
        var found = siblings.first { structure.elements[$0].name == name }
        if found == nil && structure.elements.count < Self.elementLimit {
            found = structure.elements.count
            structure.elements.append(
                XMLStructure.Element(parent: parent, name: name, prefix: tag.prefix.map(Self.string)))
            if parent >= 0 { structure.elements[parent].children.append(found!) }
            elementNames.insert(name.localName.lowercased())
            noteNamespace(name.namespace, prefix: tag.prefix)
        }
        elementCache[key] = found ?? -1
        return found ?? -1
    }

    /// Counts an occurrence of `element` inside the parent occurrence `parentSerial`.
    private func count(_ element: Int, parentSerial: Int) {
        structure.elements[element].count += 1
        if structure.elements[element].lastParentSerial == parentSerial {
            structure.elements[element].countInParent += 1
        } else {
            structure.elements[element].lastParentSerial = parentSerial
            structure.elements[element].countInParent = 1
        }
        structure.elements[element].maxPerParent = max(
            structure.elements[element].maxPerParent, structure.elements[element].countInParent)
        if structure.elements[element].files.last != fileIndex {
            if structure.elements[element].files.count < XMLStructure.fileLimit {
                structure.elements[element].files.append(fileIndex)
            } else {
                structure.elements[element].moreFiles = true
            }
        }
    }

    private func readAttribute(_ index: Int, of tag: XMLStartTag, element: Int, parser: XMLPushParser) {
        let localName = tag.attributeLocalName(index), namespace = tag.attributeNamespace(index)
        let key = PointerKey(
            owner: element, name: UInt(bitPattern: localName), namespace: namespace.map { UInt(bitPattern: $0) } ?? 0)
        var field = fieldCache[key]
        if field == nil {
            let name = XMLStructure.Name(localName: Self.string(localName), namespace: namespace.map(Self.string) ?? "")
            field = structure.elements[element].attributes.first { structure.fields[$0].attribute == name }
            if field == nil && structure.fields.count < Self.fieldLimit {
                field = structure.fields.count
                var new = XMLStructure.Field(
                    element: element, attribute: name, prefix: tag.attributePrefix(index).map(Self.string))
                if mayBeKeyOrReference(name: name.localName, element: structure.elements[element].name.localName) {
                    new.profile.hashes = DraftValueHashes()
                }
                structure.fields.append(new)
                structure.elements[element].attributes.append(field!)
                noteNamespace(name.namespace, prefix: tag.attributePrefix(index))
            }
            fieldCache[key] = field ?? -1
        }
        guard let field, field >= 0 else {
            skippedFields += 1
            return
        }
        XMLText.decodeAttribute(tag.attributeValue(index), into: &attributeValue, entities: parser.entities)
        attributeValue.withUnsafeBytes { bytes in
            structure.fields[field].profile.add(ValueConverter.trim(bytes), file: fileIndex, budget: budget)
        }
    }

    private func noteNamespace(_ uri: String, prefix: UnsafePointer<xmlChar>?) {
        guard !uri.isEmpty, namespaceIndex[uri] == nil else { return }
        namespaceIndex[uri] = structure.namespaces.count
        structure.namespaces.append((uri, prefix.map(Self.string)))
    }

    /// Names that may hold a key (`id`, `key`, `<element>Id`) or a reference (`OwnerUserId`,
    /// `ref`, `LineRef/@ref`, an element's name): their values are hashed.
    private func mayBeKeyOrReference(name: String, element: String) -> Bool {
        let name = name.lowercased(), element = element.lowercased()
        if elementNames.contains(name) && name != element { return true }
        if ["id", "key", "uuid", "guid", "ref", "idref"].contains(name) { return true }
        if name.count > 2 && (name.hasSuffix("id") || name.hasSuffix("ref")) { return true }
        return element.hasSuffix("ref")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 10 || byte == 13 || byte == 9 }

    private static func string(_ name: UnsafePointer<xmlChar>) -> String {
        String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
    }
}
