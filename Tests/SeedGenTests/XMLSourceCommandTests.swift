import Foundation
import SeedSQLite
import SeedTestSupport
import Testing

/// The sources that read more than a record's own subtree: enclosing elements, presence,
/// wildcards and names, durations and computed columns, built end to end.
@Suite("seedgen build: XML sources")
struct XMLSourceCommandTests {
    /// A TransXChange-shaped file: the file name on the root, journeys with run times, days
    /// of operation as empty elements and a departure with a day offset.
    static let timetable = """
        <?xml version="1.0"?>
        <TransXChange xmlns="http://www.transxchange.org.uk/" FileName="SOM_1.xml">
          <VehicleJourneys>
            <VehicleJourney code="VJ1">
              <RunTime>PT1M18S</RunTime>
              <DepartureTime>23:50:00</DepartureTime>
              <DayOffset>0</DayOffset>
              <OperatingProfile><RegularDayType><DaysOfWeek><Monday/><Saturday/></DaysOfWeek></RegularDayType></OperatingProfile>
              <Stops><Stop ref="S1"/><Stop ref="S2"/></Stops>
            </VehicleJourney>
            <VehicleJourney code="VJ2">
              <RunTime>P1DT2H</RunTime>
              <DepartureTime>00:10:00</DepartureTime>
              <DayOffset>1</DayOffset>
              <OperatingProfile><RegularDayType><HolidaysOnly/></RegularDayType></OperatingProfile>
            </VehicleJourney>
          </VehicleJourneys>
        </TransXChange>

        """

    static let schema = """
        name: txc
        schemaVersion: 1
        format: xml
        namespaces: { "": "http://www.transxchange.org.uk/" }
        tables:
          - name: vehicle_journey
            element: VehicleJourney
            key: code
            columns:
              - { name: code, source: "@code", required: true }
              - { name: file_name, source: "ancestor::TransXChange/@FileName" }
              - { name: run_time, type: duration, source: RunTime }
              - { name: departure_time, type: time, source: DepartureTime }
              - { name: day_offset, type: integer, source: DayOffset }
              - { name: departure, type: integer, expression: "departure_time + 86400 * day_offset" }
              - { name: holidays_only, exists: true, source: OperatingProfile/RegularDayType/HolidaysOnly }
              - { name: has_days, exists: true, source: "OperatingProfile/*/DaysOfWeek" }
          - name: day_of_week
            element: DaysOfWeek/*
            parent: vehicle_journey
            columns:
              - { name: day, source: $name }
              - { name: position, type: integer, source: $position }
          - name: stop
            element: Stop
            parent: vehicle_journey
            columns:
              - { name: ref, source: "@ref" }
              - { name: journey_code, source: "../../@code" }
              - { name: file_name, source: "ancestor::TransXChange/@FileName" }

        """

    private func build(_ xml: String, schema: String = Self.schema, _ extra: [String] = []) throws -> (ChildProcess.Output, TemporaryFolder) {
        let scratch = TemporaryFolder()
        let input = scratch.write("in/feed.xml", xml)
        let schemaFile = scratch.write("schema.yaml", schema)
        let result = try SeedgenTool.run(["build", input, "--schema", schemaFile, "--out", scratch.file("out.sqlite"), "--quiet"] + extra)
        return (result, scratch)
    }

    private func rows(_ scratch: TemporaryFolder, _ sql: String) throws -> [[Value]] {
        try Connection(path: scratch.file("out.sqlite"), mode: .readOnly).rows(sql)
    }

    @Test("ancestor::Name/@attr and ../@attr read the attributes of enclosing elements")
    func enclosingElements() throws {
        let (result, scratch) = try build(Self.timetable)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try rows(scratch, "SELECT code, file_name FROM vehicle_journey ORDER BY id") == [[.text("VJ1"), .text("SOM_1.xml")], [.text("VJ2"), .text("SOM_1.xml")]])
        #expect(try rows(scratch, "SELECT ref, journey_code, file_name FROM stop ORDER BY id")
                == [[.text("S1"), .text("VJ1"), .text("SOM_1.xml")], [.text("S2"), .text("VJ1"), .text("SOM_1.xml")]])
    }

    @Test("type: duration stores ISO 8601 durations as seconds")
    func durations() throws {
        let (result, scratch) = try build(Self.timetable)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try rows(scratch, "SELECT run_time FROM vehicle_journey ORDER BY id") == [[.integer(78)], [.integer(93_600)]])
    }

    @Test("a bad duration fails the build with file:line:column, path and value")
    func badDuration() throws {
        let (result, scratch) = try build(Self.timetable.replacingOccurrences(of: "PT1M18S", with: "P1M"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("feed.xml:5:"), "\(result.stderr)")
        #expect(result.stderr.contains("'P1M' is not a valid duration: years and months have no fixed length in seconds"), "\(result.stderr)")
        #expect(!scratch.contents.contains("out.sqlite"))
    }

    @Test("exists: true is 1 when the path matches an element (even an empty one), else 0")
    func exists() throws {
        let (result, scratch) = try build(Self.timetable)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try rows(scratch, "SELECT holidays_only, has_days FROM vehicle_journey ORDER BY id") == [[.integer(0), .integer(1)], [.integer(1), .integer(0)]])
    }

    @Test("'*' steps and $name turn empty elements into a list of their names")
    func wildcardNames() throws {
        let (result, scratch) = try build(Self.timetable)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try rows(scratch, "SELECT vehicle_journey_ref, day, position FROM day_of_week ORDER BY id")
                == [[.integer(1), .text("Monday"), .integer(1)], [.integer(1), .text("Saturday"), .integer(2)]])
    }

    @Test("expression: columns are computed from the row's other columns after loading")
    func expression() throws {
        let (result, scratch) = try build(Self.timetable)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try rows(scratch, "SELECT departure FROM vehicle_journey ORDER BY id") == [[.integer(85_800)], [.integer(87_000)]])
    }

    @Test("expression: works on CSV tables too; exists: is refused there")
    func csvExpression() throws {
        let scratch = TemporaryFolder()
        scratch.write("feed/trips.txt", "trip_id,departure,offset\nT1,23:50:00,1\nT2,08:00:00,\n")
        let schema = """
            name: csv-expression
            schemaVersion: 1
            tables:
              - name: trips
                columns:
                  - { name: trip_id }
                  - { name: departure, type: time }
                  - { name: offset, type: integer, default: "0" }
                  - { name: departs_at, type: integer, expression: "departure + 86400 * offset" }

            """
        let file = scratch.write("csv.yaml", schema)
        let result = try SeedgenTool.run(["build", scratch.file("feed"), "--schema", file, "--out", scratch.file("out.sqlite"), "--strict"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try rows(scratch, "SELECT departs_at FROM trips ORDER BY id") == [[.integer(172_200)], [.integer(28_800)]])
        let exists = scratch.write("exists.yaml", schema + "      - { name: flag, exists: true }\n")
        let refused = try SeedgenTool.run(["build", scratch.file("feed"), "--schema", exists, "--out", scratch.file("x.sqlite")])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("'exists' is for XML schemas"), "\(refused.stderr)")
    }

    @Test("schema mistakes in the new keys are errors naming the problem")
    func schemaErrors() throws {
        let cases: [(String, String)] = [
            ("expression: \"departure_tme + 1\"", "expression 'departure_tme + 1' is not valid SQL over the table's columns: no such column: departure_tme"),
            ("source: \"../DayOffset\"", "an enclosing element's value is one of its attributes"),
            ("source: \"RunTime/../@x\"", "'..' and 'ancestor::' start a path"),
            ("source: \"$nam\"", "the variables are $position and $name"),
            ("exists: true, type: integer, source: RunTime", "an 'exists' column is boolean"),
        ]
        for (column, message) in cases {
            let schema = Self.schema.replacingOccurrences(of: "type: integer, expression: \"departure_time + 86400 * day_offset\"", with: column)
            let (result, _) = try build(Self.timetable, schema: schema)
            #expect(result.status != 0)
            #expect(result.stderr.contains(message), "\(column): \(result.stderr)")
        }
    }
}
