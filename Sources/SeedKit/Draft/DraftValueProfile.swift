/// What a draft learns of the values of one attribute or element text: how many there
/// were, which column types accept every one of them (counters and flags, never the values
/// themselves), the first few as examples, and, for a field that may be a key or a
/// reference, their hashes (`DraftValueHashes`).
///
/// A type stays possible only while the build's own conversion (`ValueConverter`) accepts
/// each value and keeps what it says: an integer with a leading zero (`007`) stays text, a
/// real needs at most 15 digits, a date-time's digits of a second set its `precision`.
struct DraftValueProfile {
    /// The types a value can still have.
    struct Types: OptionSet {
        let rawValue: UInt16
        static let integer = Types(rawValue: 1 << 0)
        static let real = Types(rawValue: 1 << 1)
        static let boolean = Types(rawValue: 1 << 2)
        static let date = Types(rawValue: 1 << 3)
        static let partialDate = Types(rawValue: 1 << 4)
        static let datetime = Types(rawValue: 1 << 5)
        static let isoDuration = Types(rawValue: 1 << 6)
        /// `4:45`: minutes and seconds.
        static let minutesSeconds = Types(rawValue: 1 << 7)
        /// `1:02:03`: hours, minutes and seconds.
        static let hoursMinutesSeconds = Types(rawValue: 1 << 8)
        static let all = Types(rawValue: (1 << 9) - 1)
    }

    /// Non-empty values seen.
    private(set) var count = 0
    /// Empty values seen (an empty attribute, an element with no text).
    private(set) var empty = 0
    private(set) var types = Types.all
    /// The most digits of a second a date-time had (trailing zeros aside).
    private(set) var fractionDigits = 0
    /// The longest value, in bytes.
    private(set) var maxLength = 0
    /// The first distinct values, shortened.
    private(set) var examples: [String] = []
    /// Hashes of the values, when the field may be a key or a reference.
    var hashes: DraftValueHashes?

    static let exampleCount = 3
    /// Longer values are text: no number, date or duration is this long.
    static let typedLength = 40

    /// Adds one value (trimmed) read from file number `file`.
    mutating func add(_ bytes: UnsafeRawBufferPointer, file: Int, budget: DraftHashBudget) {
        guard !bytes.isEmpty else {
            empty += 1
            return
        }
        count += 1
        maxLength = max(maxLength, bytes.count)
        if !types.isEmpty { narrow(bytes) }
        if examples.count < Self.exampleCount {
            let text = Self.shown(bytes)
            if !examples.contains(text) { examples.append(text) }
        }
        hashes?.add(bytes, file: file, budget: budget)
    }

    /// Adds a value too long to keep whole (`length` bytes, of which `prefix`): text, and
    /// no key.
    mutating func addLong(_ prefix: UnsafeRawBufferPointer, length: Int) {
        count += 1
        maxLength = max(maxLength, length)
        types = []
        hashes = nil
        if examples.count < Self.exampleCount {
            let text = Self.shown(prefix)
            if !examples.contains(text) { examples.append(text) }
        }
    }

    /// Adds the values of `other` (the same field at another path).
    mutating func merge(_ other: DraftValueProfile) {
        // Values not hashed on either side: the merged ones cannot be judged.
        let unhashed = (hashes == nil && count > 0) || (other.hashes == nil && other.count > 0)
        if unhashed {
            hashes = nil
        } else if let theirs = other.hashes {
            if hashes == nil { hashes = theirs } else { hashes!.merge(theirs) }
        }
        count += other.count
        empty += other.empty
        types.formIntersection(other.types)
        fractionDigits = max(fractionDigits, other.fractionDigits)
        maxLength = max(maxLength, other.maxLength)
        for example in other.examples where examples.count < Self.exampleCount && !examples.contains(example) { examples.append(example) }
    }

    private static let converters: [(Types, ValueConverter)] = [
        (.real, ValueConverter(column: Column(name: "v", type: .real))),
        (.date, ValueConverter(column: Column(name: "v", type: .date))),
        (.partialDate, { var c = Column(name: "v", type: .date); c.partial = true; return ValueConverter(column: c) }()),
        (.datetime, { var c = Column(name: "v", type: .datetime); c.precision = 9; return ValueConverter(column: c) }()),
        (.isoDuration, ValueConverter(column: Column(name: "v", type: .duration))),
        (.minutesSeconds, ValueConverter(column: Column(name: "v", type: .duration, format: "m:ss"))),
        (.hoursMinutesSeconds, ValueConverter(column: Column(name: "v", type: .duration, format: "h:mm:ss"))),
    ]

    /// Drops the types `bytes` does not have.
    private mutating func narrow(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Self.typedLength else {
            types = []
            return
        }
        if types.contains(.integer) && !Self.isPlainInteger(bytes) { types.remove(.integer) }
        if types.contains(.boolean) && !(Self.equalsIgnoringCase(bytes, "true") || Self.equalsIgnoringCase(bytes, "false")) { types.remove(.boolean) }
        // A `date` column reads a date-time's day and drops its time: only bare dates are dates.
        if bytes.count != 10 { types.remove(.date) }
        for (type, converter) in Self.converters where types.contains(type) {
            let accepted: Bool
            switch converter.convert(bytes) {
            case .invalid: accepted = false
            case .real: accepted = ValueConverter.parseShortDecimal(bytes) != nil // no digits lost
            default: accepted = true
            }
            if !accepted { types.remove(type) }
        }
        // A date-time with a time (not a bare date): its digits of a second.
        if types.contains(.datetime), bytes.count > 19, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ") {
            fractionDigits = max(fractionDigits, Self.fractionDigits(bytes))
        }
    }

    /// True when `bytes` spell `word` (lowercase ASCII) in any case: `True`, `FALSE`.
    private static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        return zip(bytes, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)).allSatisfy { $0 | 0x20 == $1 }
    }

    /// `0` or `-?[1-9][0-9]*` in 64 bits: an integer that keeps its text.
    private static func isPlainInteger(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = bytes[0] == UInt8(ascii: "-") ? 1 : 0
        guard index < bytes.count, bytes.count - index <= 18 else { return false }
        if bytes[index] == UInt8(ascii: "0") { return bytes.count - index == 1 && index == 0 }
        while index < bytes.count {
            guard bytes[index] &- 48 < 10 else { return false }
            index += 1
        }
        return true
    }

    /// The digits after the seconds' point, trailing zeros aside.
    private static func fractionDigits(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let point = bytes[19...].firstIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }), point == 19 else { return 0 }
        var end = point + 1
        while end < bytes.count, bytes[end] &- 48 < 10 { end += 1 }
        var last = end
        while last > point + 1, bytes[last - 1] == UInt8(ascii: "0") { last -= 1 }
        return last - point - 1
    }

    /// A value as an example: at most 40 characters, on one line.
    private static func shown(_ bytes: UnsafeRawBufferPointer) -> String {
        var text = String(decoding: bytes.prefix(160), as: UTF8.self)
        text = String(text.unicodeScalars.map { $0.value < 32 || $0 == "\u{7F}" ? " " : Character($0) })
        if text.count > 40 { text = String(text.prefix(39)) + "…" }
        return text
    }
}
