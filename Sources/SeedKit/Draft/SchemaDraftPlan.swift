/// Turns an `XMLStructure` into the tables of a draft schema:
/// - a table per repeated element (one that occurs more than once inside one parent: a
///   list), nested (`parent:`, with a `$position` column) in the table of the nearest
///   repeated element around it; elements named alike under parents named alike, inside the
///   same table, are one table;
/// - a table per root element holding what no list holds (its attributes and those of the
///   wrappers below it: a file's header), one row per file;
/// - in each table, a column per attribute and per element text below its element that is
///   not inside a nested list, typed from every value seen; an empty element that never has
///   text, attributes or children is an `exists` column;
/// - a key where an id-like attribute or child (`id`, `key`, `<element>Id`) is present in
///   every record and unique, in the input (`[xml_id]`) or in each file (`[file, xml_id]`);
/// - a reference where a column's values are values of a table's key, by name (`OwnerUserId`
///   and `users`) and by value (every distinct value found), never making a cycle.
///
/// Elements are written as full paths from the root (`/releases/release/artists/artist`),
/// so each table reads exactly the elements it describes.
struct SchemaDraftPlan {
    struct Column {
        var name: String
        var source: String
        var type: ColumnType = .text
        var format: String?
        var precision = 0
        var partial = false
        var exists = false
        var required = false
        /// The values' profile, for comments; nil for `$position` and `$file`.
        var profile: DraftValueProfile?
        /// Records in which the source was there.
        var present = 0
        var note: String?
        /// The element path whose field it is, and the field (nil: its text or `exists`).
        var element = -1
        var field: Int?
    }

    struct Reference {
        var column: String
        var from: [String]
        var to: Int
        var keep: Bool
        var note: String
    }

    struct Table {
        var name = ""
        /// The element paths whose occurrences are its records.
        var elements: [Int] = []
        /// The enclosing table, for nested records.
        var parent: Int?
        /// A root's table: what is outside every list, one row per file.
        var isDocument = false
        var columns: [Column] = []
        var key: [String] = []
        var references: [Reference] = []
        var records = 0
        var notes: [String] = []
        /// The parent element's and the element's names (for grouping and naming).
        var parentName: XMLStructure.Name?
        var elementName: XMLStructure.Name
    }

    let structure: XMLStructure
    private(set) var tables: [Table] = []
    /// Prefix per namespace URI, for `namespaces:` and the names that need one.
    private(set) var prefixes: [(prefix: String, uri: String)] = []
    private(set) var notes: [String] = []

    /// The most columns a table gets (SQLite allows 2,000 with the references).
    static let columnLimit = 1_500
    /// The most element paths written as alternatives of one table.
    static let alternativeLimit = 16

    init(structure: XMLStructure) {
        self.structure = structure
        notes = structure.notes
        assignPrefixes()
        let records = recordElements()
        for root in structure.elements.indices where structure.elements[root].parent == -1 {
            var document = Table(elementName: structure.elements[root].name)
            document.isDocument = true
            document.elements = [root]
            document.records = structure.elements[root].count
            tables.append(document)
            addFields(of: root, to: tables.count - 1, steps: [])
            visitChildren(of: root, table: tables.count - 1, steps: [], records: records)
        }
        // A root whose whole content is in lists has no table of its own.
        var kept = Array(tables.indices)
        kept.removeAll { tables[$0].isDocument && tables[$0].columns.isEmpty }
        remap(keeping: kept)
        for index in tables.indices { finishColumns(index) }
        nameTables()
        for index in tables.indices { nameColumns(index) }
        for index in tables.indices { chooseKey(index) }
        for index in tables.indices { findReferences(index) }
    }

    // MARK: Tables and columns

    /// Per element path: whether it is a record (repeated inside one parent somewhere, under
    /// a parent of the same name).
    private func recordElements() -> [Bool] {
        var repeated = Set<[XMLStructure.Name]>()
        for element in structure.elements where element.parent >= 0 && element.maxPerParent >= 2 {
            repeated.insert([structure.elements[element.parent].name, element.name])
        }
        return structure.elements.map { element in
            element.parent >= 0 && repeated.contains([structure.elements[element.parent].name, element.name])
        }
    }

    private mutating func visitChildren(of element: Int, table: Int, steps: [Int], records: [Bool]) {
        let node = structure.elements[element]
        if node.mixed > 0 {
            let names = node.children.map { "<\(structure.elements[$0].name.localName)>" }
            tables[table].notes.append("<\(node.name.localName)> holds text and elements (mixed content): its text is kept, without its markup \(names.prefix(5).joined(separator: ", "))")
            return
        }
        for child in node.children {
            if records[child] {
                let enclosing = tables[table].isDocument ? nil : table
                let group = tables.firstIndex { candidate in
                    !candidate.isDocument && candidate.parent == enclosing && candidate.elementName == structure.elements[child].name
                        && candidate.parentName == node.name
                }
                let index: Int
                if let group {
                    index = group
                } else {
                    var new = Table(elementName: structure.elements[child].name)
                    new.parent = enclosing
                    new.parentName = node.name
                    tables.append(new)
                    index = tables.count - 1
                }
                tables[index].elements.append(child)
                tables[index].records += structure.elements[child].count
                addFields(of: child, to: index, steps: [])
                visitChildren(of: child, table: index, steps: [], records: records)
            } else {
                addFields(of: child, to: table, steps: steps + [child])
                visitChildren(of: child, table: table, steps: steps + [child], records: records)
            }
        }
    }

    /// Adds the attributes and text of `element`, reached by `steps` below the record's
    /// element of `table`, as columns (merged with the same path of another element).
    private mutating func addFields(of element: Int, to table: Int, steps: [Int]) {
        let node = structure.elements[element]
        let path = steps.map(writtenName).joined(separator: "/")
        for field in node.attributes {
            let attribute = "@" + writtenAttribute(structure.fields[field])
            addColumn(to: table, source: path.isEmpty ? attribute : path + "/" + attribute, element: element, field: field,
                      present: structure.fields[field].profile.count + structure.fields[field].profile.empty)
        }
        if let text = node.text {
            addColumn(to: table, source: path.isEmpty ? "." : path, element: element, field: text, present: structure.elements[element].count)
        } else if !steps.isEmpty && node.attributes.isEmpty && node.withChildren == 0 {
            // `<Sunday/>`: there or not.
            addColumn(to: table, source: path, element: element, field: nil, present: node.count, exists: true)
        }
    }

    private mutating func addColumn(to table: Int, source: String, element: Int, field: Int?, present: Int, exists: Bool = false) {
        if let existing = tables[table].columns.firstIndex(where: { $0.source == source && $0.exists == exists }) {
            if let field { tables[table].columns[existing].profile?.merge(structure.fields[field].profile) }
            tables[table].columns[existing].present += present
            return
        }
        guard tables[table].columns.count < Self.columnLimit else {
            if tables[table].notes.last?.hasPrefix("more than") != true {
                tables[table].notes.append("more than \(Self.columnLimit) columns: the further sources (\(source), ...) are left out")
            }
            return
        }
        var column = Column(name: "", source: source)
        column.exists = exists
        column.profile = field.map { structure.fields[$0].profile }
        column.present = present
        column.element = element
        column.field = field
        tables[table].columns.append(column)
    }

    /// Drops the tables not in `kept`, renumbering parents.
    private mutating func remap(keeping kept: [Int]) {
        var newIndex: [Int: Int] = [:]
        for (new, old) in kept.enumerated() { newIndex[old] = new }
        tables = kept.map { old in
            var table = tables[old]
            table.parent = table.parent.flatMap { newIndex[$0] }
            return table
        }
    }

    /// Types each column from its profile; adds `$position` (nested) and `$file` (documents).
    private mutating func finishColumns(_ index: Int) {
        for column in tables[index].columns.indices {
            guard !tables[index].columns[column].exists, let profile = tables[index].columns[column].profile else { continue }
            let name = tables[index].columns[column].field.flatMap { structure.fields[$0].attribute?.localName }
                ?? structure.elements[tables[index].columns[column].element].name.localName
            Self.type(&tables[index].columns[column], profile: profile, name: name)
        }
        if tables[index].isDocument {
            var file = Column(name: "file", source: XMLMapping.fileSource)
            file.required = true
            file.present = tables[index].records
            tables[index].columns.insert(file, at: 0)
            tables[index].key = ["file"]
        } else if tables[index].parent != nil {
            var position = Column(name: "position", source: "$position", type: .integer)
            position.present = tables[index].records
            tables[index].columns.insert(position, at: 0)
        }
    }

    /// The column type that keeps every value seen, and its format.
    static func type(_ column: inout Column, profile: DraftValueProfile, name: String) {
        let types = profile.types
        guard profile.count > 0 else { return }
        let lowered = name.lowercased()
        if types.contains(.boolean) {
            column.type = .boolean
        } else if types.contains(.integer) {
            column.type = .integer
        } else if types.contains(.real) {
            column.type = .real
        } else if types.contains(.date) {
            column.type = .date
        } else if types.contains(.partialDate) {
            column.type = .date
            column.partial = true
        } else if types.contains(.datetime) {
            column.type = .datetime
            column.precision = profile.fractionDigits
        } else if types.contains(.isoDuration) {
            column.type = .duration
        } else if types.contains(.minutesSeconds) && ["duration", "length", "time"].contains(where: lowered.contains) {
            // `4:45` is minutes and seconds only where the name says it is a length.
            column.type = .duration
            column.format = "m:ss"
        } else if types.contains(.hoursMinutesSeconds) {
            if lowered.contains("time") {
                column.type = .time
            } else {
                column.type = .duration
                column.format = "h:mm:ss"
            }
        }
    }

    // MARK: Names

    private mutating func nameTables() {
        var names: [String] = tables.map { Self.identifier($0.elementName.localName) }
        // Alike names: a top-level list takes its wrapper's name (`users/row` -> users), a
        // nested one its parent table's (`release_artist`), then longer forms.
        for round in 0..<3 {
            var seen: [String: [Int]] = [:]
            for index in names.indices { seen[names[index], default: []].append(index) }
            for (_, indexes) in seen where indexes.count > 1 {
                for index in indexes {
                    let table = tables[index]
                    let element = Self.identifier(table.elementName.localName)
                    let parentElement = table.parentName.map { Self.identifier($0.localName) }
                    let parentTable = table.parent.map { names[$0] }
                    switch (round, parentTable, parentElement) {
                    case (0, nil, let wrapper?):
                        let onlyList = tables.filter { $0.parentName == table.parentName && $0.parent == nil }.count == 1
                        names[index] = onlyList ? wrapper : wrapper + "_" + element
                    case (0, let parent?, _):
                        names[index] = parent + "_" + element
                    case (1, let parent?, let wrapper?):
                        names[index] = parent + "_" + wrapper + "_" + element
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

    private mutating func nameColumns(_ table: Int) {
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
    private static func collapse(_ parts: ArraySlice<String>) -> String {
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
                let previousLowerOrDigit = (previous.value >= 97 && previous.value <= 122) || (previous.value >= 48 && previous.value <= 57)
                let nextLower = index + 1 < scalars.count && scalars[index + 1].value >= 97 && scalars[index + 1].value <= 122
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

    // MARK: Keys

    /// Names that may be a record's own id.
    private static func isIDName(_ name: String, element: String) -> Bool {
        let name = name.lowercased(), element = element.lowercased()
        return ["id", "key", "uuid", "guid"].contains(name) || name == element + "id" || name == element + "_id"
    }

    private mutating func chooseKey(_ index: Int) {
        guard !tables[index].isDocument else { return }
        let records = tables[index].records
        let element = tables[index].elementName.localName
        // Own attributes first, then own children's text.
        let candidates = tables[index].columns.indices.filter { column in
            let source = tables[index].columns[column].source
            let isOwn = source.hasPrefix("@") || (!source.contains("/") && !source.hasPrefix("$") && source != ".")
            guard isOwn, let field = tables[index].columns[column].field else { return false }
            let name = structure.fields[field].attribute?.localName ?? structure.elements[structure.fields[field].element].name.localName
            return Self.isIDName(name, element: element)
        }.sorted { a, b in
            tables[index].columns[a].source.hasPrefix("@") && !tables[index].columns[b].source.hasPrefix("@")
        }
        for column in candidates {
            guard let profile = tables[index].columns[column].profile, profile.count == records, profile.empty == 0,
                  let hashes = profile.hashes else { continue }
            let name = tables[index].columns[column].name
            if !hashes.repeats {
                tables[index].key = [name]
            } else if !hashes.repeatsInFile {
                tables[index].key = [fileColumn(index), name]
            } else {
                continue
            }
            tables[index].columns[column].required = true
            if !hashes.complete {
                tables[index].columns[column].note = "unique in the values checked; the build checks them all"
            }
            return
        }
        if let column = candidates.first {
            let reason = tables[index].columns[column].profile.map { $0.count < records || $0.empty > 0 ? "is missing in some records" : "repeats" } ?? "repeats"
            tables[index].notes.append("'\(tables[index].columns[column].source)' \(reason): the table has no key")
        }
    }

    /// The table's `$file` column, added first when it has none.
    private mutating func fileColumn(_ index: Int) -> String {
        if let existing = tables[index].columns.first(where: { $0.source == XMLMapping.fileSource }) { return existing.name }
        var used = Set(tables[index].columns.map(\.name) + ["id"])
        if let parent = tables[index].parent { used.insert(tables[parent].name + "_ref") }
        var file = Column(name: Self.unique("file", in: &used), source: XMLMapping.fileSource)
        file.required = true
        file.present = tables[index].records
        let at = tables[index].columns.first?.source == "$position" ? 1 : 0
        tables[index].columns.insert(file, at: at)
        return file.name
    }

    // MARK: References

    /// The part of a column's name that names what it refers to (`OwnerUserId` -> owneruser,
    /// `LineRef/@ref` -> line).
    private func stem(of column: Column) -> String {
        guard let field = column.field else { return "" }
        var name = structure.fields[field].attribute?.localName ?? ""
        let element = structure.elements[structure.fields[field].element].name.localName
        if name.isEmpty || ["ref", "idref", "id"].contains(name.lowercased()) { name = element }
        var stem = Self.normalized(name)
        for suffix in ["idref", "refs", "ref", "ids", "id"] where stem.hasSuffix(suffix) && stem.count > suffix.count {
            stem.removeLast(suffix.count)
            break
        }
        return stem
    }

    private static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { ($0.value >= 97 && $0.value <= 122) || ($0.value >= 48 && $0.value <= 57) })
    }

    /// The names a reference to `table` may use: its name, singular too, and its element's.
    private func names(of table: Table) -> [String] {
        let name = Self.normalized(table.name)
        var names = [name, Self.normalized(table.elementName.localName)]
        if name.hasSuffix("s") && name.count > 1 { names.append(String(name.dropLast())) }
        return names.filter { $0.count > 1 && $0 != "row" && $0 != "item" && $0 != "record" }
    }

    private mutating func findReferences(_ index: Int) {
        for column in tables[index].columns.indices {
            let candidate = tables[index].columns[column]
            guard !tables[index].key.contains(candidate.name), candidate.type == .integer || candidate.type == .text,
                  let hashes = candidate.profile?.hashes, hashes.distinctCount > 0 else { continue }
            let stem = self.stem(of: candidate)
            var named: (target: Int, length: Int, share: Double)?
            var exact: [Int] = []
            for target in tables.indices where !tables[target].isDocument {
                guard let keyName = tables[target].key.last, let keyColumn = tables[target].columns.first(where: { $0.name == keyName }),
                      keyColumn.type == candidate.type, let keyHashes = keyColumn.profile?.hashes,
                      let share = hashes.share(in: keyHashes, perFile: tables[target].key.count == 2) else { continue }
                let match = names(of: tables[target]).filter { stem.hasSuffix($0) }.map(\.count).max()
                if let match, share >= 0.5, named.map({ match > $0.length || (match == $0.length && share > $0.share) }) ?? true {
                    named = (target, match, share)
                }
                // By value alone only when the values are many and varied (not a type code
                // that happens to be among the ids: PostHistoryTypeId).
                if share == 1 && hashes.distinctCount >= 10 && hashes.distinctCount * 20 >= candidate.present { exact.append(target) }
            }
            var target = named?.target
            if target == nil {
                if exact.contains(index) { target = index } else if exact.count == 1 { target = exact[0] }
            }
            guard let target, !reaches(target, index) else { continue }
            let keyName = tables[target].key.last!
            let share = hashes.share(in: tables[target].columns.first { $0.name == keyName }!.profile!.hashes!, perFile: tables[target].key.count == 2) ?? 0
            var from = [candidate.name]
            if tables[target].key.count == 2 { from.insert(fileColumn(index), at: 0) }
            var used = Set(tables[index].columns.map(\.name) + tables[index].references.map(\.column) + ["id"])
            if let parent = tables[index].parent { used.insert(tables[parent].name + "_ref") }
            var base = Self.identifier(candidate.name)
            for suffix in ["_id", "_ref"] where base.hasSuffix(suffix) && base.count > suffix.count { base.removeLast(suffix.count) }
            if base == "id" || base == "ref" || base == candidate.name { base = tables[target].name }
            var name = base + "_ref"
            if used.contains(name) { name = base + "_row" }
            name = Self.unique(name, in: &used)
            let percent = share == 1 ? "every value" : "\(Int((share * 100).rounded(.down)))% of the values"
            tables[index].references.append(Reference(column: name, from: from, to: target, keep: share < 1,
                                                      note: "\(percent) found in \(tables[target].name).\(keyName)"))
        }
    }

    /// True when `from` depends (by parent or reference) on `to`, directly or not: a
    /// reference from `to` to `from` would make a cycle.
    private func reaches(_ from: Int, _ to: Int) -> Bool {
        guard from != to else { return false } // a self-reference is resolved after loading
        var seen = Set<Int>()
        var work = [from]
        while let table = work.popLast() {
            guard seen.insert(table).inserted else { continue }
            var next = tables[table].references.map(\.to).filter { $0 != table }
            if let parent = tables[table].parent { next.append(parent) }
            if next.contains(to) { return true }
            work.append(contentsOf: next)
        }
        return false
    }

    // MARK: Written names

    private mutating func assignPrefixes() {
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
    }

    private func prefix(of uri: String) -> String? {
        prefixes.first { $0.uri == uri }?.prefix
    }

    /// An element's name in paths: its local name, prefixed when a sibling has the same
    /// local name in another namespace (an unprefixed name matches any namespace).
    func writtenName(_ element: Int) -> String {
        let node = structure.elements[element]
        let siblings = node.parent >= 0 ? structure.elements[node.parent].children
            : structure.elements.indices.filter { structure.elements[$0].parent == -1 }
        let clash = siblings.contains { $0 != element && structure.elements[$0].name.localName == node.name.localName }
        guard clash, !node.name.namespace.isEmpty, let prefix = prefix(of: node.name.namespace) else { return node.name.localName }
        return prefix + ":" + node.name.localName
    }

    private func writtenAttribute(_ field: XMLStructure.Field) -> String {
        guard let name = field.attribute else { return "" }
        guard !name.namespace.isEmpty, let prefix = prefix(of: name.namespace) else { return name.localName }
        return prefix + ":" + name.localName
    }

    /// The element path of `element` from the root, anchored (`/feed/entry`).
    func anchoredPath(_ element: Int) -> String {
        "/" + structure.path(element).map(writtenName).joined(separator: "/")
    }
}
