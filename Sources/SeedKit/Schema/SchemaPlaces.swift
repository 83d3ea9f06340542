import Yams

/// Where things are written in the schema file, for messages about a mapping that matched
/// nothing in the input (`transit.yaml:14:9: ...`). Not part of the schema's meaning: two
/// schemas that differ only in layout are equal.
public struct SchemaPlaces: Sendable, Equatable {
    /// A 1-based line and column in the schema file.
    public struct Place: Sendable, Equatable {
        public var line: Int
        public var column: Int
    }

    /// The schema file as given (or `<built-in NAME schema>`).
    public var file = ""
    /// Each table's entry (its `- name:` line), by table name.
    public var tables: [String: Place] = [:]
    /// Each table's `element` value, by table name.
    public var elements: [String: Place] = [:]
    /// Each column's entry, by `table.column`.
    public var columns: [String: Place] = [:]
    /// Each table's `search`, `spatial` and `derive` entries, by `table.key` (`stops.search`).
    public var features: [String: Place] = [:]

    public init() {}

    public static func == (lhs: SchemaPlaces, rhs: SchemaPlaces) -> Bool { true }

    /// The place of column `column` of `table`, else of the table.
    func place(of column: String, in table: String) -> Place? {
        columns[table + "." + column] ?? tables[table]
    }
}

extension SchemaPlaces {
    /// Records where `table` (read from `object`) and its columns and element are written.
    mutating func record(_ object: YAMLObject, table: Table) {
        func place(_ node: Node?) -> Place? { node?.mark.map { Place(line: $0.line, column: $0.column) } }
        tables[table.name] = place(object.node)
        if let element = object.peek("element") { elements[table.name] = place(element) }
        for key in ["search", "spatial", "derive"] {
            if let node = object.peek(key) { features[table.name + "." + key] = place(node) }
        }
        if case .sequence(let columns)? = object.peek("columns") {
            for (column, node) in zip(table.columns, columns) {
                self.columns[table.name + "." + column.name] = place(node)
            }
        }
    }
}
