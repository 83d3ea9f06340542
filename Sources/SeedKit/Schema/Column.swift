/// One typed column and where its value comes from.
public struct Column: Sendable, Equatable {
    /// The SQL column name.
    public var name: String
    /// The type values are converted to.
    public var type: ColumnType
    /// Source field names, tried in order; the first one present wins. Defaults to the
    /// column name. CSV: header names. XML: a child element (`name`), an attribute (`@id`),
    /// a nested path (`im:collection/im:name`, `category/@term`), the record's own text
    /// (`.`), the record's position within its parent or file (`$position`), its element's
    /// name (`$name`), any child (`a/*`), or an attribute of an enclosing element (`../@id`,
    /// `ancestor::TransXChange/@FileName`).
    public var source: [String]
    /// When true, a record without a value is an error (and the column is NOT NULL).
    public var required: Bool
    /// The text used when the source has no value.
    public var defaultValue: String?
    /// The format of `date`, `datetime` and `time` values (see `ValueFormat`), or of
    /// `duration` values written as clock fields (`m:ss`, see `DurationFormat`).
    public var format: String?
    /// False for a column read only to resolve a reference: it is not stored.
    public var stored: Bool
    /// XML: true when the value is whether a source matched an element (or attribute) at
    /// all, stored as 1 or 0 (`<Monday/>` is there or not), whatever its text.
    public var exists: Bool
    /// An SQL expression over the row's other columns, evaluated after loading
    /// (`departure_time + 86400 * departure_day_offset`); such a column has no source.
    public var expression: String?
    /// False to keep values exactly as read; by default surrounding spaces and tabs are
    /// removed before typing, key matching and storing.
    public var trim: Bool = true
    /// True to store the column after the table's other columns and references (before
    /// `extras`); see `Table.layout`. For columns most rows leave empty: an input without
    /// them then stores nothing for them.
    public var trailing: Bool = false
    /// What a value that does not convert to `type` is (see `InvalidRule`).
    public var onInvalid: InvalidRule = .error

    /// What a value that does not convert to the column's type is.
    public enum InvalidRule: String, Sendable, Equatable, CaseIterable {
        /// An error naming the place and the value (`--lenient`: NULL, with a warning).
        case error
        /// NULL, with a warning: for a value producers are known to get wrong (a NeTEx run
        /// time written `P3M`, three months, for three minutes) that must not stop a build.
        case null
    }
    /// `datetime`: how many digits of a second are stored (0 to 9). Every value is written
    /// with exactly that many, so text order is time order; a value with more (non-zero)
    /// digits is an error, never cut.
    public var precision: Int = 0
    /// `date`: accept dates of which only the year or the year and month are known (`2000`,
    /// `1999-03`, `1999-03-00`), stored with `00` for the unknown parts (`2000-00-00`).
    public var partial: Bool = false
    /// The table whose row id the column's integer value is (a region seed's `feed_ref`, see
    /// `Schema.scopedByFeed`): declared as a foreign key. A reference is a `Reference`; this is
    /// for a value that is an id as read.
    public var foreignKey: String?

    public init(
        name: String, type: ColumnType = .text, source: [String]? = nil, required: Bool = false,
        defaultValue: String? = nil, format: String? = nil, stored: Bool = true,
        exists: Bool = false, expression: String? = nil
    ) {
        self.name = name
        self.type = type
        self.source = source ?? [name]
        self.required = required
        self.defaultValue = defaultValue
        self.format = format
        self.stored = stored
        self.exists = exists
        self.expression = expression
    }
}

extension Column: CustomReflectable {
    /// The fields as `String(reflecting:)` shows them in the seed version's digest: options
    /// added later appear only when set (see `Table.customMirror`).
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [
            ("name", name), ("type", type), ("source", source), ("required", required),
            ("defaultValue", defaultValue as Any),
            ("format", format as Any), ("stored", stored), ("exists", exists), ("expression", expression as Any),
            ("trim", trim),
            ("trailing", trailing)
        ]
        if onInvalid != .error { children.append(("onInvalid", onInvalid)) }
        if let foreignKey { children.append(("foreignKey", foreignKey)) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

extension Column {
    /// The name of the column holding a row's undeclared CSV fields (`extras: true`).
    public static let extrasName = "extras"
    /// The source of the extras column: no header field, filled by the CSV importer.
    static let extrasSource = "$extras"

    /// The `extras` column of a table with `extras: true`: JSON text of the undeclared
    /// columns' non-empty values.
    static var extras: Column { Column(name: extrasName, source: [extrasSource]) }
}

extension ValueConverter {
    /// The converter of `column`'s values.
    public init(column: Column) {
        self.init(
            type: column.type, trims: column.trim, precision: column.precision, partial: column.partial,
            format: column.format)
    }
}
