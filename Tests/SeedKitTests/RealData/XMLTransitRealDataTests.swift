import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// The real NeTEx and TransXChange samples (`RealData`, `xml-transit`) build with no
/// `--schema`: the built-in schemas are recognised from the root element, every reference
/// whose target is in the input resolves, row counts equal an independent count of the
/// elements (Foundation's XMLParser), and the seed's bytes are deterministic.
@Suite("XML transit real data", .realData(XMLTransitData.nordicData, XMLTransitData.somersetData, XMLTransitData.swissData,
                                          XMLTransitData.germanData, XMLTransitData.frenchData, XMLTransitData.dutchData, XMLTransitData.stagecoachData))
struct XMLTransitRealDataTests {
    static let netexNamespace = "http://www.netex.org.uk/netex"
    static let netexElements: [String: [[String]]] = [
        "operator": [["Operator"]], "stop_place": [["StopPlace"]], "quay": [["Quay"]],
        "scheduled_stop_point": [["ScheduledStopPoint"]], "passenger_stop_assignment": [["PassengerStopAssignment"]],
        "destination_display": [["DestinationDisplay"]], "line": [["Line"], ["FlexibleLine"]], "route": [["Route"]],
        "journey_pattern": [["JourneyPattern"], ["ServiceJourneyPattern"]],
        "stop_point_in_journey_pattern": [["StopPointInJourneyPattern"]], "day_type": [["DayType"]],
        "operating_period": [["OperatingPeriod"], ["UicOperatingPeriod"]], "day_type_assignment": [["DayTypeAssignment"]],
        "service_journey": [["ServiceJourney"], ["DatedServiceJourney"]], "service_journey_day_type": [["ServiceJourney", "dayTypes", "DayTypeRef"]],
        "timetabled_passing_time": [["TimetabledPassingTime"]], "stop_place_quay": [["StopPlace", "quays", "QuayRef"]],
        "timing_link": [["TimingLink"]], "time_demand_type": [["TimeDemandType"]], "journey_run_time": [["JourneyRunTime"]],
        "journey_wait_time": [["JourneyWaitTime"]], "operating_day": [["OperatingDay"]],
        "service_link": [["ServiceLink"]], "route_link": [["RouteLink"]],
    ]
    /// Rows a table holds beside the elements read (derived after loading).
    static let netexRead: [String: String] = ["timetabled_passing_time": "from_time_demand_type = 0"]
    static let txcNamespace = "http://www.transxchange.org.uk/"
    static let txcElements: [String: [[String]]] = [
        "stop_point": [["StopPoints", "AnnotatedStopPointRef"], ["StopPoints", "StopPoint"]],
        "operator": [["Operators", "Operator"], ["Operators", "LicensedOperator"]], "service": [["Services", "Service"]], "line": [["Lines", "Line"]],
        "journey_pattern_section": [["JourneyPatternSections", "JourneyPatternSection"]],
        "journey_pattern_timing_link": [["JourneyPatternTimingLink"]], "journey_pattern": [["JourneyPattern"]],
        "vehicle_journey": [["VehicleJourneys", "VehicleJourney"]],
        "vehicle_journey_day_of_week": [["VehicleJourney", "OperatingProfile", "RegularDayType", "DaysOfWeek", "*"]],
        "route_section": [["RouteSections", "RouteSection"]], "route_link": [["RouteLink"]],
        "route_link_location": [["RouteLink", "Track", "Mapping", "Location"]],
        "journey_pattern_section_refs": [["JourneyPattern", "JourneyPatternSectionRefs"]],
        "special_days_operation": [["VehicleJourney", "OperatingProfile", "SpecialDaysOperation", "DaysOfOperation", "DateRange"]],
        "special_days_non_operation": [["VehicleJourney", "OperatingProfile", "SpecialDaysOperation", "DaysOfNonOperation", "DateRange"]],
        "bank_holiday_operation": [["VehicleJourney", "OperatingProfile", "BankHolidayOperation", "DaysOfOperation", "*"]],
        "bank_holiday_non_operation": [["VehicleJourney", "OperatingProfile", "BankHolidayOperation", "DaysOfNonOperation", "*"]],
    ]

    @Test("Nordic NeTEx export (zip): built-in netex schema, routes before lines resolve, quays outside the input kept")
    func nordicNeTEx() throws {
        let folder = TemporaryFolder()
        let output = folder.file("netex.sqlite")
        let summary = try SeedBuilder.build([XMLTransitData.nordic], to: output)
        #expect(summary.schemaName == "netex")
        let db = try Connection(path: output, mode: .readOnly)
        try Self.checkCounts(db, inputs: [XMLTransitData.nordic], patterns: Self.netexElements, namespace: Self.netexNamespace, rowsRead: Self.netexRead)
        try Self.checkReferences(db, schema: "netex")
        for table in ["line", "route", "journey_pattern", "stop_point_in_journey_pattern", "service_journey", "timetabled_passing_time", "day_type_assignment"] {
            #expect(try db.int("SELECT count(*) FROM \(table)") > 0, "\(table) has rows")
        }
        // Service links keep the numbers of their gml:posList, in order: latitude, longitude.
        let numbers = try XMLTransitData.contents(InputSet(paths: [XMLTransitData.nordic]).files.first { $0.name.hasSuffix("_FLB_shared_data.xml") }!)
        let text = String(decoding: numbers, as: UTF8.self)
        let expected = text.matches(of: /<gis:posList[^>]*>([^<]*)</).reduce(0) { $0 + $1.output.1.split(whereSeparator: \.isWhitespace).count }
        #expect(try db.int("SELECT count(*) FROM service_link_coordinate") == Int64(expected))
        #expect(try db.text("""
            SELECT group_concat(value, ' ') FROM (SELECT value FROM service_link_coordinate c JOIN service_link l ON l.id = c.service_link_ref
            WHERE l.netex_id = 'FLB:ServiceLink:fc296f44-55bd-470c-8a32-c09f774071f4' ORDER BY c.position LIMIT 2)
            """) == "60.77169 7.1019")
        // The file lists <routes> before <lines>: every route still has its line.
        #expect(try db.int("SELECT count(*) FROM route WHERE line_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time WHERE stop_point_in_journey_pattern_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time WHERE departure_time IS NULL AND arrival_time IS NULL") == 0)
        // Quays live in the national stop registry, outside the export: their ids are kept,
        // with a NULL reference and one warning for all of them.
        #expect(try db.int("SELECT count(*) FROM passenger_stop_assignment WHERE quay_ref IS NULL AND quay_id LIKE 'NSR:Quay:%'")
                == db.int("SELECT count(*) FROM passenger_stop_assignment"))
        #expect(Self.mirrorWarnings(summary) == 1, "\(summary.warningReport)")
        #expect(summary.warningReport.contains("names no row of 'quay' in any input (an object outside the input); kept as its id with quay_ref = NULL"))

        let again = folder.file("again.sqlite")
        _ = try SeedBuilder.build([XMLTransitData.nordic], to: again)
        #expect(FileManager.default.contents(atPath: output) == FileManager.default.contents(atPath: again), "deterministic bytes")
    }

    @Test("Swiss NeTEx examples, each on its own: counts, references, no warnings but the order left out", arguments: XMLTransitData.swissExamples)
    func swissNeTEx(_ path: String) throws {
        let folder = TemporaryFolder()
        let output = folder.file("netex.sqlite")
        let summary = try SeedBuilder.build([path], to: output)
        #expect(summary.schemaName == "netex")
        // Points and assignments without `order` (most examples leave it out): kept, with one
        // warning naming each type and how many, as an independent count finds them.
        let withoutOrder = try Self.withoutOrder(path)
        for (type, count) in withoutOrder {
            #expect(summary.warningReport.contains("\(count) \(type) with no order or order 0"), "\(summary.warningReport)")
        }
        let orderWarning = withoutOrder.isEmpty ? 0 : 1
        if path.hasSuffix("04_NeTEx_CH_DRT_Line_50.110.xml") {
            // A run time of three months (`P3M`, meant as minutes) is NULL, with a warning.
            #expect(Self.mirrorWarnings(summary) == 1 + orderWarning, "\(summary.warningReport)")
            #expect(summary.warningReport.contains("RunTime: 'P3M' is not a valid duration"), "\(summary.warningReport)")
        } else {
            #expect(Self.mirrorWarnings(summary) == orderWarning, "\(summary.warningReport)")
        }
        let db = try Connection(path: output, mode: .readOnly)
        try Self.checkCounts(db, inputs: [path], patterns: Self.netexElements, namespace: Self.netexNamespace, rowsRead: Self.netexRead)
        try Self.checkReferences(db, schema: "netex")
        // Times are seconds after midnight of the operating day, the day offset applied
        // (example 15 departs at 04:34 on the next day).
        #expect(try db.int("SELECT count(*) FROM service_journey WHERE departure_time != departure_time_of_day + 86400 * departure_day_offset") == 0)
        if path.hasSuffix("15_NeTEx_CH_1026478_11957.xml") {
            #expect(try db.int("SELECT departure_time FROM service_journey") == 86400 + 4 * 3600 + 34 * 60)
        }
        // A journey timed by a time demand type has times at every stop of its pattern,
        // derived from its departure and the run and wait times (example 13: Bern 08:04,
        // 21 minutes to Thun, a minute there, 10:10 to Spiez), unless a hop's run time is
        // unknown: example 04's is `P3M` (NULL, warned), example 11's time demand type for
        // Bern-Wolhusen stops one stop short of Wolhusen.
        let untimed = try db.rows("""
            SELECT j.netex_id FROM service_journey j WHERE j.time_demand_type_ref IS NOT NULL AND j.departure_time IS NOT NULL
            AND (SELECT count(*) FROM timetabled_passing_time t WHERE t.service_journey_ref = j.id)
              != (SELECT count(*) FROM stop_point_in_journey_pattern p WHERE p.journey_pattern_ref = j.journey_pattern_ref)
            ORDER BY j.netex_id
            """).compactMap { $0[0].text }
        let expectedUntimed = [
            "04_NeTEx_CH_DRT_Line_50.110.xml": ["ch:blt:generated:SJ:30011:1"],
            "11_NeTEx_CH_BLS_Bern_Luzern_Change_TrainNumber_and_other_stuff.xml": ["ch:1:sjyid:Bern_Wolhusen:1"],
        ][(path as NSString).lastPathComponent] ?? []
        #expect(untimed == expectedUntimed)
        #expect(try db.int("""
            SELECT count(*) FROM timetabled_passing_time t JOIN service_journey j ON j.id = t.service_journey_ref
            WHERE t.from_time_demand_type = 1 AND t.position = 1 AND t.departure_time != j.departure_time
            """) == 0)
        if path.hasSuffix("13_NeTEx_CH_Bern_Spiez_Zweisimmen_TimeDemandType_Quay_Change.xml") {
            let derived = try db.rows("""
                SELECT t.arrival_time, t.departure_time FROM timetabled_passing_time t JOIN service_journey j ON j.id = t.service_journey_ref
                WHERE t.from_time_demand_type = 1 AND j.id = (SELECT min(service_journey_ref) FROM timetabled_passing_time WHERE from_time_demand_type = 1)
                ORDER BY t.position
                """)
            #expect(derived.count >= 3)
            if derived.count >= 3, let start = derived[0][1].integer, let thun = derived[1][0].integer, let leave = derived[1][1].integer,
               let spiez = derived[2][0].integer {
                #expect(thun - start == 21 * 60)
                #expect(leave - thun == 60)
                #expect(spiez - leave == 10 * 60 + 10)
            }
        }
    }

    /// The producers' samples (German EPIP line files, a French-profile export, a Dutch flex
    /// file), each file on its own and each folder as a whole: every count equals an
    /// independent count (an object repeated across files counted once), and every
    /// reference present resolves.
    @Test("NeTEx producers' samples build with no flags, file by file and as a folder", arguments: XMLTransitData.producerFolders)
    func producerNeTEx(_ folder: String) throws {
        let files = try InputSet(paths: [folder]).files.map { folder + "/" + $0.name }
        for input in files + [folder] {
            let temporary = TemporaryFolder()
            let output = temporary.file("netex.sqlite")
            let summary = try SeedBuilder.build([input], to: output)
            #expect(summary.schemaName == "netex")
            let db = try Connection(path: output, mode: .readOnly)
            try Self.checkCounts(db, inputs: [input], patterns: Self.netexElements,
                                 namespace: Self.netexNamespace, distinct: true, rowsRead: Self.netexRead)
            try Self.checkReferences(db, schema: "netex")
            #expect(try db.int("SELECT count(*) FROM operating_period_day") == Int64(try Self.validDays(input)))
            #expect(!summary.warningReport.contains("version"), "\(summary.warningReport)")
        }
    }

    @Test("German EPIP line files as one export: the stop places every file repeats are one row each, with all their quays")
    func germanExport() throws {
        let temporary = TemporaryFolder()
        let output = temporary.file("netex.sqlite")
        _ = try SeedBuilder.build([XMLTransitData.german], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM stop_place WHERE netex_id = 'DE::StopPlace:80026_Master::'") == 1)
        #expect(try db.int("SELECT count(*) FROM quay WHERE stop_place_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM day_type_assignment WHERE operating_period_ref IS NULL") == 0)
        // Route links keep their line's points, in order: as many as the files' <pos> elements.
        let positions = try FileManager.default.contentsOfDirectory(atPath: XMLTransitData.german).filter { $0.hasSuffix(".xml") }
            .reduce(0) { $0 + XMLFixtures.occurrences(of: "<pos>", in: XMLTransitData.german + "/" + $1) }
        #expect(try db.int("SELECT count(*) FROM route_link_position p JOIN route_link l ON l.id = p.route_link_ref") == Int64(positions))
        #expect(try db.text("""
            SELECT group_concat(pos, ';') FROM (SELECT pos FROM route_link_position p JOIN route_link l ON l.id = p.route_link_ref
            WHERE l.netex_id = 'DE::RouteLink:12284_82376_2::' ORDER BY p.position LIMIT 2)
            """) == "053.551540 009.934296;053.551537 009.934733")
        // EPIP journeys name their pattern, whose route names the line.
        #expect(try db.int("""
            SELECT count(*) FROM service_journey j JOIN journey_pattern p ON p.id = j.journey_pattern_ref
            JOIN route r ON r.id = p.route_ref JOIN line l ON l.id = r.line_ref
            """) == db.int("SELECT count(*) FROM service_journey"))
    }

    @Test("French profile: quays outside stop places, passing times without ids, calendars in their own file")
    func frenchExport() throws {
        let temporary = TemporaryFolder()
        let output = temporary.file("netex.sqlite")
        let summary = try SeedBuilder.build([XMLTransitData.french], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM quay") == 10)
        #expect(try db.int("SELECT count(*) FROM stop_place_quay WHERE quay_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time WHERE netex_id IS NULL") == db.int("SELECT count(*) FROM timetabled_passing_time"))
        #expect(try db.int("SELECT count(*) FROM timetabled_passing_time") > 0)
        #expect(try db.int("SELECT count(*) FROM service_journey WHERE journey_pattern_ref IS NULL") == 0)
        #expect(summary.warningReport.contains("objects not read"), "the French export holds objects no table reads")
    }

    @Test("Dutch flex: a flexible line is a line its journeys name")
    func dutchFlex() throws {
        let temporary = TemporaryFolder()
        let output = temporary.file("netex.sqlite")
        _ = try SeedBuilder.build([XMLTransitData.dutch], to: output)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("SELECT flexible_line_type FROM line") == "fixedStopAreaWide")
        #expect(try db.int("SELECT count(*) FROM service_journey WHERE line_ref IS NULL") == 0)
        #expect(try db.int("SELECT run_time FROM journey_run_time") == 1800)
    }

    @Test("TransXChange 2.4 registration: the licensed operator is the registered operator")
    func stagecoachRegistration() throws {
        let temporary = TemporaryFolder()
        let output = temporary.file("txc.sqlite")
        let summary = try SeedBuilder.build([XMLTransitData.stagecoach], to: output)
        #expect(summary.schemaName == "transxchange")
        let db = try Connection(path: output, mode: .readOnly)
        try Self.checkCounts(db, inputs: [XMLTransitData.stagecoach], patterns: Self.txcElements, namespace: Self.txcNamespace)
        try Self.checkReferences(db, schema: "transxchange")
        #expect(try db.text("SELECT o.operator_name_on_licence FROM service s JOIN operator o ON o.id = s.operator_ref") == "Midland Red South Ltd")
        // Route sections and links are read, with the tracks the links follow, in order.
        #expect(!summary.warningReport.contains("RouteSection") && !summary.warningReport.contains("RouteLink"), "\(summary.warningReport)")
        #expect(try db.int("SELECT count(*) FROM route_link_location WHERE easting IS NULL OR northing IS NULL") == 0)
        #expect(try db.text("""
            SELECT group_concat(CAST(easting AS INTEGER) || ',' || CAST(northing AS INTEGER), ' ') FROM (
              SELECT easting, northing FROM route_link_location c JOIN route_link l ON l.id = c.route_link_ref
              WHERE l.txc_id = '11507_1' ORDER BY c.position LIMIT 3)
            """) == "433450,279090 433445,279053 433443,279048")
        // Every timing link names its route link.
        #expect(try db.int("SELECT count(*) FROM journey_pattern_timing_link WHERE route_link_id IS NOT NULL AND route_link_ref IS NULL") == 0)
    }

    /// Warnings other than the objects no table reads.
    /// Per element keyed by id and order, how many in `path` have no `order` or order 0.
    static func withoutOrder(_ path: String) throws -> [String: Int] {
        let text = try String(contentsOfFile: path, encoding: .utf8).replacing(/<!--[\s\S]*?-->/, with: "") // example 10 comments some out
        var counts: [String: Int] = [:]
        for type in ["StopPointInJourneyPattern", "PassengerStopAssignment", "DayTypeAssignment"] {
            let count = text.matches(of: try Regex("<\(type)[ >][^>]*")).filter { tag in
                let attributes = text[tag.range]
                return !attributes.contains(" order=") || attributes.contains(" order=\"0\"")
            }.count
            if count > 0 { counts[type] = count }
        }
        return counts
    }

    static func warningsOtherThanUnreadObjects(_ summary: BuildSummary) -> Int {
        summary.warningReport.split(separator: "\n").filter { $0.hasPrefix("warning:") && !$0.contains(/: \d+ objects? not read/) }.count
    }

    /// Warnings of the mirrored tables: not those of the transit tables derived from them
    /// (what they cannot map, checked in TransitTablesFromXMLTests).
    static func mirrorWarnings(_ summary: BuildSummary) -> Int {
        let transit = ["agency", "stops", "routes", "shapes", "calendar", "calendar_dates", "service_days", "trips", "stop_times", "frequencies"]
        return summary.warningReport.split(separator: "\n").filter { line in
            line.hasPrefix("warning:") && !line.contains(/: \d+ objects? not read/) && !transit.contains { line.hasPrefix("warning: \($0): ") }
        }.count
    }

    /// The days the distinct UIC operating periods of `input` run on: the 1 bits of their
    /// ValidDayBits, counted in the text.
    static func validDays(_ input: String) throws -> Int {
        var periods: [String: Int] = [:]
        for file in try InputSet(paths: [input]).files {
            let text = String(decoding: try XMLTransitData.contents(file), as: UTF8.self)
            for match in text.matches(of: /<UicOperatingPeriod id="([^"]+)"[^>]*>(?s:.*?)<ValidDayBits>([01]+)<\/ValidDayBits>/) {
                periods[String(match.output.1)] = match.output.2.filter { $0 == "1" }.count
            }
        }
        return periods.values.reduce(0, +)
    }

    @Test("Somerset TransXChange folder as a whole: ids scoped to their file, every reference resolved")
    func somersetTransXChange() throws {
        let folder = TemporaryFolder()
        let output = folder.file("txc.sqlite")
        let summary = try SeedBuilder.build([XMLTransitData.somerset], to: output)
        #expect(summary.schemaName == "transxchange")
        // Two things the derived transit tables cannot map, each counted (serviced
        // organisations' days, movable bank holidays: see TransitTablesFromXMLTests).
        #expect(Self.warningsOtherThanUnreadObjects(summary) == 2 && Self.mirrorWarnings(summary) == 0, "\(summary.warningReport)")
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

    /// Every table's row count equals the count of its elements read with XMLParser; with
    /// `distinct`, elements with an `id` count once per id (per id and order for
    /// `day_type_assignment`): an export's repeated objects are one row. `rowsRead` narrows a
    /// table's rows to those read from elements.
    static func checkCounts(_ db: Connection, inputs: [String], patterns: [String: [[String]]], namespace: String,
                            distinct: Bool = false, rowsRead: [String: String] = [:]) throws {
        let documents = try InputSet(paths: inputs).files.filter { $0.name.hasSuffix(".xml") }.map(XMLTransitData.contents)
        var counts = distinct
            ? ElementCounter.countDistinct(documents, patterns: patterns, namespace: namespace, keyAttributes: ["id"])
            : ElementCounter.count(documents, patterns: patterns, namespace: namespace)
        // Keyed by id and order, as the XSD keys them.
        for table in ["day_type_assignment", "stop_point_in_journey_pattern", "passenger_stop_assignment"] where distinct {
            guard let elements = patterns[table] else { continue }
            counts[table] = ElementCounter.countDistinct(documents, patterns: [table: elements], namespace: namespace, keyAttributes: ["id", "order"])[table]
        }
        for table in patterns.keys.sorted() {
            let condition = rowsRead[table].map { " WHERE \($0)" } ?? ""
            #expect(try db.int("SELECT count(*) FROM \(table)\(condition)") == Int64(counts[table] ?? 0), "rows of \(table) from \(inputs)")
        }
    }

    /// `--lenient` never leaves a dangling foreign key, on every sample: those that build
    /// without it, and the Swiss examples as one folder, where examples reuse ids
    /// (`ch:1:TimingLink:1`) for other objects: ids are unique per document, so each example's
    /// objects are its own, with or without `--lenient`.
    @Test("--lenient: every sample builds with foreign_key_check empty, the Swiss folder's conflicts too",
          arguments: [XMLTransitData.nordic, XMLTransitData.somerset, RealData.path(XMLTransitData.swissData)]
            + XMLTransitData.producerFolders + [XMLTransitData.stagecoach])
    func lenientLeavesNoDanglingKey(_ input: String) throws {
        let folder = TemporaryFolder()
        let output = folder.file("seed.sqlite")
        let swiss = input == RealData.path(XMLTransitData.swissData)
        if swiss {
            // Ids are unique per document: without --lenient too, each example's objects are its own.
            let summary = try SeedBuilder.build([input], to: output)
            try Self.checkReferences(try Connection(path: output, mode: .readOnly), schema: summary.schemaName)
        }
        let summary = try SeedBuilder(options: BuildOptions(inputs: [input], output: output, lenient: true)).build()
        let db = try Connection(path: output, mode: .readOnly)
        try Self.checkReferences(db, schema: summary.schemaName)
        if swiss {
            #expect(!summary.warningReport.contains("left out"), "\(summary.warningReport)")
            // Examples 04, 05 and others each have their own ch:1:TimingLink:1, each pattern's run times on its own.
            #expect(try db.int("SELECT count(*) FROM timing_link WHERE netex_id = 'ch:1:TimingLink:1'") > 1)
            #expect(try db.int("""
                SELECT count(*) FROM journey_run_time r JOIN timing_link l ON l.id = r.timing_link_ref
                WHERE l.netex_id = 'ch:1:TimingLink:1' GROUP BY l.id ORDER BY 1 LIMIT 1
                """) > 0)
        }
    }

    /// `foreign_key_check` is empty, and no reference is NULL while its key names a row.
    static func checkReferences(_ db: Connection, schema name: String) throws {
        #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
        let schema = try SchemaLocator.builtIns.first { $0.name == name }!.load()
        for table in schema.tables {
            // A key read only to resolve (a quay's enclosing stop place) is not kept to compare.
            for reference in table.references where reference.from.allSatisfy({ table.column(named: $0)?.stored == true }) {
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
    static let germanData = "xml-transit-2/netex-de-nap-epip"
    static let frenchData = "xml-transit-2/netex-fr-hove"
    static let dutchData = "xml-transit-2/netex-nl-qbuzz-flex"
    static let stagecoachData = "xml-transit-2/txc-stagecoach-registration"
    static let nordic = RealData.path(nordicData)
    static let somerset = RealData.path(somersetData)
    static let german = RealData.path(germanData)
    static let french = RealData.path(frenchData)
    static let dutch = RealData.path(dutchData)
    static let stagecoach = RealData.path(stagecoachData)
    static var producerFolders: [String] { [german, french, dutch] }
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
