/// Writes small OpenStreetMap PBF files for tests: protobuf fields, raw (uncompressed)
/// blobs, and the few messages the crafted cases need.
enum PBFTestFile {
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value, bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    static func field(_ number: UInt64, varint value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }

    static func field(_ number: UInt64, bytes: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes }

    static func field(_ number: UInt64, string: String) -> [UInt8] { field(number, bytes: Array(string.utf8)) }

    static func packed(_ number: UInt64, _ values: [UInt64]) -> [UInt8] { field(number, bytes: values.flatMap(varint)) }

    /// A blob: the 4-byte length, the header (type, data size), the `Blob` message.
    static func blob(_ type: String, blob: [UInt8], dataSize: Int? = nil) -> [UInt8] {
        let header = field(1, string: type) + field(3, varint: UInt64(dataSize ?? blob.count))
        let length = UInt32(header.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + header + blob
    }

    /// A raw (uncompressed) blob holding `data`.
    static func rawBlob(_ type: String, _ data: [UInt8]) -> [UInt8] {
        blob(type, blob: field(1, bytes: data) + field(2, varint: UInt64(data.count)))
    }

    /// The header blob every file starts with.
    static let header = rawBlob("OSMHeader", field(4, string: "OsmSchema-V0.6") + field(4, string: "DenseNodes"))

    /// A data blob of dense nodes: ids and coordinates as stored (deltas), `keysValues` as
    /// stored, `strings` the block's string table.
    static func denseBlock(ids: [Int64], latitudes: [Int64], longitudes: [Int64], keysValues: [UInt64] = [],
                           strings: [String] = [""]) -> [UInt8] {
        var dense = packed(1, ids.map(zigzag)) + packed(8, latitudes.map(zigzag)) + packed(9, longitudes.map(zigzag))
        if !keysValues.isEmpty { dense += packed(10, keysValues) }
        let table = field(1, bytes: strings.flatMap { field(1, string: $0) })
        return rawBlob("OSMData", table + field(2, bytes: field(2, bytes: dense)))
    }
}
