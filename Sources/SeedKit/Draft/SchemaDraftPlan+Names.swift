/// Table and column names of a draft: SQL identifiers from XML names, alike names told apart,
/// and element and attribute names as the schema's paths write them (with namespace prefixes).
extension SchemaDraftPlan {
    mutating func nameTables() {
        var names: [String] = tables.map { Self.identifier($0.elementName.localName) }
        // Alike names: a top-level list takes its wrapper's name (`users/row` -> users), a
        // nested one the element of its parent table (`release_artist`, `trkseg_trkpt`), then
        // that and the wrapper between them when it is another name; never a name twice
        // in a row (not `trk_trkseg_trkseg_trkpt`). What is still alike is numbered.
        for round in 0..<2 {
            var seen: [String: [Int]] = [:]
            for index in names.indices { seen[names[index], default: []].append(index) }
            for (_, indexes) in seen where indexes.count > 1 {
                for index in indexes {
                    let table = tables[index]
                    let element = Self.identifier(table.elementName.localName)
                    let wrapper = table.parentName.map { Self.identifier($0.localName) }
                    let parent = table.parent.map { Self.identifier(tables[$0].elementName.localName) }
                    switch (round, parent, wrapper) {
                    case (0, nil, let wrapper?):
                        // The wrapper's name, unless another table is named after such an element.
                        let onlyList =
                            tables.filter { $0.parentName == table.parentName && $0.parent == nil }.count == 1
                            && !tables.contains { Self.identifier($0.elementName.localName) == wrapper }
                        names[index] = onlyList ? wrapper : Self.joined([wrapper, element])
                    case (0, let parent?, _):
                        names[index] = Self.joined([parent, element])
                    case (1, let parent?, let wrapper?):
                        names[index] = Self.joined([parent, wrapper, element])
                    default:
                        break
                    }
                }
            }
        }
        var used = Set<String>()
        for index in names.indices {
            var name = names[index]
            if ["sqlite_", "seedgen_"].contains(where: name.hasPrefix) { name = "x_" + name }
            name = Self.unique(name, in: &used)
            tables[index].name = name
        }
    }

    /// `parts` joined by `_`, each once where it repeats the one before it.
    static func joined(_ parts: [String]) -> String {
        var kept: [String] = []
        for part in parts where kept.last != part { kept.append(part) }
        return kept.joined(separator: "_")
    }

    mutating func nameColumns(_ table: Int) {
        var used: Set<String> = ["id"] // the row id
        if let parent = tables[table].parent { used.insert(tables[parent].name + "_ref") }
        for index in tables[table].columns.indices {
            let column = tables[table].columns[index]
            if !column.name.isEmpty {
                used.insert(column.name)
                continue
            }
            let steps = column.source.split(separator: "/").map { step -> String in
                let name = step.hasPrefix("@") ? String(step.dropFirst()) : String(step)
                return Self.identifier(String(name.split(separator: ":").last ?? Substring(name)))
            }
            var candidates: [String] = []
            if column.source == "." {
                candidates.append(Self.identifier(tables[table].elementName.localName))
                candidates.append("value")
            } else {
                // The shortest tail of the path that names it (an attribute of a child keeps
                // the child's name: price_amount), without a repeated word (line_ref_ref).
                let minimum = column.source.hasPrefix("@") || !column.source.contains("@") ? 1 : 2
                for length in minimum...max(minimum, steps.count) where length <= steps.count {
                    candidates.append(Self.collapse(steps.suffix(length)))
                }
            }
            var name = candidates.first { !used.contains($0) && $0 != "id" } ?? candidates.last ?? "value"
            if name == "id" { name = "xml_id" }
            name = Self.unique(name, in: &used)
            tables[table].columns[index].name = name
        }
    }

    /// Joins name parts with `_`, dropping a part that the previous one ends with
    /// (`line_ref` + `ref` is `line_ref`).
    static func collapse(_ parts: ArraySlice<String>) -> String {
        var result = ""
        for part in parts {
            if result.isEmpty { result = part; continue }
            if result == part || result.hasSuffix("_" + part) { continue }
            result += "_" + part
        }
        return result
    }

    /// `name`, or `name_2`, `name_3`, ... when taken; marks the result taken.
    static func unique(_ name: String, in used: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while used.contains(candidate) {
            candidate = "\(name)_\(number)"
            number += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// An SQL identifier from an XML name: snake case (`PostHistory` -> post_history,
    /// `OwnerUserId` -> owner_user_id), ASCII letters, digits and `_`, not starting with a digit.
    static func identifier(_ name: String) -> String {
        var result = ""
        let scalars = Array(name.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let isUpper = scalar.value >= 65 && scalar.value <= 90
            let isLower = scalar.value >= 97 && scalar.value <= 122
            let isDigit = scalar.value >= 48 && scalar.value <= 57
            if isUpper, index > 0 {
                let previous = scalars[index - 1]
                let previousLowerOrDigit =
                    (previous.value >= 97 && previous.value <= 122) || (previous.value >= 48 && previous.value <= 57)
                let nextLower =
                    index + 1 < scalars.count && scalars[index + 1].value >= 97 && scalars[index + 1].value <= 122
                let previousUpper = previous.value >= 65 && previous.value <= 90
                if previousLowerOrDigit || (previousUpper && nextLower) { result.append("_") }
            }
            if isUpper || isLower || isDigit {
                result.unicodeScalars.append(isUpper ? Unicode.Scalar(scalar.value + 32)! : scalar)
            } else {
                result.append("_")
            }
        }
        let parts = result.split(separator: "_").filter { !$0.isEmpty }
        result = parts.joined(separator: "_")
        if result.isEmpty { result = "x" }
        if let first = result.unicodeScalars.first, first.value >= 48 && first.value <= 57 { result = "x_" + result }
        return result
    }

    mutating func assignPrefixes() {
        var used = Set<String>()
        for (uri, documentPrefix) in structure.namespaces {
            var prefix = documentPrefix ?? "ns"
            if uri == "http://www.w3.org/XML/1998/namespace" { prefix = "xml" }
            if used.contains(prefix) || prefix.isEmpty {
                var number = 1
                while used.contains("\(prefix)\(number)") { number += 1 }
                prefix = "\(prefix)\(number)"
            }
            used.insert(prefix)
            prefixes.append((prefix, uri))
        }
        // An element in no namespace beside one named alike in a namespace: an unprefixed
        // name would match both, so it is written with a prefix mapped to no namespace.
        let clash = structure.elements.indices.contains { element in
            structure.elements[element].name.namespace.isEmpty && hasNamesake(element)
        }
        if clash {
            var prefix = "none", number = 1
            while used.contains(prefix) { prefix = "none\(number)"; number += 1 }
            prefixes.append((prefix, ""))
        }
    }

    /// True when a sibling of `element` (a root, for a root) has its local name in another namespace.
    func hasNamesake(_ element: Int) -> Bool {
        let node = structure.elements[element]
        let siblings =
            node.parent >= 0
            ? structure.elements[node.parent].children
            : structure.elements.indices.filter { structure.elements[$0].parent == -1 }
        return siblings.contains { $0 != element && structure.elements[$0].name.localName == node.name.localName }
    }

    func prefix(of uri: String) -> String? {
        prefixes.first { $0.uri == uri }?.prefix
    }

    /// An element's name in paths: its local name, prefixed when a sibling has the same
    /// local name in another namespace (an unprefixed name matches any namespace; the
    /// prefix of no namespace maps to `""`).
    func writtenName(_ element: Int) -> String {
        let node = structure.elements[element]
        guard hasNamesake(element), let prefix = prefix(of: node.name.namespace) else { return node.name.localName }
        return prefix + ":" + node.name.localName
    }

    func writtenAttribute(_ field: XMLStructure.Field) -> String {
        guard let name = field.attribute else { return "" }
        guard !name.namespace.isEmpty, let prefix = prefix(of: name.namespace) else { return name.localName }
        return prefix + ":" + name.localName
    }

    /// True when the short form of a table's element, `parent/element` at any depth, reads
    /// its elements, and them alone: they are all written alike, every element path named so
    /// (by local names, in any namespace) under a parent named so is one of them, and no path
    /// went undescribed.
    func relativePathReadsOnly(_ table: Table) -> Bool {
        guard structure.skippedElements == 0, let first = table.elements.first else { return false }
        func parentName(_ element: Int) -> String? {
            let parent = structure.elements[element].parent
            return parent >= 0 ? structure.elements[parent].name.localName : nil
        }
        let name = structure.elements[first].name.localName, parent = parentName(first)
        // Written alike (the short form is written from the first): none left out by a prefix.
        func written(_ element: Int) -> [String] {
            let parent = structure.elements[element].parent
            return [writtenName(element), parent >= 0 ? writtenName(parent) : ""]
        }
        guard table.elements.allSatisfy({ written($0) == written(first) }) else { return false }
        let own = Set(table.elements)
        return structure.elements.indices.allSatisfy { element in
            structure.elements[element].name.localName != name || (parent != nil && parentName(element) != parent)
                || own.contains(element)
        }
    }

    /// The element path of `element` from the root, anchored (`/feed/entry`).
    func anchoredPath(_ element: Int) -> String {
        "/" + structure.path(element).map(writtenName).joined(separator: "/")
    }
}
