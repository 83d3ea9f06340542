/// A date or time pattern, e.g. `yyyyMMdd`, `dd/MM/yyyy`, `H:mm:ss`, or `iso8601`.
///
/// Tokens: `yyyy` year; `MM`/`M` month; `dd`/`d` day; `HH`/`H` hours (for `time` columns
/// they may pass 23); `mm` minutes; `ss` seconds; `SSS` fraction of a second (any number of
/// digits); `Z` a zone (`Z`, `+02:00`, `+0200`, `-07`). Anything else must appear literally.
/// `iso8601` accepts `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]][zone]`.
public struct ValueFormat: Sendable, Equatable {
    enum Token: Equatable, Sendable {
        case year, month(exact: Bool), day(exact: Bool), hour(exact: Bool), minute, second, fraction, zone
        case literal(UInt8)
    }

    let tokens: [Token]
    let isISO8601: Bool
    public let pattern: String

    public static let iso8601 = try! ValueFormat(pattern: "iso8601")

    public init(pattern: String) throws(FormatError) {
        self.pattern = pattern
        if pattern == "iso8601" {
            tokens = []
            isISO8601 = true
            return
        }
        isISO8601 = false
        let bytes = Array(pattern.utf8)
        var tokens: [Token] = []
        var i = 0
        func run(of byte: UInt8) -> Int {
            var n = 0
            while i + n < bytes.count && bytes[i + n] == byte { n += 1 }
            return n
        }
        while i < bytes.count {
            let byte = bytes[i]
            let n = run(of: byte)
            switch (byte, n) {
            case (UInt8(ascii: "y"), 4): tokens.append(.year)
            case (UInt8(ascii: "M"), 1...2): tokens.append(.month(exact: n == 2))
            case (UInt8(ascii: "d"), 1...2): tokens.append(.day(exact: n == 2))
            case (UInt8(ascii: "H"), 1...2): tokens.append(.hour(exact: n == 2))
            case (UInt8(ascii: "m"), 2): tokens.append(.minute)
            case (UInt8(ascii: "s"), 2): tokens.append(.second)
            case (UInt8(ascii: "S"), _): tokens.append(.fraction)
            case (UInt8(ascii: "Z"), 1), (UInt8(ascii: "X"), 1...3): tokens.append(.zone)
            case (UInt8(ascii: "y"), _), (UInt8(ascii: "M"), _), (UInt8(ascii: "d"), _), (UInt8(ascii: "H"), _),
                (UInt8(ascii: "m"), _), (UInt8(ascii: "s"), _):
                throw FormatError(
                    message:
                        """
                        format '\(pattern)': '\(String(repeating: Character(UnicodeScalar(byte)), count: n))' is \
                        not a token (use yyyy, MM, M, dd, d, HH, H, mm, ss, SSS, Z)
                        """
                )
            default:
                for _ in 0..<n { tokens.append(.literal(byte)) }
            }
            i += n
        }
        self.tokens = tokens
    }

    /// The fields read from one value.
    struct Fields {
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0
        var fraction: [UInt8] = []
        var zoneSeconds: Int? = nil
        var hasDate = false, hasTime = false
    }

    /// Reads `bytes` according to the pattern; nil when they do not match.
    func read(_ bytes: UnsafeRawBufferPointer) -> Fields? {
        var scanner = Scanner(bytes: bytes)
        var fields = Fields()
        if isISO8601 {
            guard scanner.readISO8601(into: &fields) else { return nil }
        } else {
            for token in tokens {
                switch token {
                case .year:
                    guard let v = scanner.digits(4, 4) else { return nil }; fields.year = v; fields.hasDate = true
                case .month(let exact):
                    guard let v = scanner.digits(exact ? 2 : 1, 2) else { return nil }; fields.month = v;
                    fields.hasDate = true
                case .day(let exact):
                    guard let v = scanner.digits(exact ? 2 : 1, 2) else { return nil }; fields.day = v;
                    fields.hasDate = true
                case .hour(let exact):
                    guard let v = scanner.digits(exact ? 2 : 1, 4) else { return nil }; fields.hour = v;
                    fields.hasTime = true
                case .minute:
                    guard let v = scanner.digits(2, 2) else { return nil }; fields.minute = v; fields.hasTime = true
                case .second: guard let v = scanner.digits(2, 2) else { return nil }; fields.second = v
                case .fraction: guard let f = scanner.fraction() else { return nil }; fields.fraction = f
                case .zone: guard let z = scanner.zone() else { return nil }; fields.zoneSeconds = z
                case .literal(let byte): guard scanner.expect(byte) else { return nil }
                }
            }
        }
        return scanner.atEnd ? fields : nil
    }
}

/// A date or time pattern that cannot be used.
public struct FormatError: Error, Sendable {
    public let message: String
}

/// Reads digits and signs off a byte buffer without allocating.
struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func expect(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    /// Between `min` and `max` ASCII digits as a number.
    mutating func digits(_ min: Int, _ max: Int) -> Int? {
        var value = 0, count = 0
        while count < max, let byte = peek(), byte >= 48, byte <= 57 {
            value = value * 10 + Int(byte - 48)
            count += 1
            position += 1
        }
        return count >= min ? value : nil
    }

    mutating func fraction() -> [UInt8]? {
        let start = position
        while let byte = peek(), byte >= 48, byte <= 57 { position += 1 }
        return position > start ? Array(bytes[start..<position]) : nil
    }

    /// `Z`, `+HH`, `+HH:MM`, `+HHMM` (or `-`), as seconds east of UTC.
    mutating func zone() -> Int? {
        if expect(UInt8(ascii: "Z")) { return 0 }
        let sign: Int
        if expect(UInt8(ascii: "+")) { sign = 1 } else if expect(UInt8(ascii: "-")) { sign = -1 } else { return nil }
        guard let hours = digits(2, 2) else { return nil }
        _ = expect(UInt8(ascii: ":"))
        let minutes = digits(2, 2) ?? 0
        return sign * (hours * 3600 + minutes * 60)
    }

    mutating func readISO8601(into fields: inout ValueFormat.Fields) -> Bool {
        guard let year = digits(4, 4), expect(UInt8(ascii: "-")), let month = digits(2, 2),
            expect(UInt8(ascii: "-")), let day = digits(2, 2)
        else { return false }
        fields.year = year; fields.month = month; fields.day = day; fields.hasDate = true
        guard !atEnd else { return true }
        guard expect(UInt8(ascii: "T")) || expect(UInt8(ascii: " ")) else { return false }
        guard let hour = digits(2, 2), expect(UInt8(ascii: ":")), let minute = digits(2, 2) else { return false }
        fields.hour = hour; fields.minute = minute; fields.hasTime = true
        if expect(UInt8(ascii: ":")) {
            guard let second = digits(2, 2) else { return false }
            fields.second = second
            if expect(UInt8(ascii: ".")) || expect(UInt8(ascii: ",")) {
                guard let fraction = fraction() else { return false }
                fields.fraction = fraction
            }
        }
        if !atEnd {
            guard let zone = zone() else { return false }
            fields.zoneSeconds = zone
        }
        return true
    }
}
