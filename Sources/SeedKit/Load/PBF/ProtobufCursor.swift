/// Reads protobuf wire format (the few messages of OpenStreetMap's PBF format) from bytes it
/// does not own: a blob's decompressed data, valid while the block is decoded. Every length
/// is checked against the bytes left before it is used, so a sub-message never reaches past
/// its parent, whatever the bytes say.
struct ProtobufCursor {
    /// The wire types the format uses (groups, 3 and 4, are refused).
    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    private let bytes: UnsafeRawBufferPointer
    private(set) var position: Int
    private let end: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        position = 0
        end = bytes.count
    }

    private init(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        self.bytes = bytes
        position = start
        self.end = end
    }

    var isAtEnd: Bool { position >= end }

    /// The next varint (at most 10 bytes, 64 bits).
    @inline(__always)
    mutating func varint() throws(PBFError) -> UInt64 {
        guard position < end else { throw PBFError(.malformed, "a varint runs past the end of its message") }
        let first = bytes[position]
        position += 1
        if first < 0x80 { return UInt64(first) }
        var result = UInt64(first & 0x7F)
        var shift: UInt64 = 7
        while true {
            guard position < end else { throw PBFError(.malformed, "a varint runs past the end of its message") }
            let byte = bytes[position]
            position += 1
            if shift == 63 && byte > 1 { throw PBFError(.malformed, "a varint over 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// The next zigzag-coded signed varint (`sint32`, `sint64`).
    @inline(__always)
    mutating func signedVarint() throws(PBFError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// The next plain `int32`/`int64` varint (negative values take ten bytes).
    @inline(__always)
    mutating func int64() throws(PBFError) -> Int64 {
        Int64(bitPattern: try varint())
    }

    /// The next field's key: its number and wire type; nil at the end of the message.
    @inline(__always)
    mutating func nextField() throws(PBFError) -> (number: UInt64, wire: WireType)? {
        guard position < end else { return nil }
        let key = try varint()
        guard let wire = WireType(rawValue: key & 7) else {
            throw PBFError(.malformed, "field \(key >> 3) has wire type \(key & 7), which the format does not use")
        }
        return (key >> 3, wire)
    }

    /// The bytes of a length-delimited field, as a cursor of their own.
    @inline(__always)
    mutating func message() throws(PBFError) -> ProtobufCursor {
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw PBFError(
                .malformed, "a field of \(length) bytes runs past the end of its message (\(end - position) left)")
        }
        let start = position
        position += Int(length)
        return ProtobufCursor(bytes, from: start, to: position)
    }

    /// The bytes of a length-delimited field, in place.
    mutating func field() throws(PBFError) -> UnsafeRawBufferPointer {
        let inner = try message()
        return UnsafeRawBufferPointer(rebasing: bytes[inner.position..<inner.end])
    }

    /// The byte range of a length-delimited field in the cursor's bytes.
    mutating func fieldRange() throws(PBFError) -> Range<Int> {
        let inner = try message()
        return inner.position..<inner.end
    }

    /// Skips the value of a field of type `wire`.
    mutating func skip(_ wire: WireType) throws(PBFError) {
        switch wire {
        case .varint: _ = try varint()
        case .lengthDelimited: _ = try message()
        case .fixed64, .fixed32:
            let size = wire == .fixed64 ? 8 : 4
            guard end - position >= size else {
                throw PBFError(.malformed, "a fixed-size field runs past the end of its message")
            }
            position += size
        }
    }

    /// Counts the varints of a packed field (to check parallel arrays have one length).
    func varintCount() -> Int {
        var count = 0
        for index in position..<end where bytes[index] < 0x80 { count += 1 }
        return count
    }
}
