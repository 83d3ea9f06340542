import Foundation
import SeedSQLite

/// The result of converting one source value to its column's type.
public enum ConvertedValue: Equatable, Sendable {
    /// The source had no value (empty).
    case null
    case integer(Int64)
    case real(Double)
    /// Text equal to the source bytes as given (bind them directly, no copy needed).
    case sourceText
    /// Text that differs from the source (a normalized date, ...).
    case text(String)
    /// The value does not parse as the column's type; the reason says what was expected.
    case invalid(String)
}

/// Converts source bytes to one column's type. Made once per column; `convert` does not
/// allocate for integers, reals, booleans, times and plain text.
public struct ValueConverter: Sendable {
    /// The type values are converted to.
    public let type: ColumnType
    /// The column's format, boxed: a loader copies its converter out of an array for every
    /// value, and a box costs one retain where the format's arrays and string cost several.
    private let formatBox: FormatBox?
    var format: ValueFormat? { formatBox?.format }
    var durationFormat: DurationFormat? { formatBox?.duration }
    /// Whether surrounding spaces and tabs are removed first (`Column.trim`).
    let trims: Bool
    /// `datetime`: the digits of a second stored (`Column.precision`).
    let precision: Int
    /// `date`: whether partial dates (`2000`, `1999-03-00`) are accepted (`Column.partial`).
    let partial: Bool

    /// A converter to `type`; `format` is the column's pattern (a duration's clock fields, or
    /// a date's, time's or number's format), the others as ``trims``, ``precision`` and ``partial``.
    public init(type: ColumnType, trims: Bool, precision: Int, partial: Bool, format: String?) {
        self.type = type
        self.trims = trims
        self.precision = precision
        self.partial = partial
        if let pattern = format {
            if type == .duration {
                self.formatBox = (try? DurationFormat(pattern: pattern)).map { FormatBox(format: nil, duration: $0) }
            } else {
                self.formatBox = (try? ValueFormat(pattern: pattern)).map { FormatBox(format: $0, duration: nil) }
            }
        } else {
            self.formatBox = nil
        }
    }

    private final class FormatBox: Sendable {
        let format: ValueFormat?
        let duration: DurationFormat?
        init(format: ValueFormat?, duration: DurationFormat?) {
            self.format = format
            self.duration = duration
        }
    }

    /// The stored value of the text `array`, or why it is not valid.
    public func convert(_ array: [UInt8]) -> ConvertedValue {
        array.withUnsafeBytes { convert($0) }
    }

    /// Converts `bytes` (UTF-8, as read from the source).
    public func convert(_ bytes: UnsafeRawBufferPointer) -> ConvertedValue {
        let trimmed = trims ? Self.trim(bytes) : bytes
        if trimmed.isEmpty { return .null }
        switch type {
        case .text:
            return .sourceText // the caller stores the bytes it passed, trimmed when `trims`
        case .integer:
            guard let value = Self.parseInteger(trimmed) else { return .invalid("expected a whole number") }
            return .integer(value)
        case .real:
            guard let value = Self.parseReal(trimmed) else { return .invalid("expected a number") }
            return .real(value)
        case .boolean:
            guard let value = Self.parseBoolean(trimmed) else {
                return .invalid("expected a boolean (1/0, true/false, yes/no)")
            }
            return .integer(value ? 1 : 0)
        case .time:
            return convertTime(trimmed)
        case .duration:
            if let durationFormat { return durationFormat.seconds(trimmed) }
            return ISODuration.seconds(trimmed)
        case .utcOffset:
            return convertUTCOffset(trimmed)
        case .date:
            return convertDate(trimmed)
        case .datetime:
            return convertDateTime(trimmed)
        }
    }

    static func trim(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        // Most values are not padded: checking both ends is cheaper than rebasing.
        guard let first = bytes.first, let last = bytes.last,
            first == 32 || first == 9 || last == 32 || last == 9
        else { return bytes }
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    @inline(__always)
    static func parseInteger(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- 48
            guard digit < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) =
                negative ? m.subtractingReportingOverflow(Int64(digit)) : m.addingReportingOverflow(Int64(digit))
            guard !o1, !o2 else { return nil }
            value = a
            index += 1
        }
        return value
    }

    static func parseReal(_ bytes: UnsafeRawBufferPointer) -> Double? {
        if let value = parseShortDecimal(bytes) { return value }
        // Only plain decimal notation: strtod alone would also take "inf", "nan" and hex.
        for byte in bytes {
            switch byte {
            case 48...57, UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E"):
                continue
            default: return nil
            }
        }
        guard bytes.count < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer -> Double? in
            for i in 0..<bytes.count { buffer[i] = CChar(bitPattern: bytes[i]) }
            buffer[bytes.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            guard end == buffer.baseAddress! + bytes.count, value.isFinite else { return nil }
            return value
        }
    }

    /// `[-+]digits[.digits]` with at most 15 digits in all (coordinates, prices), or nil
    /// for anything else. Exact: the digits as an integer below 2^53 and a power of ten up to
    /// 10^22 are both exact doubles, so one division rounds correctly, as strtod does.
    @inline(__always)
    static func parseShortDecimal(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative || bytes[0] == UInt8(ascii: "+") { index = 1 }
        var mantissa: Int64 = 0, digits = 0, fractionDigits = 0, seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else {
                let digit = byte &- 48
                guard digit < 10 else { return nil }
                mantissa = mantissa * 10 + Int64(digit)
                digits += 1
                if seenPoint { fractionDigits += 1 }
                guard digits <= 15 else { return nil }
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...15).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    static func parseBoolean(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        guard bytes.count <= 5 else { return nil }
        var word: UInt64 = 0
        for byte in bytes { word = word << 8 | UInt64(byte | 0x20) } // ASCII lower case
        switch word {
        case 0x31, 0x74, 0x79, 0x74727565, 0x796573: return true // 1 t y true yes
        case 0x30, 0x66, 0x6E, 0x66616C7365, 0x6E6F: return false // 0 f n false no
        default: return nil
        }
    }

    /// `H:MM:SS` (hours may pass 24) or the column's format, to seconds after midnight.
    func convertTime(_ bytes: UnsafeRawBufferPointer) -> ConvertedValue {
        if let format {
            guard let f = format.read(bytes), f.minute < 60, f.second < 60 else {
                return .invalid("expected a time of day as \(format.pattern)")
            }
            return .integer(Int64(f.hour * 3600 + f.minute * 60 + f.second))
        }
        guard let time = Self.timeOfDay(bytes) else { return .invalid("expected a time of day H:MM:SS") }
        return .integer(Int64(time.seconds))
    }

    func convertDate(_ bytes: UnsafeRawBufferPointer) -> ConvertedValue {
        let format = self.format ?? .iso8601
        if partial { return PartialDate.convert(bytes, format: self.format) }
        guard let f = format.read(bytes) else { return .invalid("expected a date as \(format.pattern)") }
        if let missing = Self.missingDay(f) { return .invalid(missing) }
        return .text(Self.text(of: f, time: false))
    }

    func convertDateTime(_ bytes: UnsafeRawBufferPointer) -> ConvertedValue {
        // Most sources (OSM, Atom feeds) already write `YYYY-MM-DDTHH:MM:SSZ`, which is what
        // the conversion writes for whole seconds: keep their bytes.
        if format == nil && precision == 0 && Self.isCanonicalDateTime(bytes) { return .sourceText }
        let format = self.format ?? .iso8601
        guard var f = format.read(bytes), f.hour < 24, f.minute < 60, f.second < 60 else {
            return .invalid("expected a date and time as \(format.pattern)")
        }
        if let missing = Self.missingDay(f) { return .invalid(missing) }
        if let zone = f.zoneSeconds, zone != 0 {
            // Normalize to UTC through the day count, so month and year boundaries are right.
            var seconds =
                CivilDate.days(year: f.year, month: f.month, day: f.day) * 86_400 + f.hour * 3600 + f.minute * 60
                + f.second - zone
            let days = Int((Double(seconds) / 86_400).rounded(.down))
            seconds -= days * 86_400
            (f.year, f.month, f.day) = CivilDate.civil(days)
            f.hour = seconds / 3600; f.minute = seconds % 3600 / 60; f.second = seconds % 60
        }
        // One width for every value, so that text order is time order.
        while f.fraction.last == UInt8(ascii: "0") { f.fraction.removeLast() }
        guard f.fraction.count <= precision else {
            let kept = precision == 0 ? "whole seconds" : "\(precision) digit\(precision == 1 ? "" : "s") of a second"
            return .invalid(
                "it has \(f.fraction.count) digit\(f.fraction.count == 1 ? "" : "s") of a second and the column stores "
                    + "\(kept) (precision: \(precision)); "
                    + (f.fraction.count <= 9
                        ? "give the column precision: \(f.fraction.count)" : "at most 9 digits can be stored"))
        }
        f.fraction.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: precision - f.fraction.count))
        return .text(Self.text(of: f, time: true))
    }

    /// True for `YYYY-MM-DDTHH:MM:SSZ` naming a valid date and time: the form
    /// `convertDateTime` writes, so such bytes are stored as they are.
    static func isCanonicalDateTime(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
        else { return false }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let digit = bytes[index] &- 48
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return false }
        var fields = ValueFormat.Fields()
        (fields.year, fields.month, fields.day) = (year, month, day)
        return isValidDate(fields) && hour < 24 && minute < 60 && second < 60
    }

    /// `YYYY-MM-DD`, or with `time` `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, written byte by byte.
    static func text(of f: ValueFormat.Fields, time: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24 + f.fraction.count)
        func append(_ value: Int, _ width: Int) {
            let digits = String(value).utf8 // years past 9999 (or before 0) keep all their digits
            if digits.count < width {
                bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count))
            }
            bytes.append(contentsOf: digits)
        }
        func append2(_ value: Int) {
            bytes.append(UInt8(truncatingIfNeeded: 48 + value / 10))
            bytes.append(UInt8(truncatingIfNeeded: 48 + value % 10))
        }
        if (0...9999).contains(f.year) {
            for divisor in [1000, 100, 10, 1] { bytes.append(UInt8(truncatingIfNeeded: 48 + f.year / divisor % 10)) }
        } else {
            append(f.year, 4)
        }
        bytes.append(UInt8(ascii: "-")); append2(f.month)
        bytes.append(UInt8(ascii: "-")); append2(f.day)
        if time {
            bytes.append(UInt8(ascii: "T")); append2(f.hour)
            bytes.append(UInt8(ascii: ":")); append2(f.minute)
            bytes.append(UInt8(ascii: ":")); append2(f.second)
            if !f.fraction.isEmpty {
                bytes.append(UInt8(ascii: "."))
                bytes.append(contentsOf: f.fraction)
            }
            bytes.append(UInt8(ascii: "Z"))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isValidDate(_ f: ValueFormat.Fields) -> Bool {
        guard f.month >= 1, f.month <= 12, f.day >= 1 else { return false }
        let leap = (f.year % 4 == 0 && f.year % 100 != 0) || f.year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][f.month - 1]
        return f.day <= days
    }

    /// Why fields read in a date's form name no day (`31 September does not exist`); nil for a
    /// day of the calendar.
    static func missingDay(_ f: ValueFormat.Fields) -> String? {
        guard !isValidDate(f) else { return nil }
        guard (1...12).contains(f.month) else { return "month \(f.month) does not exist" }
        let month = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December"
        ][f.month - 1]
        if f.month == 2 && f.day == 29 { return "29 February \(f.year) does not exist (\(f.year) is not a leap year)" }
        return "\(f.day) \(month) does not exist"
    }
}
