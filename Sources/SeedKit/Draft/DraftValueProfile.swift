/// What a draft learns of the values of one attribute or element text: how many there
/// were, which column types accept every one of them (counters and flags, never the values
/// themselves), the first few as examples, and, for a field that may be a key or a
/// reference, their hashes (`DraftValueHashes`).
///
/// Every value is checked, whatever the size of the input: a type stays possible only while
/// the build's own conversion (`ValueConverter`) of the very column the draft would write
/// (`column(for:)`) accepts each value, so a drafted column takes every value the survey saw.
/// Some types are narrower still, to keep what the text says: an integer with a leading zero
/// (`007`) stays text, a real needs at most 15 digits, a boolean is `true` or `false`, and a
/// date-time's digits of a second (as the conversion reads them) set its `precision`.
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
        /// `7:05:00`: a time of day (hours may pass 24).
        static let timeOfDay = Types(rawValue: 1 << 9)
        static let all = Types(rawValue: (1 << 10) - 1)
        /// Each type on its own, in the order of `all`.
        static let each: [Types] = (0..<10).map { Types(rawValue: 1 << $0) }
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

    /// The profile of a value the build reads with more than the survey saw (an element's
    /// text, which includes its children's when it has some): text, and no key or reference.
    func seenInPart() -> DraftValueProfile {
        var profile = self
        profile.types = []
        profile.hashes = nil
        return profile
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
        for example in other.examples where examples.count < Self.exampleCount && !examples.contains(example) {
            examples.append(example)
        }
    }

    /// The column a draft writes for `type` (a single type): the values that fit the type
    /// are those its converter accepts. `datetime` is checked at the most digits of a second
    /// (9), and written with those its values have (`fractionDigits`).
    static func column(for type: Types) -> Column {
        var column = Column(name: "v", type: .text)
        switch type {
        case .integer: column.type = .integer
        case .real: column.type = .real
        case .boolean: column.type = .boolean
        case .date: column.type = .date
        case .partialDate: column.type = .date; column.partial = true
        case .datetime: column.type = .datetime; column.precision = 9
        case .isoDuration: column.type = .duration
        case .minutesSeconds: column.type = .duration; column.format = "m:ss"
        case .hoursMinutesSeconds: column.type = .duration; column.format = "h:mm:ss"
        case .timeOfDay: column.type = .time
        default: break
        }
        return column
    }

    private static let converters: [(Types, ValueConverter)] = Types.each.map {
        ($0, ValueConverter(column: column(for: $0)))
    }

    /// Drops the types `bytes` does not have.
    private mutating func narrow(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Self.typedLength else {
            types = []
            return
        }
        // Narrower than the conversion: what would not keep the text as written.
        if types.contains(.integer) && !Self.isPlainInteger(bytes) { types.remove(.integer) }
        if types.contains(.boolean)
            && !(Self.equalsIgnoringCase(bytes, "true") || Self.equalsIgnoringCase(bytes, "false"))
        {
            types.remove(.boolean)
        }
        // A `date` column reads a date-time's day and drops its time: only bare dates are dates.
        if bytes.count != 10 { types.remove(.date) }
        if types.contains(.real) && ValueConverter.parseShortDecimal(bytes) == nil { types.remove(.real) } // no digits lost
        for (type, converter) in Self.converters where types.contains(type) {
            switch converter.convert(bytes) {
            case .invalid, .null:
                types.remove(type)
            case .text(let text) where type == .datetime:
                fractionDigits = max(fractionDigits, Self.fractionDigits(converted: text))
            default:
                break
            }
        }
    }

    /// True when `bytes` spell `word` (lowercase ASCII) in any case: `True`, `FALSE`.
    private static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        return zip(bytes, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)).allSatisfy {
            $0 | 0x20 == $1
        }
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

    /// The digits of a second a converted date-time keeps (`YYYY-MM-DDTHH:MM:SS.fffffffffZ`,
    /// padded to the converter's precision), trailing zeros aside.
    private static func fractionDigits(converted text: String) -> Int {
        guard let point = text.utf8.lastIndex(of: UInt8(ascii: ".")) else { return 0 }
        let digits = text.utf8[text.utf8.index(after: point)...].dropLast() // the Z
        return digits.count - digits.reversed().prefix { $0 == UInt8(ascii: "0") }.count
    }

    /// A value as an example: at most 40 characters, on one line.
    private static func shown(_ bytes: UnsafeRawBufferPointer) -> String {
        var text = String(decoding: bytes.prefix(160), as: UTF8.self)
        text = String(text.unicodeScalars.map { $0.value < 32 || $0 == "\u{7F}" ? " " : Character($0) })
        if text.count > 40 { text = String(text.prefix(39)) + "…" }
        return text
    }
}
