import CLibXML2

/// The named entities one document may use beyond XML's five, handed to libxml2 when it
/// meets a reference (its `getEntity` callback): HTML's named character references with
/// `entities: html`, and the plain-text internal entities the document's DTD declares.
///
/// Only text is ever substituted, never markup, and never more than a bound: a declared
/// entity must be an internal general entity whose text (after libxml2 replaced its
/// character references) holds no `&` and no `<`, so no expansion can nest ("billion
/// laughs"); all declarations together hold at most `declaredLimit` bytes; and the text
/// substituted stays below `expansionLimit(read:)`. Anything else is refused, as before.
///
/// libxml2 gets two C entities per name, both owned (and freed) here: in text, one typed
/// as predefined, which it hands on as characters at once; in an attribute value, where
/// it would copy only the first byte of a predefined one, a general one, which it leaves
/// as `&name;` for `XMLText.decodeAttribute` to replace (`replacement(for:)`).
final class XMLEntityTable {
    /// The most bytes of entity text a document's DTD may declare in all (1 MiB).
    static let declaredLimit = 1 << 20

    /// Whether HTML's named character references are known (`entities: html`).
    let html: Bool
    private var declared: [String: [UInt8]] = [:]
    private var declaredBytes = 0
    /// Bytes of entity text substituted so far.
    private(set) var expandedBytes = 0
    /// True once a reference named one of HTML's characters (not declared by the DTD).
    private(set) var usedHTML = false
    /// Per name, as the parser's dictionary interns it: the C entities for text and attributes.
    private var entities: [UInt: (text: UnsafeMutablePointer<xmlEntity>, attribute: UnsafeMutablePointer<xmlEntity>)] =
        [:]

    init(html: Bool) {
        self.html = html
    }

    deinit {
        for (text, attribute) in entities.values {
            for entity in [text, attribute] {
                clibxml2_free(UnsafeMutableRawPointer(mutating: entity.pointee.name))
                clibxml2_free(entity.pointee.content)
                // libxml2 hands a declared entity its literal when it meets the declaration.
                if let orig = entity.pointee.orig { clibxml2_free(orig) }
                entity.deallocate()
            }
        }
    }

    /// True when no entity beyond XML's five can be known: no HTML names, nothing declared.
    var isEmpty: Bool { !html && declared.isEmpty }

    /// The most entity text a document may have substituted after `read` bytes of it: the
    /// declarations are bounded, so this bounds what references to them can make (an
    /// entity of 1 KiB referenced ten thousand times). HTML characters never pass it.
    static func expansionLimit(read: Int) -> Int {
        (16 << 20) + 16 * read
    }

    /// Registers the DTD declaration of `name`; returns why it is refused, or nil.
    func declare(name: String, type: xmlEntityType, systemID: String?, content: [UInt8]?) -> String? {
        let refused =
            "; only plain-text internal entities are read, so that no file is read and no expansion can exhaust memory"
        switch type {
        case XML_INTERNAL_GENERAL_ENTITY:
            break
        case XML_INTERNAL_PARAMETER_ENTITY, XML_EXTERNAL_PARAMETER_ENTITY:
            return "the document declares the parameter entity '%\(name)'\(refused)"
        default:
            let external = systemID.map { " (it names '\($0)')" } ?? ""
            return "the document declares the external entity '\(name)'\(external)\(refused)"
        }
        guard let content else { return "the document declares the entity '\(name)' without text\(refused)" }
        if let reference = content.firstIndex(of: UInt8(ascii: "&")) {
            let end =
                content[reference...].firstIndex(of: UInt8(ascii: ";")).map { $0 + 1 }
                ?? min(content.count, reference + 20)
            let shown = String(decoding: content[reference..<end], as: UTF8.self)
            return
                "the document declares the entity '\(name)', whose text refers to another entity ('\(shown)')\(refused)"
        }
        if content.contains(UInt8(ascii: "<")) {
            return "the document declares the entity '\(name)', whose text holds markup ('<')\(refused)"
        }
        guard declaredBytes + content.count <= Self.declaredLimit else {
            return "the entities the document declares hold more than \(Self.declaredLimit) bytes of text\(refused)"
        }
        // XML: the first declaration of a name binds it.
        guard declared[name] == nil else { return nil }
        declared[name] = content
        declaredBytes += content.count
        return nil
    }

    /// The C entity libxml2 should use for a reference to `name` (interned by the parser),
    /// in an attribute value or in text; nil when the name is unknown.
    func entity(named name: UnsafePointer<xmlChar>, inAttribute: Bool) -> UnsafeMutablePointer<xmlEntity>? {
        let key = UInt(bitPattern: name)
        if let known = entities[key] {
            expandedBytes += Int(known.text.pointee.length)
            return inAttribute ? known.attribute : known.text
        }
        let string = String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
        guard let text = replacement(named: string) else { return nil }
        let pair = (
            text: Self.make(name, text, type: XML_INTERNAL_PREDEFINED_ENTITY),
            attribute: Self.make(name, text, type: XML_INTERNAL_GENERAL_ENTITY)
        )
        entities[key] = pair
        expandedBytes += text.count
        return inAttribute ? pair.attribute : pair.text
    }

    /// The text of the entity whose name is `name` (the bytes between `&` and `;`), for an
    /// attribute value in which libxml2 left the reference; nil when it is unknown.
    func replacement(for name: UnsafeRawBufferPointer) -> [UInt8]? {
        replacement(named: String(decoding: name, as: UTF8.self))
    }

    private func replacement(named name: String) -> [UInt8]? {
        if let text = declared[name] { return text }
        guard html, let text = HTMLCharacterEntities.table[name] else { return nil }
        usedHTML = true
        return text
    }

    private static func make(
        _ name: UnsafePointer<xmlChar>, _ text: [UInt8], type: xmlEntityType
    ) -> UnsafeMutablePointer<xmlEntity> {
        let entity = UnsafeMutablePointer<xmlEntity>.allocate(capacity: 1)
        entity.initialize(to: xmlEntity())
        entity.pointee.type = XML_ENTITY_DECL
        entity.pointee.etype = type
        entity.pointee.name = UnsafePointer(xmlStrdup(name))
        entity.pointee.content = text.withUnsafeBufferPointer { xmlStrndup($0.baseAddress, Int32($0.count)) }
        entity.pointee.length = Int32(text.count)
        return entity
    }
}
