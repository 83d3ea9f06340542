import Foundation

/// The root element of an XML file (its local name and namespace URI), read from the first
/// bytes of the file without parsing it: enough to recognise a format (NeTEx's
/// `PublicationDelivery`, TransXChange's `TransXChange`) and pick a built-in schema.
struct XMLRootElement: Equatable {
    var localName: String
    /// The namespace URI of the root's prefix (or of the default namespace); nil for none.
    var namespace: String?

    /// How much of the file is read at most: comments and a long prolog fit.
    static let peekLength = 65_536

    /// The root element of `file`, or nil when it is not XML (or the start tag is not in the
    /// first `peekLength` bytes).
    static func of(_ file: InputFile) -> XMLRootElement? {
        guard let source = try? file.open() else { return nil }
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 1)
        defer { buffer.deallocate() }
        while bytes.count < peekLength, let count = try? source.read(into: buffer), count > 0 {
            bytes.append(contentsOf: buffer[0..<count])
        }
        return parse(bytes)
    }

    /// The root element's start tag in `bytes`, skipping the declaration, comments,
    /// processing instructions and the DOCTYPE.
    static func parse(_ bytes: [UInt8]) -> XMLRootElement? {
        var text = Substring(String(decoding: bytes, as: UTF8.self))
        while let open = text.firstIndex(of: "<") {
            text = text[open...]
            if text.hasPrefix("<?") {
                guard let end = text.range(of: "?>") else { return nil }
                text = text[end.upperBound...]
            } else if text.hasPrefix("<!--") {
                guard let end = text.range(of: "-->") else { return nil }
                text = text[end.upperBound...]
            } else if text.hasPrefix("<!") {
                guard let end = text.firstIndex(of: ">") else { return nil }
                text = text[text.index(after: end)...]
            } else {
                guard let end = text.firstIndex(of: ">") else { return nil }
                return startTag(text[text.index(after: text.startIndex)..<end])
            }
        }
        return nil
    }

    private static func startTag(_ tag: Substring) -> XMLRootElement? {
        let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
        guard !name.isEmpty else { return nil }
        let prefix = name.firstIndex(of: ":").map { String(name[..<$0]) }
        let local = prefix.map { String(name.dropFirst($0.count + 1)) } ?? String(name)
        let wanted = prefix.map { "xmlns:" + $0 } ?? "xmlns"
        var namespace: String?
        var rest = tag.dropFirst(name.count)
        // Attributes: name="value" or name='value'.
        while let equals = rest.firstIndex(of: "=") {
            let attribute = rest[..<equals].trimmingCharacters(in: .whitespacesAndNewlines)
            var value = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = value.first, quote == "\"" || quote == "'" else { break }
            value = value.dropFirst()
            guard let close = value.firstIndex(of: quote) else { break }
            if attribute == wanted { namespace = String(value[..<close]) }
            rest = value[value.index(after: close)...]
        }
        return XMLRootElement(localName: local, namespace: namespace)
    }
}
