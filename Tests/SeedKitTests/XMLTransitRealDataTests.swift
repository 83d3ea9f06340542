import Foundation
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// The real NeTEx and TransXChange samples (`RealData`, `xml-transit`) build with no
/// `--schema`: the built-in schemas are recognised from the root element, every reference
/// whose target is in the input resolves, row counts equal an independent count of the
/// elements (Foundation's XMLParser), and the seed's bytes are deterministic.
@Suite("XML transit real data", .realData(XMLTransitData.nordicData, XMLTransitData.somersetData, XMLTransitData.swissData))
struct XMLTransitRealDataTests {
    static let netexNamespace = "http://www.netex.org.uk/netex"
    static let netexElements: [String: [[String]]] = [
        "operator": [["Operator"]], "stop_place": [["StopPlace"]], "quay": [["Quay"]],
        "scheduled_stop_point": [["ScheduledStopPoint"]], "passenger_stop_assignment": [["PassengerStopAssignment"]],
        "destination_display": [["DestinationDisplay"]], "line": [["Line"]], "route": [["Route"]],
        "journey_pattern": [["JourneyPattern"], ["ServiceJourneyPattern"]],
        "stop_point_in_journey_pattern": [["StopPointInJourneyPattern"]], "day_type": [["DayType"]],
        "operating_period": [["OperatingPeriod"]], "day_type_assignment": [["DayTypeAssignment"]],
        "service_journey": [["ServiceJourney"]], "service_journey_day_type": [["ServiceJourney", "dayTypes", "DayTypeRef"]],
        "timetabled_passing_time": [["TimetabledPassingTime"]],
    ]
    static let txcNamespace = "http://www.transxchange.org.uk/"
    static let txcElements: [String: [[String]]] = [
        "stop_point": [["StopPoints", "AnnotatedStopPointRef"], ["StopPoints", "StopPoint"]],
        "operator": [["Operators", "Operator"]], "service": [["Services", "Service"]], "line": [["Lines", "Line"]],
        "journey_pattern_section": [["JourneyPatternSections", "JourneyPatternSection"]],
        "journey_pattern_timing_link": [["JourneyPatternTimingLink"]], "journey_pattern": [["JourneyPattern"]],
        "vehicle_journey": [["VehicleJourneys", "VehicleJourney"]],
        "vehicle_journey_day_of_week": [["VehicleJourney", "OperatingProfile", "RegularDayType", "DaysOfWeek", "*"]],
    ]

    @Test("Nordic NeTEx export (zip): built-in netex schema, routes before lines resolve, quays outside the input kept")
    func nordicNeTEx() throws {
        let folder = TemporaryFolder()
        let output = folder.file("netex.sqlite")
        let summary = try SeedBuilder.build([XMLTransitData.nordic], to: output)
        #expect(summary.schemaName == "netex")
        let db = try Connection(path: output, mode: .readOnly)
        try Self.checkCounts(db, inputs: [XMLTransitData.nordic], patterns: Self.netexElements, namespace: Self.netexNamespace)
        try Self.checkReferences(db, schema: "netex")
        for table in ["line", "route", "journey_pattern", "stop_point_in_journey_pattern", "service_journey", "timetabled_passing_time", "day_type_assignment"] {
            #expect(try db.int("SELECT count(*) FROM \(table)") > 0, "\(table) has rows")
        }
        // The file lists <routes> before <lines>: every route still has its line.
        #expect(try db.int("SELECT count(*) FROM route WHERE line_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time WHERE stop_point_in_journey_pattern_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time WHERE departure_time IS NULL AND arrival_time IS NULL") == 0)
        // Quays live in the national stop registry, outside the export: their ids are kept,
        // with a NULL reference and one warning for all of them.
        #expect(try db.int("SELECT count(*) FROM passenger_stop_assignment WHERE quay_ref IS NULL AND quay_id LIKE 'NSR:Quay:%'")
                == db.int("SELECT count(*) FROM passenger_stop_assignment"))
        #expect(summary.warnings == 1)
        #expect(summary.warningReport.contains("names no row of 'quay' in any input (an object outside the input); kept as its id with quay_ref = NULL"))

        let again = folder.file("again.sqlite")
        _ = try SeedBuilder.build([XMLTransitData.nordic], to: again)
        #expect(FileManager.default.contents(atPath: output) == FileManager.default.contents(atPath: again), "deterministic bytes")
    }

    @Test("Swiss NeTEx examples, each on its own: counts, references, no warnings", arguments: XMLTransitData.swissExamples)
    func swissNeTEx(_ path: String) throws {
        let folder = TemporaryFolder()
        let output = folder.file("netex.sqlite")
        let summary = try SeedBuilder.build([path], to: output)
        #expect(summary.schemaName == "netex")
        #expect(summary.warnings == 0, "\(summary.warningReport)")
        let db = try Connection(path: output, mode: .readOnly)
        try Self.checkCounts(db, inputs: [path], patterns: Self.netexElements, namespace: Self.netexNamespace)
        try Self.checkReferences(db, schema: "netex")
        // Times are seconds after midnight of the operating day, the day offset applied
        // (example 15 departs at 04:34 on the next day).
        #expect(try db.int("SELECT count(*) FROM service_journey WHERE departure_time != departure_time_of_day + 86400 * departure_day_offset") == 0)
        if path.hasSuffix("15_NeTEx_CH_1026478_11957.xml") {
            #expect(try db.int("SELECT departure_time FROM service_journey") == 86400 + 4 * 3600 + 34 * 60)
        }
    }

    @Test("Somerset TransXChange folder as a whole: ids scoped to their file, every reference resolved")
    func somersetTransXChange() throws {
        let folder = TemporaryFolder()
        let output = folder.file("txc.sqlite")
        let summary = try SeedBuilder.build([XMLTransitData.somerset], to: output)
        #expect(summary.schemaName == "transxchange")
        #expect(summary.warnings == 0, "\(summary.warningReport)")
        let db = try Connection(path: output, mode: .readOnly)
        try Self.checkCounts(db, inputs: [XMLTransitData.somerset], patterns: Self.txcElements, namespace: Self.txcNamespace)
        try Self.checkReferences(db, schema: "transxchange")
        let files = try FileManager.default.contentsOfDirectory(atPath: XMLTransitData.somerset).filter { $0.hasSuffix(".xml") }
        #expect(try db.int("SELECT count(DISTINCT file) FROM vehicle_journey") == Int64(files.count))
        // Every journey, timing link and pattern points at a row of its own file.
        #expect(try db.int("SELECT count(*) FROM vehicle_journey WHERE journey_pattern_ref IS NULL OR service_ref IS NULL OR line_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM vehicle_journey v JOIN journey_pattern p ON p.id = v.journey_pattern_ref WHERE p.file != v.file") == 0)
        #expect(try db.int("SELECT count(*) FROM journey_pattern_timing_link WHERE from_stop_point_ref IS NULL OR to_stop_point_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM journey_pattern WHERE journey_pattern_section_ref IS NULL") == 0)
        // Run times are ISO 8601 durations in the file, seconds in the seed: 1x.xml's first
        // link runs PT1M6S.
        #expect(try db.int("SELECT run_time FROM journey_pattern_timing_link WHERE file = '1x.xml' ORDER BY id LIMIT 1") == 66)
        let documents = try InputSet(paths: [XMLTransitData.somerset]).files.map(XMLTransitData.contents)
        let counts = ElementCounter.count(documents, patterns: [
            "run_time": [["JourneyPatternTimingLink", "RunTime"]],
            "holidays_only": [["VehicleJourney", "OperatingProfile", "RegularDayType", "HolidaysOnly"]],
        ], namespace: Self.txcNamespace)
        #expect(try db.int("SELECT count(run_time) FROM journey_pattern_timing_link") == Int64(counts["run_time"] ?? -1))
        #expect(try db.int("SELECT sum(holidays_only) FROM vehicle_journey") == Int64(counts["holidays_only"] ?? -1))
        #expect(try db.int("SELECT count(*) FROM vehicle_journey_day_of_week WHERE day NOT IN ('Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'MondayToFriday', 'MondayToSaturday', 'MondayToSunday', 'Weekend', 'NotSaturday')") == 0)

        let again = folder.file("again.sqlite")
        _ = try SeedBuilder.build([XMLTransitData.somerset], to: again)
        #expect(FileManager.default.contents(atPath: output) == FileManager.default.contents(atPath: again), "deterministic bytes")
    }

    /// Every table's row count equals the count of its elements read with XMLParser.
    static func checkCounts(_ db: Connection, inputs: [String], patterns: [String: [[String]]], namespace: String) throws {
        let documents = try InputSet(paths: inputs).files.filter { $0.name.hasSuffix(".xml") }.map(XMLTransitData.contents)
        let counts = ElementCounter.count(documents, patterns: patterns, namespace: namespace)
        for table in patterns.keys.sorted() {
            #expect(try db.int("SELECT count(*) FROM \(table)") == Int64(counts[table] ?? 0), "rows of \(table)")
        }
    }

    /// `foreign_key_check` is empty, and no reference is NULL while its key names a row.
    static func checkReferences(_ db: Connection, schema name: String) throws {
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
        let schema = try SchemaLocator.builtIns.first { $0.name == name }!.load()
        for table in schema.tables {
            for reference in table.references {
                let target = schema.table(named: reference.to)!
                let join = zip(target.key, reference.from).map { "p.\(quoted($0)) = t.\(quoted($1))" }.joined(separator: " AND ")
                #expect(try db.int("SELECT count(*) FROM \(table.name) t JOIN \(target.name) p ON \(join) WHERE t.\(reference.column) IS NULL") == 0,
                        "\(table.name).\(reference.column) resolves every key present in the input")
            }
        }
    }
}

/// Where the transit samples are.
enum XMLTransitData {
    static let nordicData = "xml-transit/netex-nordic-flb/rb_flb-aggregated-netex.zip"
    static let somersetData = "xml-transit/txc-somerset-2014"
    static let swissData = "xml-transit/netex-swiss"
    static let nordic = RealData.path(nordicData)
    static let somerset = RealData.path(somersetData)
    static var swissExamples: [String] {
        let folder = RealData.path(swissData)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".xml") }.sorted().map { folder + "/" + $0 }
    }

    /// The bytes of an input file (a folder's file or a zip entry).
    static func contents(_ file: InputFile) throws -> Data {
        let source = try file.open()
        var data = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        while case let count = try source.read(into: buffer), count > 0 { data.append(contentsOf: buffer[0..<count]) }
        return data
    }
}
