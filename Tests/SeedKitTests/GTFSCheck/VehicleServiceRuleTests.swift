import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

@Suite("the canonical validator's WARNINGs on blocks, in-seat transfers, services, booking, shapes; invalid_geometry")
struct VehicleServiceRuleTests {
    static let routes = "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2,0\n"

    @Test("service_has_no_active_day_of_the_week: a calendar.txt row of seven 0s, at its service_id")
    func serviceWithoutWeekday() throws {
        let calendar = MinimalFeed.files["calendar.txt"]! + "NONE,0,0,0,0,0,0,0,20260101,20261231\n"
        let build = try Checked(["calendar.txt": calendar], strict: true)
        #expect(build.built, "a warning whatever the flags")
        let found = build.found(NoticeCode.serviceHasNoActiveDayOfTheWeek)
        #expect(found.count == 1 && found.first?.line == 3 && found.first?.field == "service_id", "\(found)")
        #expect(found.first?.value == "NONE" && found.first?.severity == "WARNING")
        #expect(try Checked([:]).found(NoticeCode.serviceHasNoActiveDayOfTheWeek).isEmpty)
    }

    @Test("inconsistent_route_type_for_block_id: a block of a bus and a tram, at its first trip, once")
    func blockOfTwoModes() throws {
        let trips = "route_id,service_id,trip_id,block_id\nR1,WD,T1,B1\nR2,WD,T2,B1\n"
        let build = try Checked(["routes.txt": Self.routes, "trips.txt": trips], strict: true)
        #expect(build.built)
        let found = build.found(NoticeCode.inconsistentRouteTypeForBlockID)
        #expect(found.count == 1 && found.first?.line == 2 && found.first?.field == "block_id", "\(found)")
        #expect(found.first?.value == "B1" && found.first?.severity == "WARNING")
        let message = build.notices.first { $0["code"] as? String == NoticeCode.inconsistentRouteTypeForBlockID }?["message"] as? String
        #expect(message?.contains("R1 (3), R2 (0)") == true, "\(message ?? "")")
        let oneMode = try Checked(["routes.txt": Self.routes, "trips.txt": trips.replacingOccurrences(of: "R2,", with: "R1,")])
        #expect(oneMode.built && oneMode.found(NoticeCode.inconsistentRouteTypeForBlockID).isEmpty)
    }

    @Test("inconsistent_route_type_for_in_seat_transfer: an in-seat transfer (4) from a bus route to a tram route")
    func inSeatTransferOfTwoModes() throws {
        let trips = "route_id,service_id,trip_id\nR1,WD,T1\nR2,WD,T2\n"
        let header = "from_stop_id,to_stop_id,from_route_id,to_route_id,from_trip_id,to_trip_id,transfer_type\n"
        let build = try Checked(["routes.txt": Self.routes, "trips.txt": trips, "transfers.txt": header + "S2,S1,R1,R2,T1,T2,4\n"], strict: true)
        #expect(build.built)
        let found = build.found(NoticeCode.inconsistentRouteTypeForInSeatTransfer)
        #expect(found.count == 1 && found.first?.line == 2 && found.first?.field == "to_route_id", "\(found)")
        #expect(found.first?.value == "R2" && found.first?.severity == "WARNING")
        #expect(build.found(NoticeCode.transferWithSuspiciousMidTripInSeat).isEmpty, "T1 ends at S2, T2 starts at S1")
        let notInSeat = try Checked(["routes.txt": Self.routes, "trips.txt": trips, "transfers.txt": header + "S2,S1,R1,R2,T1,T2,1\n"])
        #expect(notInSeat.built && notInSeat.found(NoticeCode.inconsistentRouteTypeForInSeatTransfer).isEmpty)
    }

    @Test("transfer_with_suspicious_mid_trip_in_seat: an in-seat transfer from a stop before the trip's last")
    func midTripInSeatTransfer() throws {
        let header = "from_stop_id,to_stop_id,from_route_id,to_route_id,from_trip_id,to_trip_id,transfer_type\n"
        let build = try Checked(["transfers.txt": header + "S1,S1,,,T1,T2,4\nS2,S2,,,T1,T1,5\n"], strict: true)
        #expect(build.built)
        let found = build.found(NoticeCode.transferWithSuspiciousMidTripInSeat)
        #expect(found.map(\.line) == [2, 3], "\(found)")
        #expect(found.first?.field == "from_stop_id" && found.first?.value == "S1" && found.first?.severity == "WARNING")
        #expect(found.last?.field == "to_stop_id" && found.last?.value == "S2", "T1 starts at S1, not S2")
        let atEnds = try Checked(["transfers.txt": header + "S2,S1,,,T1,T2,4\n"])
        #expect(atEnds.built && atEnds.found(NoticeCode.transferWithSuspiciousMidTripInSeat).isEmpty)
    }

    @Test("missing_pickup_drop_off_booking_rule_id: a phoned window without its booking rule, beside booking_rules.txt")
    func missingBookingRule() throws {
        let stopTimes = """
            trip_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window,pickup_type,drop_off_type,pickup_booking_rule_id,drop_off_booking_rule_id
            T1,Z,1,08:00:00,20:00:00,2,2,,BR
            T1,Z,2,08:00:00,20:00:00,2,2,BR,BR
            T2,Z,1,08:00:00,20:00:00,2,2,BR,
            T2,Z,2,08:00:00,20:00:00,2,2,BR,BR

            """
        let changes: [String: String?] = [
            "locations.geojson": GeographyRuleTests.zones, "stop_times.txt": stopTimes,
            "booking_rules.txt": "booking_rule_id,booking_type\nBR,0\n"
        ]
        let build = try Checked(changes, strict: true)
        #expect(build.built, "a warning whatever the flags")
        let found = build.found(NoticeCode.missingPickupDropOffBookingRuleID)
        #expect(found.map(\.line) == [2, 4] && found.map(\.field) == ["pickup_booking_rule_id", "drop_off_booking_rule_id"], "\(found)")
        #expect(found.allSatisfy { $0.severity == "WARNING" && $0.value == nil })
        var without = changes
        without["booking_rules.txt"] = .some(nil)
        without["stop_times.txt"] = stopTimes.replacingOccurrences(of: "BR", with: "")
        let quiet = try Checked(without)
        #expect(quiet.built && quiet.found(NoticeCode.missingPickupDropOffBookingRuleID).isEmpty, "checked only beside booking_rules.txt")
    }

    /// A shape that zigzags `times` from S1 (52.5, 13.40) 1.1 km north and back, then runs 2 km east to S2.
    static func zigzag(_ times: Int) -> String {
        var lines = ["shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence"]
        for k in 0..<times {
            lines.append("SH,52.5,\(13.40 + Double(k) * 0.00002),\(2 * k + 1)")
            lines.append("SH,52.51,\(13.40 + Double(k) * 0.00002 + 0.00001),\(2 * k + 2)")
        }
        lines.append("SH,52.5,13.43,\(2 * times + 1)")
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("stop_has_too_many_matches_for_shape: a stop the shape passes 25 times, once per shape and stop; 5 times is not")
    func tooManyMatches() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.40\nS2,Two,52.5,13.43\n"
        let trips = "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH\nR1,WD,T2,SH\n"
        let stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:30:00,08:30:00,S2,2\nT2,09:00:00,09:00:00,S1,1\nT2,09:30:00,09:30:00,S2,2\n"
        let changes = ["stops.txt": stops, "trips.txt": trips, "stop_times.txt": stopTimes]
        let build = try Checked(changes.merging(["shapes.txt": Self.zigzag(25)]) { a, _ in a }, strict: true)
        #expect(build.built)
        let found = build.found(NoticeCode.stopHasTooManyMatchesForShape)
        #expect(found.count == 1 && found.first?.line == 2 && found.first?.field == "stop_id", "\(found)")
        #expect(found.first?.value == "S1" && found.first?.severity == "WARNING")
        let few = try Checked(changes.merging(["shapes.txt": Self.zigzag(5)]) { a, _ in a })
        #expect(few.built && few.found(NoticeCode.stopHasTooManyMatchesForShape).isEmpty)
        #expect(few.found(NoticeCode.stopTooFarFromShape).isEmpty && few.found(NoticeCode.stopsMatchShapeOutOfOrder).isEmpty)
    }

    @Test("invalid_geometry: a ring not closed, too short, of positions that are not numbers; a sound polygon is not")
    func invalidGeometry() throws {
        let features = [
            #"{"type": "Feature", "id": "open", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[13.2, 52.2], [13.3, 52.2], [13.3, 52.3], [13.2, 52.3]]]}}"#,
            #"{"type": "Feature", "id": "short", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[13.2, 52.2], [13.3, 52.2], [13.2, 52.2]]]]}}"#,
            #"{"type": "Feature", "id": "text", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[["a", 52.2], [13.3, 52.2], [13.3, 52.3], ["a", 52.2]]]}}"#,
            #"{"type": "Feature", "id": "whole", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[13.2, 52.2], [13.3, 52.2], [13.3, 52.3], [13.20, 52.2]]]]}}"#
        ]
        let geojson = #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ", ") + "]}"
        let build = try Checked(["locations.geojson": geojson])
        #expect(build.built, "a warning: the feature is kept")
        let found = build.found(NoticeCode.invalidGeometry)
        #expect(found.map(\.line) == [1, 2, 3] && found.allSatisfy { $0.field == "geometry" && $0.severity == "WARNING" }, "\(found)")
        let messages = build.notices.filter { $0["code"] as? String == NoticeCode.invalidGeometry }.compactMap { $0["message"] as? String }
        #expect(zip(["'open'", "'short'", "'text'"], messages).allSatisfy { $1.contains($0) }, "\(messages)")
        let strict = try Checked(["locations.geojson": geojson], strict: true)
        #expect(!strict.built && strict.found(NoticeCode.invalidGeometry).first?.severity == "ERROR")
        #expect(try Checked(["locations.geojson": GeographyRuleTests.zones]).found(NoticeCode.invalidGeometry).isEmpty)
    }

    @Test("PolygonRings: what is wrong with a geometry's rings, read from its compact JSON")
    func polygonRings() {
        func problem(_ json: String) -> String? { Array(json.utf8).withUnsafeBufferPointer(PolygonRings.problem(in:)) }
        let ring = "[[0,0],[1,0],[1,1],[0,0]]"
        #expect(problem(#"{"coordinates":[\#(ring)],"type":"Polygon"}"#) == nil)
        #expect(problem(#"{"bbox":[0,0,1,1],"coordinates":[[\#(ring),\#(ring)],[\#(ring)]],"crs":"a\"]","type":"MultiPolygon"}"#) == nil)
        #expect(problem(#"{"coordinates":[[[0,0,5],[1,0,5],[1,1,5],[0,0,5]]],"type":"Polygon"}"#) == nil, "three numbers")
        #expect(problem(#"{"coordinates":[[0,0],[1,1]],"type":"LineString"}"#) == nil, "not a polygon: unsupported_geometry_type's")
        #expect(problem(#"{"coordinates":[[\#(ring)],[[[0,0],[1,0],[0,0]]]],"type":"MultiPolygon"}"#)?.contains("ring 1 of polygon 2 of 3 positions") == true)
        #expect(problem(#"{"coordinates":[[[0,0],[1,0],[1,1],[0,1]]],"type":"Polygon"}"#)?.contains("not closed") == true)
        #expect(problem(#"{"coordinates":[[[0,0],[1],[1,1],[0,0]]],"type":"Polygon"}"#)?.contains("position 2") == true)
        #expect(problem(#"{"coordinates":[[[0,0],[1,0,0,0],[1,1],[0,0]]],"type":"Polygon"}"#)?.contains("position 2") == true)
        #expect(problem(#"{"coordinates":5,"type":"Polygon"}"#) != nil && problem(#"{"coordinates":[5],"type":"Polygon"}"#) != nil)
        #expect(problem("[1,2]") == nil && problem("{") == nil && problem(#"{"type":"Polygon","coordinates":[[[0,0"#) != nil)
    }
}
