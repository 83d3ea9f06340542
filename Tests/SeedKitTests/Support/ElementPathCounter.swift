import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Counts elements by their full path from the root (each step a namespace and a local
/// name) with Foundation's `XMLParser`: a reader independent of seedgen's, to check the row
/// counts of a schema whose tables name element paths.
final class ElementPathCounter: NSObject, XMLParserDelegate {
    struct Step: Hashable {
        var namespace: String
        var localName: String
    }

    /// Elements per path.
    private(set) var counts: [[Step]: Int] = [:]
    private var stack: [Step] = []

    /// Counts the elements of each file in `paths`.
    static func count(files paths: [String]) -> [[Step]: Int] {
        let counter = ElementPathCounter()
        for path in paths {
            let parser = XMLParser(contentsOf: URL(fileURLWithPath: path))!
            parser.shouldProcessNamespaces = true
            parser.delegate = counter
            counter.stack = []
            precondition(parser.parse(), "XMLParser failed on \(path): \(String(describing: parser.parserError))")
        }
        return counter.counts
    }

    /// How many counted elements match one of `patterns`: element paths as a schema writes
    /// them (`/feed/entry` from the root, `nd` or `way/nd` at any depth; `p:name` in the
    /// namespace `namespaces[p]`, `name` in any).
    static func matching(_ patterns: [String], namespaces: [String: String], in counts: [[Step]: Int]) -> Int {
        let parsed = patterns.map { pattern -> (anchored: Bool, steps: [(namespace: String?, localName: String)]) in
            let steps = pattern.split(separator: "/").map { step -> (String?, String) in
                let parts = step.split(separator: ":", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (namespaces[parts[0]], parts[1]) : (nil, parts[0])
            }
            return (pattern.hasPrefix("/"), steps)
        }
        var total = 0
        for (path, count) in counts {
            let matches = parsed.contains { pattern in
                guard pattern.anchored ? path.count == pattern.steps.count : path.count >= pattern.steps.count else { return false }
                return zip(path.suffix(pattern.steps.count), pattern.steps).allSatisfy { step, wanted in
                    step.localName == wanted.localName && (wanted.namespace == nil || wanted.namespace == step.namespace)
                }
            }
            if matches { total += count }
        }
        return total
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        stack.append(Step(namespace: namespaceURI ?? "", localName: elementName))
        counts[stack, default: 0] += 1
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        stack.removeLast()
    }
}
