import SeedSQLite

/// The canonical validator's ERRORs about a single row's fields that the schema leaves
/// optional, reported as warnings (errors under `--strict`): the seed keeps the row, and what
/// an app shows of it is what is missing (see the GTFS guide's table).
///
/// - `route_both_short_and_long_name_missing`: a route with neither name.
/// - `missing_stop_name`, `stop_without_location`: a stop, station or entrance (location_type
///   0, 1, 2) without stop_name, or without stop_lat and stop_lon.
/// - `invalid_color`: a route_color or route_text_color that is not six hexadecimal digits.
struct RecordChecks {
    let checks: GTFSChecks

    /// A condition on a table's rows, the field it is about and what the notice says.
    private struct Rule {
        var table: String
        var columns: [String]
        var condition: String
        var field: String
        var code: String
        var message: String
    }

    private static let places = "coalesce(location_type, 0) IN (0, 1, 2)"

    private static let rules: [Rule] = [
        Rule(
            table: "routes", columns: ["route_short_name", "route_long_name"],
            condition: "coalesce(route_short_name, '') = '' AND coalesce(route_long_name, '') = ''",
            field: "route_id", code: NoticeCode.routeBothNamesMissing,
            message: "has neither route_short_name nor route_long_name: riders see no name"),
        Rule(
            table: "stops", columns: ["stop_name", "location_type"],
            condition: "coalesce(stop_name, '') = '' AND \(places)", field: "stop_id",
            code: NoticeCode.missingStopName, message: "has no stop_name: riders see no name"),
        Rule(
            table: "stops", columns: ["stop_lat", "stop_lon", "location_type"],
            condition: "(stop_lat IS NULL OR stop_lon IS NULL) AND \(places)", field: "stop_id",
            code: NoticeCode.stopWithoutLocation, message: "has no stop_lat and stop_lon: a map cannot show it"),
        Rule(
            table: "routes", columns: ["route_color"],
            condition: "coalesce(route_color, '') <> '' AND NOT \(isColor("route_color"))", field: "route_color",
            code: NoticeCode.invalidColor, message: "is not a color (six hexadecimal digits, such as FFFFFF)"),
        Rule(
            table: "routes", columns: ["route_text_color"],
            condition: "coalesce(route_text_color, '') <> '' AND NOT \(isColor("route_text_color"))",
            field: "route_text_color", code: NoticeCode.invalidColor,
            message: "is not a color (six hexadecimal digits, such as 000000)")
    ]

    /// SQL true when `column` is six hexadecimal digits.
    private static func isColor(_ column: String) -> String {
        "(length(\(column)) = 6 AND \(column) NOT GLOB '*[^0-9A-Fa-f]*')"
    }

    func run() throws {
        for rule in Self.rules {
            guard rule.columns.allSatisfy({ checks.has(table: rule.table, column: $0) }),
                let file = checks.file(of: rule.table)
            else { continue }
            let key = rule.table == "routes" ? "route_id" : "stop_id"
            let rows = try checks.connection.rows(
                "SELECT DISTINCT \(key) FROM \(quoted(rule.table)) WHERE \(rule.condition)")
            let keys = Set(rows.map { [CSVRowLocator.key($0[0])] })
            try checks.places.locate(rule.table, matching: [key], keys: keys, showing: [rule.field]) {
                key, row in
                let value = row.fields[rule.field]?.text
                checks.issues.record(
                    row.issue(
                        .misleading(strict: checks.options.strict), file: file, field: rule.field,
                        value: value?.isEmpty == false ? value : key[0], message: rule.message, code: rule.code))
            }
        }
    }
}
