/// A declarative description of a seed: its tables, typed columns, keys, relationships and
/// indexes, and how the source data maps onto them. Loaded from a YAML file in `Schema/`
/// (see `Schema/README.md` for every key).
public struct Schema: Sendable, Equatable {
    /// Which reader the inputs go through.
    public enum Format: String, Sendable, CaseIterable {
        /// Comma-separated files with a header row (GTFS feeds).
        case csv
        /// XML files streamed with libxml2.
        case xml
    }

    /// A short name, recorded in the seed (`transit`, `topsongs`, ...).
    public var name: String
    /// The version of this schema. Stamped into the seed as `PRAGMA user_version`; an app
    /// refuses a seed whose schema version is not the one it was compiled against.
    public var schemaVersion: Int
    /// The input format.
    public var format: Format
    /// XML namespace prefixes used in element and source paths (`im` -> its URI). The empty
    /// prefix names the default namespace.
    public var namespaces: [String: String]
    /// The tables, in the order they are declared.
    public var tables: [Table]
    /// The digest of the schema file's bytes; part of the default seed version.
    public var sha256: String
    /// Where tables and columns are written in the schema file, for messages.
    public var places = SchemaPlaces()
    /// CSV: every input file no table reads becomes a table `extra_<file name without
    /// extension>` with an `id` and every column as text.
    public var extraFiles: Bool = false
    /// The queries an app runs on the seed (`queries:`), for the generated Swift code and the
    /// guide; they do not change the seed.
    public var queries: [SchemaQuery] = []
    /// XML: after the load, a warning per element name of the objects no table reads
    /// (elements with an `id` outside every record that hold no record), with their count.
    public var reportUnreadObjects: Bool = false
    /// XML: the named character entities a document may use without declaring them.
    public var entities: Entities = .xml

    /// Which named character entities XML inputs may use undeclared.
    public enum Entities: String, Sendable, CaseIterable {
        /// XML's five (`&lt;` `&gt;` `&amp;` `&apos;` `&quot;`), and those the document's
        /// DTD declares as plain text.
        case xml
        /// Also the 2,125 named character references of HTML5 (`&uuml;`, `&eacute;`,
        /// `&nbsp;`, ...), which include XHTML 1.0's 253: DBLP and other dumps written
        /// for an HTML DTD they do not include.
        case html
    }

    public init(
        name: String, schemaVersion: Int, format: Format, namespaces: [String: String] = [:],
        tables: [Table], sha256: String = ""
    ) {
        self.name = name
        self.schemaVersion = schemaVersion
        self.format = format
        self.namespaces = namespaces
        self.tables = tables
        self.sha256 = sha256
    }

    /// The table named `name`, if declared.
    public func table(named name: String) -> Table? {
        tables.first { $0.name == name }
    }

    /// The tables in an order where every table comes after the tables it references
    /// (self-references aside) and after its parent; declaration order breaks ties, so the
    /// order is deterministic.
    public var loadOrder: [Table] {
        var ordered: [Table] = []
        var placed = Set<String>()
        var remaining = tables
        while !remaining.isEmpty {
            let index =
                remaining.firstIndex { table in
                    table.dependencies.allSatisfy { $0 == table.name || placed.contains($0) }
                } ?? 0 // a cycle: validation rejects these, but never loop forever
            let table = remaining.remove(at: index)
            ordered.append(table)
            placed.insert(table.name)
        }
        return ordered
    }
}
