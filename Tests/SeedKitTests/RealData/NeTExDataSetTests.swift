import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// NeTEx and TransXChange as producers publish them: an export's files are one data set
/// (repeated objects merged, versions, conflicts), optional ids, times with zones, objects
/// no table reads reported, and `--lenient` leaving no dangling foreign key.
@Suite("NeTEx and TransXChange data sets")
struct NeTExDataSetTests {
    /// A NeTEx document holding `members` in a general frame.
    static func netex(_ members: String) -> String {
        """
        <PublicationDelivery xmlns="http://www.netex.org.uk/netex" version="1.0"><dataObjects>
        <GeneralFrame id="F" version="1"><members>
        \(members)
        </members></GeneralFrame></dataObjects></PublicationDelivery>
        """
    }

    static func stopPlace(version: String = "1", name: String = "Central", quays: [String] = ["Q1"]) -> String {
        "<StopPlace id=\"SP1\" version=\"\(version)\"><Name>\(name)</Name><quays>"
            + quays.map { "<Quay id=\"\($0)\" version=\"1\"><Name>\($0)</Name></Quay>" }.joined() + "</quays></StopPlace>"
    }

    static func journey(version: String = "1", name: String = "J", times: [String]) -> String {
        "<ServiceJourney id=\"SJ1\" version=\"\(version)\"><Name>\(name)</Name><passingTimes>"
            + times.map { "<TimetabledPassingTime><DepartureTime>\($0)</DepartureTime></TimetabledPassingTime>" }.joined()
            + "</passingTimes></ServiceJourney>"
    }

    static func build(_ files: [String: String], lenient: Bool = false) throws(BuildError) -> (BuildSummary, Connection, TemporaryFolder) {
        let folder = TemporaryFolder()
        for (name, text) in files { folder.write("in/\(name)", text) }
        let output = folder.file("seed.sqlite")
        let summary = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: output, lenient: lenient)).build()
        let db: Connection
        do { db = try Connection(path: output, mode: .readOnly) } catch { throw .output(path: output, message: "\(error)") }
        return (summary, db, folder)
    }

    @Test("an object repeated in every file of an export is one row, its nested objects merged one by one")
    func copiesMerge() throws {
        let (summary, db, _) = try Self.build([
            "a.xml": Self.netex(Self.stopPlace(quays: ["Q1", "Q2"])),
            "b.xml": Self.netex(Self.stopPlace(quays: ["Q1", "Q3"])),
        ])
        #expect(!summary.warningReport.contains("version"), "\(summary.warningReport)")
        #expect(try db.int("SELECT count(*) FROM stop_place") == 1)
        // Each file lists the quays its lines use: all three belong to the one stop place.
        #expect(try db.text("SELECT group_concat(q.netex_id, ' ') FROM quay q JOIN stop_place s ON s.id = q.stop_place_ref ORDER BY q.id") == "Q1 Q2 Q3")
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("another version of an object: the highest is kept, with a warning naming both places")
    func highestVersionWins() throws {
        let (summary, db, _) = try Self.build([
            "a.xml": Self.netex(Self.journey(version: "2", name: "new", times: ["07:00:00", "07:10:00"])),
            "b.xml": Self.netex(Self.journey(version: "1", name: "old", times: ["06:00:00"])),
            "c.xml": Self.netex(Self.journey(version: "3", name: "newest", times: ["08:00:00", "08:20:00", "08:30:00"])),
        ])
        #expect(try db.text("SELECT name || ' ' || version FROM service_journey") == "newest 3")
        // The passing times are those of the version kept, under the row's id.
        #expect(try db.text("SELECT group_concat(departure_time, ' ') FROM (SELECT departure_time FROM timetabled_passing_time ORDER BY position)") == "28800 30000 30600")
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time t JOIN service_journey j ON j.id = t.service_journey_ref") == 3)
        #expect(summary.warningReport.contains("service_journey 'SJ1' has version '1' here and '2' at "), "\(summary.warningReport)")
        #expect(summary.warningReport.contains("b.xml:"))
        #expect(summary.warningReport.contains("the highest, '3', is kept"))
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("two objects of one document sharing an id and version are an error naming both places; --lenient keeps the first and its nested rows only")
    func conflictingObjects() throws {
        let files = ["a.xml": Self.netex(Self.journey(name: "Saturday", times: ["07:00:00"]) + "\n" + Self.journey(name: "Sunday", times: ["09:00:00", "09:30:00"]))]
        do {
            _ = try Self.build(files)
            Issue.record("a conflict must fail the build")
        } catch {
            let text = error.issues.map(\.description).joined(separator: "\n")
            #expect(text.contains("a.xml:4:"), "\(text)")
            #expect(text.contains("'name' is 'Sunday' here and 'Saturday' in the row at "), "\(text)")
            #expect(text.contains("two objects of one document share the id"), "\(text)")
        }
        let (summary, db, _) = try Self.build(files, lenient: true)
        #expect(try db.text("SELECT name FROM service_journey") == "Saturday")
        #expect(try db.text("SELECT group_concat(departure_time, ' ') FROM timetabled_passing_time") == "25200")
        #expect(summary.rejected["timetabled_passing_time"] == 2)
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    /// A line `r1` and a journey on it, in one document.
    static func lineAndJourney(line: String = "r1", name: String, journey: String) -> String {
        "<ServiceJourney id=\"\(journey)\" version=\"1\"><LineRef ref=\"\(line)\"/></ServiceJourney>\n<Line id=\"\(line)\" version=\"1\"><Name>\(name)</Name></Line>"
    }

    @Test("the same id with other values in two documents: two objects, each document's references naming its own, distinct derived ids")
    func sameIDInTwoDocuments() throws {
        // Two complete exports (UK fares: each PublicationDelivery uses the local id r1).
        let (summary, db, _) = try Self.build([
            "a.xml": Self.netex(Self.lineAndJourney(name: "Line A", journey: "SJA")),
            "b.xml": Self.netex(Self.lineAndJourney(name: "Line B", journey: "SJB")),
        ])
        #expect(summary.warningReport.contains("table 'line': netex_id: 'r1' names objects of other values in several files: ids are unique per document, so each file's object is its own"),
                "\(summary.warningReport)")
        #expect(try db.int("SELECT count(*) FROM line WHERE netex_id = 'r1'") == 2)
        #expect(try db.text("SELECT group_concat(j.netex_id || ' ' || l.name, '; ') FROM (SELECT * FROM service_journey ORDER BY netex_id) j JOIN line l ON l.id = j.line_ref")
                == "SJA Line A; SJB Line B")
        // Derived ids: the first object keeps the id, the second of that id in reading order gets '#2'.
        #expect(try db.text("SELECT group_concat(route_id || ' ' || route_long_name, '; ') FROM (SELECT * FROM routes ORDER BY route_id)") == "r1 Line A; r1#2 Line B")
        #expect(try db.text("SELECT group_concat(t.trip_id || ' ' || r.route_id, '; ') FROM (SELECT * FROM trips ORDER BY trip_id) t JOIN routes r ON r.id = t.route_ref")
                == "SJA r1; SJB r1#2")
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("a reference from a third document that two documents' objects answer: an error naming both files; --lenient names the first")
    func referenceTwoDocumentsAnswer() throws {
        let files = [
            "a.xml": Self.netex(Self.lineAndJourney(name: "Line A", journey: "SJA")),
            "b.xml": Self.netex(Self.lineAndJourney(name: "Line B", journey: "SJB")),
            "c.xml": Self.netex("<ServiceJourney id=\"SJC\" version=\"1\"><LineRef ref=\"r1\"/></ServiceJourney>"),
        ]
        let (summary, db, _) = try Self.build(files, lenient: true)
        #expect(try db.text("SELECT l.name FROM service_journey j JOIN line l ON l.id = j.line_ref WHERE j.netex_id = 'SJC'") == "Line A")
        #expect(summary.warningReport.contains("/b.xml, and none in its own: ids are unique per document"), "\(summary.warningReport)")
        #expect(summary.warningReport.contains("; the first, in "), "\(summary.warningReport)")
        do {
            _ = try Self.build(files)
            Issue.record("a reference two documents answer must fail the build")
        } catch {
            let text = error.issues.filter(\.kind.isError).map(\.description).joined(separator: "\n")
            #expect(text.contains("c.xml:3: LineRef/@ref: 'r1' names an object of 'line' in two other files, "), "\(text)")
            #expect(text.contains("/a.xml and ") && text.contains("/b.xml, and none in its own"), "\(text)")
            #expect(error.issues.filter(\.kind.isError).count == 1, "\(text)")
        }
    }

    @Test("the same id with the same values in two documents: one object, which both documents' references name")
    func sameObjectInTwoDocuments() throws {
        let line = "<Line id=\"r1\" version=\"1\"><Name>Shared</Name></Line>"
        let (_, db, _) = try Self.build([
            "a.xml": Self.netex("<ServiceJourney id=\"SJA\" version=\"1\"><LineRef ref=\"r1\"/></ServiceJourney>" + line),
            "b.xml": Self.netex(line + "<ServiceJourney id=\"SJB\" version=\"1\"><LineRef ref=\"r1\"/></ServiceJourney>"),
            "c.xml": Self.netex("<ServiceJourney id=\"SJC\" version=\"1\"><LineRef ref=\"r1\"/></ServiceJourney>"),
        ])
        #expect(try db.int("SELECT count(*) FROM line") == 1)
        #expect(try db.int("SELECT count(DISTINCT line_ref) FROM service_journey") == 1)
        #expect(try db.int("SELECT count(*) FROM service_journey WHERE line_ref IS NULL") == 0)
        #expect(try db.text("SELECT group_concat(route_id, ' ') FROM routes") == "r1")
    }

    @Test("another version of a pattern in a later document: its points replace the earlier version's")
    func patternVersionInLaterDocument() throws {
        func pattern(_ version: String, _ points: [String]) -> String {
            "<ServiceJourneyPattern id=\"JP1\" version=\"\(version)\"><pointsInSequence>"
                + points.enumerated().map { "<StopPointInJourneyPattern id=\"\($1)\" order=\"\($0 + 1)\" version=\"1\"><ScheduledStopPointRef ref=\"S\($1)\"/></StopPointInJourneyPattern>" }.joined()
                + "</pointsInSequence></ServiceJourneyPattern>"
        }
        let (_, db, _) = try Self.build(["a.xml": Self.netex(pattern("1", ["P1", "P2"])), "b.xml": Self.netex(pattern("2", ["P1", "P3"]))])
        #expect(try db.text("SELECT version FROM journey_pattern") == "2")
        #expect(try db.text("SELECT group_concat(netex_id, ' ') FROM (SELECT * FROM stop_point_in_journey_pattern ORDER BY order_number)") == "P1 P3")
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("the same values but other nested rows in another document: an object of its own, which that document's journeys run")
    func copyWithOtherNestedRows() throws {
        func demand(_ runTime: String) -> String {
            "<TimeDemandType id=\"T1\" version=\"1\"><runTimes><JourneyRunTime id=\"R\" version=\"1\"><TimingLinkRef ref=\"L\"/><RunTime>\(runTime)</RunTime></JourneyRunTime></runTimes></TimeDemandType>"
        }
        let (_, db, _) = try Self.build([
            "a.xml": Self.netex(demand("PT2M") + "<ServiceJourney id=\"SJA\" version=\"1\"><TimeDemandTypeRef ref=\"T1\"/></ServiceJourney>"),
            "b.xml": Self.netex(demand("PT7M") + "<ServiceJourney id=\"SJB\" version=\"1\"><TimeDemandTypeRef ref=\"T1\"/></ServiceJourney>"),
        ])
        #expect(try db.int("SELECT count(*) FROM time_demand_type") == 2)
        #expect(try db.text("""
            SELECT group_concat(j.netex_id || ' ' || r.run_time, '; ') FROM (SELECT * FROM service_journey ORDER BY netex_id) j
            JOIN journey_run_time r ON r.time_demand_type_ref = j.time_demand_type_ref
            """) == "SJA 120; SJB 420")
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("--lenient: rows nested in a row left out for a bad value go with it")
    func lenientLeavesNoOrphans() throws {
        let document = Self.netex("<ServiceJourney version=\"1\"><passingTimes><TimetabledPassingTime><DepartureTime>07:00:00</DepartureTime></TimetabledPassingTime></passingTimes></ServiceJourney>")
        let (summary, db, _) = try Self.build(["a.xml": document], lenient: true)
        #expect(try db.int("SELECT count(*) FROM service_journey") == 0)
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time") == 0)
        #expect(summary.rejected["timetabled_passing_time"] == 1)
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("times with a zone keep the local time of day and the offset; passing times need no id")
    func timesWithZones() throws {
        let (_, db, _) = try Self.build(["a.xml": Self.netex(Self.journey(times: ["06:00:00+02:00", "06:54:00Z", "07:00:00.5"]))])
        #expect(try db.text("SELECT group_concat(departure_time_of_day || '/' || ifnull(departure_utc_offset, '-'), ' ') FROM timetabled_passing_time")
                == "21600/7200 24840/0 25200/-")
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time WHERE netex_id IS NULL") == 3)
    }

    @Test("a UIC operating period's valid-day bits are its days")
    func validDayBits() throws {
        let (_, db, _) = try Self.build(["a.xml": Self.netex("""
            <UicOperatingPeriod id="P" version="1"><FromDate>2024-02-28T00:00:00</FromDate><ValidDayBits>1101</ValidDayBits></UicOperatingPeriod>
            <DayTypeAssignment id="A" order="1" version="1"><UicOperatingPeriodRef ref="P"/></DayTypeAssignment>
            <DayTypeAssignment id="A" order="2" version="1"><Date>2024-03-05</Date></DayTypeAssignment>
            """)])
        #expect(try db.text("SELECT group_concat(date, ' ') FROM (SELECT date FROM operating_period_day ORDER BY id)") == "2024-02-28 2024-02-29 2024-03-02")
        #expect(try db.int("SELECT count(*) FROM operating_period_day d JOIN operating_period p ON p.id = d.operating_period_ref") == 3)
        // Assignments sharing an id are told apart by their order.
        #expect(try db.int("SELECT count(*) FROM day_type_assignment") == 2)
        #expect(try db.int("SELECT count(*) FROM day_type_assignment WHERE operating_period_ref IS NOT NULL") == 1)
    }

    @Test("dated service journeys, flexible lines and quays outside stop places are read; other objects are reported")
    func coverage() throws {
        let (summary, db, _) = try Self.build(["a.xml": Self.netex("""
            <Quay id="Q9" version="1"><Name>Loose</Name></Quay>
            <FlexibleLine id="L1" version="1"><Name>Flex</Name><FlexibleLineType>flexibleAreasOnly</FlexibleLineType></FlexibleLine>
            <ServiceJourney id="SJ1" version="1"><FlexibleLineRef ref="L1"/></ServiceJourney>
            <OperatingDay id="D1" version="1"><CalendarDate>2024-03-01</CalendarDate></OperatingDay>
            <DatedServiceJourney id="DSJ1" version="1"><ServiceJourneyRef ref="SJ1"/><OperatingDayRef ref="D1"/>
            <passingTimes><TimetabledPassingTime><DepartureTime>10:00:00</DepartureTime></TimetabledPassingTime></passingTimes></DatedServiceJourney>
            <Notice id="N1" version="1"/><Notice id="N2" version="1"/>
            """)])
        #expect(try db.text("SELECT name FROM quay WHERE stop_place_ref IS NULL") == "Loose")
        #expect(try db.text("SELECT l.flexible_line_type FROM service_journey j JOIN line l ON l.id = j.line_ref") == "flexibleAreasOnly")
        #expect(try db.text("""
            SELECT s.netex_id || ' ' || d.calendar_date FROM service_journey j JOIN service_journey s ON s.id = j.service_journey_ref
            JOIN operating_day d ON d.id = j.operating_day_ref WHERE j.netex_id = 'DSJ1'
            """) == "SJ1 2024-03-01")
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time t JOIN service_journey j ON j.id = t.service_journey_ref WHERE j.netex_id = 'DSJ1'") == 1)
        #expect(summary.warningReport.contains("a.xml: Notice: 2 objects not read: no table of schema 'netex' reads them"), "\(summary.warningReport)")
        #expect(!summary.warningReport.contains("GeneralFrame"), "a frame holds records: it is read")
    }

    static func txc(operators: String, stops: String = "<AnnotatedStopPointRef><StopPointRef>A</StopPointRef></AnnotatedStopPointRef>") -> String {
        """
        <TransXChange xmlns="http://www.transxchange.org.uk/">
        <StopPoints>\(stops)</StopPoints>
        <JourneyPatternSections><JourneyPatternSection id="JPS1"><JourneyPatternTimingLink id="L1">
        <From><StopPointRef>A</StopPointRef></From><To><StopPointRef>1800NE43431</StopPointRef></To>
        <RunTime>PT2M</RunTime></JourneyPatternTimingLink></JourneyPatternSection></JourneyPatternSections>
        <Operators>\(operators)</Operators>
        <Services><Service><ServiceCode>S1</ServiceCode><RegisteredOperatorRef>1</RegisteredOperatorRef></Service></Services>
        </TransXChange>
        """
    }

    @Test("TransXChange: a licensed operator is an operator; a stop the file does not list is kept with one warning")
    func transXChange() throws {
        let (summary, db, _) = try Self.build(["r.xml": Self.txc(operators: "<LicensedOperator id=\"1\"><OperatorCode>STA</OperatorCode><LicenceNumber>PD1</LicenceNumber></LicensedOperator>")])
        #expect(try db.text("SELECT o.operator_code || ' ' || o.licence_number FROM service s JOIN operator o ON o.id = s.operator_ref") == "STA PD1")
        #expect(try db.text("SELECT to_stop_point_code FROM journey_pattern_timing_link WHERE to_stop_point_ref IS NULL") == "1800NE43431")
        #expect(summary.warningReport.contains("'1800NE43431' names no row of 'stop_point' in any input (an object outside the input)"), "\(summary.warningReport)")
        #expect(!summary.warningReport.contains("r.xml,"), "the file is not shown as part of the key")
    }

    @Test("TransXChange: a reference naming nothing names its element and its value, not the file scope")
    func transXChangeMessage() throws {
        do {
            _ = try Self.build(["r.xml": Self.txc(operators: "<Operator id=\"7\"/>")])
            Issue.record("the build must fail")
        } catch {
            let text = error.issues.map(\.description).joined(separator: "\n")
            #expect(text.contains("Services/Service/RegisteredOperatorRef: '1' names no row of 'operator'"), "\(text)")
            #expect(!text.contains("$file") && !text.contains("r.xml,1"), "\(text)")
        }
    }

    @Test("two versions of a route in two files, each naming a line further on: the newer version's line, no internal error")
    func versionsNamingLinesFurtherOn() throws {
        // A Dutch export of two files failed with "UNIQUE constraint failed:
        // seedgen_pending_route_line_ref.row": both versions' keys were kept under one row.
        let folder = TemporaryFolder()
        let output = folder.file("seed.sqlite")
        let summary = try SeedBuilder.build([Repository.path("Tests/Fixtures/xml/netex-two-versions")], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("""
            SELECT group_concat(r.netex_id || ' v' || r.version || ' ' || l.netex_id, '; ')
            FROM (SELECT * FROM route ORDER BY netex_id) r JOIN line l ON l.id = r.line_ref
            """) == "NL:Route:1 v2 NL:Line:1; NL:Route:2 v2 NL:Line:2")
        #expect(summary.warningReport.contains("the highest, '2', is kept"), "\(summary.warningReport)")
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("SQLite refusing a statement of seedgen's own: the message names the input, never an internal table")
    func internalFailureMessage() {
        let error = SQLiteError(.constraintUnique, message: "UNIQUE constraint failed: seedgen_pending_route_line_ref.row",
                                sql: "INSERT INTO temp.\"seedgen_pending_route_line_ref\" VALUES (?, ?, ?, ?, ?)")
        let failure = InternalFailure(file: "nl/b.xml", line: 8, column: 13, element: "Route", key: "NL:Route:1", error: error)
        let text = failure.buildError.description
        #expect(text.hasPrefix("error: nl/b.xml:8:13: Route 'NL:Route:1': seedgen could not store this object (SQLite error 2067, constraint failed)"), "\(text)")
        #expect(!text.contains("seedgen_"), "\(text)")
        #expect(failure.buildError.code == .internalFailure)
    }

    static let txcJourneyRefs = Repository.path("Tests/Fixtures/xml/txc-journey-refs")

    @Test("TransXChange: a journey naming another by VehicleJourneyRef runs its pattern and timing links, through chains")
    func vehicleJourneyRef() throws {
        let folder = TemporaryFolder()
        let output = folder.file("seed.sqlite")
        _ = try SeedBuilder.build([Self.txcJourneyRefs], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        // VJ2 names VJ1, VJ3 names VJ2: both run JP1, each at its own departure time.
        #expect(try db.text("""
            SELECT group_concat(v.vehicle_journey_code || ' ' || coalesce(r.vehicle_journey_code, '-') || ' ' || p.txc_id || ' ' || v.departure_time, '; ')
            FROM vehicle_journey v LEFT JOIN vehicle_journey r ON r.id = v.runs_vehicle_journey_ref
            JOIN journey_pattern p ON p.id = v.runs_journey_pattern_ref ORDER BY v.id
            """) == "VJ1 - JP1 25200; VJ2 VJ1 JP1 27000; VJ3 VJ2 JP1 28800")
        // As read: only VJ1 names a pattern.
        #expect(try db.int("SELECT count(*) FROM vehicle_journey WHERE journey_pattern_ref IS NOT NULL") == 1)
        // The times of VJ3 follow from its pattern's timing links.
        #expect(try db.text("""
            SELECT group_concat(t, ' ') FROM (
              SELECT v.departure_time + sum(l.run_time) OVER (ORDER BY l.position) AS t
              FROM vehicle_journey v JOIN journey_pattern p ON p.id = v.runs_journey_pattern_ref
              JOIN journey_pattern_timing_link l ON l.journey_pattern_section_ref = p.journey_pattern_section_ref
              WHERE v.vehicle_journey_code = 'VJ3' ORDER BY l.position)
            """) == "28980 29220")
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("TransXChange: a VehicleJourneyRef naming no journey of its file is an error naming the element and the code")
    func vehicleJourneyRefNamingNothing() throws {
        let text = try String(contentsOfFile: Self.txcJourneyRefs + "/journeys.xml", encoding: .utf8)
            .replacingOccurrences(of: "<VehicleJourneyRef>VJ2", with: "<VehicleJourneyRef>VJ9")
        do {
            _ = try Self.build(["r.xml": text])
            Issue.record("the build must fail")
        } catch {
            let messages = error.issues.map(\.description).joined(separator: "\n")
            #expect(messages.contains("VehicleJourney/VehicleJourneyRef: 'VJ9' names no row of 'vehicle_journey'"), "\(messages)")
        }
    }

    @Test("siblings the XSD keys by id, version and order, given one id: every one kept, in order, for each such type")
    func orderedSiblings() throws {
        let folder = TemporaryFolder()
        let output = folder.file("seed.sqlite")
        let summary = try SeedBuilder.build([Repository.path("Tests/Fixtures/xml/netex-ordered-siblings")], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        // StopPointInJourneyPattern_UniqueBy_Id_Version_Order: the UK profile's points in sequence.
        #expect(try db.text("""
            SELECT group_concat(p.order_number || ':' || s.name, ' ') FROM (SELECT * FROM stop_point_in_journey_pattern ORDER BY order_number) p
            JOIN scheduled_stop_point s ON s.id = p.scheduled_stop_point_ref
            JOIN journey_pattern j ON j.id = p.journey_pattern_ref WHERE p.netex_id = 'stg:JourneyPattern@1'
            """) == "1:A 2:B 3:C")
        // PassengerStopAssignment_UniqueBy_Id_Version_Order: one id, two quays.
        #expect(try db.text("""
            SELECT group_concat(a.order_number || ':' || q.name, ' ') FROM (SELECT * FROM passenger_stop_assignment ORDER BY order_number) a
            JOIN quay q ON q.id = a.quay_ref WHERE a.netex_id = 'IT:PSA:1'
            """) == "117:Binario 1 118:Binario 2")
        // DayTypeAssignment_UniqueBy_Id_Version_Order: one id, two dates.
        #expect(try db.text("SELECT group_concat(order_number || ':' || date, ' ') FROM (SELECT * FROM day_type_assignment ORDER BY order_number)")
                == "1:2024-03-04 2:2024-03-05")
        // A passing time names a point by its id alone: the first, with one warning.
        #expect(try db.int("SELECT p.order_number FROM timetabled_passing_time t JOIN stop_point_in_journey_pattern p ON p.id = t.stop_point_in_journey_pattern_ref") == 1)
        #expect(summary.warningReport.contains("names several rows of 'stop_point_in_journey_pattern', told apart by order_number"), "\(summary.warningReport)")
        #expect(!summary.warningReport.contains("objects not read"), "\(summary.warningReport)")
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("siblings repeating id, version and order with other values break the XSD key: an error naming both places; --lenient keeps the first")
    func orderedSiblingsBreakingTheKey() throws {
        let points = """
            <JourneyPattern id="JP1" version="1"><pointsInSequence>
            <StopPointInJourneyPattern id="P" version="1" order="1"><ScheduledStopPointRef ref="A"/></StopPointInJourneyPattern>
            <StopPointInJourneyPattern id="P" version="1" order="2"><ScheduledStopPointRef ref="B"/></StopPointInJourneyPattern>
            <StopPointInJourneyPattern id="P" version="1" order="2"><ScheduledStopPointRef ref="C"/></StopPointInJourneyPattern>
            </pointsInSequence></JourneyPattern>
            """
        do {
            _ = try Self.build(["a.xml": Self.netex(points)])
            Issue.record("the build must fail")
        } catch {
            let text = error.issues.map(\.description).joined(separator: "\n")
            #expect(text.contains("netex_id+order_number"), "\(text)")
            #expect(text.contains("'P'") || text.contains("P,2"), "\(text)")
        }
        let (_, db, _) = try Self.build(["a.xml": Self.netex(points)], lenient: true)
        #expect(try db.text("SELECT group_concat(order_number || scheduled_stop_point_id, ' ') FROM (SELECT * FROM stop_point_in_journey_pattern ORDER BY id)") == "1A 2B")
    }

    @Test("a dropped parent and its children: the parent is named, outermost first, with what it holds")
    func unreadParentNamed() throws {
        let (summary, db, _) = try Self.build(["a.xml": Self.netex("""
            <ServiceJourney id="SJ1" version="1"><passingTimes><TimetabledPassingTime><DepartureTime>07:00:00</DepartureTime></TimetabledPassingTime></passingTimes></ServiceJourney>
            <TemplateServiceJourney id="TSJ1" version="1"><passingTimes>
            <TimetabledPassingTime id="T1" version="1"><DepartureTime>08:00:00</DepartureTime></TimetabledPassingTime>
            <TimetabledPassingTime id="T2" version="1"><DepartureTime>08:10:00</DepartureTime></TimetabledPassingTime>
            </passingTimes></TemplateServiceJourney>
            <Block id="B1" version="1"><blockParts><BlockPart id="BP1" version="1"/><BlockPart id="BP2" version="1"/></blockParts></Block>
            <Block id="B2" version="1"><blockParts><BlockPart id="BP3" version="1"/></blockParts></Block>
            <DeadRun id="DR1" version="1"/>
            """)])
        let report = summary.warningReport
        #expect(report.contains("a.xml: Block: 2 objects not read, with 3 objects inside them (BlockPart: 3)"), "\(report)")
        #expect(report.contains("a.xml: TemplateServiceJourney: 1 object not read, with 2 objects inside it (TimetabledPassingTime: 2)"), "\(report)")
        #expect(report.contains("a.xml: DeadRun: 1 object not read: no table"), "\(report)")
        #expect(!report.contains("BlockPart: 3 objects not read") && !report.contains("GeneralFrame"), "\(report)")
        // The template's passing times are not the journey's.
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time") == 1)
    }

    @Test("TransXChange route links keep their tracks, in order: latitude and longitude, or easting and northing")
    func routeLinkTracks() throws {
        let folder = TemporaryFolder()
        let output = folder.file("seed.sqlite")
        let summary = try SeedBuilder.build([Self.txcJourneyRefs], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("""
            SELECT group_concat(l.txc_id || ':' || coalesce(c.latitude || ',' || c.longitude, c.easting || ',' || c.northing), ' ')
            FROM (SELECT * FROM route_link_location ORDER BY route_link_ref, position) c JOIN route_link l ON l.id = c.route_link_ref
            """) == "RL1:51.449,-2.581 RL1:51.447,-2.585 RL1:51.445,-2.59 RL2:358900.0,171800.0 RL2:358700.0,171500.0")
        // A timing link names the route link whose track it follows.
        #expect(try db.text("""
            SELECT group_concat(t.txc_id || '>' || l.txc_id, ' ') FROM journey_pattern_timing_link t JOIN route_link l ON l.id = t.route_link_ref
            """) == "JPTL1>RL1 JPTL2>RL2")
        #expect(!summary.warningReport.contains("RouteLink") && !summary.warningReport.contains("Location"), "\(summary.warningReport)")
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("NeTEx links keep their line in order: gml:pos or gml:posList, on the link or in its projection")
    func linkGeometry() throws {
        let (summary, db, _) = try Self.build(["a.xml": """
            <PublicationDelivery xmlns="http://www.netex.org.uk/netex" xmlns:gml="http://www.opengis.net/gml/3.2" version="1.0"><dataObjects>
            <GeneralFrame id="F" version="1"><members>
            <ServiceLink id="SL1" version="1"><gml:LineString gml:id="L1"><gml:pos>60.1 7.1</gml:pos><gml:pos>60.2 7.2</gml:pos></gml:LineString></ServiceLink>
            <ServiceLink id="SL2" version="1"><projections><LinkSequenceProjection id="P2" version="1"><gml:LineString gml:id="L2">
              <gml:posList>60.3 7.3
                60.4 7.4</gml:posList></gml:LineString></LinkSequenceProjection></projections></ServiceLink>
            <RouteLink id="RL2" version="1"><gml:LineString gml:id="L4"><gml:posList>53.4 9.4 53.5 9.5</gml:posList></gml:LineString></RouteLink>
            <RouteLink id="RL1" version="1"><projections><LinkSequenceProjection id="P3" version="1"><gml:LineString gml:id="L3">
              <gml:pos>53.1 9.1</gml:pos><gml:pos>53.2 9.2</gml:pos><gml:pos>53.3 9.3</gml:pos></gml:LineString></LinkSequenceProjection></projections></RouteLink>
            </members></GeneralFrame></dataObjects></PublicationDelivery>
            """])
        #expect(try db.text("SELECT group_concat(pos, ';') FROM (SELECT pos FROM service_link_position ORDER BY service_link_ref, position)") == "60.1 7.1;60.2 7.2")
        #expect(try db.text("SELECT group_concat(value, ' ') FROM (SELECT value FROM service_link_coordinate ORDER BY service_link_ref, position)") == "60.3 7.3 60.4 7.4")
        #expect(try db.text("SELECT group_concat(pos, ';') FROM (SELECT pos FROM route_link_position ORDER BY route_link_ref, position)") == "53.1 9.1;53.2 9.2;53.3 9.3")
        #expect(try db.text("SELECT group_concat(value, ' ') FROM (SELECT value FROM route_link_coordinate ORDER BY position)") == "53.4 9.4 53.5 9.5")
        #expect(!summary.warningReport.contains("not read"), "\(summary.warningReport)")
    }
}
