import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

@Suite("the canonical validator's rules on distances and GTFS-Flex stop times")
struct DistanceRuleTests {
    @Test("transfer_distance_too_large: a transfer between stops more than 10 km apart, a child at its parent's place")
    func transferDistance() throws {
        // 0.1 degrees of latitude is 11.1 km; 0.05 is 5.6 km.
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            S1,One,52.5,13.4,0,
            S2,Two,52.6,13.4,0,
            S3,Three,52.55,13.4,0,
            ST,Station,52.6,13.4,1,
            P1,Platform,,,0,ST

            """
        let build = try Checked([
            "stops.txt": stops,
            "transfers.txt": "from_stop_id,to_stop_id,transfer_type\nS1,S2,0\nS1,S3,0\nS1,P1,0\nS3,S2,0\n"
        ])
        #expect(build.built)
        let found = build.found(NoticeCode.transferDistanceTooLarge)
        #expect(found.compactMap(\.line) == [2, 4], "S1-S2 and S1-P1 (at ST's place) are 11.1 km; S1-S3, S3-S2 5.6 km")
        #expect(found.map(\.value) == ["S2", "P1"] && found.allSatisfy { $0.field == "to_stop_id" && $0.severity == "WARNING" })
        let twoStops = "stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.4\nS2,Two,52.6,13.4\n"
        let strict = try Checked(["stops.txt": twoStops, "transfers.txt": "from_stop_id,to_stop_id,transfer_type\nS1,S2,0\n"], strict: true)
        #expect(strict.built, "a best-practice warning whatever the flags")
        #expect(DistanceChecks.distance((0, 0), (0, 1)) > 111_190 && DistanceChecks.distance((0, 0), (0, 1)) < 111_200)
    }

    @Test("forbidden_shape_dist_traveled at a GTFS-Flex zone, not at a stop; a trip's windowed ends are no missing edge")
    func flexDistance() throws {
        let geojson = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "zone", "properties": {}, "geometry": {"type": "Point", "coordinates": [13.2, 52.2]}}]}"#
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window,shape_dist_traveled
            T1,,,,zone,1,08:00:00,20:00:00,0.5
            T1,,,,zone,2,08:00:00,20:00:00,
            T2,08:00:00,08:00:00,S1,,1,,,0
            T2,,,S2,,2,,,1.5

            """
        let changes: [String: String?] = ["locations.geojson": geojson, "stop_times.txt": stopTimes]
        let build = try Checked(changes)
        #expect(build.built)
        let found = build.found(NoticeCode.forbiddenShapeDistTraveled)
        #expect(found.map(\.line) == [2] && found.first?.value == "0.5" && found.first?.field == "shape_dist_traveled")
        #expect(found.first?.severity == "WARNING")
        #expect(build.found(NoticeCode.missingTripEdge).map(\.line) == [5], "T1's ends have windows; T2's last has no times")
        let strict = try Checked(changes, strict: true)
        #expect(!strict.built && strict.found(NoticeCode.forbiddenShapeDistTraveled).first?.severity == "ERROR")
    }

    @Test("trip_distance_exceeds_shape_distance: a trip's last stop time beyond its shape's greatest distance")
    func tripBeyondShape() throws {
        let shapes = """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            SH1,52.5,13.4,1,0
            SH1,52.6,13.5,2,10
            SH2,52.5,13.4,1,0
            SH2,52.55,13.45,2,5
            SH3,52.5,13.4,1,0
            SH3,52.6,13.5,2,0

            """
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
            T1,08:00:00,08:00:00,S1,1,0
            T1,08:10:00,08:10:00,S2,2,12
            T2,08:00:00,08:00:00,S1,1,0
            T2,08:10:00,08:10:00,S2,2,9
            T3,08:00:00,08:00:00,S1,1,0
            T3,08:10:00,08:10:00,S2,2,8
            T4,08:00:00,08:00:00,S1,1,0
            T4,08:10:00,08:10:00,S2,2,3

            """
        let changes: [String: String?] = [
            "shapes.txt": shapes, "stop_times.txt": stopTimes,
            "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH1\nR1,WD,T2,SH1\nR1,WD,T3,SH2\nR1,WD,T4,SH3\n"
        ]
        let build = try Checked(changes)
        #expect(build.built)
        let far = build.found(NoticeCode.tripDistanceExceedsShapeDistance)
        #expect(far.map(\.line) == [4] && far.first?.value == "SH2" && far.first?.field == "shape_id", "T3 ends 6.6 km from SH2's end")
        #expect(far.first?.severity == "WARNING")
        let near = build.found(NoticeCode.tripDistanceExceedsShapeDistanceBelowThreshold)
        #expect(near.map(\.line) == [2] && near.first?.value == "SH1", "T1 ends at SH1's end; T2 within it; SH3's greatest is 0")
        let strict = try Checked(changes, strict: true)
        #expect(!strict.built && strict.found(NoticeCode.tripDistanceExceedsShapeDistance).first?.severity == "ERROR")
        #expect(strict.found(NoticeCode.tripDistanceExceedsShapeDistanceBelowThreshold).first?.severity == "WARNING")
    }

    @Test("GTFS-Flex pickup windows: times beside a window, half a window, a window backwards, pickup and drop-off types")
    func flexWindows() throws {
        let geojson = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "zone", "properties": {}, "geometry": {"type": "Point", "coordinates": [13.2, 52.2]}}]}"#
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window,pickup_type,drop_off_type
            T1,,,,zone,1,08:00:00,20:00:00,2,1
            T1,08:30:00,08:30:00,,zone,2,08:00:00,20:00:00,2,1
            T1,,,,zone,3,08:00:00,,2,1
            T1,,,,zone,4,20:00:00,08:00:00,2,1
            T1,,,,zone,5,08:00:00,20:00:00,,3
            T1,,,,zone,6,08:00:00,20:00:00,3,0
            T2,08:00:00,08:00:00,S1,,1,,,0,0
            T2,08:10:00,08:10:00,S2,,2,,,,

            """
        let changes: [String: String?] = ["locations.geojson": geojson, "stop_times.txt": stopTimes]
        let build = try Checked(changes)
        #expect(build.built)
        #expect(build.found(NoticeCode.forbiddenArrivalOrDepartureTime).map(\.line) == [3])
        #expect(build.found(NoticeCode.forbiddenArrivalOrDepartureTime).first?.field == "arrival_time")
        let missing = build.found(NoticeCode.missingPickupOrDropOffWindow)
        #expect(missing.map(\.line) == [4] && missing.first?.field == "end_pickup_drop_off_window")
        #expect(build.found(NoticeCode.invalidPickupDropOffWindow).map(\.line) == [5])
        #expect(build.found(NoticeCode.forbiddenPickupType).compactMap(\.line).sorted() == [6, 7])
        #expect(build.found(NoticeCode.forbiddenPickupType).map(\.value).contains("3"))
        #expect(build.found(NoticeCode.forbiddenDropOffType).map(\.line) == [7])
        let all = [NoticeCode.forbiddenArrivalOrDepartureTime, NoticeCode.missingPickupOrDropOffWindow, NoticeCode.invalidPickupDropOffWindow, NoticeCode.forbiddenPickupType, NoticeCode.forbiddenDropOffType]
        #expect(all.allSatisfy { build.found($0).allSatisfy { $0.severity == "WARNING" } })
        let strict = try Checked(changes, strict: true)
        #expect(!strict.built && strict.found(NoticeCode.forbiddenDropOffType).first?.severity == "ERROR")
        let plain = try Checked([:])
        #expect(all.allSatisfy { plain.found($0).isEmpty }, "no window column: nothing read")
    }

    @Test("fast_travel_between_consecutive_stops and _far_stops: faster than the route_type allows, a trip at a stop without a place skipped")
    func travelSpeed() throws {
        // S1 to S2 is 13.0 km.
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:10:00,08:10:00,S2,2
            T2,08:00:00,08:00:00,S1,1
            T2,08:03:00,08:03:00,S2,2
            T4,08:00:00,08:00:00,S1,1
            T4,08:01:00,08:01:00,S2,2
            T4,08:20:00,08:20:00,S3,3
            T5,08:00:00,08:00:00,S1,1
            T5,08:01:00,08:01:00,S2,2
            T6,08:00:00,08:00:00,S1,1
            T6,08:01:00,08:01:00,S5,2

            """
        let build = try Checked([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.4\nS2,Two,52.6,13.5\nS3,Three,,\nS5,Five,52.55,13.4\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2,2\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,T2\nR1,WD,T4\nR2,WD,T5\nR1,WD,T6\n",
            "stop_times.txt": stopTimes
        ])
        #expect(build.built)
        let fast = build.found(NoticeCode.fastTravelBetweenConsecutiveStops)
        #expect(fast.map(\.line) == [5, 12], "T2: 195 km/h by bus; T6 167; T1 71; T4 has a stop without a place; T5 is rail (390 km/h)")
        let far = build.found(NoticeCode.fastTravelBetweenFarStops)
        #expect(far.map(\.line) == [5] && far.first?.severity == "WARNING", "T2's 13 km; T6's hop is 5.6 km")
        #expect(fast.first?.value == "08:03:00" && fast.first?.field == "arrival_time" && fast.first?.severity == "WARNING")
        #expect(TravelSpeedRule.seconds(from: 60, to: 120) == 120 && TravelSpeedRule.seconds(from: 60, to: 61) == 1)
        #expect(TravelSpeedRule.seconds(from: 60, to: 60) == 60 && TravelSpeedRule.limit(of: 715) == 200)
    }
}
