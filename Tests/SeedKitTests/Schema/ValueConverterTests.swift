import Foundation
import SeedKitTestSupport
import Testing
@testable import SeedKit

func convert(_ text: String, _ type: ColumnType, format: String? = nil) -> ConvertedValue {
    ValueConverter(column: Column(name: "c", type: type, format: format)).convert(Array(text.utf8))
}

@Suite("Value conversion")
struct ValueConverterTests {
    @Test("times of day are seconds after midnight, past 24:00 too")
    func times() {
        #expect(convert("25:10:00", .time) == .integer(90600))
        #expect(convert("8:05:09", .time) == .integer(29109))
        #expect(convert("00:00:00", .time) == .integer(0))
        #expect(convert("", .time) == .null)
        #expect(convert("  ", .time) == .null)
        if case .invalid = convert("8:5:00", .time) {} else { Issue.record("8:5:00 must be invalid") }
        if case .invalid = convert("08:60:00", .time) {} else { Issue.record("minute 60 must be invalid") }
    }

    @Test("integers, reals and booleans are strict")
    func numbers() {
        #expect(convert(" 42 ", .integer) == .integer(42))
        #expect(convert("-7", .integer) == .integer(-7))
        #expect(convert("-16.743632", .real) == .real(-16.743632))
        #expect(convert("1e3", .real) == .real(1000))
        #expect(convert("YES", .boolean) == .integer(1))
        #expect(convert("0", .boolean) == .integer(0))
        for bad in ["4.5", "12a", "9223372036854775808", "-"] {
            if case .invalid = convert(bad, .integer) {} else { Issue.record("\(bad) must not be an integer") }
        }
        for bad in ["nan", "inf", "1,5", "0x10"] {
            if case .invalid = convert(bad, .real) {} else { Issue.record("\(bad) must not be a real") }
        }
        if case .invalid = convert("2", .boolean) {} else { Issue.record("2 must not be a boolean") }
    }

    @Test("dates are stored as ISO 8601 and checked against the calendar")
    func dates() {
        #expect(convert("20140526", .date, format: "yyyyMMdd") == .text("2014-05-26"))
        #expect(convert("2024-02-29", .date) == .text("2024-02-29"))
        #expect(convert("14/02/2013", .date, format: "dd/MM/yyyy") == .text("2013-02-14"))
        if case .invalid = convert("20230229", .date, format: "yyyyMMdd") {} else { Issue.record("2023-02-29 does not exist") }
        if case .invalid = convert("2014-05-26", .date, format: "yyyyMMdd") {} else { Issue.record("format must match") }
        // A value in the date's form that names no day says which day does not exist.
        #expect(convert("20160931", .date, format: "yyyyMMdd") == .invalid("31 September does not exist"))
        #expect(convert("20230229", .date, format: "yyyyMMdd") == .invalid("29 February 2023 does not exist (2023 is not a leap year)"))
        #expect(convert("2016-13-01", .date) == .invalid("month 13 does not exist"))
        #expect(convert("2016-04-00T10:00:00Z", .datetime) == .invalid("0 April does not exist"))
        #expect(convert("2016-0931", .date, format: "yyyyMMdd") == .invalid("expected a date as yyyyMMdd"))
    }

    @Test("date-times are normalized to UTC")
    func dateTimes() {
        #expect(convert("2013-02-14T00:00:00-07:00", .datetime) == .text("2013-02-14T07:00:00Z"))
        var millis = Column(name: "c", type: .datetime)
        millis.precision = 3
        #expect(ValueConverter(column: millis).convert(Array("2016-08-02T15:39:14.947".utf8)) == .text("2016-08-02T15:39:14.947Z"))
        // Whole seconds unless the column says otherwise: digits of a second are never cut.
        if case .invalid = convert("2016-08-02T15:39:14.947", .datetime) {} else { Issue.record(".947 needs precision: 3") }
        #expect(convert("2013-12-31T23:30:00-01:00", .datetime) == .text("2014-01-01T00:30:00Z"))
        #expect(convert("2013-01-01T00:30:00+01:00", .datetime) == .text("2012-12-31T23:30:00Z"))
    }

    @Test("a date-time already in the stored form keeps its bytes; other forms are written the same way")
    func canonicalDateTimes() {
        #expect(convert("2013-06-20T13:45:07Z", .datetime) == .sourceText)
        #expect(convert("2024-02-29T23:59:59Z", .datetime) == .sourceText)
        // Not the stored form, or not a valid time: the full conversion decides.
        #expect(convert("2013-06-20T13:45:07+00:00", .datetime) == .text("2013-06-20T13:45:07Z"))
        #expect(convert("2013-06-20T13:45:07.000Z", .datetime) == .text("2013-06-20T13:45:07Z"))
        var tenths = Column(name: "c", type: .datetime)
        tenths.precision = 1
        #expect(ValueConverter(column: tenths).convert(Array("2013-06-20T13:45:07.500Z".utf8)) == .text("2013-06-20T13:45:07.5Z"))
        #expect(convert("2013-06-20T13:45Z", .datetime) == .text("2013-06-20T13:45:00Z"))
        for bad in ["2023-02-29T10:00:00Z", "2013-06-20T24:00:00Z", "2013-13-20T10:00:00Z", "2013-06-20T10:60:00Z"] {
            if case .invalid = convert(bad, .datetime) {} else { Issue.record("\(bad) must be invalid") }
        }
        // With a format, the format decides, even for bytes in the stored form.
        if case .invalid = convert("2013-06-20T13:45:07Z", .datetime, format: "yyyyMMdd") {} else { Issue.record("format must match") }
    }

    @Test("short decimals read without strtod give strtod's double, bit for bit")
    func shortDecimals() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "0.0", "5.", ".5", "+1.25", "47.1666716", "-16.743632", "9.5496806", "999999999999999",
                     "0.000000000000001", "123456789.012345", "1.0000000000000002", "0.1", "0.3"]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...15, using: &generator)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            text.insert(".", at: text.index(text.startIndex, offsetBy: Int.random(in: 0...digits, using: &generator)))
            texts.append(Bool.random(using: &generator) ? "-" + text : text)
        }
        for text in texts where text != "." && text != "-." {
            let expected = strtod(text, nil)
            guard case .real(let value) = convert(text, .real) else {
                Issue.record("\(text) must be a real")
                continue
            }
            #expect(value.bitPattern == expected.bitPattern, "\(text)")
        }
    }
}
