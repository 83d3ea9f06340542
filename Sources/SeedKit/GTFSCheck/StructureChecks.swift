import SeedSQLite

/// The canonical validator's ERRORs about how a feed's rows fit together that the schema's
/// references do not catch, reported as warnings (errors under `--strict`): the seed keeps
/// every row as written and other consumers read such feeds, so nothing is refused (see the
/// GTFS guide's table).
///
/// - stops.txt's hierarchy: `wrong_parent_location_type` (a stop, entrance or node whose
///   parent is not a station, a boarding area whose parent is not a platform),
///   `station_with_parent_station`, `location_without_parent_station` (an entrance, node or
///   boarding area without one).
/// - `translation_foreign_key_violation`: a translation whose record_id (and record_sub_id,
///   for stop_times) names no row of its table_name; `translation_unexpected_value`: a
///   record_id or record_sub_id beside field_value, a record_id for feed_info (a table without
///   a key), a record_sub_id for a table whose key is one field.
/// - `route_networks_specified_in_more_than_one_file`: routes.txt's network_id beside
///   route_networks.txt.
struct StructureChecks {
    let checks: GTFSChecks

    func run() throws {
        try checkStations()
        try checkTranslations()
        try checkTranslationValues()
        try checkNetworks()
    }

    // MARK: stops.txt

    private func checkStations() throws {
        guard checks.has(table: "stops", column: "location_type"), checks.has(table: "stops", column: "parent_station"),
            let table = checks.schema.table(named: "stops"),
            table.references.contains(where: { $0.column == "parent_station_ref" }), let file = checks.file(of: "stops")
        else { return }
        let id = quoted(table.rowID)
        let type = "coalesce(s.location_type, 0)"
        let parentType = "coalesce(p.location_type, 0)"
        let rows = try checks.connection.rows(
            """
            SELECT s.stop_id, \(type), p.\(id) IS NULL, \(parentType) FROM stops s \
            LEFT JOIN stops p ON p.\(id) = s.parent_station_ref \
            WHERE (\(type) = 1 AND coalesce(s.parent_station, '') <> '') \
            OR (\(type) IN (2, 3, 4) AND coalesce(s.parent_station, '') = '') \
            OR (\(type) IN (0, 2, 3) AND p.\(id) IS NOT NULL AND \(parentType) <> 1) \
            OR (\(type) = 4 AND p.\(id) IS NOT NULL AND \(parentType) <> 0)
            """)
        var problems: [String: (code: String, message: String)] = [:]
        for row in rows {
            guard case .integer(let type) = row[1], case .integer(let noParent) = row[2] else { continue }
            let parentType = row[3].integer ?? 0
            let problem: (String, String) =
                switch (type, noParent != 0) {
                case (1, _):
                    (
                        NoticeCode.stationWithParentStation,
                        "is given for a station (location_type 1): a station has none"
                    )
                case (_, true):
                    (
                        NoticeCode.locationWithoutParentStation,
                        "is empty for location_type \(type): an entrance, a node or a boarding area needs one"
                    )
                default:
                    (
                        NoticeCode.wrongParentLocationType,
                        "names a stop of location_type \(parentType), not "
                            + (type == 4 ? "a platform (0)" : "a station (1)")
                            + ", as a stop of location_type \(type) needs"
                    )
                }
            problems[CSVRowLocator.key(row[0])] = problem
        }
        try checks.places.locate(
            "stops", matching: ["stop_id"], keys: Set(problems.keys.map { [$0] }), showing: ["parent_station"]
        ) { key, row in
            guard let problem = problems[key[0]] else { return }
            checks.issues.record(
                row.issue(
                    .misleading(strict: checks.options.strict), file: file, field: "parent_station",
                    value: row.fields["parent_station"]?.text, message: "of stop_id '\(key[0])' " + problem.message,
                    code: problem.code))
        }
    }

    // MARK: translations.txt

    /// The key of the rows a translation's record_id names, by table_name.
    static let translatedKeys: [String: String] = [
        "agency": "agency_id", "stops": "stop_id", "routes": "route_id", "trips": "trip_id",
        "pathways": "pathway_id", "levels": "level_id", "attributions": "attribution_id"
    ]

    private func checkTranslations() throws {
        guard checks.has(table: "translations", column: "table_name"),
            checks.has(table: "translations", column: "record_id"),
            let file = checks.file(of: "translations")
        else { return }
        var conditions: [String] = []
        for (table, key) in Self.translatedKeys.sorted(by: { $0.key < $1.key })
        where checks.has(table: table, column: key) && checks.isWhole(table) {
            conditions.append(
                """
                (t.table_name = '\(table)' AND t.record_id NOT IN \
                (SELECT \(quoted(key)) FROM \(quoted(table)) WHERE \(quoted(key)) IS NOT NULL))
                """)
        }
        if checks.has(table: "stop_times"), checks.has(table: "trips"), checks.isWhole("stop_times"),
            checks.has(table: "translations", column: "record_sub_id")
        {
            conditions.append(
                """
                (t.table_name = 'stop_times' AND NOT EXISTS (SELECT 1 FROM stop_times st JOIN trips ON trips.id = \
                st.trip_ref WHERE trips.trip_id = t.record_id AND st.stop_sequence = t.record_sub_id))
                """)
        }
        guard !conditions.isEmpty else { return }
        let rows = try checks.connection.rows(
            """
            SELECT DISTINCT t.table_name, t.record_id, coalesce(t.record_sub_id, '') FROM translations t WHERE \
            coalesce(t.record_id, '') <> '' \
            AND (\(conditions.joined(separator: " OR ")))
            """)
        let keys = Set(rows.map { $0.prefix(3).map(CSVRowLocator.key) })
        try checks.places.locate(
            "translations", matching: ["table_name", "record_id", "record_sub_id"], keys: keys, showing: ["record_id"]
        ) { key, row in
            checks.issues.record(
                row.issue(
                    .misleading(strict: checks.options.strict), file: file, field: "record_id",
                    value: row.fields["record_id"]?.text,
                    message: "names no row of \(key[0]).txt: the translation is of nothing",
                    code: NoticeCode.translationForeignKeyViolation))
        }
    }

    /// The fields of a translation that must be empty, as the validator reads them: both
    /// record fields beside field_value; else, for a table of the feed, record_id when it has
    /// no key (feed_info), record_sub_id when its key is one field.
    static func unexpectedFields(
        table: String, recordID: Bool, recordSubID: Bool, fieldValue: Bool, tables: Set<String>
    ) -> [String] {
        if fieldValue { return (recordID ? ["record_id"] : []) + (recordSubID ? ["record_sub_id"] : []) }
        guard tables.contains(table) else { return [] }
        if table == "feed_info" { return recordID ? ["record_id"] : recordSubID ? ["record_sub_id"] : [] }
        return recordID && recordSubID && table != "stop_times" ? ["record_sub_id"] : []
    }

    private func checkTranslationValues() throws {
        let fields = ["table_name", "record_id", "record_sub_id", "field_value"]
        guard fields.allSatisfy({ checks.has(table: "translations", column: $0) }),
            let file = checks.file(of: "translations")
        else { return }
        let tables = Set(
            (Array(Self.translatedKeys.keys) + ["stop_times", "feed_info"]).filter { checks.file(of: $0) != nil })
        let given = ["record_id", "record_sub_id", "field_value"].map { "coalesce(\($0), '') <> ''" }
        let rows = try checks.connection.rows(
            """
            SELECT DISTINCT coalesce(table_name, ''), \(given.joined(separator: ", ")), record_id, record_sub_id, \
            field_value FROM translations WHERE (\(given[0]) OR \(given[1])) AND (\(given[2]) OR \(given[1]) OR \
            table_name = 'feed_info')
            """)
        var found: [[String]: [String]] = [:]
        for row in rows {
            let unexpected = Self.unexpectedFields(
                table: CSVRowLocator.key(row[0]), recordID: row[1].integer == 1, recordSubID: row[2].integer == 1,
                fieldValue: row[3].integer == 1, tables: tables)
            guard !unexpected.isEmpty else { continue }
            found[[CSVRowLocator.key(row[0])] + row[4...].map(CSVRowLocator.key)] = unexpected
        }
        try checks.places.locate(
            "translations", matching: ["table_name", "record_id", "record_sub_id", "field_value"],
            keys: Set(found.keys), showing: ["record_id", "record_sub_id"]
        ) { key, row in
            for field in found[key] ?? [] {
                let why =
                    key[3].isEmpty
                    ? "\(key[0]).txt's rows are named by \(key[0] == "feed_info" ? "nothing" : "record_id alone")"
                    : "a translation by field_value names no record"
                checks.issues.record(
                    row.issue(
                        .misleading(strict: checks.options.strict), file: file, field: field,
                        value: row.fields[field]?.text, message: "must be empty: \(why)",
                        code: NoticeCode.translationUnexpectedValue))
            }
        }
    }

    // MARK: Networks

    private func checkNetworks() throws {
        guard checks.has(table: "routes", column: "network_id"), checks.file(of: "route_networks") != nil,
            let routes = checks.file(of: "routes")
        else { return }
        let rows = try checks.connection.rows(
            "SELECT count(*) FROM routes WHERE coalesce(network_id, '') <> ''")
        guard case .integer(let count) = rows.first?.first, count > 0 else { return }
        checks.issues.record(
            BuildIssue(
                kind: .misleading(strict: checks.options.strict), file: routes, field: "network_id",
                message:
                    """
                    is given for \(count) routes, and route_networks.txt gives routes networks too: the reference \
                    allows one or the other
                    """,
                code: NoticeCode.routeNetworksInMoreThanOneFile))
    }
}
