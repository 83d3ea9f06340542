import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Counts elements with Foundation's `XMLParser`, a reader independent of seedgen's
/// streaming importer, so row counts can be checked against the XML itself.
final class ElementCounter: NSObject, XMLParserDelegate {
    /// Per pattern (local names, outermost first, matching the innermost open elements; `*`
    /// is any name): how many elements in `namespace` end such a path.
    private(set) var counts: [String: Int] = [:]
    /// Per pattern: the distinct values of the attributes `keyAttributes` names (joined), of
    /// the elements that have the first of them.
    private(set) var keys: [String: Set<String>] = [:]
    /// The attributes that together identify an element (`id`, `order`), or none.
    var keyAttributes: [String] = []
    private let patterns: [String: [[String]]]
    private let namespace: String
    private var stack: [String] = []

    /// - Parameters:
    ///   - patterns: per name (a table), the element paths counted for it (`["dayTypes", "DayTypeRef"]`).
    ///   - namespace: the namespace every element of a path must be in.
    init(patterns: [String: [[String]]], namespace: String) {
        self.patterns = patterns
        self.namespace = namespace
    }

    /// Counts the elements of every document in `documents`.
    static func count(_ documents: [Data], patterns: [String: [[String]]], namespace: String) -> [String: Int] {
        let counter = ElementCounter(patterns: patterns, namespace: namespace)
        counter.parse(documents)
        return counter.counts
    }

    /// Per pattern: how many distinct objects the elements are, told apart by the values of
    /// `keyAttributes` (`["id", "version"]`) over all `documents`: what a data set with its
    /// repeated objects merged holds. Elements without the first attribute count one each.
    static func countDistinct(_ documents: [Data], patterns: [String: [[String]]], namespace: String,
                              keyAttributes: [String]) -> [String: Int] {
        let counter = ElementCounter(patterns: patterns, namespace: namespace)
        counter.keyAttributes = keyAttributes
        counter.parse(documents)
        var result = counter.counts
        for (name, keys) in counter.keys { result[name, default: 0] += keys.count }
        return result
    }

    private func parse(_ documents: [Data]) {
        for document in documents {
            let parser = XMLParser(data: document)
            parser.shouldProcessNamespaces = true
            parser.delegate = self
            stack = []
            precondition(parser.parse(), "XMLParser failed: \(String(describing: parser.parserError))")
        }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        stack.append(namespaceURI == namespace ? elementName : "\u{0}")
        func matches(_ path: [String]) -> Bool {
            guard stack.count >= path.count else { return false }
            return zip(stack.suffix(path.count), path).allSatisfy { $0 != "\u{0}" && ($1 == "*" || $0 == $1) }
        }
        for (name, paths) in patterns where paths.contains(where: matches) {
            if let first = keyAttributes.first, attributeDict[first] != nil {
                keys[name, default: []].insert(keyAttributes.map { attributeDict[$0] ?? "" }.joined(separator: "\u{1}"))
            } else {
                counts[name, default: 0] += 1
            }
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        stack.removeLast()
    }
}
