/// Keys and references of a draft: an id-like column present and unique in every record is a
/// table's key; a column whose values are a table's key values (by name, or by value alone when
/// they are many and varied) refers to it, never making a cycle.
extension SchemaDraftPlan {
    /// Names that may be a record's own id.
    static func isIDName(_ name: String, element: String) -> Bool {
        let name = name.lowercased(), element = element.lowercased()
        return ["id", "key", "uuid", "guid"].contains(name) || name == element + "id" || name == element + "_id"
    }

    mutating func chooseKey(_ index: Int) {
        guard !tables[index].isDocument else { return }
        let records = tables[index].records
        let element = tables[index].elementName.localName
        // Own attributes first, then own children's text.
        let candidates = tables[index].columns.indices.filter { column in
            let source = tables[index].columns[column].source
            let isOwn = source.hasPrefix("@") || (!source.contains("/") && !source.hasPrefix("$") && source != ".")
            guard isOwn, let field = tables[index].columns[column].field else { return false }
            let name =
                structure.fields[field].attribute?.localName
                ?? structure.elements[structure.fields[field].element].name.localName
            return Self.isIDName(name, element: element)
        }.sorted { a, b in
            tables[index].columns[a].source.hasPrefix("@") && !tables[index].columns[b].source.hasPrefix("@")
        }
        // A key only where every value was hashed and no two are alike: then no two values
        // are equal (hashes of equal values are equal), and the build, which compares the
        // values of an integer or text column as written, finds no duplicate either.
        for column in candidates {
            guard let profile = tables[index].columns[column].profile, profile.count == records, profile.empty == 0,
                let hashes = profile.hashes, hashes.complete,
                [.integer, .text].contains(tables[index].columns[column].type)
            else { continue }
            let name = tables[index].columns[column].name
            if !hashes.repeats {
                tables[index].key = [name]
            } else if !hashes.repeatsInFile {
                tables[index].key = [fileColumn(index), name]
            } else {
                continue
            }
            tables[index].columns[column].required = true
            return
        }
        if let column = candidates.first {
            let candidate = tables[index].columns[column]
            let reason: String
            if let profile = candidate.profile, profile.count < records || profile.empty > 0 {
                reason = "is missing in some records"
            } else if let hashes = candidate.profile?.hashes, !hashes.complete {
                reason =
                    """
                    has more values than the draft keeps to check \
                    (\(SchemaDraftText.grouped(hashes.distinctCount)) of \
                    \(SchemaDraftText.grouped(candidate.profile!.count)) kept); if they are unique, add `key: \
                    \(candidate.name)` and `required: true` (the build checks)
                    """
            } else if candidate.profile?.hashes == nil {
                reason = "holds elements or long text"
            } else if ![.integer, .text].contains(candidate.type) {
                reason = "is a \(candidate.type.rawValue): values written differently may be equal"
            } else {
                reason = "repeats"
            }
            tables[index].notes.append("'\(candidate.source)' \(reason): the table has no key")
        }
    }

    /// The table's `$file` column, added first when it has none.
    mutating func fileColumn(_ index: Int) -> String {
        if let existing = tables[index].columns.first(where: { $0.source == XMLMapping.fileSource }) {
            return existing.name
        }
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
    func stem(of column: Column) -> String {
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

    static func normalized(_ name: String) -> String {
        String(
            name.lowercased().unicodeScalars.filter {
                ($0.value >= 97 && $0.value <= 122) || ($0.value >= 48 && $0.value <= 57)
            })
    }

    /// The names a reference to `table` may use: its name, singular too, and its element's.
    func names(of table: Table) -> [String] {
        let name = Self.normalized(table.name)
        var names = [name, Self.normalized(table.elementName.localName)]
        if name.hasSuffix("s") && name.count > 1 { names.append(String(name.dropLast())) }
        return names.filter { $0.count > 1 && $0 != "row" && $0 != "item" && $0 != "record" }
    }

    mutating func findReferences(_ index: Int) {
        for column in tables[index].columns.indices {
            let candidate = tables[index].columns[column]
            guard !tables[index].key.contains(candidate.name), candidate.type == .integer || candidate.type == .text,
                let hashes = candidate.profile?.hashes, hashes.distinctCount > 0
            else { continue }
            let stem = self.stem(of: candidate)
            var named: (target: Int, length: Int, share: Double)?
            var exact: [Int] = []
            for target in tables.indices where !tables[target].isDocument {
                guard let keyName = tables[target].key.last,
                    let keyColumn = tables[target].columns.first(where: { $0.name == keyName }),
                    keyColumn.type == candidate.type, let keyHashes = keyColumn.profile?.hashes,
                    let share = hashes.share(in: keyHashes, perFile: tables[target].key.count == 2)
                else { continue }
                let match = names(of: tables[target]).filter { stem.hasSuffix($0) }.map(\.count).max()
                if let match, share >= 0.5,
                    named.map({ match > $0.length || (match == $0.length && share > $0.share) }) ?? true
                {
                    named = (target, match, share)
                }
                // By value alone only when the values are many and varied (not a type code
                // that happens to be among the ids: PostHistoryTypeId).
                if share == 1 && hashes.distinctCount >= 10 && hashes.distinctCount * 20 >= candidate.present {
                    exact.append(target)
                }
            }
            var target = named?.target
            if target == nil {
                if exact.contains(index) { target = index } else if exact.count == 1 { target = exact[0] }
            }
            guard let target, !reaches(target, index) else { continue }
            let keyName = tables[target].key.last!
            let share =
                hashes.share(
                    in: tables[target].columns.first { $0.name == keyName }!.profile!.hashes!,
                    perFile: tables[target].key.count == 2) ?? 0
            var from = [candidate.name]
            if tables[target].key.count == 2 { from.insert(fileColumn(index), at: 0) }
            var used = Set(tables[index].columns.map(\.name) + tables[index].references.map(\.column) + ["id"])
            if let parent = tables[index].parent { used.insert(tables[parent].name + "_ref") }
            var base = Self.identifier(candidate.name)
            for suffix in ["_id", "_ref"] where base.hasSuffix(suffix) && base.count > suffix.count {
                base.removeLast(suffix.count)
            }
            if base == "id" || base == "ref" || base == candidate.name { base = tables[target].name }
            var name = base + "_ref"
            if used.contains(name) { name = base + "_row" }
            name = Self.unique(name, in: &used)
            // Values not hashed (past the budget) may name no row: kept, not an error.
            let percent =
                share == 1
                ? (hashes.complete ? "every value" : "every value checked")
                : "\(Int((share * 100).rounded(.down)))% of the values"
            tables[index].references.append(
                Reference(
                    column: name, from: from, to: target, keep: share < 1 || !hashes.complete,
                    note: "\(percent) found in \(tables[target].name).\(keyName)"))
        }
    }

    /// True when `from` depends (by parent or reference) on `to`, directly or not: a
    /// reference from `to` to `from` would make a cycle.
    func reaches(_ from: Int, _ to: Int) -> Bool {
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
}
