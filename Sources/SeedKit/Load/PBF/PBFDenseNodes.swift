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

    /// The number of nodes, after checking that every array present has one value per node.
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

extension PBFBlockDecoder {
    /// Decodes a `DenseNodes` message, handing each node to `handler`.
    mutating func decodeDense(_ message: ProtobufCursor, into handler: some PBFEntityHandler) throws {
        var arrays = try DenseArrays(message)
        let count = try arrays.count()
        var id: Int64 = 0
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        var timestamp: Int64 = 0
        var changeset: Int64 = 0
        var uid: Int64 = 0
        var user: Int64 = 0
        for _ in 0..<count {
            entity.reset(.node)
            // `count()` checked each array has a value here.
            id = try Self.add(id, try arrays.ids!.signedVarint(), "a dense node id")
            latitude = try Self.add(latitude, try arrays.latitudes!.signedVarint(), "a dense node latitude")
            longitude = try Self.add(longitude, try arrays.longitudes!.signedVarint(), "a dense node longitude")
            entity.id = id
            entity.latitude = try coordinate(latitude, latitudeOffset)
            entity.longitude = try coordinate(longitude, longitudeOffset)
            if arrays.versions != nil {
                entity.version = Int64(Int32(truncatingIfNeeded: try arrays.versions!.varint()))
            }
            if arrays.timestamps != nil {
                timestamp = try Self.add(timestamp, try arrays.timestamps!.signedVarint(), "a dense node timestamp")
                entity.timestamp = timestamp == 0 ? nil : try self.timestamp(timestamp)
            }
            if arrays.changesets != nil {
                changeset = try Self.add(changeset, try arrays.changesets!.signedVarint(), "a dense node changeset")
                entity.changeset = changeset
            }
            if arrays.uids != nil {
                uid = try Self.add(uid, try arrays.uids!.signedVarint(), "a dense node uid")
                entity.uid = uid
            }
            if arrays.users != nil {
                user = try Self.add(user, try arrays.users!.signedVarint(), "a dense node user_sid")
                guard user >= 0 else { throw PBFError(.badStringIndex, "string index \(user) is negative") }
                entity.user = try strings.checked(UInt64(user))
            }
            if arrays.visibles != nil { entity.visible = try arrays.visibles!.varint() != 0 }
            try readDenseTags(&arrays.keysValues)
            try handler.handle(entity, strings: strings)
        }
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
