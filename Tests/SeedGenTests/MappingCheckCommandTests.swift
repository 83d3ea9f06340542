import Foundation
import SeedTestSupport
import Testing

/// Mapping mistakes that would otherwise pass silently: each is a warning naming the schema
/// file and line with the names the input uses, and an error under --strict.
@Suite("seedgen build: mapping mistakes")
struct MappingCheckCommandTests {
    static let netex = """
        <?xml version="1.0"?>
        <PublicationDelivery xmlns="http://www.netex.org.uk/netex" version="1.0">
          <dataObjects>
            <ServiceJourney id="SJ1"><Name>Morning</Name><TransportMode>bus</TransportMode></ServiceJourney>
            <ServiceJourney id="SJ2"><Name>Evening</Name><TransportMode>bus</TransportMode></ServiceJourney>
          </dataObjects>
        </PublicationDelivery>

        """

    static let schema = """
        name: netex-test
        schemaVersion: 1
        format: xml
        namespaces: { "": "http://www.netex.org.uk/netex" }
        tables:
          - name: service_journey
            element: ServiceJourney
            columns:
              - { name: journey_id, source: "@id" }
              - { name: name, source: Name }
              - { name: mode, source: TransportMode }

        """

    private func build(_ schema: String, strict: Bool = false, xml: String = Self.netex) throws -> (ChildProcess.Output, TemporaryFolder) {
        let scratch = TemporaryFolder()
        let input = scratch.write("in/netex.xml", xml)
        let schemaFile = scratch.write("netex.yaml", schema)
        let result = try SeedgenTool.run(["build", input, "--schema", schemaFile, "--out", scratch.file("out.sqlite")] + (strict ? ["--strict"] : []))
        return (result, scratch)
    }

    /// Builds `schema` once leniently (warning, exit 0, seed written) and once with --strict
    /// (the same text as an error, exit 1, nothing written); returns the warning line.
    private func expectMistake(_ schema: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (lenient, scratch) = try build(schema)
        #expect(lenient.status == 0, "\(lenient.stderr)", sourceLocation: sourceLocation)
        let output = lenient.stdout + lenient.stderr
        #expect(output.contains("warning: \(scratch.file("netex.yaml")):\(expected)"), "\(output)", sourceLocation: sourceLocation)
        #expect(!output.contains(" 0 warnings"), sourceLocation: sourceLocation)
        #expect(scratch.contents.contains("out.sqlite"), sourceLocation: sourceLocation)

        let (strict, strictScratch) = try build(schema, strict: true)
        #expect(strict.status == 1, sourceLocation: sourceLocation)
        #expect(strict.stderr.contains("error: \(strictScratch.file("netex.yaml")):\(expected)"), "\(strict.stderr)", sourceLocation: sourceLocation)
        #expect(strict.stderr.contains("no seed was written"), sourceLocation: sourceLocation)
        #expect(!strictScratch.contents.contains("out.sqlite"), sourceLocation: sourceLocation)
    }

    @Test("a correct mapping builds with 0 warnings, under --strict too")
    func clean() throws {
        let (result, _) = try build(Self.schema, strict: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(" 0 warnings"))
    }

    @Test("a misspelt element: the table has no rows; did you mean the element the input has")
    func misspeltElement() throws {
        try expectMistake(Self.schema.replacingOccurrences(of: "element: ServiceJourney", with: "element: ServiceJourny"),
                          "7:14: service_journey.element: 'ServiceJourny' matched nothing in any input; table 'service_journey' has no rows; did you mean 'ServiceJourney'?")
    }

    @Test("a namespace URI with the wrong case names the namespace the input uses")
    func namespaceCase() throws {
        try expectMistake(Self.schema.replacingOccurrences(of: "netex.org.uk/netex", with: "netex.org.uk/NeTEx"),
                          "7:14: service_journey.element: 'ServiceJourney' matched nothing in any input; table 'service_journey' has no rows; namespace 'http://www.netex.org.uk/NeTEx' not found; the input uses 'http://www.netex.org.uk/netex'")
    }

    @Test("a wrong source path: the column is NULL in every row; did you mean")
    func wrongSource() throws {
        try expectMistake(Self.schema.replacingOccurrences(of: "source: TransportMode", with: "source: TransportMod"),
                          "11:9: service_journey.mode: 'TransportMod' matched nothing in any input; the column is NULL in every row; did you mean 'TransportMode'?")
        try expectMistake(Self.schema.replacingOccurrences(of: "source: \"@id\"", with: "source: \"@ID\""),
                          "9:9: service_journey.journey_id: '@ID' matched nothing in any input; the column is NULL in every row; did you mean '@id'?")
    }

    @Test("a filter that drops every record: the table has no rows")
    func everythingFiltered() throws {
        let schema = Self.schema.replacingOccurrences(of: "    columns:", with: "    filter:\n      - { source: TransportMode, equals: [rail] }\n    columns:")
        try expectMistake(schema, "6:5: table 'service_journey': has no rows: all 2 records were filtered out")
        let misspelt = Self.schema.replacingOccurrences(of: "    columns:", with: "    filter:\n      - { source: TransportMde, present: true }\n    columns:")
        try expectMistake(misspelt, "6:5: table 'service_journey': has no rows: all 2 records were filtered out; did you mean 'TransportMode'?")
    }

    @Test("CSV: a misspelt header and a file with no records are reported; --strict fails")
    func csv() throws {
        let scratch = TemporaryFolder()
        scratch.write("feed/stops.txt", "stop_id,stop_name\nS1,Central\n")
        scratch.write("feed/routes.txt", "route_id\n")
        let schema = scratch.write("csv.yaml", """
            name: csv-test
            schemaVersion: 1
            tables:
              - name: stops
                columns:
                  - { name: stop_id }
                  - { name: stop_nmae }
              - name: routes
                columns:
                  - { name: route_id }

            """)
        let result = try SeedgenTool.run(["build", scratch.file("feed"), "--schema", schema, "--out", scratch.file("out.sqlite")])
        #expect(result.status == 0, "\(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(output.contains("\(schema):7:9: stops.stop_nmae: 'stop_nmae' matches no header of stops.txt; the column is NULL in every row; did you mean 'stop_name'?"), "\(output)")
        #expect(output.contains("\(schema):8:5: table 'routes': 'routes.txt' has no rows: the file has no records"), "\(output)")
        let strict = try SeedgenTool.run(["build", scratch.file("feed"), "--schema", schema, "--out", scratch.file("strict.sqlite"), "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("2 errors; no seed was written"), "\(strict.stderr)")
        #expect(!scratch.contents.contains("strict.sqlite"))
    }
}
