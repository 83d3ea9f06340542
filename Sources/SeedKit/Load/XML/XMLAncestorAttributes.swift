import CLibXML2

/// The attributes of open elements that records inside them read as an enclosing element's
/// value (`../@id`, `ancestor::Name/@id`, the schema's `XMLMapping.ancestorWants`), kept for
/// every open element by depth. Empty unless the schema reads such paths.
struct XMLAncestorAttributes {
    private let wants: [(element: XMLMapping.NameTest?, attribute: XMLMapping.NameTest)]
    /// Per open element (by depth) and want: the attribute's value, whether the element had
    /// it, and whether the element is one the want names (always, for `../@id`).
    private var values: [[UInt8]] = []
    private var present: [Bool] = []
    private var named: [Bool] = []

    init(wants: [(element: XMLMapping.NameTest?, attribute: XMLMapping.NameTest)]) {
        self.wants = wants
    }

    /// True when the schema reads no enclosing element's attribute.
    var isEmpty: Bool { wants.isEmpty }

    /// Keeps the wanted attributes of the element `tag` (its local name numbered `local`)
    /// opened at `depth`, replacing those of the previous element at that depth.
    mutating func keep(_ tag: XMLStartTag, local: Int, depth: Int, names: XMLInternedNames, entities: XMLEntityTable?) {
        let base = (depth - 1) * wants.count
        if present.count < base + wants.count {
            present.append(contentsOf: repeatElement(false, count: base + wants.count - present.count))
            named.append(contentsOf: repeatElement(false, count: base + wants.count - named.count))
            values.append(contentsOf: repeatElement([], count: base + wants.count - values.count))
        }
        for (index, want) in wants.enumerated() {
            present[base + index] = false
            named[base + index] = true
            if let element = want.element,
                !names.matches(element, local: local, namespace: tag.namespace, prefix: tag.prefix)
            {
                named[base + index] = false
                continue
            }
            for attribute in 0..<tag.attributeCount
            where names.matches(
                want.attribute, local: names.number(of: tag.attributeLocalName(attribute)),
                namespace: tag.attributeNamespace(attribute), prefix: tag.attributePrefix(attribute))
            {
                values[base + index].removeAll(keepingCapacity: true)
                XMLText.decodeAttribute(tag.attributeValue(attribute), into: &values[base + index], entities: entities)
                present[base + index] = true
                break
            }
        }
    }

    /// The kept value `source` reads for a record whose element is at `recordDepth`, or nil
    /// when the enclosing element does not have the attribute.
    func value(_ source: XMLMapping.AncestorSource, recordDepth: Int) -> [UInt8]? {
        var depth = recordDepth - source.levels
        if source.levels == 0, wants[source.want].element != nil {
            // The nearest enclosing element the want names.
            depth = recordDepth - 1
            while depth >= 1 && !named[(depth - 1) * wants.count + source.want] { depth -= 1 }
        }
        guard depth >= 1 else { return nil }
        let index = (depth - 1) * wants.count + source.want
        return index < present.count && present[index] ? values[index] : nil
    }
}
