import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

@Suite("the canonical validator's rules on how trips' stops match their shapes")
struct ShapeMatchRuleTests {
    // At latitude 52.5, 0.01 degrees of longitude is 678 m: SH1 runs east from 13.40 to 13.42,
    // SH2 goes there and back.
    static let shapes = """
        shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
        SH1,52.5,13.40,1,0
        SH1,52.5,13.41,2,678
        SH1,52.5,13.42,3,1356
        SH2,52.5,13.40,1,0
        SH2,52.5,13.41,2,678
        SH2,52.5,13.42,3,1356
        SH2,52.5,13.41,4,2034
        SH2,52.5,13.40,5,2712

        """
    static let stops = "stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.40\nS2,Two,52.5,13.405\nS3,Three,52.5,13.42\n"
    static let trips = "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH1\nR1,WD,T2,SH1\nR1,WD,T3,SH1\nR1,WD,T4,SH2\n"

    @Test("stops_match_shape_out_of_order and stop_too_far_from_shape_using_user_distance; a loop is in order")
    func outOfOrderAndUserDistance() throws {
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
            T1,08:00:00,08:00:00,S1,1,0
            T1,08:05:00,08:05:00,S2,2,339
            T1,08:10:00,08:10:00,S3,3,1356
            T2,09:00:00,09:00:00,S1,1,
            T2,09:10:00,09:10:00,S3,2,
            T2,09:20:00,09:20:00,S2,3,
            T3,10:00:00,10:00:00,S2,1,900
            T3,10:10:00,10:10:00,S3,2,1356
            T4,11:00:00,11:00:00,S1,1,0
            T4,11:05:00,11:05:00,S2,2,339
            T4,11:10:00,11:10:00,S3,3,1356
            T4,11:15:00,11:15:00,S2,4,2373
            T4,11:20:00,11:20:00,S1,5,2712

            """
        let build = try Checked([
            "shapes.txt": Self.shapes, "stops.txt": Self.stops, "trips.txt": Self.trips, "stop_times.txt": stopTimes
        ])
        #expect(build.built)
        let order = build.found(NoticeCode.stopsMatchShapeOutOfOrder)
        #expect(order.map(\.line) == [7], "T2 serves S2 after S3, back along SH1; T4 goes there and back along SH2")
        #expect(order.first?.value == "S2" && order.first?.field == "stop_id" && order.first?.severity == "WARNING")
        let user = build.found(NoticeCode.stopTooFarFromShapeUsingUserDistance)
        #expect(user.map(\.line) == [8], "900 m along SH1 is 565 m from S2; T1's and T4's distances place their stops")
        #expect(user.first?.value == "900" && user.first?.field == "shape_dist_traveled")
        #expect(build.found(NoticeCode.stopTooFarFromShape).isEmpty)
        let strict = try Checked(
            ["shapes.txt": Self.shapes, "stops.txt": Self.stops, "trips.txt": Self.trips, "stop_times.txt": stopTimes],
            strict: true)
        #expect(strict.built, "best-practice warnings whatever the flags")
    }
}
