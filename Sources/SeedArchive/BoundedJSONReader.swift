/// A small JSON reader for the seed manifest: reads one top-level object key by key, with typed
/// values for the keys the caller knows and unknown values skipped. No Foundation, so the
/// installer's startup check does not pay for loading and warming up `JSONDecoder`.
///
/// Bounds (checked, so arbitrary bytes cost at most linear time and memory):
/// - the input is at most ``maximumBytes`` (4 MiB, the installer's manifest limit);
/// - arrays and objects nest at most ``maximumDepth`` (64) levels;
/// - integers must fit in `Int64` (no fraction, no exponent);
/// - strings must be valid UTF-8; `\u` escapes must pair surrogates.
/// Every error names the byte offset where reading stopped.
struct BoundedJSONReader {
    /// The largest input read.
    static let maximumBytes = 4 << 20
    /// The deepest nesting of arrays and objects.
    static let maximumDepth = 64

    /// A JSON text that this reader refuses, with where and why.
    struct Failure: Error {
        let offset: Int
        let message: String
    }

    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) throws(Failure) {
        guard bytes.count <= Self.maximumBytes else {
            throw Failure(
                offset: 0, message: "\(bytes.count) bytes, more than the \(Self.maximumBytes) a manifest may have")
        }
        self.bytes = bytes
    }

    /// Reads an object, calling `member` with each key; `member` must read the value (with
    /// ``string()``, ``integer()``, ``object(_:)`` or ``skipValue()``).
    mutating func object(_ member: (inout BoundedJSONReader, String) throws(Failure) -> Void) throws(Failure) {
        try object(depth: 1, member)
    }

    /// Reads the end of the text: only whitespace may follow the value.
    mutating func end() throws(Failure) {
        skipWhitespace()
        guard offset == bytes.count else { throw fail("unexpected bytes after the JSON value") }
    }

    /// Reads a string value.
    mutating func string() throws(Failure) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected a string") }
        return try quoted()
    }

    /// Reads an integer value (`-`? digits, no fraction or exponent) that fits in `Int64`.
    mutating func integer() throws(Failure) -> Int64 {
        skipWhitespace()
        let start = offset
        let negative = peek() == UInt8(ascii: "-")
        if negative { offset += 1 }
        guard let first = peek(), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            offset = start
            throw fail("expected an integer")
        }
        var magnitude: UInt64 = 0
        var digits = 0
        while let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(d - UInt8(ascii: "0")))
            guard !o1, !o2, sum <= UInt64(Int64.max) + (negative ? 1 : 0) else {
                offset = start
                throw fail("integer out of range")
            }
            magnitude = sum
            digits += 1
            offset += 1
        }
        if first == UInt8(ascii: "0"), digits > 1 { offset = start; throw fail("leading zero in a number") }
        if let next = peek(), next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            throw fail("expected an integer, found a fraction or exponent")
        }
        return negative ? (magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)) : Int64(magnitude)
    }

    /// Reads `null` if it comes next and returns true; otherwise reads nothing.
    mutating func null() throws(Failure) -> Bool {
        skipWhitespace()
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// Reads an object whose members the caller reads (see ``object(_:)``), nested in another.
    mutating func nestedObject(_ member: (inout BoundedJSONReader, String) throws(Failure) -> Void) throws(Failure) {
        try object(depth: 2, member)
    }

    /// Reads and discards any value.
    mutating func skipValue() throws(Failure) {
        try skipValue(depth: 2)
    }

    // MARK: - Grammar

    private mutating func object(
        depth: Int, _ member: (inout BoundedJSONReader, String) throws(Failure) -> Void
    ) throws(Failure) {
        guard depth <= Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) levels") }
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { throw fail("expected an object") }
        offset += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { offset += 1; return }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw fail("expected a key string") }
            let key = try quoted()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
            offset += 1
            try member(&self, key)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"): offset += 1; return
            default: throw fail("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func skipValue(depth: Int) throws(Failure) {
        guard depth <= Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) levels") }
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{"):
            try object(depth: depth) { (reader: inout BoundedJSONReader, _: String) throws(Failure) in
                try reader.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            offset += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { offset += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "]"): offset += 1; return
                default: throw fail("expected ',' or ']' in an array")
                }
            }
        case UInt8(ascii: "\""): _ = try quoted()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try skipNumber()
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count,
            word.withUTF8Buffer({ word in bytes[offset..<offset + count].elementsEqual(word) })
        else {
            throw fail("unknown literal")
        }
        offset += count
    }

    /// A JSON number of any form (for skipped values).
    private mutating func skipNumber() throws(Failure) {
        let start = offset
        func digits(_ reader: inout BoundedJSONReader) -> Int {
            var n = 0
            while let d = reader.peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { reader.offset += 1; n += 1 }
            return n
        }
        if peek() == UInt8(ascii: "-") { offset += 1 }
        let intStart = offset
        let intDigits = digits(&self)
        guard intDigits > 0 else { offset = start; throw fail("expected a value") }
        if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") {
            offset = start; throw fail("leading zero in a number")
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard digits(&self) > 0 else { throw fail("expected digits after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard digits(&self) > 0 else { throw fail("expected digits in an exponent") }
        }
    }

    /// A string, the opening quote at `offset`.
    private mutating func quoted() throws(Failure) -> String {
        offset += 1
        let start = offset
        // Fast path: no escapes.
        while let b = peek(), b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"), b >= 0x20 { offset += 1 }
        guard let stop = peek() else { throw fail("the text ends inside a string") }
        if stop == UInt8(ascii: "\"") {
            let utf8 = bytes[start..<offset]
            offset += 1 // the closing quote
            guard Self.isValidUTF8(utf8) else { throw Failure(offset: start, message: "a string is not valid UTF-8") }
            return String(decoding: utf8, as: UTF8.self)
        }
        var utf8 = Array(bytes[start..<offset])
        while true {
            guard let b = peek() else { throw fail("the text ends inside a string") }
            if b == UInt8(ascii: "\"") { break }
            guard b >= 0x20 else { throw fail("control character in a string") }
            offset += 1
            if b != UInt8(ascii: "\\") { utf8.append(b); continue }
            guard let e = peek() else { throw fail("the text ends inside a string") }
            offset += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(e)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u")
                    else {
                        throw fail("unpaired surrogate in a \\u escape")
                    }
                    offset += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw fail("unpaired surrogate in a \\u escape")
                }
                utf8.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            default: throw fail("unknown escape in a string")
            }
        }
        offset += 1 // the closing quote
        guard Self.isValidUTF8(utf8[...]) else { throw Failure(offset: start, message: "a string is not valid UTF-8") }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// True when `bytes` are well-formed UTF-8 (no overlong forms, surrogates or values past
    /// U+10FFFF), which `String(decoding:as:)` would otherwise repair silently.
    private static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let count: Int, low: UInt8, high: UInt8 // the second byte's range
            switch b {
            case 0xC2...0xDF: count = 2; low = 0x80; high = 0xBF
            case 0xE0: count = 3; low = 0xA0; high = 0xBF
            case 0xE1...0xEC, 0xEE...0xEF: count = 3; low = 0x80; high = 0xBF
            case 0xED: count = 3; low = 0x80; high = 0x9F
            case 0xF0: count = 4; low = 0x90; high = 0xBF
            case 0xF1...0xF3: count = 4; low = 0x80; high = 0xBF
            case 0xF4: count = 4; low = 0x80; high = 0x8F
            default: return false
            }
            guard bytes.endIndex - i >= count, (low...high).contains(bytes[i + 1]) else { return false }
            for j in 2..<count where !(0x80...0xBF).contains(bytes[i + j]) { return false }
            i += count
        }
        return true
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw fail("the text ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[offset]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw fail("bad hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let b = peek(), b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { offset += 1 }
    }

    private func fail(_ message: String) -> Failure { Failure(offset: offset, message: message) }
}
