import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// NeTEx and TransXChange inputs are recognised from their root element; `element` lists
/// alternatives.
@Suite("Built-in NeTEx and TransXChange schemas")
struct BuiltInTransitSchemaTests {
    @Test("the root element is read past the declaration, comments and DOCTYPE, with its namespace")
    func rootElement() {
        let text = """
            <?xml version="1.0"?>
            <!-- a comment with <Fake> inside -->
            <!DOCTYPE x>
            <n:PublicationDelivery version='1' xmlns="urn:other" xmlns:n = "http://www.netex.org.uk/netex">
            """
        #expect(XMLRootElement.parse(Array(text.utf8)) == XMLRootElement(localName: "PublicationDelivery", namespace: "http://www.netex.org.uk/netex"))
        #expect(XMLRootElement.parse(Array("<TransXChange xmlns=\"http://www.transxchange.org.uk/\">".utf8))
                == XMLRootElement(localName: "TransXChange", namespace: "http://www.transxchange.org.uk/"))
        #expect(XMLRootElement.parse(Array("<root/>".utf8)) == XMLRootElement(localName: "root", namespace: nil))
        #expect(XMLRootElement.parse(Array("not xml".utf8)) == nil)
    }

    static let netex = """
        <?xml version="1.0"?>
        <PublicationDelivery xmlns="http://www.netex.org.uk/netex"><dataObjects><CompositeFrame><frames><ServiceFrame>
        <routes><Route id="R1"><LineRef ref="L1"/></Route></routes>
        <lines><Line id="L1"><Name>One</Name></Line></lines>
        </ServiceFrame></frames></CompositeFrame></dataObjects></PublicationDelivery>
        """

    @Test("a NeTEx PublicationDelivery builds with the netex schema and no --schema")
    func netexRecognised() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/export.xml", Self.netex)
        let output = folder.file("seed.sqlite")
        let summary = try SeedBuilder.build([input], to: output)
        #expect(summary.schemaName == "netex")
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("SELECT l.name FROM route r JOIN line l ON l.id = r.line_ref") == "One")
    }

    @Test("a namespace that is not NeTEx's is not taken for NeTEx")
    func netexNamespaceChecked() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/export.xml", Self.netex.replacingOccurrences(of: "http://www.netex.org.uk/netex", with: "urn:not-netex"))
        #expect(throws: BuildError.self) { try SeedBuilder.build([input], to: folder.file("seed.sqlite")) }
    }

    @Test("a TransXChange file builds with the transxchange schema, its ids scoped to the file")
    func transXChangeRecognised() throws {
        let folder = TemporaryFolder()
        let document = """
            <TransXChange xmlns="http://www.transxchange.org.uk/">
            <StopPoints><AnnotatedStopPointRef><StopPointRef>A</StopPointRef><CommonName>Stop A</CommonName></AnnotatedStopPointRef>
            <StopPoint><AtcoCode>B</AtcoCode><Descriptor><CommonName>Stop B</CommonName></Descriptor></StopPoint></StopPoints>
            <JourneyPatternSections><JourneyPatternSection id="JPS1"><JourneyPatternTimingLink id="L1">
            <From SequenceNumber="1"><StopPointRef>A</StopPointRef></From><To SequenceNumber="2"><StopPointRef>B</StopPointRef></To>
            <RunTime>PT1M18S</RunTime></JourneyPatternTimingLink></JourneyPatternSection></JourneyPatternSections>
            </TransXChange>
            """
        folder.write("in/one.xml", document)
        folder.write("in/two.xml", document)
        let output = folder.file("seed.sqlite")
        let summary = try SeedBuilder.build([folder.file("in")], to: output)
        #expect(summary.schemaName == "transxchange")
        let db = try Connection(path: output, mode: .readOnly)
        // Both kinds of stop elements are stop points (element alternatives).
        #expect(try db.text("SELECT group_concat(file || ':' || atco_code || '=' || common_name, ' ') FROM stop_point ORDER BY id")
                == "one.xml:A=Stop A one.xml:B=Stop B two.xml:A=Stop A two.xml:B=Stop B")
        #expect(try db.int("""
            SELECT count(*) FROM journey_pattern_timing_link l
            JOIN stop_point f ON f.id = l.from_stop_point_ref JOIN stop_point t ON t.id = l.to_stop_point_ref
            WHERE f.file = l.file AND t.file = l.file AND f.atco_code = 'A' AND t.atco_code = 'B'
            """) == 2)
    }
}
