import Foundation

/// The structure of a Polygon's or MultiPolygon's rings, read from its geometry's JSON in the
/// writer's form (`CanonicalJSONWriter`: valid, compact, a number always written alike), for
/// the canonical validator's `invalid_geometry`: a ring must have 4 positions or more, its last
/// the same as its first (closed), each position two or three numbers. One pass over bytes
/// already in memory, no values built; whether a ring crosses itself, or two zones overlap, is
/// not looked for (that takes a geometry library).
///
/// A build takes this pass only for a geometry whose `type` comes after its `coordinates`: the
/// writer works the same answer out as it writes the coordinates when it knows the type
/// (`CanonicalJSONWriter.writeGeometry`, `RingWatch`), and takes the type from here
/// (`writerFormType`). This read is the definition the writer's answer is held to: the GeoJSON
/// fuzz target checks that the two agree on every feature.
///
/// The writer's form puts `coordinates` first and `type` last (keys sorted), which are read in
/// place; only another form is read member by member.
enum PolygonRings {
    /// What is wrong with the rings of `geometry`; nil when they are sound, or when it is not an
    /// object whose `type` is Polygon or MultiPolygon with a `coordinates` member.
    static func problem(in geometry: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = geometry.baseAddress else { return nil }
        var cursor = Cursor(bytes: base, end: geometry.count)
        guard let (type, coordinates) = cursor.quickTypeAndCoordinates() ?? cursor.typeAndCoordinates() else {
            return nil
        }
        cursor.at = coordinates
        switch type {
        case "Polygon": return cursor.polygon(number: nil)
        case "MultiPolygon":
            guard cursor.enterList() else { return "has coordinates that are not a list of polygons" }
            var number = 0
            while cursor.next != Cursor.close && cursor.next != 0 {
                number += 1
                if let problem = cursor.polygon(number: number) { return problem }
                cursor.skipComma()
            }
            return nil
        default: return nil
        }
    }

    /// The `type` of `geometry` when it is in the writer's form (`coordinates` first, a `type`
    /// of Polygon or MultiPolygon last), read in place; nil when it is not.
    static func writerFormType(of geometry: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = geometry.baseAddress else { return nil }
        return Cursor(bytes: base, end: geometry.count).quickTypeAndCoordinates()?.0
    }

    private struct Cursor {
        static let (open, close, comma, quote, colon) = (
            UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","),
            UInt8(ascii: "\""), UInt8(ascii: ":")
        )
        let bytes: UnsafePointer<UInt8>
        let end: Int
        var at = 0

        /// The current byte; 0 at the end (valid compact JSON has no 0 byte).
        var next: UInt8 { at < end ? bytes[at] : 0 }

        private static let coordinatesFirst = Array(#"{"coordinates":"#.utf8)
        private static let typesLast = [
            ("Polygon", Array(#""type":"Polygon"}"#.utf8)),
            ("MultiPolygon", Array(#""type":"MultiPolygon"}"#.utf8))
        ]

        /// The `type` and where `coordinates`' value starts, when the object starts with
        /// `coordinates` and ends with a `type` of Polygon or MultiPolygon (the writer's form).
        func quickTypeAndCoordinates() -> (String, Int)? {
            let first = Self.coordinatesFirst
            guard end > first.count, memcmp(bytes, first, first.count) == 0 else { return nil }
            for (type, last) in Self.typesLast where end > first.count + last.count {
                if memcmp(bytes + end - last.count, last, last.count) == 0 { return (type, first.count) }
            }
            return nil
        }

        /// The `type` (a string's raw text) and where `coordinates`' value starts, of the object.
        mutating func typeAndCoordinates() -> (String, Int)? {
            guard next == UInt8(ascii: "{") else { return nil }
            at += 1
            var type: String? = nil
            var coordinates: Int? = nil
            while next == Self.quote {
                let key = at
                skipValue()
                let name = String(decoding: UnsafeBufferPointer(start: bytes + key, count: at - key), as: UTF8.self)
                guard next == Self.colon else { return nil }
                at += 1
                let value = at
                skipValue()
                if name == "\"type\"", at - value >= 2, bytes[value] == Self.quote {
                    type = String(
                        decoding: UnsafeBufferPointer(start: bytes + value + 1, count: at - value - 2), as: UTF8.self)
                } else if name == "\"coordinates\"" {
                    coordinates = value
                }
                skipComma()
            }
            guard let type, let coordinates else { return nil }
            return (type, coordinates)
        }

        /// Steps into the list at the current byte; false when it is not a list.
        mutating func enterList() -> Bool {
            guard next == Self.open else { return false }
            at += 1
            return true
        }

        mutating func skipComma() {
            if next == Self.comma { at += 1 }
        }

        /// Steps over the value at the current byte (a string, a list or object, a scalar).
        mutating func skipValue() {
            var depth = 0
            repeat {
                switch next {
                case 0: return
                case Self.quote:
                    at += 1
                    while next != Self.quote && next != 0 { at += next == UInt8(ascii: "\\") ? 2 : 1 }
                    at += 1
                case Self.open, UInt8(ascii: "{"):
                    depth += 1
                    at += 1
                case Self.close, UInt8(ascii: "}"):
                    depth -= 1
                    at += 1
                case Self.comma, Self.colon:
                    at += 1
                default:
                    // A scalar, up to the next delimiter.
                    at += 1
                    while at < end, bytes[at] != Self.comma, bytes[at] != Self.close, bytes[at] != UInt8(ascii: "}") {
                        at += 1
                    }
                }
            } while depth > 0
        }

        /// The problem of the polygon (a list of rings) at the current byte, stepped over; `number`
        /// is its place in a MultiPolygon.
        mutating func polygon(number: Int?) -> String? {
            let place = number.map { " of polygon \($0)" } ?? ""
            guard enterList() else { return "has\(place) coordinates that are not a list of rings" }
            var ring = 0
            while next != Self.close && next != 0 {
                ring += 1
                if let problem = self.ring() { return "has ring \(ring)\(place) \(problem)" }
                skipComma()
            }
            at += 1
            return nil
        }

        /// The problem of the ring (a list of positions) at the current byte, stepped over.
        mutating func ring() -> String? {
            guard enterList() else { return "that is not a list of positions" }
            var count = 0
            var first = 0..<0
            var last = 0..<0
            while next != Self.close && next != 0 {
                let start = at
                guard position() else { return "with position \(count + 1) that is not two or three numbers" }
                count += 1
                if count == 1 { first = start..<at }
                last = start..<at
                skipComma()
            }
            at += 1
            guard count >= 4 else { return "of \(count) positions, fewer than 4" }
            let closed =
                first.count == last.count && memcmp(bytes + first.lowerBound, bytes + last.lowerBound, first.count) == 0
            return closed ? nil : "that is not closed (its last position is not its first)"
        }

        /// Steps over a position, two or three numbers; false when it is not one. A number is
        /// known by its first byte (the writer checked the rest) and ends at a comma or bracket.
        mutating func position() -> Bool {
            guard enterList() else { return false }
            var numbers = 0
            while at < end {
                let byte = bytes[at]
                if byte == Self.close { break }
                guard byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
                    return false
                }
                numbers += 1
                at += 1
                while at < end && bytes[at] != Self.comma && bytes[at] != Self.close { at += 1 }
                if at < end && bytes[at] == Self.comma { at += 1 }
            }
            at += 1
            return numbers == 2 || numbers == 3
        }
    }
}
