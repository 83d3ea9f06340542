import Foundation
import SeedSQLite

/// The checks of MobilityData's GTFS validator that the transit schema cannot declare, run on
/// the loaded tables before the seed is finished, each reported with the validator's notice
/// code and placed in its file (`CheckPlaces`: a line of the input, or a built seed's row by its key):
///
/// - Data errors (fail the build; `--lenient` or `--allow-dangling` keep the row as written, a
///   warning): GTFS ids that name nothing but are not references of the schema, since they may
///   name rows of several files (`trips.service_id`, `trips.shape_id`, fare zones, networks,
///   timeframes, fare products and leg groups): `foreign_key_violation`. (A fare rule given
///   twice is found while loading: its fields are a key checked there, `checkedKeys`.)
/// - What the seed can hold but an app would show wrongly (warnings; errors under `--strict`):
///   a feed with neither calendar file, time zones that do not exist, and along each trip
///   (`StopTimeChecks`): negative stop_sequence, an arrival without a departure or the
///   reverse, a first or last stop without times, times that run backwards, distances that do
///   not increase; invalid URLs and routes or fares naming no agency of several (`FeedChecks`);
///   stations' hierarchy, translations of nothing, networks given twice (`StructureChecks`);
///   routes without names, stops without a name or a place, colors that are not (`RecordChecks`);
///   emails, phone numbers, languages, currencies, points at 0, 0 or a pole
///   (`FieldFormatChecks`); pathways (`PathwayChecks`); distances along shapes
///   (`ShapePointChecks`); frequencies and blocks whose times overlap (`TripOverlapChecks`);
///   GTFS-Flex booking rules (`BookingRuleChecks`); fares v2 (`FareRuleChecks`); fares' amounts
///   and zones (`FareValueChecks`); distances along shapes at GTFS-Flex zones (`DistanceChecks`);
///   pickup windows (`FlexWindowChecks`); stop times at several places, ids shared by stops,
/// location groups and locations, zones' geometries (`GeographyRules`); timepoints (`TimepointRule`, in
/// `StopTimeChecks`' pass).
/// - The validator's best-practice WARNINGs, warnings whatever the flags: stops no stop time
///   serves (`StopTimeChecks`), stops far from their trips' shapes or out of order along them
///   (`ShapeDistanceCheck`, `ShapePatternRules`), recommended files and fields, names
///   (`FeedChecks`), routes' URLs and names, ferries' bikes, ids beyond ASCII (`AdviceChecks`),
///   trips of fewer than two stop times (`UnusableTrip`), transfers longer than 2 or 10 km
///   (`DistanceChecks`), expired calendars and trips not covering the next 7 days
///   (`CalendarChecks`, against `--today`), services of no weekday (`CalendarChecks`), blocks and
///   in-seat transfers that change mode or are made mid-trip (`VehicleContinuityRules`);
///   languages, feed_info's dates and rows, route colors, descriptions and URLs that repeat
///   another field, attributions, fare media, translations of no file (`FeedAdviceChecks`).
///   (Enumerated values the reference does not define are found while loading:
///   `GTFSEnumValues`.)
struct GTFSChecks {
    let schema: Schema
    /// Where each table's rows came from and how what is found is placed in them.
    let places: any CheckPlaces
    let connection: Connection
    let issues: IssueLog
    let options: BuildOptions
    /// Tables with data errors while loading, some of their rows perhaps left out
    /// (`BuildState.failedTables`): their own rows are checked, but no check takes their rows
    /// for all there are (a key naming one of the rows left out is not reported again).
    var failed: Set<String> = []
    /// Tables not loaded, since they refer to a failed one: no check reads them.
    var skipped: Set<String> = []
    /// In a region seed, the feed checked: named by notices about a file the feed lacks (whose
    /// path names no feed).
    var feed: String? = nil

    /// Whether the schema is the transit schema (built in, or a copy of it given with `--schema`).
    static func applies(to schema: Schema) -> Bool { schema.name == "transit" && schema.format == .csv }

    /// Whether required `table` may be absent all the same: stops.txt, when GTFS-Flex's
    /// locations.geojson or location_groups.txt give the places (the reference makes stops.txt
    /// conditionally required).
    static func mayBeAbsent(_ table: Table, schema: Schema, inputs: InputSet) -> Bool {
        applies(to: schema) && table.name == "stops"
            && (inputs.file(named: "locations.geojson") != nil || inputs.file(named: "location_groups.txt") != nil)
    }

    func run() throws {
        let hasCalendar = ["calendar", "calendar_dates"].contains { has(table: $0) && file(of: $0) != nil }
        if has(table: "calendar") && has(table: "calendar_dates") && !hasCalendar {
            issues.record(
                BuildIssue(
                    kind: .misleading(strict: options.strict), file: "calendar.txt",
                    message: "is missing, and so is calendar_dates.txt: no trip has a day it runs on",
                    code: NoticeCode.missingCalendarFiles))
        }
        for key in Self.foreignKeys
        where hasCalendar || !key.targets.contains(where: { $0.table.hasPrefix("calendar") }) {
            try check(key)
        }
        try checkTimeZones(table: "agency", field: "agency_timezone")
        try checkTimeZones(table: "stops", field: "stop_timezone")
        var usage: TripUsage? = nil
        if has(table: "stop_times"), has(table: "trips"), let file = file(of: "stop_times") {
            usage = try StopTimeChecks(checks: self, file: file).run()
        }
        try UsageChecks(checks: self, trips: usage).run()
        try FeedChecks(checks: self).run()
        try StructureChecks(checks: self).run()
        try RecordChecks(checks: self).run()
        try CalendarChecks(checks: self, today: options.effectiveToday).run()
        try FieldFormatChecks(checks: self).run()
        try AdviceChecks(checks: self).run()
        try FeedAdviceChecks(checks: self).run()
        try PathwayChecks(checks: self).run()
        try ShapePointChecks(checks: self).run()
        try TripOverlapChecks(checks: self, trips: usage).run()
        try BookingRuleChecks(checks: self).run()
        try FareRuleChecks(checks: self).run()
        try FareValueChecks(checks: self).run()
        try ConsistencyChecks(checks: self).run()
        try DistanceChecks(checks: self).run()
        try FlexWindowChecks(checks: self).run()
        try GeographyRules(checks: self).run()
        try VehicleContinuityRules(checks: self).run()
    }

    // MARK: Foreign keys

    /// A GTFS id that must name a row of one of `targets` (table, column).
    struct ForeignKey {
        var table: String
        var field: String
        var targets: [(table: String, field: String)]
    }

    /// The GTFS foreign keys that are plain text columns in the transit schema (the others are
    /// its references, resolved while loading).
    static let foreignKeys: [ForeignKey] = {
        let services = [("calendar", "service_id"), ("calendar_dates", "service_id")]
        let networks = [("networks", "network_id"), ("routes", "network_id")]
        let zones = [("stops", "zone_id")]
        return [
            ForeignKey(table: "trips", field: "service_id", targets: services),
            ForeignKey(table: "trips", field: "shape_id", targets: [("shapes", "shape_id")]),
            ForeignKey(table: "fare_rules", field: "origin_id", targets: zones),
            ForeignKey(table: "fare_rules", field: "destination_id", targets: zones),
            ForeignKey(table: "fare_rules", field: "contains_id", targets: zones),
            ForeignKey(table: "timeframes", field: "service_id", targets: services),
            ForeignKey(table: "booking_rules", field: "prior_notice_service_id", targets: services),
            ForeignKey(table: "fare_leg_rules", field: "network_id", targets: networks),
            ForeignKey(
                table: "fare_leg_rules", field: "from_timeframe_group_id",
                targets: [("timeframes", "timeframe_group_id")]),
            ForeignKey(
                table: "fare_leg_rules", field: "to_timeframe_group_id", targets: [("timeframes", "timeframe_group_id")]
            ),
            ForeignKey(
                table: "fare_leg_rules", field: "fare_product_id", targets: [("fare_products", "fare_product_id")]),
            ForeignKey(table: "fare_leg_join_rules", field: "from_network_id", targets: networks),
            ForeignKey(table: "fare_leg_join_rules", field: "to_network_id", targets: networks),
            ForeignKey(
                table: "fare_transfer_rules", field: "from_leg_group_id",
                targets: [("fare_leg_rules", "leg_group_id")]),
            ForeignKey(
                table: "fare_transfer_rules", field: "to_leg_group_id", targets: [("fare_leg_rules", "leg_group_id")]),
            ForeignKey(
                table: "fare_transfer_rules", field: "fare_product_id", targets: [("fare_products", "fare_product_id")])
        ]
    }()

    private func check(_ key: ForeignKey) throws {
        guard has(table: key.table, column: key.field), let file = file(of: key.table),
            !key.targets.contains(where: { failed.contains($0.table) || skipped.contains($0.table) })
        else { return }
        let targets = key.targets.filter { has(table: $0.table, column: $0.field) }
        guard !targets.isEmpty else { return }
        let known = targets.map {
            "SELECT \(quoted($0.field)) FROM \(quoted($0.table)) WHERE \(quoted($0.field)) IS NOT NULL"
        }
        let sql =
            "SELECT DISTINCT \(quoted(key.field)) FROM \(quoted(key.table)) WHERE \(quoted(key.field)) IS NOT NULL"
            + (known.isEmpty ? "" : " AND \(quoted(key.field)) NOT IN (\(known.joined(separator: " UNION ALL ")))")
        let missing = Set(try connection.rows(sql).map { [CSVRowLocator.key($0[0])] })
        guard !missing.isEmpty else { return }
        let names = key.targets.map { "\($0.field) in \($0.table).txt" }.joined(separator: " or ")
        try places.locate(key.table, matching: [key.field], keys: missing, showing: [key.field]) { _, row in
            let place = row.fields[key.field]
            dataError(
                file: file, row: row, column: place?.column, field: key.field, value: place?.text,
                message: "names no \(names)", code: NoticeCode.foreignKeyViolation, kind: .danglingReference)
        }
    }

    /// A data error found after loading: an error, or with `--lenient`/`--allow-dangling` a
    /// warning, the row kept as written.
    func dataError(
        file: String, row: PlacedRow, column: Int?, field: String?, value: String?, message: String, code: String,
        kind: BuildIssue.Kind
    ) {
        let keeps = options.lenient || options.allowDangling
        issues.record(
            BuildIssue(
                kind: keeps ? .errorKept : kind, file: file, line: row.line, row: row.key, column: column, field: field,
                value: value, message: message + (keeps ? "; the row is kept as written" : ""),
                code: code == (keeps ? BuildIssue.Kind.errorKept : kind).noticeCode ? nil : code))
    }

    // MARK: Time zones

    private func checkTimeZones(table: String, field: String) throws {
        guard has(table: table, column: field), let file = file(of: table) else { return }
        let values = try connection.rows(
            "SELECT DISTINCT \(quoted(field)) FROM \(quoted(table)) WHERE \(quoted(field)) IS NOT NULL ORDER BY 1")
        let invalid = Set(
            values.map { CSVRowLocator.key($0[0]) }.filter { TimeZone(identifier: $0) == nil }.map { [$0] })
        try places.locate(table, matching: [field], keys: invalid, showing: [field]) { _, row in
            let place = row.fields[field]
            issues.record(
                BuildIssue(
                    kind: .misleading(strict: options.strict), file: file, line: row.line, row: row.key,
                    column: place?.column,
                    field: field, value: place?.text,
                    message:
                        """
                        is not a time zone of the IANA database (such as America/Los_Angeles): times would be \
                        shown in the wrong zone
                        """,
                    code: NoticeCode.invalidTimezone))
        }
    }

    // MARK: Keys the schema cannot declare

    /// The validator's keys of the GTFS files whose key the transit schema does not declare:
    /// fare_rules, whose five fields are its key though most rows leave some of them empty
    /// (a unique index of SQLite finds no two such rows equal). Checked while loading
    /// (`Table.checkedKey`): a row repeated whole is left out with a warning, another row
    /// with the same key is a `duplicate_key` error.
    static let checkedKeys = ["fare_rules": ["fare_id", "route_id", "origin_id", "destination_id", "contains_id"]]

    /// `schema` with `checkedKeys` set on its tables, when it is the transit schema (its
    /// columns as the transit schema names them; a table without one of them is left as it is).
    static func checkingKeys(of schema: Schema) -> Schema {
        guard applies(to: schema) else { return schema }
        var schema = schema
        for index in schema.tables.indices {
            let table = schema.tables[index]
            guard table.key.isEmpty, !table.withoutRowID, let key = checkedKeys[table.name],
                key.allSatisfy({ name in table.columns.contains { $0.name == name && $0.stored } })
            else { continue }
            schema.tables[index].checkedKey = key
        }
        return schema
    }

    // MARK: Schema and inputs

    /// Whether table `name` was loaded with every row of its file (no data errors).
    func isWhole(_ name: String) -> Bool { !failed.contains(name) && !skipped.contains(name) }

    func has(table name: String, column: String? = nil) -> Bool {
        guard !skipped.contains(name), let table = schema.table(named: name) else { return false }
        return column.map { column in table.columns.contains { $0.name == column && $0.stored } } ?? true
    }

    /// The `route_id` of each route whose `first` and `second` columns both have text and meet
    /// `test` (in rows' order); none when routes.txt lacks either column.
    func routes(
        with first: String, _ second: String, where test: (String, String) -> Bool
    ) throws -> [String] {
        guard has(table: "routes", column: first), has(table: "routes", column: second) else { return [] }
        let rows = try connection.rows(
            """
            SELECT route_id, \(first), \(second) FROM routes WHERE coalesce(\(first), '') <> '' \
            AND coalesce(\(second), '') <> ''
            """)
        return rows.filter { test(CSVRowLocator.key($0[1]), CSVRowLocator.key($0[2])) }.map { CSVRowLocator.key($0[0]) }
    }

    /// The SQL condition that `column` is one of `ids` (each once, sorted: the same SQL for the same ids).
    static func column(_ column: String, isOneOf ids: some Sequence<String>) -> String {
        "\(column) IN (\(Set(ids).sorted().map(quotedLiteral).joined(separator: ", ")))"
    }

    /// What notices about table `name` name as their place (its input file, or in a built seed
    /// the table), when the feed has its file.
    func file(of name: String) -> String? { places.source(of: name) }
}
