import Foundation

/// A JSON number as the seed has always stored it: the form `JSONSerialization` gives it. It
/// reads an integer as Int64 or UInt64 when it fits, a number of more than 17 characters as a
/// `Decimal` when that holds it, anything else as a `Double`; it writes a Double as Swift
/// prints it, without a trailing ".0" (`json`), and a property's value as `NSNumber.stringValue`
/// (`scalar`: the Double keeps its ".0").
///
/// Most coordinates take the fast path: a number of at most 17 characters without an
/// exponent, at most 15 significant digits (so the shortest text that reads back as the same
/// Double is this one), no trailing zero after the point and not below 0.0001 (where Swift
/// switches to an exponent) is printed exactly as it was written.
enum JSONNumberText {
    /// The text is written as it is (checked by `isVerbatim`), except "-0", written "0".
    @inline(__always)
    static func isVerbatim(_ text: UnsafeBufferPointer<UInt8>, fraction: Bool, exponent: Bool) -> Bool {
        guard !exponent, text.count <= 17 else { return false }
        let minusZero = text.count == 2 && text[0] == UInt8(ascii: "-") && text[1] == UInt8(ascii: "0")
        guard fraction else { return !minusZero }
        guard text[text.count - 1] != UInt8(ascii: "0") else { return false }
        var significant = 0
        var leadingZeros = 0 // zeros after the point before the first other digit, when the whole part is 0
        var seenNonZero = false
        var afterPoint = false
        for byte in text {
            switch byte {
            case UInt8(ascii: "."): afterPoint = true
            case UInt8(ascii: "0"):
                if seenNonZero { significant += 1 } else if afterPoint { leadingZeros += 1 }
            case UInt8(ascii: "1")...UInt8(ascii: "9"):
                seenNonZero = true
                significant += 1
            default: break
            }
        }
        return significant <= 15 && leadingZeros <= 3
    }

    /// The number's two texts, or nil when no Swift number holds it (`1e400`), as
    /// `JSONSerialization` fails on it.
    static func forms(of text: String) -> (json: String, scalar: String)? {
        let exponentIndex = text.firstIndex(of: "e")
        let isInteger = !text.contains(".") && exponentIndex == nil
        let isNegative = text.utf8.first == UInt8(ascii: "-")
        let digitCount = text[text.startIndex..<(exponentIndex ?? text.endIndex)].count
        if isInteger {
            if isNegative, digitCount <= 19, let value = Int64(text) { return (value.description, value.description) }
            if !isNegative, digitCount <= 20, let value = UInt64(text) { return (value.description, value.description) }
        }
        var exponent = 0
        if let exponentIndex, let parsed = Int(text[text.index(after: exponentIndex)...]) { exponent = parsed }
        if digitCount > 17, exponent >= -128, exponent <= 127, let decimal = Decimal(string: text), decimal.isFinite {
            return (decimal.description, decimal.description)
        }
        guard let double = Double(text), double.isFinite else { return nil }
        let printed = double.description
        return (printed.hasSuffix(".0") ? String(printed.dropLast(2)) : printed, printed)
    }
}
