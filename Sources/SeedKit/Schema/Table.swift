import Foundation

/// One table of the seed and where its rows come from.
public struct Table: Sendable, Equatable {
    /// The SQL table name.
    public var name: String
    /// The input file the rows come from. CSV: the file name inside the feed (default
    /// `<name>.txt`). XML: the file name (default: every `.xml` input).
    public var file: String?
    /// When true, a missing input file is not an error: the table is created empty.
    public var optional: Bool
    /// XML: the element (name or `a/b` path, with namespace prefixes) that is one record.
    /// Alternatives (`element: [StopPoint, AnnotatedStopPointRef]` in YAML) are separated by
    /// `elementSeparator`: an element matching any of them is a record.
    public var element: String?

    /// Separates the alternatives of `element`.
    public static let elementSeparator = " | "

    /// XML: the alternatives of `element`.
    public var elementAlternatives: [String] {
        element.map { $0.components(separatedBy: Self.elementSeparator) } ?? []
    }
    /// XML: a table whose records are nested inside another table's records.
    public var parent: ParentLink?
    /// The integer primary key column every table gets; rows are numbered 1, 2, ... in input
    /// order, so the numbering is deterministic.
    public var rowID: String
    /// The natural key: columns whose values are unique across the table. References from
    /// other tables are resolved against it.
    public var key: [String]
    /// Store the table clustered on its key (`WITHOUT ROWID`), with no `rowID` column and no
    /// separate key index: smaller and faster for big tables that nothing references, such as
    /// GTFS `stop_times`, whose rows are then stored in (trip, sequence) order.
    public var withoutRowID: Bool
    /// The columns, in the order they are stored.
    public var columns: [Column]
    /// To-one relationships to other tables (or this one), stored as integer references.
    public var references: [Reference]
    /// Secondary indexes. References and the natural key get theirs automatically.
    public var indexes: [Index]
    /// XML: conditions a record must meet to be kept; others are skipped and counted.
    public var filter: [Condition]
    /// XML: the rows are the items of a list held in one value of the parent record
    /// (Stack Exchange's `Tags="<ai><ml>"`), not elements.
    public var list: ValueList?
    /// CSV: the last column is `extras`, a JSON object of the fields the schema does not
    /// declare (see `Column.extras`).
    public var extras: Bool = false
    /// What a row repeating a key already loaded means (see `DuplicateRule`).
    public var duplicates: DuplicateRule = .error
    /// CSV: columns no two rows of a file may share, though no index of the seed holds them,
    /// an empty value equal to an empty one (GTFS fare_rules: its five fields, most often
    /// some empty, which a unique index would never find equal). Checked while loading, as a
    /// key is. Set by the build, not by the schema's YAML (see `GTFSChecks.checkedKeys`), so
    /// it is no part of the schema's digest.
    public var checkedKey: [String] = []
    /// With `duplicates: merge`: the column holding each row's version. Rows repeating a key
    /// with another version are versions of one object: the highest is kept.
    public var version: String?
    /// A full-text index over some of the text columns (`search:`), built after loading.
    public var search: SearchIndex?
    /// A spatial index over the coordinates (`spatial:`), built after loading.
    public var spatial: SpatialIndex?
    /// Rows computed by SQL once every input is loaded (`derive:`): all of them, or, with a
    /// marker column, some beside the rows read.
    public var derive: TableDerive?

    /// True when every row is derived: a `derive:` table with no input of its own.
    public var isDerived: Bool { derive != nil && derive?.marker == nil }

    public init(
        name: String, file: String? = nil, optional: Bool = false, element: String? = nil,
        parent: ParentLink? = nil, rowID: String = "id", key: [String] = [], withoutRowID: Bool = false,
        columns: [Column],
        references: [Reference] = [], indexes: [Index] = [], filter: [Condition] = [], list: ValueList? = nil
    ) {
        self.name = name
        self.file = file
        self.optional = optional
        self.element = element
        self.parent = parent
        self.rowID = rowID
        self.key = key
        self.withoutRowID = withoutRowID
        self.columns = columns
        self.references = references
        self.indexes = indexes
        self.filter = filter
        self.list = list
    }

    /// The column named `name`, if declared.
    public func column(named name: String) -> Column? {
        columns.first { $0.name == name }
    }

    /// The columns that are stored in the table (virtual columns only feed references).
    public var storedColumns: [Column] { columns.filter(\.stored) }

    /// The index of the `extras` column, when the table has one.
    public var extrasIndex: Int? { extras ? columns.count - 1 : nil }

    /// Names of the tables this one must be loaded after.
    public var dependencies: [String] {
        var names = references.map(\.to)
        if let parent { names.append(parent.table) }
        return names
    }
}

/// What a row whose key is already in the table is.
public enum DuplicateRule: String, Sendable, Equatable, CaseIterable {
    /// A mistake: an error naming both places (`--lenient` keeps the first row).
    case error
    /// The same object again (an export repeats shared objects in every file): a row with the
    /// same values is one row; with other values, the one with the highest `version` is
    /// kept (a warning names both places); the same version with other values is, in the
    /// same file, an error naming both places (`--lenient` keeps the first), and in another
    /// file another object: a key names one object per document (NeTEx's XSD keys hold
    /// within one document), and a reference goes to its own document's object first
    /// (`DocumentScope`). The rows nested in a copy that is not kept go with it.
    case merge
}

extension Table: CustomReflectable {
    /// The fields as `String(reflecting:)` shows them in the seed version's digest
    /// (`Schema.canonicalDescription`): the options added later appear only when set, so a
    /// schema that does not use them keeps the digest it had.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [
            ("name", name), ("file", file as Any), ("optional", optional), ("element", element as Any),
            ("parent", parent as Any),
            ("rowID", rowID), ("key", key), ("withoutRowID", withoutRowID), ("columns", columns),
            ("references", references),
            ("indexes", indexes), ("filter", filter), ("list", list as Any), ("extras", extras)
        ]
        if duplicates != .error { children.append(("duplicates", duplicates)) }
        if let version { children.append(("version", version)) }
        if let derive { children.append(("derive", derive)) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

/// XML: how a nested record points at the record it is nested in.
public struct ParentLink: Sendable, Equatable {
    /// The enclosing table.
    public var table: String
    /// The integer column of this table that holds the enclosing row's id.
    public var column: String

    public init(table: String, column: String) {
        self.table = table
        self.column = column
    }
}

/// XML: a list of items inside one value of the parent record. Each item becomes a row of
/// the table; its columns read the item (`.`) and its position (`$position`).
public struct ValueList: Sendable, Equatable {
    /// The parent record's source holding the list (`@Tags`), or fall-back sources tried in
    /// order, the first the record has winning (a GML `posList` on a link or in its projection).
    public var sources: [String]
    /// Items separated by this text (`separator: " "` for `1 2 3`) ...
    public var separator: String?
    /// ... or each item enclosed in `open` and `close` (`<ai><ml>`: `<` and `>`).
    public var open: String?
    public var close: String?

    public init(sources: [String], separator: String? = nil, open: String? = nil, close: String? = nil) {
        self.sources = sources
        self.separator = separator
        self.open = open
        self.close = close
    }
}

/// A condition on a record's source value (XML record filters).
public struct Condition: Sendable, Equatable {
    public enum Test: Sendable, Equatable {
        /// The value is present and not empty.
        case present
        /// The value is missing or empty.
        case absent
        /// The value equals one of these strings.
        case equals([String])
        /// The value differs from all of these strings.
        case notEquals([String])
    }

    /// The source path whose value is tested.
    public var source: String
    public var test: Test

    public init(source: String, test: Test) {
        self.source = source
        self.test = test
    }
}

/// A secondary index.
public struct Index: Sendable, Equatable {
    /// The index name; default `<table>_<column>_...`.
    public var name: String
    public var columns: [String]
    public var unique: Bool

    public init(name: String, columns: [String], unique: Bool = false) {
        self.name = name
        self.columns = columns
        self.unique = unique
    }
}
