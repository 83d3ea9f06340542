import SeedSQLite

/// The canonical validator's ERRORs on the places GTFS-Flex adds (location_groups.txt and
/// locations.geojson beside stops.txt), reported as warnings (errors under `--strict`): the rows
/// are kept as written, only which place a rider boards at is ambiguous.
///
/// - `forbidden_geography_id`: a stop time naming more than one of stop_id, location_group_id and
///   location_id. Read through the partial indexes of location_ref and location_group_ref (the
///   index stage made them), so it costs nothing at millions of stop times.
/// - `duplicate_geography_id`: an id given by more than one of stops.txt's stop_id,
///   location_group_id and locations.geojson's id, reported at stops.txt's row (or at
///   location_groups.txt's, for a group and a location); read only when a feed has either file.
/// - `unsupported_geometry_type`: a locations.geojson feature whose geometry is not a Polygon
///   or MultiPolygon (named by its id: a feature has no line of its own).
struct GeographyRules {
    let checks: GTFSChecks

    func run() throws {
        try checkStopTimes()
        try checkIDs()
        try checkGeometries()
    }

    private func checkGeometries() throws {
        guard checks.has(table: "locations", column: "geometry"), checks.has(table: "locations", column: "location_id"),
            let file = checks.file(of: "locations")
        else { return }
        let type = "coalesce(geometry ->> '$.type', '')"
        let rows = try checks.connection.rows(
            """
            SELECT location_id, \(type) FROM locations WHERE \(type) NOT IN ('Polygon', 'MultiPolygon') \
            ORDER BY location_id
            """)
        for row in rows {
            let id = CSVRowLocator.key(row[0]), found = CSVRowLocator.key(row[1])
            checks.issues.record(
                BuildIssue(
                    kind: .misleading(strict: checks.options.strict), file: file, field: "geometry",
                    value: found.isEmpty ? nil : found,
                    message: """
                        of the feature with id '\(id)' is \(found.isEmpty ? "no geometry type" : "a \(found)"): a \
                        GTFS-Flex location is a Polygon or MultiPolygon
                        """,
                    code: NoticeCode.unsupportedGeometryType))
        }
    }

    private func checkStopTimes() throws {
        guard checks.has(table: "trips"), checks.has(table: "stop_times"), let file = checks.file(of: "stop_times"),
            let table = checks.schema.table(named: "stop_times")
        else { return }
        let columns = ["stop_ref", "location_group_ref", "location_ref"].filter { name in
            table.references.contains { $0.column == name }
        }
        guard columns.count == 3 else { return }
        // Two SELECTs, each read through a zone column's partial index (`IS NOT NULL`): ordered by
        // it, so that SQLite reads the index rather than every stop time (without the ORDER BY
        // its planner scans stop_times, as EXPLAIN QUERY PLAN shows).
        var rows: [[Value]] = []
        for (zone, others) in [
            ("location_ref", "+st.stop_ref IS NOT NULL OR +st.location_group_ref IS NOT NULL"),
            ("location_group_ref", "+st.stop_ref IS NOT NULL")
        ] {
            rows += try checks.connection.rows(
                """
                SELECT trips.trip_id, st.stop_sequence FROM stop_times st JOIN trips ON trips.id = st.trip_ref \
                WHERE st.\(zone) IS NOT NULL AND (\(others)) ORDER BY st.\(zone)
                """)
        }
        let keys = Set(rows.map { $0.map(CSVRowLocator.key) })
        let shown = ["stop_id", "location_group_id", "location_id"]
        try checks.places.locate("stop_times", matching: ["trip_id", "stop_sequence"], keys: keys, showing: shown) {
            key, row in
            let given = shown.filter { row.fields[$0]?.text.isEmpty == false }
            let field = given.last ?? "location_id"
            checks.issues.record(
                row.issue(
                    .misleading(strict: checks.options.strict), file: file, field: field,
                    value: row.fields[field]?.text,
                    message: """
                        is given beside \(given.dropLast().joined(separator: " and ")) (trip_id '\(key[0])', \
                        stop_sequence \(key[1])): a stop time is at one stop, location group or location
                        """,
                    code: NoticeCode.forbiddenGeographyID))
        }
    }

    private func checkIDs() throws {
        let sources = [("location_groups", "location_group_id"), ("locations", "location_id")].filter {
            checks.has(table: $0.0, column: $0.1) && checks.file(of: $0.0) != nil
        }
        guard !sources.isEmpty else { return }
        let ids = sources.map { "SELECT \(quoted($0.1)) FROM \(quoted($0.0))" }.joined(separator: " UNION ALL ")
        if checks.has(table: "stops", column: "stop_id"), let file = checks.file(of: "stops") {
            let rows = try checks.connection.rows("SELECT stop_id FROM stops WHERE stop_id IN (\(ids))")
            try report(Set(rows.map { [CSVRowLocator.key($0[0])] }), in: "stops", field: "stop_id", file: file)
        }
        if sources.count == 2, let file = checks.file(of: "location_groups") {
            let rows = try checks.connection.rows(
                """
                SELECT location_group_id FROM location_groups WHERE location_group_id IN (SELECT location_id FROM \
                locations)
                """
            )
            let keys = Set(rows.map { [CSVRowLocator.key($0[0])] })
            try report(keys, in: "location_groups", field: "location_group_id", file: file)
        }
    }

    private func report(_ keys: Set<[String]>, in table: String, field: String, file: String) throws {
        guard !keys.isEmpty else { return }
        try checks.places.locate(table, matching: [field], keys: keys, showing: [field]) { key, row in
            checks.issues.record(
                row.issue(
                    .misleading(strict: checks.options.strict), file: file, field: field, value: key[0],
                    message: """
                        is also the id of a \(table == "stops" ? "location group or " : "")GTFS-Flex location: \
                        stops, location groups and locations share one set of ids
                        """,
                    code: NoticeCode.duplicateGeographyID))
        }
    }
}
