import Foundation
import SeedKitTestSupport
import Testing
@testable import SeedKit

/// The value types real dumps use (issue 22): date-times at one width, clock-field
/// durations, partial dates.
@Suite("Value types of real dumps")
struct DumpValueTypeTests {
    private func converter(_ type: ColumnType, format: String? = nil, precision: Int = 0, partial: Bool = false) -> ValueConverter {
        var column = Column(name: "c", type: type, format: format)
        column.precision = precision
        column.partial = partial
        return ValueConverter(column: column)
    }

    private func stored(_ value: String, _ converter: ValueConverter) -> String? {
        switch converter.convert(Array(value.utf8)) {
        case .text(let text): return text
        case .sourceText: return value
        case .integer(let number): return String(number)
        default: return nil
        }
    }

    @Test("date-times are stored at one width, so text order is time order")
    func dateTimeWidth() {
        let millis = converter(.datetime, precision: 3)
        let values = ["2016-08-02T14:43:13Z", "2016-08-02T14:43:13.994", "2016-08-02T14:43:13.5+00:00", "2016-08-02T14:43:12.99Z",
                      "2016-08-02T16:43:13.1+02:00"]
        let storedValues = values.compactMap { stored($0, millis) }
        #expect(storedValues == ["2016-08-02T14:43:13.000Z", "2016-08-02T14:43:13.994Z", "2016-08-02T14:43:13.500Z",
                                 "2016-08-02T14:43:12.990Z", "2016-08-02T14:43:13.100Z"])
        #expect(Set(storedValues.map(\.utf8.count)).count == 1)
        // Text order equals time order: .990 of :12, then :13 .000 .100 .500 .994.
        #expect(storedValues.sorted() == ["2016-08-02T14:43:12.990Z", "2016-08-02T14:43:13.000Z", "2016-08-02T14:43:13.100Z",
                                          "2016-08-02T14:43:13.500Z", "2016-08-02T14:43:13.994Z"])
        // Whole seconds by default, as OSM and Atom write them (stored as given).
        #expect(stored("2013-08-03T12:00:00Z", converter(.datetime)) == "2013-08-03T12:00:00Z")
        #expect(stored("2013-08-03T12:00:00.000Z", converter(.datetime)) == "2013-08-03T12:00:00Z")
    }

    @Test("a date-time with more digits of a second than the column stores is an error that says the precision to give")
    func dateTimeTooPrecise() {
        guard case .invalid(let reason) = converter(.datetime).convert(Array("2016-08-02T14:43:13.994".utf8)) else {
            Issue.record("digits of a second must not be dropped")
            return
        }
        #expect(reason.contains("give the column precision: 3"), "\(reason)")
        if case .invalid = converter(.datetime, precision: 2).convert(Array("2016-08-02T14:43:13.994".utf8)) {} else {
            Issue.record("3 digits in a precision: 2 column must be refused")
        }
        #expect(throws: SchemaError.self) {
            try Schema.parse(Array("""
                name: s
                schemaVersion: 1
                format: xml
                tables:
                  - { name: t, element: e, columns: [{ name: at, type: datetime, precision: 10, source: "@at" }] }
                """.utf8), file: "s.yaml")
        }
    }

    @Test("clock-field durations: m:ss, mm:ss and h:mm:ss read one or more digits in the leading field")
    func clockDurations() {
        let minutes = converter(.duration, format: "m:ss")
        #expect(stored("4:45", minutes) == "285")
        #expect(stored("0:07", minutes) == "7")
        #expect(stored("123:45", minutes) == "7425")
        #expect(stored("4:45", converter(.duration, format: "mm:ss")) == "285")
        #expect(stored("04:45", converter(.duration, format: "mm:ss")) == "285")
        let hours = converter(.duration, format: "h:mm:ss")
        #expect(stored("1:02:03", hours) == "3723")
        #expect(stored("100:00:00", hours) == "360000")
        // Hours and minutes only where the format says so: nothing is guessed.
        #expect(stored("4:45", converter(.duration, format: "H:mm")) == "17100")
        for bad in ["4:5", "4:60", "4:45:00", "4:45.5", "x:45", ""] where !bad.isEmpty {
            if case .invalid = minutes.convert(Array(bad.utf8)) {} else { Issue.record("\(bad) must not read as m:ss") }
        }
        #expect(throws: FormatError.self) { try DurationFormat(pattern: "m:hh") }
        #expect(throws: FormatError.self) { try DurationFormat(pattern: "h:ss") }
        #expect(throws: FormatError.self) { try DurationFormat(pattern: "mmm:ss") }
    }

    @Test("partial dates keep their precision with zeros and sort as dates")
    func partialDates() {
        let partial = converter(.date, partial: true)
        #expect(stored("1999-03-00", partial) == "1999-03-00")
        #expect(stored("1999-03", partial) == "1999-03-00")
        #expect(stored("2000", partial) == "2000-00-00")
        #expect(stored("1999-03-14", partial) == "1999-03-14")
        #expect(["2000", "1999-03-14", "1999-03", "1999"].compactMap { stored($0, partial) }.sorted()
                == ["1999-00-00", "1999-03-00", "1999-03-14", "2000-00-00"])
        for bad in ["1999-13", "1999-02-30", "1999-00-05", "99"] {
            if case .invalid = partial.convert(Array(bad.utf8)) {} else { Issue.record("\(bad) must not be a partial date") }
        }
        // Without partial: true, an unknown day is an error, as before.
        if case .invalid = converter(.date).convert(Array("1999-03-00".utf8)) {} else { Issue.record("1999-03-00 needs partial: true") }
    }
}
