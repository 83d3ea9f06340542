import SeedSQLite

extension SwiftSchemaGenerator {
    /// GRDB requests for the table's search and spatial indexes (the SQL of
    /// Documentation/querying.md, for any table).
    func queryRequestLines(_ table: Table, access: String) -> [String] {
        var lines: [String] = []
        if let search = table.search { lines += searchRequestLines(table, search: search, access: access) }
        if let spatial = table.spatial { lines += spatialRequestLines(table, spatial: spatial, access: access) }
        return lines
    }

    /// `matching(_:limit:)`: the FTS5 index's best matches.
    private func searchRequestLines(_ table: Table, search: SearchIndex, access: String) -> [String] {
        var lines: [String] = []
        let name = quoted(table.name), id = quoted(table.rowID)
        let index = quoted(search.name)
        let sql =
            """
            SELECT \(name).* FROM \(index) JOIN \(name) ON \(name).\(id) = \(index).rowid WHERE \(index) MATCH \
            ? ORDER BY bm25(\(index)), \(name).\(id) LIMIT ?
            """
        lines += [
            "",
            """
                    /// The rows whose \(search.columns.map { "`\($0)`" }.joined(separator: ", ")) have words \
            starting with `text`, as typed
            """,
            """
                    /// (case and accents ignored: `zirm` finds `Žirmūnai`), best match first (FTS5 \
            `\(search.name)`, bm25).
            """,
            "        \(access)static func matching(_ text: String, limit: Int = 20) -> SQLRequest<Record> {",
            """
                        let phrase = \"\\\"\" + text.replacingOccurrences(of: \"\\\"\", with: \"\\\"\\\"\") + \
            \"\\\" *\"
            """,
            "            return SQLRequest(sql: \(literal(sql)), arguments: [phrase, limit])",
            "        }"
        ]
        return lines
    }

    /// `near(lat:lon:limit:)` for points, `groupsIntersecting(...)` for an R*Tree of groups.
    private func spatialRequestLines(_ table: Table, spatial: SpatialIndex, access: String) -> [String] {
        var lines: [String] = []
        let name = quoted(table.name), id = quoted(table.rowID)
        let index = quoted(spatial.name), lat = quoted(spatial.lat), lon = quoted(spatial.lon)
        if spatial.isPoints {
            let box = "\(lat) BETWEEN ?1 - r AND ?1 + r AND \(lon) BETWEEN ?2 - r / ?3 AND ?2 + r / ?3"
            let sql =
                "WITH RECURSIVE grow(r) AS (SELECT 0.002 UNION ALL SELECT r * 2 FROM grow WHERE r < 360 AND "
                + "(SELECT count(*) FROM \(name) WHERE \(box)) < ?4), "
                + "reach(r) AS (SELECT max(r) * 1.5 FROM grow) "
                + "SELECT \(name).* FROM reach CROSS JOIN \(name) "
                + "WHERE \(name).\(lat) BETWEEN ?1 - reach.r AND ?1 + reach.r AND \(name).\(lon) BETWEEN ?2 - "
                + "reach.r / ?3 AND ?2 + reach.r / ?3 "
                    + """
                    ORDER BY (\(name).\(lat) - ?1) * (\(name).\(lat) - ?1) + (\(name).\(lon) - ?2) * \
                    (\(name).\(lon) - ?2) * ?3 * ?3, \(name).\(id) LIMIT ?4
                    """
            lines += [
                "",
                "        /// The `limit` rows nearest to a point, nearest first (the index `\(spatial.name)` on",
                "        /// `\(spatial.lat)`, `\(spatial.lon)`, then the exact equirectangular distance).",
                """
                        \(access)static func near(lat: Double, lon: Double, limit: Int = 10) -> \
                SQLRequest<Record> {
                """,
                "            let scale = max(cos(lat * .pi / 180), 0.01)",
                "            return SQLRequest(sql: \(literal(sql)), arguments: [lat, lon, scale, limit])",
                "        }"
            ]
        } else if let groupBy = spatial.groupBy {
            let group = quoted(groupBy)
            let sql =
                "SELECT \(name).* FROM \(name) WHERE \(group) IN (SELECT g.\(group) FROM \(index) AS box JOIN "
                + "\(name) AS g ON g.\(id) = box.id "
                    + """
                    WHERE box.min_lat <= ?2 AND box.max_lat >= ?1 AND box.min_lon <= ?4 AND box.max_lon >= ?3) \
                    ORDER BY \(group), \(name).\(id)
                    """
            lines += [
                "",
                """
                        /// The rows of every `\(groupBy)` whose extent meets the box (R*Tree \
                `\(spatial.name)`), by group.
                """,
                """
                        \(access)static func groupsIntersecting(minLat: Double, maxLat: Double, minLon: \
                Double, maxLon: Double) -> SQLRequest<Record> {
                """,
                "            SQLRequest(sql: \(literal(sql)), arguments: [minLat, maxLat, minLon, maxLon])",
                "        }"
            ]
        }
        return lines
    }
}
