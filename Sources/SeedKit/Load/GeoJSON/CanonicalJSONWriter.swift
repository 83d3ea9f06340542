import Foundation

/// A place in JSON text that is not valid JSON: the byte offset in the text given to the
/// writer, what is wrong, and where in the value it is (`geometry.coordinates[0][3]`).
struct JSONTextError: Error, Sendable {
    /// The notice code it is reported with: its feature is a malformed row.
    var code: String { BuildIssue.Kind.malformedRow.noticeCode }
    var offset: Int
    var message: String
    var path: String
}

/// Reads JSON text and writes it in the one form the seed stores: as `JSONSerialization` once
/// wrote what it read (compact, object keys sorted as its `.sortedKeys` sorts them, a repeated
/// key's last value, strings with only the escapes JSON requires and no escaped slashes,
/// numbers as `JSONNumberText` says), straight from the bytes without building values. It
/// accepts what `JSONSerialization` accepts (a trailing comma too) and no more: nesting at
/// most 512 deep, strings without raw control characters, numbers a Swift number holds.
final class CanonicalJSONWriter {
    static let maximumDepth = 512

    /// The text written since the last `begin`.
    let output = JSONBytes()
    private let scratch = JSONBytes()

    // @exclusivity(unchecked) here and on the stacks below: as JSONBytes', one thread's, read
    // or moved at every byte or list item (perf: the checks were still 14% with these checked).
    @exclusivity(unchecked) private var input: UnsafePointer<UInt8>
    @exclusivity(unchecked) private var end = 0
    /// The next byte to read of the text.
    @exclusivity(unchecked) var position = 0

    private struct Member {
        var key: String
        var start: Int // of the key in `output`
        var value: Int // of the value, after the key and its colon
        var end: Int
    }
    /// The members of the objects being written, innermost last.
    @exclusivity(unchecked) private var members: [Member] = []
    /// Where the value being written is, for messages: a member's name, or nil for a list,
    /// whose item number is in `items` (kept apart: it changes at every item).
    @exclusivity(unchecked) private var path: [String?] = []
    @exclusivity(unchecked) private var items: [Int] = []
    private var keyOrder = JSONKeyOrder()
    /// Set when a value was written at `maximumDepth` (a number, string or literal inside 511
    /// lists or objects): `JSONSerialization` read such a value but did not write it again.
    var reachedDepthLimit = false
    /// What is noted of the geometry being written (`writeGeometry`), for its rings.
    @exclusivity(unchecked) var rings = RingWatch()

    init() {
        input = UnsafePointer(output.base)
    }

    /// Starts on `text` (valid while it is used), with nothing written.
    func begin(_ text: UnsafeBufferPointer<UInt8>) {
        input = text.baseAddress ?? UnsafePointer(output.base)
        end = text.count
        position = 0
        output.truncate(to: 0)
        members.removeAll(keepingCapacity: true)
        path.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
        rings = RingWatch()
    }

    // MARK: Reading

    /// The next byte that is not JSON white space (not consumed), nil at the end.
    @inline(__always)
    func nextNonSpace() -> UInt8? {
        var at = position
        defer { position = at }
        while at < end {
            switch input[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return input[at]
            }
        }
        return nil
    }

    /// Steps over the current byte.
    @inline(__always)
    func consume() { position += 1 }

    /// Where the text ends.
    var endOfText: Int { end }

    @inline(__always)
    func byte(at offset: Int) -> UInt8 { input[offset] }

    func pointer(at offset: Int) -> UnsafePointer<UInt8> { input + offset }

    /// An error at `offset` (the current byte by default).
    func failure(_ message: String, at offset: Int? = nil) -> JSONTextError {
        let at = offset ?? position
        return JSONTextError(offset: at, message: message, path: pathText)
    }

    /// What the text holds from `offset`: up to the next delimiter, at most 40 bytes, quoted.
    func token(at offset: Int) -> String {
        guard offset < end else { return "the end of the text" }
        var stop = offset
        while stop < end && stop - offset < 40 {
            let byte = input[stop]
            if stop > offset && (byte == 0x2C || byte == 0x5D || byte == 0x7D || byte <= 0x20) { break }
            stop += 1
        }
        let text = UnsafeBufferPointer(start: input + offset, count: stop - offset)
        return "'" + String(decoding: text, as: UTF8.self) + "'"
    }

    private var pathText: String {
        var text = ""
        var list = 0
        for step in path {
            if let key = step {
                text += text.isEmpty ? key : "." + key
            } else {
                text += "[\(items[list])]"
                list += 1
            }
        }
        return text
    }

    /// Drops what was written.
    func truncate() { output.truncate(to: 0) }

    /// Reads the string at the current byte (its opening quote) as a Swift string.
    func readString() throws(JSONTextError) -> String {
        let start = output.count
        try writeString()
        defer { output.truncate(to: start) }
        return Self.decoded(UnsafeBufferPointer(start: output.base + start + 1, count: output.count - start - 2))
    }

    /// Names the member whose value comes next, in messages; `leave()` after it.
    func enter(_ key: String) { path.append(key) }
    func leave() { path.removeLast() }

    // MARK: Values

    /// Writes the value at the current byte (white space skipped before), `depth` containers deep.
    func writeValue(depth: Int) throws(JSONTextError) {
        guard let byte = nextNonSpace() else { throw failure("the text ends where a value should be") }
        if depth >= Self.maximumDepth { reachedDepthLimit = true }
        switch byte {
        case UInt8(ascii: "{"): try writeObject(depth: depth)
        case UInt8(ascii: "["): try writeArray(depth: depth)
        case UInt8(ascii: "\""): try writeString()
        case UInt8(ascii: "t"): try writeLiteral("true")
        case UInt8(ascii: "f"): try writeLiteral("false")
        case UInt8(ascii: "n"): try writeLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try writeNumber()
        default: throw failure("\(token(at: position)) is not a JSON value")
        }
    }

    /// Writes the value at the current byte, a feature's geometry, as `writeValue`; returns what
    /// is wrong with its rings: `PolygonRings.problem(in:)` of the text written, worked out as it
    /// is written when its type comes before its coordinates (`RingWatch`).
    func writeGeometry(depth: Int) throws(JSONTextError) -> String? {
        let start = output.count
        rings = RingWatch(objectDepth: depth)
        defer { rings = RingWatch() }
        try writeValue(depth: depth)
        guard output.count > start, output.base[start] == UInt8(ascii: "{") else { return nil }
        return rings.problem(in: UnsafeBufferPointer(start: output.base + start, count: output.count - start))
    }

    private func writeLiteral(_ word: StaticString) throws(JSONTextError) {
        let start = position
        let count = word.utf8CodeUnitCount
        guard end - position >= count, memcmp(input + position, word.utf8Start, count) == 0 else {
            throw failure("\(token(at: start)) is not a JSON value", at: start)
        }
        output.append(word.utf8Start, count: count)
        position += count
    }

    private var tooDeep: JSONTextError { failure("lists and objects nested deeper than \(Self.maximumDepth)") }

    private func writeArray(depth: Int) throws(JSONTextError) {
        guard rings.shaping else {
            var none = NoListItems()
            return try writeList(depth: depth, &none)
        }
        try writeCoordinatesList(depth: depth)
    }

    /// Writes a list of a geometry's coordinates, noting what it is as its level is read (`RingWatch`).
    private func writeCoordinatesList(depth: Int) throws(JSONTextError) {
        let role = rings.role
        rings.level += 1
        defer { rings.level -= 1 }
        func written<Items: ListItemObserver>(_ items: Items) throws(JSONTextError) -> Items {
            var items = items
            try writeList(depth: depth, &items)
            return items
        }
        switch role {
        case .position: rings.lastIsPosition = try written(PositionItems()).isPosition
        case .ring: rings.lastRing = try written(RingItems()).fault(in: output.base)
        case .polygon: rings.lastPolygon = try written(PolygonItems()).fault
        case .polygons: rings.lastPolygons = try written(PolygonsItems()).fault
        case .other: _ = try written(NoListItems())
        }
    }

    /// Writes the list at the current byte; `observer` is told where each item's text begins in
    /// `output`, once it is written.
    @inline(__always)
    private func writeList<Observer: ListItemObserver>(depth: Int, _ observer: inout Observer) throws(JSONTextError) {
        guard depth < Self.maximumDepth else { throw tooDeep }
        consume()
        output.append(UInt8(ascii: "["))
        if nextNonSpace() == UInt8(ascii: "]") {
            consume()
            output.append(UInt8(ascii: "]"))
            return
        }
        path.append(nil)
        items.append(0)
        while true {
            let start = output.count
            try writeValue(depth: depth + 1)
            observer.wrote(itemAt: start, self)
            switch nextNonSpace() {
            case UInt8(ascii: ","):
                consume()
                if nextNonSpace() == UInt8(ascii: "]") { consume(); break } // a trailing comma
                output.append(UInt8(ascii: ","))
                items[items.count - 1] += 1
                continue
            case UInt8(ascii: "]"): consume()
            default: throw failure("expected ',' or ']' after a list item, found \(token(at: position))")
            }
            break
        }
        path.removeLast()
        items.removeLast()
        output.append(UInt8(ascii: "]"))
    }

    private func writeObject(depth: Int) throws(JSONTextError) {
        guard depth < Self.maximumDepth else { throw tooDeep }
        consume()
        output.append(UInt8(ascii: "{"))
        let first = members.count
        let body = output.count
        if nextNonSpace() == UInt8(ascii: "}") {
            consume()
            output.append(UInt8(ascii: "}"))
            return
        }
        while true {
            let member = try writeMemberName()
            path.append(member.key)
            if depth == rings.objectDepth { rings.enter(member.key) }
            try writeValue(depth: depth + 1)
            if depth == rings.objectDepth { rings.leave(member.key, value: member.value, output) }
            path.removeLast()
            members.append(Member(key: member.key, start: member.start, value: member.value, end: output.count))
            switch nextNonSpace() {
            case UInt8(ascii: ","):
                consume()
                if nextNonSpace() == UInt8(ascii: "}") { consume(); break } // a trailing comma
                output.append(UInt8(ascii: ","))
                continue
            case UInt8(ascii: "}"): consume()
            default: throw failure("expected ',' or '}' after a member, found \(token(at: position))")
            }
            break
        }
        sortMembers(from: first, body: body)
        members.removeSubrange(first...)
        output.append(UInt8(ascii: "}"))
    }

    /// Writes a member's name and its colon; returns the name and where both begin and end.
    func writeMemberName() throws(JSONTextError) -> (key: String, start: Int, value: Int) {
        guard nextNonSpace() == UInt8(ascii: "\"") else {
            throw failure("expected a member name in quotes, found \(token(at: position))")
        }
        let start = output.count
        try writeString()
        let key = Self.decoded(UnsafeBufferPointer(start: output.base + start + 1, count: output.count - start - 2))
        guard nextNonSpace() == UInt8(ascii: ":") else {
            throw failure("expected ':' after the member name \(token(at: start)), found \(token(at: position))")
        }
        consume()
        output.append(UInt8(ascii: ":"))
        return (key, start, output.count)
    }

    /// Puts the members `members[first...]` (written from `body` on) in key order, a repeated
    /// key once (its first name, its last value), as `JSONSerialization` writes a dictionary.
    private func sortMembers(from first: Int, body: Int) {
        let count = members.count - first
        guard count > 1 else { return }
        var ordered = true
        for index in first + 1..<members.count where !keyOrder.ascending(members[index - 1].key, members[index].key) {
            ordered = false
            break
        }
        if ordered { return }
        // Each distinct key: the member whose name is kept, and the one whose value is.
        var kept: [(name: Int, value: Int)] = []
        var seen: [String: Int] = [:]
        for index in first..<members.count {
            if let at = seen[members[index].key] {
                kept[at].value = index
            } else {
                seen[members[index].key] = kept.count
                kept.append((index, index))
            }
        }
        kept.sort { keyOrder.ascending(members[$0.name].key, members[$1.name].key) }
        scratch.truncate(to: 0)
        scratch.append(output.base + body, count: output.count - body)
        output.truncate(to: body)
        for (number, pair) in kept.enumerated() {
            if number > 0 { output.append(UInt8(ascii: ",")) }
            let name = members[pair.name], value = members[pair.value]
            output.append(scratch.base + (name.start - body), count: name.value - name.start)
            output.append(scratch.base + (value.value - body), count: value.end - value.value)
        }
    }
}
