import Foundation

extension CanonicalJSONWriter {
    /// Writes the string at the current byte (its opening quote): raw UTF-8 as it is (bytes
    /// that are not UTF-8 are an error, as for `JSONSerialization`), escapes decoded and
    /// written again in the one form JSON needs for the characters that must be escaped.
    func writeString() throws(JSONTextError) {
        let start = position
        consume()
        output.append(UInt8(ascii: "\""))
        let text = pointer(at: 0), end = endOfText
        while true {
            // A run of bytes copied as they are, scanned in locals: strings can be long.
            let run = position
            var at = run
            var plain = true // the run is ASCII
            while at < end {
                let byte = text[at]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                if byte >= 0x80 { plain = false }
                at += 1
            }
            position = at
            guard at < end else { throw failure("the text ends inside the string starting here", at: start) }
            let byte = text[at]
            if byte < 0x20 { throw failure("a control character (byte \(byte)) not escaped in a string") }
            try flush(from: run, plain: plain)
            if byte == UInt8(ascii: "\"") {
                consume()
                output.append(UInt8(ascii: "\""))
                return
            }
            try writeEscape()
        }
    }

    /// Copies the raw bytes from `run` to the current byte, which must be UTF-8.
    private func flush(from run: Int, plain: Bool) throws(JSONTextError) {
        let bytes = UnsafeBufferPointer(start: pointer(at: run), count: position - run)
        if !plain, let broken = Self.brokenUTF8(bytes) {
            throw failure("the string holds bytes that are not UTF-8", at: run + broken)
        }
        output.append(pointer(at: run), count: bytes.count)
    }

    /// Where the first byte that is not part of valid UTF-8 is; nil when all are.
    private static func brokenUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The escape at the current byte (its backslash).
    private func writeEscape() throws(JSONTextError) {
        let start = position
        consume()
        guard position < endOfText else { throw failure("the text ends inside an escape", at: start) }
        let letter = byte(at: position)
        consume()
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            output.append(UInt8(ascii: "\\"))
            output.append(letter)
        case UInt8(ascii: "/"):
            output.append(UInt8(ascii: "/"))
        case UInt8(ascii: "u"):
            let unit = try hexUnit(escapeAt: start)
            var value = UInt32(unit)
            if unit & 0xFC00 == 0xD800 {
                let low = position
                guard endOfText - position >= 2, byte(at: position) == UInt8(ascii: "\\"),
                    byte(at: position + 1) == UInt8(ascii: "u")
                else {
                    throw failure("\(token(at: start)) is half of a UTF-16 pair without the other half", at: start)
                }
                position += 2
                let second = try hexUnit(escapeAt: low)
                guard second & 0xFC00 == 0xDC00 else {
                    throw failure("\(token(at: start)) is half of a UTF-16 pair without the other half", at: start)
                }
                value = (UInt32(unit) - 0xD800) * 0x400 + (UInt32(second) - 0xDC00) + 0x10000
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw failure("\(token(at: start)) is half of a UTF-16 pair without the other half", at: start)
            }
            writeEscaped(scalar)
        default:
            throw failure("\(token(at: start)) is not a JSON escape", at: start)
        }
    }

    /// Four hex digits after `\u` at `escapeAt`.
    private func hexUnit(escapeAt start: Int) throws(JSONTextError) -> UInt16 {
        guard endOfText - position >= 4 else { throw failure("the text ends inside \(token(at: start))", at: start) }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = byte(at: position)
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\(token(at: start)) is not a JSON escape: four hex digits follow \\u", at: start)
            }
            unit = unit << 4 | UInt16(digit)
            consume()
        }
        return unit
    }

    /// A character from an escape, as `JSONSerialization` writes it.
    private func writeEscaped(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x22: output.append("\\\"")
        case 0x5C: output.append("\\\\")
        case 0x08: output.append("\\b")
        case 0x0C: output.append("\\f")
        case 0x0A: output.append("\\n")
        case 0x0D: output.append("\\r")
        case 0x09: output.append("\\t")
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            output.append("\\u00")
            output.append(hex[Int(scalar.value >> 4)])
            output.append(hex[Int(scalar.value & 15)])
        default:
            for unit in UTF8.encode(scalar)! { output.append(unit) }
        }
    }

    /// A string as written by `writeString` (without its quotes) as a Swift string.
    static func decoded(_ text: UnsafeBufferPointer<UInt8>) -> String {
        guard text.contains(UInt8(ascii: "\\")) else { return String(decoding: text, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else { bytes.append(byte); continue }
            let letter = text[index]
            index += 1
            switch letter {
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"): // \u00XX: a control character
                bytes.append(UInt8(Self.hexValue(text[index + 2]) << 4 | Self.hexValue(text[index + 3])))
                index += 4
            default: bytes.append(letter) // \" and \\
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8 {
        byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : byte - UInt8(ascii: "a") + 10
    }

    // MARK: Numbers

    /// Reads the number at the current byte; returns where it ends and its shape.
    private func readNumber() throws(JSONTextError) -> (start: Int, fraction: Bool, exponent: Bool) {
        let start = position
        if byte(at: position) == UInt8(ascii: "-") { consume() }
        guard position < endOfText, Self.isDigit(byte(at: position)) else {
            throw failure("\(token(at: start)) is not a JSON number", at: start)
        }
        if byte(at: position) == UInt8(ascii: "0") {
            consume()
            if position < endOfText, Self.isDigit(byte(at: position)) {
                throw failure("\(token(at: start)) is not a JSON number: it begins with a zero", at: start)
            }
        } else {
            skipDigits()
        }
        var fraction = false, exponent = false
        if position < endOfText, byte(at: position) == UInt8(ascii: ".") {
            consume()
            guard position < endOfText, Self.isDigit(byte(at: position)) else {
                throw failure("\(token(at: start)) is not a JSON number", at: start)
            }
            skipDigits()
            fraction = true
        }
        if position < endOfText, byte(at: position) | 0x20 == UInt8(ascii: "e") {
            consume()
            if position < endOfText, [UInt8(ascii: "+"), UInt8(ascii: "-")].contains(byte(at: position)) { consume() }
            guard position < endOfText, Self.isDigit(byte(at: position)) else {
                throw failure("\(token(at: start)) is not a JSON number", at: start)
            }
            skipDigits()
            exponent = true
        }
        return (start, fraction, exponent)
    }

    func writeNumber() throws(JSONTextError) {
        let number = try readNumber()
        let text = UnsafeBufferPointer(start: pointer(at: number.start), count: position - number.start)
        if JSONNumberText.isVerbatim(text, fraction: number.fraction, exponent: number.exponent) {
            output.append(text.baseAddress!, count: text.count)
        } else if text.count == 2 && !number.fraction && !number.exponent { // "-0"
            output.append(UInt8(ascii: "0"))
        } else {
            guard let forms = JSONNumberText.forms(of: String(decoding: text, as: UTF8.self)) else {
                throw failure("\(token(at: number.start)) is too large for a number", at: number.start)
            }
            output.append(forms.json)
        }
    }

    /// The value at the current byte (white space skipped before) as a property's text, as
    /// `NSNumber.stringValue` and Swift strings gave it: a string's characters, a number's
    /// `scalar` text, "1" or "0" for true or false; nil for null, a list or an object (whose
    /// JSON text is then the value). The value is read and checked either way; its JSON text
    /// is written to `output`.
    func writeScalar(depth: Int) throws(JSONTextError) -> String? {
        let start = output.count
        let first = nextNonSpace() ?? 0
        let inputStart = position
        try writeValue(depth: depth)
        switch first {
        case UInt8(ascii: "\""):
            return Self.decoded(UnsafeBufferPointer(start: output.base + start + 1, count: output.count - start - 2))
        case UInt8(ascii: "t"): return "1"
        case UInt8(ascii: "f"): return "0"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let bytes = UnsafeBufferPointer(start: pointer(at: inputStart), count: position - inputStart)
            let text = String(decoding: bytes, as: UTF8.self)
            return JSONNumberText.forms(of: text)?.scalar
        default: return nil
        }
    }

    private func skipDigits() {
        var at = position
        let end = endOfText
        while at < end, Self.isDigit(byte(at: at)) { at += 1 }
        position = at
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}

/// The order of object keys `JSONSerialization` writes with `.sortedKeys`: Foundation's
/// numeric, case-insensitive comparison in the system locale, forced to decide between keys
/// that differ only in case. Each answer is kept (keys repeat from feature to feature, and
/// the comparison is slow), up to a bound.
struct JSONKeyOrder {
    private struct Pair: Hashable { var first: String, second: String }
    private var known: [Pair: Bool] = [:]

    mutating func ascending(_ first: String, _ second: String) -> Bool {
        if first == second { return false }
        let pair = Pair(first: first, second: second)
        if let answer = known[pair] { return answer }
        let options: String.CompareOptions = [.numeric, .caseInsensitive, .forcedOrdering]
        let answer =
            first.compare(
                second, options: options, range: first.startIndex..<first.endIndex,
                locale: NSLocale.system) == .orderedAscending
        if known.count >= 4096 { known.removeAll(keepingCapacity: true) }
        known[pair] = answer
        return answer
    }
}
