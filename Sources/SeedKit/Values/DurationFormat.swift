/// A pattern for durations written as clock fields: `m:ss` (a track length `4:45`),
/// `h:mm:ss` (`1:02:03`), `H:mm` (hours and minutes). Stored as whole seconds.
///
/// Tokens: `h`/`H` hours, `m` minutes, `s` seconds, single or doubled; anything else that is
/// not a letter must appear as is. The fields go from the largest unit down without a gap.
/// The leading field takes one digit or more whatever its width (`m:ss` reads `4:45` and
/// `123:45`, and so does `mm:ss`); a doubled later field takes exactly two digits, a single
/// one one or two; later fields stay below 60. A leading `-` makes the duration negative.
///
/// Nothing is guessed: `4:45` is 285 seconds as `m:ss` and 17,100 as `H:mm`.
struct DurationFormat: Sendable, Equatable {
    enum Token: Equatable, Sendable {
        /// Hours, minutes or seconds (`unit` seconds each); `exact`: written doubled.
        case field(unit: Int, exact: Bool)
        case literal(UInt8)
    }

    let tokens: [Token]
    let pattern: String

    /// The most digits the leading field takes: more would overflow 64 bits once multiplied.
    static let leadingDigits = 15

    init(pattern: String) throws(FormatError) {
        self.pattern = pattern
        let bytes = Array(pattern.utf8)
        var tokens: [Token] = []
        var index = 0
        var lastUnit = Int.max
        while index < bytes.count {
            let byte = bytes[index]
            var run = 1
            while index + run < bytes.count && bytes[index + run] == byte { run += 1 }
            let unit: Int?
            switch byte {
            case UInt8(ascii: "h"), UInt8(ascii: "H"): unit = 3600
            case UInt8(ascii: "m"): unit = 60
            case UInt8(ascii: "s"): unit = 1
            default: unit = nil
            }
            if let unit {
                guard run <= 2 else {
                    throw FormatError(
                        message:
                            """
                            duration format '\(pattern)': \
                            '\(String(repeating: Character(UnicodeScalar(byte)), count: run))' is not a token (use \
                            h, hh, m, mm, s, ss)
                            """
                    )
                }
                guard unit < lastUnit, lastUnit == .max || lastUnit == unit * 60 else {
                    throw FormatError(
                        message:
                            """
                            duration format '\(pattern)': the fields go from hours to seconds without a gap \
                            (h:mm:ss, m:ss, H:mm)
                            """
                    )
                }
                lastUnit = unit
                tokens.append(.field(unit: unit, exact: run == 2))
            } else if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") {
                throw FormatError(
                    message:
                        """
                        duration format '\(pattern)': '\(Character(UnicodeScalar(byte)))' is not a token (use h, \
                        hh, m, mm, s, ss)
                        """
                )
            } else {
                for _ in 0..<run { tokens.append(.literal(byte)) }
            }
            index += run
        }
        guard lastUnit != .max else {
            throw FormatError(message: "duration format '\(pattern)' has no field (use h, m or s: m:ss, h:mm:ss)")
        }
        self.tokens = tokens
    }

    /// The seconds `bytes` stand for, or why they do not match the pattern.
    func seconds(_ bytes: UnsafeRawBufferPointer) -> ConvertedValue {
        var scanner = Scanner(bytes: bytes)
        let negative = scanner.expect(UInt8(ascii: "-"))
        var total: Int64 = 0
        var leading = true
        for token in tokens {
            switch token {
            case .literal(let byte):
                guard scanner.expect(byte) else { return .invalid("expected a duration as \(pattern)") }
            case .field(let unit, let exact):
                let value: Int
                if leading {
                    guard let number = scanner.digits(1, Self.leadingDigits) else {
                        return .invalid("expected a duration as \(pattern)")
                    }
                    value = number
                    leading = false
                } else {
                    guard let number = scanner.digits(exact ? 2 : 1, 2) else {
                        return .invalid("expected a duration as \(pattern)")
                    }
                    guard number < 60 else {
                        return .invalid("expected a duration as \(pattern): \(number) is not below 60")
                    }
                    value = number
                }
                let (product, o1) = Int64(value).multipliedReportingOverflow(by: Int64(unit))
                let (sum, o2) = total.addingReportingOverflow(product)
                guard !o1, !o2 else { return .invalid("expected a duration as \(pattern): the number is too large") }
                total = sum
            }
        }
        guard scanner.atEnd else {
            if scanner.peek() == UInt8(ascii: ".") || scanner.peek() == UInt8(ascii: ",") {
                return .invalid("fractions are not stored: a duration is whole seconds")
            }
            return .invalid("expected a duration as \(pattern)")
        }
        return .integer(negative ? -total : total)
    }
}
