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
    }

    @Test("date-times are normalized to UTC")
    func dateTimes() {
        #expect(convert("2013-02-14T00:00:00-07:00", .datetime) == .text("2013-02-14T07:00:00Z"))
        #expect(convert("2016-08-02T15:39:14.947", .datetime) == .text("2016-08-02T15:39:14.947Z"))
        #expect(convert("2013-12-31T23:30:00-01:00", .datetime) == .text("2014-01-01T00:30:00Z"))
        #expect(convert("2013-01-01T00:30:00+01:00", .datetime) == .text("2012-12-31T23:30:00Z"))
    }
}
