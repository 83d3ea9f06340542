/// Receives the objects of a PBF file as the decoder finds them, in file order.
protocol PBFEntityHandler: AnyObject {
    /// `entity` and `strings` are valid during the call only (the decoder reuses them).
    func handle(_ entity: PBFEntity, strings: PBFStringTable) throws
}

/// Decodes the blocks of an OpenStreetMap PBF file: the `OSMHeader` block's required
/// features, and each `OSMData` block's objects (plain and dense nodes, ways, relations),
/// handed one by one to a `PBFEntityHandler`. Hand-written for the few messages the format
/// has (see "OpenStreetMap PBF" in `Documentation/xml.md`): every length, count and string
/// index is checked before use, and every delta is added with an overflow check.
struct PBFBlockDecoder {
    /// The required features of a header block that seedgen reads.
    static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]

    var strings = PBFStringTable()
    var entity = PBFEntity()
    private var groups: [Range<Int>] = []
    private(set) var granularity: Int64 = 100
    private(set) var latitudeOffset: Int64 = 0
    private(set) var longitudeOffset: Int64 = 0
    private(set) var dateGranularity: Int64 = 1000
    private var keys: [Int] = []
    private var values: [Int] = []

    init() {}

    /// Checks an `OSMHeader` block: every required feature must be one seedgen reads.
    static func checkHeader(_ bytes: UnsafeRawBufferPointer) throws(PBFError) {
        var cursor = ProtobufCursor(bytes)
        while let (number, wire) = try cursor.nextField() {
            guard number == 4, wire == .lengthDelimited else {
                try cursor.skip(wire)
                continue
            }
            let feature = String(decoding: try cursor.field(), as: UTF8.self)
            guard supportedFeatures.contains(feature) else {
                throw PBFError(
                    .unsupported,
                    "the file requires the feature '\(feature)', which seedgen does not read"
                        + " (it reads \(supportedFeatures.sorted().joined(separator: ", ")))")
            }
        }
    }

    /// Decodes one `PrimitiveBlock`, handing each object to `handler`.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, into handler: some PBFEntityHandler) throws {
        var cursor = ProtobufCursor(bytes)
        var stringTable: Range<Int>?
        groups.removeAll(keepingCapacity: true)
        granularity = 100
        latitudeOffset = 0
        longitudeOffset = 0
        dateGranularity = 1000
        // The block's fields may come in any order: the groups are read once all are known.
        while let (number, wire) = try cursor.nextField() {
            switch (number, wire) {
            case (1, .lengthDelimited): stringTable = try cursor.fieldRange()
            case (2, .lengthDelimited): groups.append(try cursor.fieldRange())
            case (17, .varint): granularity = try cursor.int64()
            case (18, .varint): dateGranularity = try cursor.int64()
            case (19, .varint): latitudeOffset = try cursor.int64()
            case (20, .varint): longitudeOffset = try cursor.int64()
            default: try cursor.skip(wire)
            }
        }
        guard granularity > 0, granularity <= 1_000_000_000, dateGranularity > 0, dateGranularity <= 1_000_000_000
        else {
            throw PBFError(.malformed, "a granularity of \(granularity) or a date granularity of \(dateGranularity)")
        }
        try strings.read(stringTable, of: bytes)
        for group in groups {
            var cursor = ProtobufCursor(UnsafeRawBufferPointer(rebasing: bytes[group]))
            while let (number, wire) = try cursor.nextField() {
                guard wire == .lengthDelimited else {
                    try cursor.skip(wire)
                    continue
                }
                let message = try cursor.message()
                switch number {
                case 1: try decodeNode(message, into: handler)
                case 2: try decodeDense(message, into: handler)
                case 3: try decodeWay(message, into: handler)
                case 4: try decodeRelation(message, into: handler)
                default: break // changesets
                }
            }
        }
    }

    private mutating func decodeNode(_ message: ProtobufCursor, into handler: some PBFEntityHandler) throws {
        var cursor = message
        begin(.node)
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        while let (number, wire) = try cursor.nextField() {
            switch (number, wire) {
            case (1, .varint): entity.id = try cursor.signedVarint()
            case (2...4, _): try readSharedField(number, wire, &cursor)
            case (8, .varint): latitude = try cursor.signedVarint()
            case (9, .varint): longitude = try cursor.signedVarint()
            default: try cursor.skip(wire)
            }
        }
        entity.latitude = try coordinate(latitude, latitudeOffset)
        entity.longitude = try coordinate(longitude, longitudeOffset)
        try pairTags()
        try handler.handle(entity, strings: strings)
    }

    private mutating func decodeWay(_ message: ProtobufCursor, into handler: some PBFEntityHandler) throws {
        var cursor = message
        begin(.way)
        while let (number, wire) = try cursor.nextField() {
            switch (number, wire) {
            case (1, .varint): entity.id = try cursor.int64()
            case (2...4, _): try readSharedField(number, wire, &cursor)
            case (8, .lengthDelimited):
                var refs = try cursor.message()
                var ref: Int64 = 0
                while !refs.isAtEnd {
                    ref = try Self.add(ref, try refs.signedVarint(), "a way's node id")
                    entity.refs.append(ref)
                }
            default: try cursor.skip(wire)
            }
        }
        try pairTags()
        try handler.handle(entity, strings: strings)
    }

    private mutating func decodeRelation(_ message: ProtobufCursor, into handler: some PBFEntityHandler) throws {
        var cursor = message
        begin(.relation)
        while let (number, wire) = try cursor.nextField() {
            switch (number, wire) {
            case (1, .varint): entity.id = try cursor.int64()
            case (2...4, _): try readSharedField(number, wire, &cursor)
            case (8, _): try readStrings(&cursor, wire, into: &entity.memberRoles)
            case (9, .lengthDelimited):
                var ids = try cursor.message()
                var ref: Int64 = 0
                while !ids.isAtEnd {
                    ref = try Self.add(ref, try ids.signedVarint(), "a relation's member id")
                    entity.memberRefs.append(ref)
                }
            case (10, .lengthDelimited):
                var types = try cursor.message()
                while !types.isAtEnd {
                    let type = try types.varint()
                    guard type <= 2 else { throw PBFError(.malformed, "a relation member of type \(type) (0, 1 or 2)") }
                    entity.memberTypes.append(UInt8(type))
                }
            default: try cursor.skip(wire)
            }
        }
        guard entity.memberRoles.count == entity.memberRefs.count, entity.memberTypes.count == entity.memberRefs.count
        else {
            throw PBFError(
                .malformed,
                "relation \(entity.id) has \(entity.memberRefs.count) member ids, "
                    + "\(entity.memberTypes.count) types and \(entity.memberRoles.count) roles")
        }
        try pairTags()
        try handler.handle(entity, strings: strings)
    }

    /// Starts an object of `kind`: the entity and the tag keys and values cleared.
    private mutating func begin(_ kind: PBFEntity.Kind) {
        entity.reset(kind)
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }

    /// Reads field 2, 3 or 4 of a `Node`, `Way` or `Relation` (tag keys, tag values, `Info`),
    /// which the three messages share.
    private mutating func readSharedField(
        _ number: UInt64, _ wire: ProtobufCursor.WireType, _ cursor: inout ProtobufCursor
    ) throws(PBFError) {
        switch (number, wire) {
        case (2, _): try readStrings(&cursor, wire, into: &keys)
        case (3, _): try readStrings(&cursor, wire, into: &values)
        case (4, .lengthDelimited): try decodeInfo(try cursor.message())
        default: try cursor.skip(wire)
        }
    }

    /// An `Info` message into the entity's version, timestamp, changeset, uid, user, visible.
    private mutating func decodeInfo(_ message: ProtobufCursor) throws(PBFError) {
        var cursor = message
        while let (number, wire) = try cursor.nextField() {
            guard wire == .varint else {
                try cursor.skip(wire)
                continue
            }
            let raw = try cursor.varint()
            switch number {
            case 1: entity.version = Int64(Int32(truncatingIfNeeded: raw))
            case 2: entity.timestamp = raw == 0 ? nil : try timestamp(Int64(bitPattern: raw))
            case 3: entity.changeset = Int64(bitPattern: raw)
            case 4: entity.uid = Int64(Int32(truncatingIfNeeded: raw))
            case 5: entity.user = try strings.checked(raw)
            case 6: entity.visible = raw != 0
            default: break
            }
        }
    }

    /// Reads string-table indexes (packed, or one plain varint) into `array`.
    private func readStrings(
        _ cursor: inout ProtobufCursor, _ wire: ProtobufCursor.WireType, into array: inout [Int]
    ) throws(PBFError) {
        switch wire {
        case .varint: array.append(try strings.checked(try cursor.varint()))
        case .lengthDelimited:
            var packed = try cursor.message()
            while !packed.isAtEnd { array.append(try strings.checked(try packed.varint())) }
        default: try cursor.skip(wire)
        }
    }

    /// The keys and values read into the entity's tags.
    private mutating func pairTags() throws(PBFError) {
        guard keys.count == values.count else {
            throw PBFError(.malformed, "object \(entity.id) has \(keys.count) tag keys and \(values.count) values")
        }
        for index in keys.indices {
            entity.tags.append(keys[index])
            entity.tags.append(values[index])
        }
    }

    /// A coordinate in nanodegrees from its stored value.
    @inline(__always)
    func coordinate(_ stored: Int64, _ offset: Int64) throws(PBFError) -> Int64 {
        let (scaled, overflow) = stored.multipliedReportingOverflow(by: granularity)
        let (value, overflowAgain) = scaled.addingReportingOverflow(offset)
        guard !overflow, !overflowAgain else {
            throw PBFError(
                .deltaOverflow,
                "a coordinate of \(stored) × \(granularity) + \(offset) nanodegrees leaves the 64-bit range")
        }
        return value
    }

    /// A timestamp in seconds from its stored value (units of the date granularity).
    @inline(__always)
    func timestamp(_ stored: Int64) throws(PBFError) -> Int64 {
        let (milliseconds, overflow) = stored.multipliedReportingOverflow(by: dateGranularity)
        let seconds = milliseconds / 1000
        guard !overflow, seconds >= 0, seconds <= PBFText.latestTimestamp else {
            throw PBFError(
                .malformed, "a timestamp of \(stored) × \(dateGranularity) ms, outside the years 1970 to 9999")
        }
        return seconds
    }

    /// `total + delta`, or a delta-overflow error naming `what`.
    @inline(__always)
    static func add(_ total: Int64, _ delta: Int64, _ what: @autoclosure () -> String) throws(PBFError) -> Int64 {
        let (sum, overflow) = total.addingReportingOverflow(delta)
        guard !overflow else {
            throw PBFError(.deltaOverflow, "\(what()) overflows: \(total) + \(delta) leaves the 64-bit range")
        }
        return sum
    }
}
