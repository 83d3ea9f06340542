/// The packed arrays of a `DenseNodes` message: one cursor per array, read in step, each
/// delta added up as the nodes go (nothing is copied out of the block).
private struct DenseArrays {
    var ids: ProtobufCursor?, latitudes: ProtobufCursor?, longitudes: ProtobufCursor?, keysValues: ProtobufCursor?
    var versions: ProtobufCursor?, timestamps: ProtobufCursor?, changesets: ProtobufCursor?
    var uids: ProtobufCursor?, users: ProtobufCursor?, visibles: ProtobufCursor?

    init(_ message: ProtobufCursor) throws(PBFError) {
        var cursor = message
        while let (number, wire) = try cursor.nextField() {
            guard wire == .lengthDelimited else {
                try cursor.skip(wire)
                continue
            }
            let array = try cursor.message()
            switch number {
            case 1: ids = array
            case 5: try readInfo(array)
            case 8: latitudes = array
            case 9: longitudes = array
            case 10: keysValues = array
            default: break
            }
        }
    }

    private mutating func readInfo(_ message: ProtobufCursor) throws(PBFError) {
        var cursor = message
        while let (number, wire) = try cursor.nextField() {
            guard wire == .lengthDelimited else {
                try cursor.skip(wire)
                continue
            }
            let array = try cursor.message()
            switch number {
            case 1: versions = array
            case 2: timestamps = array
            case 3: changesets = array
            case 4: uids = array
            case 5: users = array
            case 6: visibles = array
            default: break
            }
        }
    }

    /// The number of nodes, after checking that every array present has one value per node
    /// (asked only when the arrays were found to differ, for the message).
    func count() throws(PBFError) -> Int {
        let count = ids?.varintCount() ?? 0
        let named: [(String, ProtobufCursor?)] = [
            ("lat", latitudes), ("lon", longitudes), ("version", versions),
            ("timestamp", timestamps), ("changeset", changesets), ("uid", uids),
            ("user_sid", users), ("visible", visibles)
        ]
        for (name, array) in named {
            guard let array else {
                if name == "lat" || name == "lon", count > 0 {
                    throw PBFError(.malformed, "dense nodes without their \(name) array")
                }
                continue
            }
            let values = array.varintCount()
            guard values == count else {
                throw PBFError(.malformed, "dense nodes with \(count) ids and \(values) \(name) values")
            }
        }
        return count
    }
}

/// The running totals of a `DenseNodes` message's delta-coded arrays.
private struct DenseTotals {
    var id: Int64 = 0, latitude: Int64 = 0, longitude: Int64 = 0, timestamp: Int64 = 0
    var changeset: Int64 = 0, uid: Int64 = 0, user: Int64 = 0
}

extension PBFBlockDecoder {
    /// Decodes a `DenseNodes` message, handing each node to `handler`. The arrays are read in
    /// one pass; arrays of unequal lengths are found where the first one runs out (or, when the
    /// ids do, by the arrays left over), and only then counted, for the message.
    mutating func decodeDense(_ message: ProtobufCursor, into handler: some PBFEntityHandler) throws {
        var arrays = try DenseArrays(message)
        let original = arrays
        guard let ids = arrays.ids, !ids.isAtEnd else {
            _ = try original.count() // throws when an array has values without ids
            return
        }
        guard arrays.latitudes != nil, arrays.longitudes != nil else {
            _ = try original.count() // throws: the coordinates are missing
            return
        }
        var totals = DenseTotals()
        while !arrays.ids!.isAtEnd {
            do throws(PBFError) {
                try decodeDenseNode(&arrays, &totals)
            } catch {
                _ = try original.count() // the arrays' lengths differ, or else:
                throw error
            }
            try handler.handle(entity, strings: strings)
        }
        let perNode = [
            arrays.latitudes, arrays.longitudes, arrays.versions, arrays.timestamps, arrays.changesets, arrays.uids,
            arrays.users, arrays.visibles
        ]
        if perNode.contains(where: { $0.map { !$0.isAtEnd } ?? false }) { _ = try original.count() }
    }

    /// The next node of the arrays into `entity`, its deltas added to `totals`.
    private mutating func decodeDenseNode(_ arrays: inout DenseArrays, _ totals: inout DenseTotals) throws(PBFError) {
        entity.reset(.node)
        // `decodeDense` checked the id and coordinate arrays are there.
        totals.id = try Self.add(totals.id, try arrays.ids!.signedVarint(), "a dense node id")
        totals.latitude = try Self.add(
            totals.latitude, try arrays.latitudes!.signedVarint(), "a dense node latitude")
        totals.longitude = try Self.add(
            totals.longitude, try arrays.longitudes!.signedVarint(), "a dense node longitude")
        entity.id = totals.id
        entity.latitude = try coordinate(totals.latitude, latitudeOffset)
        entity.longitude = try coordinate(totals.longitude, longitudeOffset)
        if arrays.versions != nil {
            entity.version = Int64(Int32(truncatingIfNeeded: try arrays.versions!.varint()))
        }
        if arrays.timestamps != nil {
            totals.timestamp = try Self.add(
                totals.timestamp, try arrays.timestamps!.signedVarint(), "a dense node timestamp")
            entity.timestamp = totals.timestamp == 0 ? nil : try self.timestamp(totals.timestamp)
        }
        if arrays.changesets != nil {
            totals.changeset = try Self.add(
                totals.changeset, try arrays.changesets!.signedVarint(), "a dense node changeset")
            entity.changeset = totals.changeset
        }
        if arrays.uids != nil {
            totals.uid = try Self.add(totals.uid, try arrays.uids!.signedVarint(), "a dense node uid")
            entity.uid = totals.uid
        }
        if arrays.users != nil {
            totals.user = try Self.add(totals.user, try arrays.users!.signedVarint(), "a dense node user_sid")
            guard totals.user >= 0 else { throw PBFError(.badStringIndex, "string index \(totals.user) is negative") }
            entity.user = try strings.checked(UInt64(totals.user))
        }
        if arrays.visibles != nil { entity.visible = try arrays.visibles!.varint() != 0 }
        try readDenseTags(&arrays.keysValues)
    }

    /// The next node's tags from `keys_vals`: key and value indexes, then a 0.
    private mutating func readDenseTags(_ keysValues: inout ProtobufCursor?) throws(PBFError) {
        guard keysValues != nil else { return }
        while !keysValues!.isAtEnd {
            let key = try keysValues!.varint()
            if key == 0 { return }
            entity.tags.append(try strings.checked(key))
            guard !keysValues!.isAtEnd else { throw PBFError(.malformed, "a dense node's tag key without its value") }
            entity.tags.append(try strings.checked(try keysValues!.varint()))
        }
    }
}
