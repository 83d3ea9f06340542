import SeedSQLite

/// The values one PBF object (or one of its items: a tag, a node of a way, a member) gives
/// the columns of a row: what the text OSM XML writes for them (`PBFText`) converts to, so a
/// column holds the same value from either input. Numbers go to integer and real columns as
/// numbers (`TableLoader.setInteger`, `setReal`), to other columns as their text. An empty
/// string is no value, as an empty attribute is.
///
/// The object is a parameter, not a stored property: a value made per row would copy the
/// entity's arrays (a retain and a release each).
struct PBFValue {
    /// The item's part, or nil for the object itself.
    let part: PBFTablePlan.Part?
    /// The item's 0-based index (for the object itself: its row's index among its table's).
    let item: Int
    /// The input's name (`$file`).
    let fileName: [UInt8]

    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)
    private static let memberTypes = PBFEntity.memberTypeNames.map { Array($0.utf8) }
    /// Nanodegrees below this magnitude are exact doubles: divided by 10^9 they give the double
    /// `ValueConverter` reads from their decimal text (one correctly rounded division of the
    /// same exact quotient).
    private static let exactNanodegrees: UInt64 = 1 << 53

    /// Sets `column` of `loader`'s row to `field`'s value of `entity` when `store` (else only
    /// looks); returns false when there is no value (nothing set).
    @inline(__always)
    func set(
        _ field: PBFTablePlan.Field, of entity: PBFEntity, strings: PBFStringTable, into column: Int,
        of loader: TableLoader, store: Bool
    ) throws(SQLiteError) -> Bool {
        func decimal(_ value: Int64?) throws(SQLiteError) -> Bool {
            guard let value else { return false }
            guard store else { return true }
            if loader.columnTypes[column] == .integer {
                loader.setInteger(column, value)
            } else {
                try XMLText.withDecimal(Int(value)) { digits throws(SQLiteError) in try loader.set(column, digits) }
            }
            return true
        }
        func text(_ bytes: UnsafeRawBufferPointer) throws(SQLiteError) -> Bool {
            guard !bytes.isEmpty else { return false }
            if store { try loader.set(column, bytes) }
            return true
        }
        func text(_ bytes: [UInt8]) throws(SQLiteError) -> Bool {
            try PBFBlobReader.withBytes(of: bytes) { bytes throws(SQLiteError) in try text(bytes) }
        }
        func coordinate(_ value: Int64) throws(SQLiteError) -> Bool {
            guard entity.kind == .node else { return false }
            guard store else { return true }
            if loader.columnTypes[column] == .real, value.magnitude < Self.exactNanodegrees {
                loader.setReal(column, Double(value) / 1_000_000_000)
            } else {
                try PBFText.withCoordinate(value) { digits throws(SQLiteError) in try loader.set(column, digits) }
            }
            return true
        }
        switch field {
        case .id: return try decimal(entity.id)
        case .latitude: return try coordinate(entity.latitude)
        case .longitude: return try coordinate(entity.longitude)
        case .version: return try decimal(entity.version)
        case .changeset: return try decimal(entity.changeset)
        case .uid: return try decimal(entity.uid)
        case .timestamp:
            guard let seconds = entity.timestamp else { return false }
            if store {
                try PBFText.withTimestamp(seconds) { digits throws(SQLiteError) in try loader.set(column, digits) }
            }
            return true
        case .user:
            guard let user = entity.user else { return false }
            return try text(strings.string(user))
        case .visible:
            guard let visible = entity.visible else { return false }
            return try text(visible ? Self.trueText : Self.falseText)
        case .key: return try text(strings.string(entity.tags[2 * item]))
        case .value: return try text(strings.string(entity.tags[2 * item + 1]))
        case .ref: return try decimal(part == .nodes ? entity.refs[item] : entity.memberRefs[item])
        case .type: return try text(Self.memberTypes[Int(entity.memberTypes[item])])
        case .role: return try text(strings.string(entity.memberRoles[item]))
        case .position: return try decimal(Int64(item + 1))
        case .file: return try text(fileName)
        case .feed:
            if store { try loader.setFeed(column) }
            return true
        case .none: return false
        }
    }
}
