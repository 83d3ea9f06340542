import Foundation

/// Which tables of an XML mapping read which parts of an OpenStreetMap PBF file, and which
/// value each column takes: the tables whose record element is `node`, `way` or `relation`
/// (by its last step) read those objects; their nested `tag`, `nd` and `member` tables read
/// the object's tags, node list and members. A column reads the attribute its source names,
/// as OSM XML writes it (`@id`, `@lat`, `@k`, `@ref`, ...), or `$position`, `$file`, `$feed`;
/// anything else stays empty. So one schema reads the same rows from PBF as from XML.
struct PBFTablePlan {
    /// What a column takes from an object or one of its items.
    enum Field {
        case id, latitude, longitude, version, timestamp, changeset, uid, user, visible
        case key, value, ref, type, role, position, file, feed, none
    }

    /// The items a nested table reads from its object.
    enum Part { case tags, nodes, members }

    /// Per object kind (`PBFEntity.Kind`): the top-level tables reading it.
    private(set) var tablesOfKind: [[Int]] = [[], [], []]
    /// Per mapping table: its nested tables and what they read.
    private(set) var children: [[(table: Int, part: Part)]]
    /// Per mapping table and column: the field it takes.
    private(set) var fields: [[Field]]

    private static let objectFields: [String: Field] = [
        "id": .id, "lat": .latitude, "lon": .longitude, "version": .version, "timestamp": .timestamp,
        "changeset": .changeset, "uid": .uid, "user": .user, "visible": .visible
    ]
    private static let partFields: [Part: [String: Field]] = [
        .tags: ["k": .key, "v": .value], .nodes: ["ref": .ref], .members: ["type": .type, "ref": .ref, "role": .role]
    ]

    /// The plan for `mapping`, whose top-level tables `active` says this file feeds. Throws
    /// for what PBF input cannot honour (filters).
    init(mapping: XMLMapping, active: [Bool]) throws(PBFError) {
        children = mapping.tables.map { _ in [] }
        fields = mapping.tables.map { Array(repeating: Field.none, count: $0.columns.count) }
        let kinds = ["node": 0, "way": 1, "relation": 2]
        let parts: [String: Part] = ["tag": .tags, "nd": .nodes, "member": .members]
        for (index, table) in mapping.tables.enumerated() where active[index] && table.table.list == nil {
            guard let last = table.pattern.last, last.local >= 0 else { continue }
            let element = mapping.localNames[last.local]
            if let parent = table.parent {
                guard let part = parts[element], mapping.tables[parent].parent == nil else { continue }
                try Self.refuseFilters(table)
                children[parent].append((index, part))
                fields[index] = Self.fields(of: table.table, names: Self.partFields[part] ?? [:])
            } else if let kind = kinds[element] {
                try Self.refuseFilters(table)
                tablesOfKind[kind].append(index)
                fields[index] = Self.fields(of: table.table, names: Self.objectFields)
            }
        }
        // Only a way's nested `nd` and a relation's `member` tables have items.
        for kind in 0..<3 {
            for table in tablesOfKind[kind] {
                children[table].removeAll { ($0.part == .nodes && kind != 1) || ($0.part == .members && kind != 2) }
            }
        }
    }

    private static func refuseFilters(_ table: XMLMapping.TableMapping) throws(PBFError) {
        guard table.filters.isEmpty else {
            throw PBFError(
                .unsupported, "table '\(table.table.name)' filters its records, which seedgen does not do for PBF input"
            )
        }
    }

    /// Per column of `table`: the field its first source naming one takes.
    private static func fields(of table: Table, names: [String: Field]) -> [Field] {
        table.columns.map { column in
            for source in column.source {
                for alternative in source.split(separator: "|") {
                    let path = alternative.trimmingCharacters(in: .whitespaces)
                    switch path {
                    case "$position": return .position
                    case XMLMapping.fileSource: return .file
                    case Schema.feedSource: return .feed
                    default:
                        let name = path.hasPrefix("@") ? String(path.dropFirst()) : path
                        if let field = names[name] { return field }
                    }
                }
            }
            return .none
        }
    }
}
