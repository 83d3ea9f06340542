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
    var tables: [Table] = []
    /// Prefix per namespace URI, for `namespaces:` and the names that need one.
    var prefixes: [(prefix: String, uri: String)] = []
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
        for index in tables.indices { readChildTextOnly(index) }
    }

    /// A bare name (`cmt`) reads a child's text, or else the record's attribute of that name:
    /// where a record element has such an attribute, whose values the column was not typed
    /// from, the source reads the child alone (`cmt/.`).
    private mutating func readChildTextOnly(_ index: Int) {
        let attributes = Set(
            tables[index].elements.flatMap { element in
                structure.elements[element].attributes.compactMap { structure.fields[$0].attribute?.localName }
            })
        for column in tables[index].columns.indices {
            let source = tables[index].columns[column].source
            guard !tables[index].columns[column].exists, !source.contains("/"), !source.hasPrefix("@"),
                !source.hasPrefix("$"),
                source != ".", attributes.contains(String(source.split(separator: ":").last ?? ""))
            else { continue }
            tables[index].columns[column].source = source + "/."
        }
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
            tables[table].notes.append(
                """
                <\(node.name.localName)> holds text and elements (mixed content): its text is kept, without its \
                markup \(names.prefix(5).joined(separator: ", "))
                """
            )
            return
        }
        for child in node.children {
            if records[child] {
                let enclosing = tables[table].isDocument ? nil : table
                let group = tables.firstIndex { candidate in
                    !candidate.isDocument && candidate.parent == enclosing
                        && candidate.elementName == structure.elements[child].name
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
            addColumn(
                to: table, source: path.isEmpty ? attribute : path + "/" + attribute, element: element, field: field,
                profile: structure.fields[field].profile,
                present: structure.fields[field].profile.count + structure.fields[field].profile.empty)
        }
        if let text = node.text {
            // The build reads an element's text with its children's: the survey saw only its own.
            let profile =
                node.withChildren > 0 ? structure.fields[text].profile.seenInPart() : structure.fields[text].profile
            addColumn(
                to: table, source: path.isEmpty ? "." : path, element: element, field: text, profile: profile,
                present: structure.elements[element].count)
        } else if !steps.isEmpty && node.attributes.isEmpty && node.withChildren == 0 {
            // `<Sunday/>`: there or not.
            addColumn(to: table, source: path, element: element, field: nil, present: node.count, exists: true)
        }
    }

    private mutating func addColumn(
        to table: Int, source: String, element: Int, field: Int?, profile: DraftValueProfile? = nil,
        present: Int, exists: Bool = false
    ) {
        if let existing = tables[table].columns.firstIndex(where: { $0.source == source && $0.exists == exists }) {
            if let profile { tables[table].columns[existing].profile?.merge(profile) }
            tables[table].columns[existing].present += present
            return
        }
        guard tables[table].columns.count < Self.columnLimit else {
            if tables[table].notes.last?.hasPrefix("more than") != true {
                tables[table].notes.append(
                    "more than \(Self.columnLimit) columns: the further sources (\(source), ...) are left out")
            }
            return
        }
        var column = Column(name: "", source: source)
        column.exists = exists
        column.profile = profile
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
            guard !tables[index].columns[column].exists, let profile = tables[index].columns[column].profile else {
                continue
            }
            let name =
                tables[index].columns[column].field.flatMap { structure.fields[$0].attribute?.localName }
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
        } else if tables[index].columns.isEmpty {
            // A list that holds only lists (GPX `<trkseg>`): its rows are its nested rows'
            // parents; the file each is in says where it comes from.
            var file = Column(name: "file", source: XMLMapping.fileSource)
            file.present = tables[index].records
            tables[index].columns.append(file)
        }
    }

    /// The column type that keeps every value seen, and its format: the column its values
    /// were checked against (`DraftValueProfile.column(for:)`), so the build converts every
    /// one of them.
    static func type(_ column: inout Column, profile: DraftValueProfile, name: String) {
        let types = profile.types
        guard profile.count > 0 else { return }
        let lowered = name.lowercased()
        let chosen: DraftValueProfile.Types
        if types.contains(.boolean) {
            chosen = .boolean
        } else if types.contains(.integer) {
            chosen = .integer
        } else if types.contains(.real) {
            chosen = .real
        } else if types.contains(.date) {
            chosen = .date
        } else if types.contains(.partialDate) {
            chosen = .partialDate
        } else if types.contains(.datetime) {
            chosen = .datetime
        } else if types.contains(.isoDuration) {
            chosen = .isoDuration
        } else if types.contains(.minutesSeconds) && ["duration", "length", "time"].contains(where: lowered.contains) {
            // `4:45` is minutes and seconds only where the name says it is a length.
            chosen = .minutesSeconds
        } else if types.contains(.hoursMinutesSeconds) {
            // `1:02:03` is a time of day where the name says so and every value is one.
            chosen = lowered.contains("time") && types.contains(.timeOfDay) ? .timeOfDay : .hoursMinutesSeconds
        } else {
            return
        }
        let checked = DraftValueProfile.column(for: chosen)
        column.type = checked.type
        column.format = checked.format
        column.partial = checked.partial
        column.precision = chosen == .datetime ? profile.fractionDigits : 0
    }
}
