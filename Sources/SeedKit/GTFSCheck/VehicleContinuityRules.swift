import SeedSQLite

/// The canonical validator's WARNINGs on a vehicle that goes on from one trip to another (a
/// block, an in-seat transfer), warnings here whatever the flags; each a query of the small
/// files (stop_times read through its key, for the transfers' trips only):
///
/// - `inconsistent_route_type_for_block_id`: a block_id whose trips are of routes of different
///   route_types (of the basic types 0 to 7, 11 and 12: the validator's typed table has no
///   extended types), placed at the block's first trip, once per block.
/// - `inconsistent_route_type_for_in_seat_transfer`: a transfer of transfer_type 4 whose
///   from_route_id and to_route_id are of different route_types (the same types).
/// - `transfer_with_suspicious_mid_trip_in_seat`: a transfer of transfer_type 4 or 5 whose
///   from_stop_id is not its from_trip_id's last stop time's stop, or whose to_stop_id is not its
///   to_trip_id's first, the trip serving the stop (else `transfer_with_invalid_trip_and_stop`).
struct VehicleContinuityRules {
    let checks: GTFSChecks

    /// The route_types the validator compares.
    private static let basicTypes = "(0, 1, 2, 3, 4, 5, 6, 7, 11, 12)"

    func run() throws {
        try checkBlocks()
        let fields = ["from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id", "to_trip_id"]
        guard (fields + ["transfer_type"]).allSatisfy({ checks.has(table: "transfers", column: $0) }) else { return }
        try checkInSeatModes(fields: fields)
        try checkInSeatStops(fields: fields)
    }

    private func checkBlocks() throws {
        guard checks.has(table: "trips", column: "block_id"), checks.has(table: "routes", column: "route_type")
        else { return }
        let typed = "FROM trips t JOIN routes r ON r.id = t.route_ref WHERE r.route_type IN \(Self.basicTypes)"
        try checks.flagRows(
            of: "trips", key: "trip_id", columns: ["block_id"],
            condition:
                """
                id IN (SELECT min(t.id) \(typed) AND coalesce(t.block_id, '') <> '' GROUP BY t.block_id \
                HAVING count(DISTINCT r.route_type) > 1)
                """,
            detail:
                """
                (SELECT group_concat(x, ', ') FROM (SELECT DISTINCT r.route_id || ' (' || r.route_type || ')' AS x \
                \(typed) AND t.block_id = trips.block_id ORDER BY r.route_id))
                """,
            field: "block_id", kind: .bestPractice, code: NoticeCode.inconsistentRouteTypeForBlockID
        ) { _, routes in
            "has trips of routes of different route_types, \(routes): one vehicle runs a block, of one mode"
        }
    }

    private func checkInSeatModes(fields: [String]) throws {
        guard checks.has(table: "routes", column: "route_type") else { return }
        let type = { (side: String) in "(SELECT route_type FROM routes WHERE id = \(side)_route_ref)" }
        try checks.flagRows(
            of: "transfers", matching: fields,
            condition:
                """
                transfer_type = 4 AND \(type("from")) IN \(Self.basicTypes) AND \(type("to")) IN \(Self.basicTypes) \
                AND \(type("from")) <> \(type("to"))
                """,
            field: "to_route_id", kind: .bestPractice, code: NoticeCode.inconsistentRouteTypeForInSeatTransfer,
            message: "is of another route_type than from_route_id: riders who stay seated stay in one vehicle")
    }

    private func checkInSeatStops(fields: [String]) throws {
        guard checks.has(table: "stop_times"), checks.isWhole("stop_times") else { return }
        for (side, end) in [("from", "DESC"), ("to", "ASC")] {
            let (trip, stop) = ("\(side)_trip_ref", "\(side)_stop_ref")
            try checks.flagRows(
                of: "transfers", matching: fields,
                condition:
                    """
                    transfer_type IN (4, 5) AND \(trip) IS NOT NULL AND \(stop) IS NOT NULL \
                    AND EXISTS (SELECT 1 FROM stop_times st WHERE st.trip_ref = \(trip) AND st.stop_ref = \(stop)) \
                    AND coalesce((SELECT st.stop_ref FROM stop_times st WHERE st.trip_ref = \(trip) \
                    ORDER BY st.stop_sequence \(end) LIMIT 1), -1) <> \(stop)
                    """,
                field: "\(side)_stop_id", kind: .bestPractice, code: NoticeCode.transferWithSuspiciousMidTripInSeat,
                message:
                    side == "from"
                    ? "is not from_trip_id's last stop: an in-seat transfer is made where the trip ends"
                    : "is not to_trip_id's first stop: an in-seat transfer is made where the trip starts")
        }
    }
}
