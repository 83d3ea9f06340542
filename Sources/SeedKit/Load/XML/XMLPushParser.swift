import CLibXML2

/// Receives the events of one XML document, in document order, each with the parser that
/// reports it (for its place, or to stop it).
protocol XMLEventHandler: AnyObject {
    /// An element starts; `tag` is valid only during the call.
    func startElement(_ tag: XMLStartTag, parser: XMLPushParser)
    /// The innermost open element ends.
    func endElement(parser: XMLPushParser)
    /// Text (or CDATA) inside the innermost open element; may come in several pieces.
    func characters(_ text: UnsafeRawBufferPointer, parser: XMLPushParser)
}

/// The start tag of an element as libxml2 reports it. Names are interned in the parser's
/// dictionary (see `XMLPushParser.intern`), so they can be compared by pointer.
struct XMLStartTag {
    let localName: UnsafePointer<xmlChar>
    let prefix: UnsafePointer<xmlChar>?
    let namespace: UnsafePointer<xmlChar>?
    let attributeCount: Int
    private let attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    /// The namespaces the tag declares (`xmlns:prefix="URI"`, `xmlns="URI"`).
    let declarationCount: Int
    private let declarations: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

    init(
        localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, namespace: UnsafePointer<xmlChar>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        declarationCount: Int = 0, declarations: UnsafeMutablePointer<UnsafePointer<xmlChar>?>? = nil
    ) {
        self.localName = localName
        self.prefix = prefix
        self.namespace = namespace
        self.attributeCount = attributes == nil ? 0 : attributeCount
        self.attributes = attributes
        self.declarationCount = declarations == nil ? 0 : declarationCount
        self.declarations = declarations
    }

    /// The URI of the namespace declaration `index` (libxml2 gives two pointers each:
    /// prefix, URI).
    func declaredNamespace(_ index: Int) -> UnsafePointer<xmlChar>? { declarations![2 * index + 1] }

    // libxml2 gives five pointers per attribute: local name, prefix, URI, value start, end.
    func attributeLocalName(_ index: Int) -> UnsafePointer<xmlChar> { attributes![5 * index]! }
    func attributePrefix(_ index: Int) -> UnsafePointer<xmlChar>? { attributes![5 * index + 1] }
    func attributeNamespace(_ index: Int) -> UnsafePointer<xmlChar>? { attributes![5 * index + 2] }

    /// The attribute's value. Character and predefined entity references are replaced,
    /// except `&amp;`, which libxml2 leaves as `&#38;` (see `XMLText.decodingAmpersands`).
    func attributeValue(_ index: Int) -> UnsafeRawBufferPointer {
        let start = attributes![5 * index + 3]!, end = attributes![5 * index + 4]!
        return UnsafeRawBufferPointer(start: start, count: end - start)
    }
}

/// Owns one libxml2 push parser (SAX2) and feeds it chunks of a document.
///
/// Safe for hostile input: a DOCTYPE may declare only plain-text internal entities, within
/// a bound (see `XMLEntityTable`); any other entity declaration is refused where it stands
/// (no nested expansion: no billion laughs; no external entity reads). Nothing is fetched
/// from the network or the file system, and libxml2's default limits (depth, name and
/// value sizes) stay on (no `XML_PARSE_HUGE`).
final class XMLPushParser {
    private let context: xmlParserCtxtPtr
    private unowned(unsafe) let handler: any XMLEventHandler // the importer owns the parser
    let file: String
    /// The entities the document may use beyond XML's five.
    let entities: XMLEntityTable
    /// The first error: libxml2's, a refusal, or one the handler raised with `stop`.
    @exclusivity(unchecked) private(set) var error: XMLSyntaxError? // read after every chunk, from one thread
    /// Bytes pushed so far (bounds entity expansion).
    private var bytesPushed = 0

    /// - Parameters:
    ///   - file: the input's name, for messages.
    ///   - handler: receives the events; must outlive the parser.
    ///   - entities: `.html` to read HTML's named character references (`Schema.entities`).
    init(file: String, handler: any XMLEventHandler, entities: Schema.Entities = .xml) {
        xmlInitParser()
        self.file = file
        self.handler = handler
        self.entities = XMLEntityTable(html: entities == .html)
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        // The event callbacks borrow the parser (no retain per event: millions of them).
        sax.startElementNs = {
            context, localName, prefix, namespace, declarationCount, declarations, attributeCount, _, attributes in
            Unmanaged<XMLPushParser>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                $0.handler.startElement(
                    XMLStartTag(
                        localName: localName!, prefix: prefix, namespace: namespace,
                        attributeCount: Int(attributeCount), attributes: attributes,
                        declarationCount: Int(declarationCount), declarations: declarations), parser: $0)
            }
        }
        sax.endElementNs = { context, _, _, _ in
            Unmanaged<XMLPushParser>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.handler.endElement(parser: $0) }
        }
        let characters: charactersSAXFunc = { context, text, length in
            guard let text, length > 0 else { return }
            Unmanaged<XMLPushParser>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                $0.handler.characters(UnsafeRawBufferPointer(start: text, count: Int(length)), parser: $0)
            }
        }
        sax.characters = characters
        sax.cdataBlock = characters
        sax.ignorableWhitespace = characters
        sax.entityDecl = { context, name, type, _, systemID, content in
            let parser = XMLPushParser.from(context)
            let text = content.map { Array(UnsafeBufferPointer(start: $0, count: Int(xmlStrlen($0)))) }
            if let refusal = parser.entities.declare(
                name: name.map { String(cString: $0) } ?? "?", type: xmlEntityType(UInt32(type)),
                systemID: systemID.map { String(cString: $0) }, content: text)
            {
                parser.refuse(refusal)
            }
        }
        sax.getEntity = { context, name in
            let parser = XMLPushParser.from(context)
            guard let name, !parser.entities.isEmpty else { return nil }
            let inAttribute = parser.context.pointee.instate == XML_PARSER_ATTRIBUTE_VALUE
            let entity = parser.entities.entity(named: name, inAttribute: inAttribute)
            if entity != nil && parser.entities.expandedBytes > XMLEntityTable.expansionLimit(read: parser.bytesPushed)
            {
                parser.refuse(
                    "entity references expand to more than \(XMLEntityTable.expansionLimit(read: parser.bytesPushed)) "
                        + "bytes "
                            + """
                            after \(parser.bytesPushed) bytes of the document; refused, so that no expansion can \
                            exhaust memory
                            """
                )
                return nil
            }
            return entity
        }
        sax.unparsedEntityDecl = { context, name, _, _, _ in
            XMLPushParser.from(context).refuse(
                """
                the document declares the unparsed entity '\(name.map { String(cString: $0) } ?? "?")'; entity \
                declarations are refused
                """
            )
        }
        sax.serror = { context, error in
            guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let parser = XMLPushParser.from(context)
            var message = error.pointee.message.map { String(cString: $0) } ?? "not well-formed XML"
            while message.last?.isWhitespace == true { message.removeLast() }
            if [XML_ERR_UNDECLARED_ENTITY.rawValue, XML_WAR_UNDECLARED_ENTITY.rawValue].contains(
                UInt32(error.pointee.code)), !parser.entities.html,
                let name = error.pointee.str1.map({ String(cString: $0) }), HTMLCharacterEntities.table[name] != nil
            {
                message += " (it is one of HTML's named characters: add 'entities: html' to the schema)"
            }
            let column = error.pointee.int2 > 0 ? Int(error.pointee.int2) : nil
            parser.fail(
                XMLSyntaxError(
                    file: parser.file, line: max(1, Int(error.pointee.line)), column: column, message: message))
        }
        context = file.withCString { xmlCreatePushParserCtxt(&sax, nil, nil, 0, $0) }
        // Never XML_PARSE_NOENT (substitute entities), DTDLOAD, DTDATTR or HUGE.
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        context.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        // In SAX mode libxml2 keeps declared entities in a document of its own; a parser
        // stopped early may not have freed it.
        if let document = context.pointee.myDoc {
            context.pointee.myDoc = nil
            xmlFreeDoc(document)
        }
        xmlFreeParserCtxt(context)
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> XMLPushParser {
        Unmanaged<XMLPushParser>.fromOpaque(context!).takeUnretainedValue()
    }

    /// The name as the parser's dictionary holds it: tags naming it carry this pointer.
    func intern(_ name: String) -> UnsafePointer<xmlChar> {
        name.withCString {
            xmlDictLookup(context.pointee.dict, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), -1)!
        }
    }

    /// The line the parser is at (during a callback: the end of the current tag or text).
    var line: Int { Int(xmlSAX2GetLineNumber(context)) }
    /// The column the parser is at.
    var column: Int { Int(xmlSAX2GetColumnNumber(context)) }

    /// Parses the next chunk; `final` after the last one (it may be empty).
    func push(_ bytes: UnsafeRawBufferPointer, final: Bool) throws(XMLSyntaxError) {
        guard error == nil else { throw error! }
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        bytesPushed += bytes.count
        let status = xmlParseChunk(context, base, Int32(bytes.count), final ? 1 : 0)
        if let error { throw error }
        if status != 0 {
            throw XMLSyntaxError(
                file: file, line: line, column: column, message: "not well-formed XML (libxml2 error \(status))")
        }
    }

    /// Stops parsing with `error` (kept only if it is the first).
    func fail(_ error: XMLSyntaxError) {
        if self.error == nil { self.error = error }
        xmlStopParser(context)
    }

    private func refuse(_ message: String) {
        fail(XMLSyntaxError(file: file, line: line, column: column, message: message))
    }
}

extension XMLPushParser {
    /// The size of the chunks `parse` reads (256 KiB).
    static let chunkSize = 1 << 18

    /// Reads `source` to its end in chunks and parses them. Throws the source's
    /// `InputError`, or the `XMLSyntaxError` that stopped parsing.
    func parse(_ source: some ByteSource) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try source.read(into: buffer)
            try push(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), final: count == 0)
            if count == 0 { break }
        }
    }
}
