import SeedSQLite

/// The canonical validator's rules on pathways.txt, read with stops.txt's hierarchy (both small:
/// a station's corridors and the stops of the feed, held while checking).
///
/// - ERRORs, warnings here (errors under `--strict`): the seed keeps the pathways as written,
///   only routing inside a station is off: `pathway_to_wrong_location_type` (an end that is a
///   station), `pathway_to_platform_with_boarding_areas` (an end that is a platform with
///   boarding areas: the pathway should reach those), `bidirectional_exit_gate` (pathway_mode 7,
///   is_bidirectional 1), `missing_level_id` (an end of an elevator, pathway_mode 5, without
///   level_id), `pathway_unreachable_location` (in a station with pathways, a platform without
///   boarding areas, a generic node or a boarding area that no entrance reaches, or that reaches
///   no exit, following each pathway's direction),
///   `pathway_to_stop_with_access_outside_of_station_pathways` (an end whose stop_access is 1:
///   riders reach it from the street, not along the station's pathways).
/// - WARNINGs, warnings whatever the flags: `pathway_loop` (from_stop_id is to_stop_id),
///   `pathway_dangling_generic_node` (a generic node joined to one location only).
struct PathwayChecks {
    let checks: GTFSChecks

    private struct Location {
        var stopID: String
        var type: Int64
        var parent: Int64?
        var hasLevel: Bool
        var streetAccess: Bool
    }

    private struct Pathway {
        var id: String
        var from: Int64
        var to: Int64
        var mode: Int64
        var bidirectional: Bool
    }

    func run() throws {
        guard checks.has(table: "pathways", column: "from_stop_id"),
            checks.has(table: "stops", column: "location_type"),
            checks.has(table: "stops", column: "parent_station"), checks.isWhole("stops"),
            let table = checks.schema.table(named: "stops"),
            table.references.contains(where: { $0.column == "parent_station_ref" })
        else { return }
        let pathways = try checks.connection.rows(
            """
            SELECT pathway_id, from_stop_ref, to_stop_ref, coalesce(pathway_mode, 0), coalesce(is_bidirectional, 0) \
            FROM pathways WHERE from_stop_ref IS NOT NULL AND to_stop_ref IS NOT NULL
            """
        ).map {
            Pathway(
                id: CSVRowLocator.key($0[0]), from: $0[1].integer ?? 0, to: $0[2].integer ?? 0,
                mode: $0[3].integer ?? 0,
                bidirectional: $0[4].integer == 1)
        }
        guard !pathways.isEmpty else { return }
        let level = checks.has(table: "stops", column: "level_id") ? "coalesce(level_id, '') <> ''" : "0"
        let access = checks.has(table: "stops", column: "stop_access") ? "stop_access = 1" : "0"
        var locations: [Int64: Location] = [:]
        for row in try checks.connection.rows(
            """
            SELECT \(quoted(table.rowID)), stop_id, coalesce(location_type, 0), parent_station_ref, \(level), \
            \(access) FROM stops
            """)
        {
            guard let id = row[0].integer else { continue }
            locations[id] = Location(
                stopID: CSVRowLocator.key(row[1]), type: row[2].integer ?? 0, parent: row[3].integer,
                hasLevel: row[4].integer == 1, streetAccess: row[5].integer == 1)
        }
        try checkEnds(pathways, locations: locations)
        try checkLocations(pathways, locations: locations)
    }

    // MARK: Each pathway

    private func checkEnds(_ pathways: [Pathway], locations: [Int64: Location]) throws {
        let withBoardingAreas = Set(locations.values.filter { $0.type == 4 }.compactMap(\.parent))
        var found: [String: [(field: String, code: String, message: String, advice: Bool)]] = [:]
        for pathway in pathways {
            for (field, end) in [("from_stop_id", pathway.from), ("to_stop_id", pathway.to)] {
                guard let location = locations[end] else { continue }
                if location.type == 1 {
                    found[pathway.id, default: []].append(
                        (
                            field, NoticeCode.pathwayToWrongLocationType,
                            """
                            is a station (location_type 1): a pathway joins a station's platforms, entrances and \
                            nodes
                            """,
                            false
                        ))
                } else if location.type == 0, withBoardingAreas.contains(end) {
                    found[pathway.id, default: []].append(
                        (
                            field, NoticeCode.pathwayToPlatformWithBoardingAreas,
                            "is a platform with boarding areas: the pathway should reach one of them", false
                        ))
                }
                if location.streetAccess {
                    found[pathway.id, default: []].append(
                        (
                            field, NoticeCode.pathwayToStopWithAccessOutsideOfStationPathways,
                            "names a stop with stop_access 1: riders reach it from the street, not by pathways", false
                        ))
                }
                if pathway.mode == 5, !location.hasLevel, field == "from_stop_id" || pathway.from != pathway.to {
                    found[pathway.id, default: []].append(
                        (
                            field, NoticeCode.missingLevelID,
                            "names stop_id '\(location.stopID)' without level_id, an end of an elevator", false
                        ))
                }
            }
            if pathway.from == pathway.to {
                found[pathway.id, default: []].append(
                    ("to_stop_id", NoticeCode.pathwayLoop, "is the pathway's from_stop_id: it leads nowhere", true))
            }
            if pathway.mode == 7, pathway.bidirectional {
                found[pathway.id, default: []].append(
                    (
                        "is_bidirectional", NoticeCode.bidirectionalExitGate,
                        "is 1 for an exit gate (pathway_mode 7): an exit gate is one way", false
                    ))
            }
        }
        guard let file = checks.file(of: "pathways") else { return }
        let shown = ["from_stop_id", "to_stop_id", "is_bidirectional"]
        try checks.places.locate(
            "pathways", matching: ["pathway_id"], keys: Set(found.keys.map { [$0] }), showing: shown
        ) { key, row in
            for finding in found[key[0]] ?? [] {
                checks.issues.record(
                    row.issue(
                        finding.advice ? .bestPractice : .misleading(strict: checks.options.strict), file: file,
                        field: finding.field, value: row.fields[finding.field]?.text, message: finding.message,
                        code: finding.code))
            }
        }
    }

    // MARK: Each location

    /// The station `id` is in (itself, or up to two parents up), if any.
    private static func station(of id: Int64, in locations: [Int64: Location]) -> Int64? {
        var current = id
        for _ in 0..<3 {
            guard let location = locations[current] else { return nil }
            if location.type == 1 { return current }
            guard let parent = location.parent else { return nil }
            current = parent
        }
        return nil
    }

    /// The locations reached from the entrances (`forward`), or that reach an exit (not `forward`).
    private static func reached(
        forward: Bool, _ pathways: [Pathway], locations: [Int64: Location]
    ) -> Set<Int64> {
        var next: [Int64: [Int64]] = [:]
        for pathway in pathways {
            let (from, to) = forward ? (pathway.from, pathway.to) : (pathway.to, pathway.from)
            next[from, default: []].append(to)
            if pathway.bidirectional { next[to, default: []].append(from) }
        }
        var seen = Set(locations.filter { $0.value.type == 2 }.keys)
        var queue = Array(seen)
        while let current = queue.popLast() {
            for location in next[current] ?? [] where seen.insert(location).inserted { queue.append(location) }
        }
        return seen
    }

    private func checkLocations(_ pathways: [Pathway], locations: [Int64: Location]) throws {
        let stations = Set(pathways.flatMap { [$0.from, $0.to] }.compactMap { Self.station(of: $0, in: locations) })
        let parents = Set(locations.values.compactMap(\.parent))
        let fromEntrances = Self.reached(forward: true, pathways, locations: locations)
        let toExits = Self.reached(forward: false, pathways, locations: locations)
        var found: [String: [(code: String, message: String, advice: Bool)]] = [:]
        for (id, location) in locations where location.type == 3 || location.type == 4 || location.type == 0 {
            guard location.type != 0 || !parents.contains(id), let station = Self.station(of: id, in: locations),
                stations.contains(station)
            else { continue }
            let entrance = fromEntrances.contains(id)
            let exit = toExits.contains(id)
            guard !entrance || !exit else { continue }
            let what = entrance ? "reaches no exit" : exit ? "is reached from no entrance" : "is joined to no entrance"
            found[location.stopID, default: []].append(
                (
                    NoticeCode.pathwayUnreachableLocation,
                    "(location_type \(location.type)) \(what) along its station's pathways", false
                ))
        }
        var neighbours: [Int64: Set<Int64>] = [:]
        for pathway in pathways { // a loop's location is its own neighbour, as the validator counts
            neighbours[pathway.from, default: []].insert(pathway.to)
            neighbours[pathway.to, default: []].insert(pathway.from)
        }
        for (id, joined) in neighbours where joined.count == 1 {
            guard let location = locations[id], location.type == 3 else { continue }
            found[location.stopID, default: []].append(
                (
                    NoticeCode.pathwayDanglingGenericNode,
                    "(a generic node) is joined to one location only: a node leads somewhere", true
                ))
        }
        guard let file = checks.file(of: "stops") else { return }
        try checks.places.locate(
            "stops", matching: ["stop_id"], keys: Set(found.keys.map { [$0] }), showing: ["stop_id"]
        ) { key, row in
            for finding in found[key[0]] ?? [] {
                checks.issues.record(
                    row.issue(
                        finding.advice ? .bestPractice : .misleading(strict: checks.options.strict), file: file,
                        field: "stop_id", value: key[0], message: finding.message, code: finding.code))
            }
        }
    }
}
