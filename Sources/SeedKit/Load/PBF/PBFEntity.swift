import SeedSQLite

/// One OpenStreetMap object of a PBF block (a node, a way or a relation), decoded: deltas
/// added up, coordinates in nanodegrees, string-table indexes checked. The decoder reuses
/// one entity (and its arrays) for every object of a file.
struct PBFEntity {
    enum Kind: Int { case node, way, relation }

    var kind = Kind.node
    var id: Int64 = 0
    /// Node coordinates in nanodegrees (the block's offsets and granularity applied).
    var latitude: Int64 = 0
    var longitude: Int64 = 0
    /// `Info` or `DenseInfo` values; nil where the file has none.
    var version: Int64?
    /// Seconds since 1970 (the block's date granularity applied).
    var timestamp: Int64?
    var changeset: Int64?
    var uid: Int64?
    /// A string-table index.
    var user: Int?
    var visible: Bool?
    /// Key and value string-table indexes, alternating.
    var tags: [Int] = []
    /// A way's node ids.
    var refs: [Int64] = []
    /// A relation's members: type (0 node, 1 way, 2 relation), id, role string-table index.
    var memberTypes: [UInt8] = []
    var memberRefs: [Int64] = []
    var memberRoles: [Int] = []

    /// Starts the next object of `kind`: everything else cleared, arrays kept for reuse.
    mutating func reset(_ kind: Kind) {
        self.kind = kind
        id = 0
        latitude = 0
        longitude = 0
        version = nil
        timestamp = nil
        changeset = nil
        uid = nil
        user = nil
        visible = nil
        tags.removeAll(keepingCapacity: true)
        refs.removeAll(keepingCapacity: true)
        memberTypes.removeAll(keepingCapacity: true)
        memberRefs.removeAll(keepingCapacity: true)
        memberRoles.removeAll(keepingCapacity: true)
    }

    /// The names of member types, as OSM XML writes them.
    static let memberTypeNames = ["node", "way", "relation"]
}

/// The strings of one primitive block: byte ranges in the block's decompressed data.
struct PBFStringTable {
    private(set) var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    private var starts: [Int] = []
    private var ends: [Int] = []

    var count: Int { starts.count }

    /// Reads a `StringTable` message from `bytes` (the whole block), replacing the strings.
    mutating func read(_ range: Range<Int>?, of bytes: UnsafeRawBufferPointer) throws(PBFError) {
        self.bytes = bytes
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        guard let range else { return }
        var cursor = ProtobufCursor(UnsafeRawBufferPointer(rebasing: bytes[range]))
        while let (number, wire) = try cursor.nextField() {
            guard number == 1, wire == .lengthDelimited else {
                try cursor.skip(wire)
                continue
            }
            let string = try cursor.fieldRange()
            starts.append(range.lowerBound + string.lowerBound)
            ends.append(range.lowerBound + string.upperBound)
        }
    }

    /// `index` as a checked string-table index.
    @inline(__always)
    func checked(_ index: UInt64) throws(PBFError) -> Int {
        guard index < UInt64(starts.count) else {
            throw PBFError(.badStringIndex, "string index \(index) past the block's \(starts.count) strings")
        }
        return Int(index)
    }

    /// The bytes of string `index` (checked when it was decoded).
    @inline(__always)
    func string(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[starts[index]..<ends[index]])
    }
}

/// The text OSM XML writes for PBF values, so that a value converts to the same column value
/// from either input.
enum PBFText {
    /// Nanodegrees as a decimal without trailing zeros (`47.1707607`, `-0.5`, `9`).
    static func withCoordinate<R, E: Error>(
        _ nanodegrees: Int64, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer throws(E) -> R in
            var magnitude = nanodegrees.magnitude
            var end = 32
            var fraction = magnitude % 1_000_000_000
            magnitude /= 1_000_000_000
            if fraction != 0 {
                var digits = 9
                while fraction % 10 == 0 {
                    fraction /= 10
                    digits -= 1
                }
                for _ in 0..<digits {
                    end -= 1
                    buffer[end] = UInt8(truncatingIfNeeded: 48 + fraction % 10)
                    fraction /= 10
                }
                end -= 1
                buffer[end] = UInt8(ascii: ".")
            }
            repeat {
                end -= 1
                buffer[end] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if nanodegrees < 0 {
                end -= 1
                buffer[end] = UInt8(ascii: "-")
            }
            return try body(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[end..<32])))
        }
    }

    /// The latest timestamp `withTimestamp` writes: 9999-12-31T23:59:59Z.
    static let latestTimestamp: Int64 = 253_402_300_799

    /// Seconds since 1970 (0 through `latestTimestamp`) as OSM XML writes a timestamp:
    /// `2011-07-08T11:51:35Z`.
    static func withTimestamp<R, E: Error>(
        _ seconds: Int64, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = CivilDate.civil(Int(days))
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer throws(E) -> R in
            func put(_ value: Int64, at index: Int, digits: Int) {
                var value = value
                for position in stride(from: index + digits - 1, through: index, by: -1) {
                    buffer[position] = UInt8(truncatingIfNeeded: 48 + value % 10)
                    value /= 10
                }
            }
            put(Int64(year), at: 0, digits: 4)
            put(Int64(month), at: 5, digits: 2)
            put(Int64(day), at: 8, digits: 2)
            put(time / 3600, at: 11, digits: 2)
            put(time / 60 % 60, at: 14, digits: 2)
            put(time % 60, at: 17, digits: 2)
            buffer[4] = UInt8(ascii: "-")
            buffer[7] = UInt8(ascii: "-")
            buffer[10] = UInt8(ascii: "T")
            buffer[13] = UInt8(ascii: ":")
            buffer[16] = UInt8(ascii: ":")
            buffer[19] = UInt8(ascii: "Z")
            return try body(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[0..<20])))
        }
    }
}
