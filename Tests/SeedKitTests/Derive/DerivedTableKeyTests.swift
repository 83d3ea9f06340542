import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// The tables a schema derives by SQL give every source object its own id, and a recipe
/// whose rows would break a key, a required column or a reference fails the build with the
/// objects it came from (element, file, line), never with SQLite's message.
@Suite("Derived table keys")
struct DerivedTableKeyTests {
    /// The UK NaPTAN profile: a stop assignment holding its scheduled stop point and its stop
    /// place, whose one quay carries the stop place's id (ids are unique per element type);
    /// a journey stops at a point another assignment serves at that quay.
    static let naptan = NeTExDataSetTests.netex("""
        <PassengerStopAssignment version="any" id="naptStop:260010966" order="1">
          <ScheduledStopPoint version="any" id="naptStop:260010966"><Name>Netherley Road</Name></ScheduledStopPoint>
          <StopPlace version="any" id="naptStop:260010966"><Name>Netherley Road</Name>
            <quays><Quay id="naptStop:260010966" version="1"><Name>Netherley Road, stop N</Name></Quay></quays>
          </StopPlace>
        </PassengerStopAssignment>
        <ScheduledStopPoint version="1" id="SSP2"><Name>Netherley Road</Name></ScheduledStopPoint>
        <PassengerStopAssignment version="1" id="A2" order="1"><ScheduledStopPointRef ref="SSP2"/><QuayRef ref="naptStop:260010966"/></PassengerStopAssignment>
        <ServiceJourney id="SJ1" version="1"><JourneyPatternRef ref="JP1"/><passingTimes>
          <TimetabledPassingTime><StopPointInJourneyPatternRef ref="P1"/><DepartureTime>07:00:00</DepartureTime></TimetabledPassingTime>
        </passingTimes></ServiceJourney>
        <ServiceJourneyPattern id="JP1" version="1"><pointsInSequence>
          <StopPointInJourneyPattern id="P1" order="1" version="1"><ScheduledStopPointRef ref="SSP2"/></StopPointInJourneyPattern>
        </pointsInSequence></ServiceJourneyPattern>
        """)

    @Test("a StopPlace and a Quay sharing an id are two stops: the quay's stop_id is the id with '#Quay'")
    func stopPlaceAndQuaySharingAnID() throws {
        let (_, db, _) = try NeTExDataSetTests.build(["stops.xml": Self.naptan])
        #expect(try db.text("SELECT group_concat(stop_id || ' ' || location_type || ' ' || ifnull(parent_station_ref, '-'), '; ') FROM (SELECT * FROM stops ORDER BY id)")
                == "naptStop:260010966 1 -; naptStop:260010966#Quay 0 1")
        // The point is served at the quay its assignment names: its stop time is at the quay's stop.
        #expect(try db.text("SELECT s.stop_id FROM stop_times t JOIN stops s ON s.id = t.stop_ref") == "naptStop:260010966#Quay")
        #expect(try db.text("SELECT stop_name FROM stops WHERE stop_id = 'naptStop:260010966#Quay'") == "Netherley Road, stop N")
    }

    @Test("where no ids clash, a quay's stop_id is its own id")
    func quayKeepsItsID() throws {
        let (_, db, _) = try NeTExDataSetTests.build(["a.xml": NeTExDataSetTests.netex(NeTExDataSetTests.stopPlace(quays: ["Q1", "Q2"]))])
        #expect(try db.text("SELECT group_concat(stop_id, ' ') FROM (SELECT * FROM stops ORDER BY id)") == "SP1 Q1 Q2")
    }

    /// Two element types, and tables derived from them: `ids` (every A's and B's id: breaks
    /// its key where they share one), `named` (required name), `marks` (nested in `a`).
    static let schema = """
        name: derived
        schemaVersion: 1
        format: xml
        tables:
          - name: a
            element: A
            key: netex_id
            columns:
              - { name: netex_id, source: "@id", required: true }
              - { name: name, source: Name }
          - name: b
            element: B
            key: netex_id
            columns:
              - { name: netex_id, source: "@id", required: true }
          - name: ids
            key: object_id
            columns:
              - { name: object_id, required: true }
            derive:
              sql: SELECT netex_id AS object_id FROM a UNION ALL SELECT netex_id FROM b ORDER BY 1
          - name: named
            key: name
            columns:
              - { name: name, required: true }
            derive:
              sql: SELECT name FROM a ORDER BY netex_id
          - name: marks
            parent: a
            columns:
              - { name: mark }
            derive:
              sql: SELECT id + 100 AS a_ref, 'x' AS mark FROM a ORDER BY id
        """

    private func build(_ text: String, schema: String) -> [String] {
        let folder = TemporaryFolder()
        folder.write("in/in.xml", text)
        let schemaPath = folder.write("schema.yaml", schema)
        do {
            _ = try SeedBuilder.build([folder.file("in")], to: folder.file("seed.sqlite"), schema: schemaPath)
            return []
        } catch {
            // Places as the build names them, shown relative to the input folder.
            return error.issues.filter(\.kind.isError).map { $0.description.replacingOccurrences(of: folder.file("in") + "/", with: "") }
        }
    }

    /// `schema` with only the derived table `keep` of the three.
    private func schema(keeping keep: String) -> String {
        let parts = Self.schema.components(separatedBy: "  - name: ")
        return parts[0] + parts.dropFirst().filter { ["a\n", "b\n", keep + "\n"].contains(where: $0.hasPrefix) }.map { "  - name: " + $0 }.joined()
    }

    @Test("a recipe deriving one key from two element types sharing an id: an error naming both objects and their places")
    func derivedKeyTwice() {
        let issues = build("<r>\n<A id=\"x\"><Name>n</Name></A>\n<B id=\"x\"/>\n</r>\n", schema: schema(keeping: "ids"))
        #expect(issues == ["in.xml:2: object_id: 'x' is given to 2 rows by the recipe of 'ids' (schema derived), and the key of 'ids' must be unique; "
                           + "the objects with this id: A at in.xml:2, B at in.xml:3"], "\(issues)")
        #expect(!issues.joined().contains("SQLite") && !issues.joined().contains("constraint"))
        #expect(build("<r>\n<A id=\"x\"/>\n<B id=\"y\"/>\n</r>\n", schema: schema(keeping: "ids")).isEmpty)
    }

    @Test("a recipe leaving a required column NULL: an error showing the row, not SQLite's message")
    func derivedRequiredNull() {
        let issues = build("<r><A id=\"x\"/></r>", schema: schema(keeping: "named"))
        #expect(issues == ["derived table 'named': name: is NULL in a row the recipe of 'named' (schema derived) gives, and it is required (every column of the row is NULL)"],
                "\(issues)")
    }

    @Test("a recipe whose parent column names no row: an error naming the reference and the count")
    func derivedBrokenReference() {
        let issues = build("<r><A id=\"x\"/><A id=\"y\"/></r>", schema: schema(keeping: "marks"))
        #expect(issues == ["derived table 'marks': a_ref: '101' names no row of 'a', in 2 rows the recipe of 'marks' (schema derived) gives"], "\(issues)")
    }
}
