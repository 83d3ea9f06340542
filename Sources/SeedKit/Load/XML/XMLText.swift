import Foundation

/// Byte-level helpers for XML values.
enum XMLText {
    /// Copies an attribute value into `output`, turning `&#38;` back into `&`: without entity
    /// substitution (which seedgen never turns on) libxml2 hands `&amp;` over that way. It
    /// leaves the references to `entities` (HTML's, a DTD's) as written: they are replaced here.
    static func decodeAttribute(
        _ value: UnsafeRawBufferPointer, into output: inout [UInt8], entities: XMLEntityTable? = nil
    ) {
        guard let base = value.baseAddress, memchr(base, Int32(UInt8(ascii: "&")), value.count) != nil else {
            output.replaceSubrange(0..<output.count, with: value)
            return
        }
        output.removeAll(keepingCapacity: true)
        let escaped = Array("&#38;".utf8)
        var index = 0
        while index < value.count {
            if value[index] == UInt8(ascii: "&"), index + escaped.count <= value.count,
                value[index..<(index + escaped.count)].elementsEqual(escaped)
            {
                output.append(UInt8(ascii: "&"))
                index += escaped.count
            } else if value[index] == UInt8(ascii: "&"), let entities,
                let end = value[(index + 1)..<min(value.count, index + 64)].firstIndex(of: UInt8(ascii: ";")),
                let text = entities.replacement(for: UnsafeRawBufferPointer(rebasing: value[(index + 1)..<end]))
            {
                output.append(contentsOf: text)
                index = end + 1
            } else {
                output.append(value[index])
                index += 1
            }
        }
    }

    /// Calls `body` with `value` written in decimal ASCII (no allocation: positions are
    /// written for every record).
    static func withDecimal<R, E: Error>(_ value: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer throws(E) -> R in
            var magnitude = value.magnitude, start = 20
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            return try body(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[start..<20])))
        }
    }

    /// The items of a list value: separated by `separator`, or each between `open` and
    /// `close` (`<ai><ml>`). Empty items are left out. A separator of one space splits at any
    /// run of XML white space, as an `xsd:list` does (a GML `posList` wraps its lines).
    static func items(of value: [UInt8], separator: [UInt8]?, open: [UInt8], close: [UInt8]) -> [Range<Int>] {
        var items: [Range<Int>] = []
        func add(_ range: Range<Int>) {
            var lower = range.lowerBound, upper = range.upperBound
            while lower < upper, value[lower] == 32 || value[lower] == 9 || value[lower] == 10 || value[lower] == 13 {
                lower += 1
            }
            while upper > lower,
                value[upper - 1] == 32 || value[upper - 1] == 9 || value[upper - 1] == 10 || value[upper - 1] == 13
            { upper -= 1 }
            if lower < upper { items.append(lower..<upper) }
        }
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard !needle.isEmpty, value.count >= needle.count, start <= value.count - needle.count else { return nil }
            let last = value.count - needle.count
            return value.withUnsafeBytes { bytes -> Int? in
                let base = bytes.baseAddress!
                var at = start
                // memchr finds each candidate first byte; memcmp checks the rest.
                while at <= last, let hit = memchr(base + at, Int32(needle[0]), last - at + 1) {
                    let index = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + index, needle, needle.count) == 0 { return index }
                    at = index + 1
                }
                return nil
            }
        }
        if separator == [32] {
            var start = 0
            for index in value.indices
            where value[index] == 32 || value[index] == 9 || value[index] == 10 || value[index] == 13 {
                add(start..<index)
                start = index + 1
            }
            add(start..<value.count)
        } else if let separator {
            var start = 0
            while let next = find(separator, from: start) {
                add(start..<next)
                start = next + separator.count
            }
            add(start..<value.count)
        } else {
            var start = 0
            while let begin = find(open, from: start), let end = find(close, from: begin + open.count) {
                add((begin + open.count)..<end)
                start = end + close.count
            }
        }
        return items
    }
}
