import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

@Suite("the canonical validator's rules on values, trips, shapes and pathways")
struct MoreCanonicalRuleTests {
    @Test("invalid_email, invalid_language_code, invalid_currency, point_near_origin, point_near_pole")
    func formats() throws {
        let changes: [String: String?] = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone,agency_lang,agency_email\nA,Agency,http://a.example,Europe/Berlin,en_US,info@\nB,Other,http://b.example,Europe/Berlin,pt-BR,info@b.example\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\n",
            "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nF1,2.5,EURO,0,\nF2,2.5,EUR,0,\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.4\nS2,Two,0.5,-0.2\nS3,Three,89.5,13.4\n"
        ]
        let build = try Checked(changes)
        #expect(build.built)
        #expect(build.found(NoticeCode.invalidEmail).map(\.value) == ["info@"] && build.found(NoticeCode.invalidEmail).first?.line == 2)
        #expect(build.found(NoticeCode.invalidLanguageCode).map(\.value) == ["en_US"])
        #expect(build.found(NoticeCode.invalidCurrency).map(\.line) == [2] && build.found(NoticeCode.invalidCurrency).first?.severity == "WARNING")
        #expect(build.found(NoticeCode.pointNearOrigin).map(\.line) == [3])
        #expect(build.found(NoticeCode.pointNearPole).map(\.line) == [4])
        let strict = try Checked(changes, strict: true)
        #expect(!strict.built && strict.found(NoticeCode.invalidCurrency).first?.severity == "ERROR")
        #expect(FieldFormatChecks.isEmail("a.b+c@x-y.example.org") && !FieldFormatChecks.isEmail("a b@x.example") && !FieldFormatChecks.isEmail("a@x"))
        #expect(FieldFormatChecks.isLanguageTag("zh-Hant-TW") && FieldFormatChecks.isLanguageTag("mul") && !FieldFormatChecks.isLanguageTag("e"))
    }

    @Test("unusable_trip: a trip with one stop time or none")
    func unusableTrips() throws {
        let build = try Checked(["trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,T2\nR1,WD,T3\n"])
        #expect(build.built)
        #expect(build.found(NoticeCode.unusableTrip).compactMap(\.value).sorted() == ["T2", "T3"])
        #expect(build.found(NoticeCode.unusableTrip).allSatisfy { $0.severity == "WARNING" })
        #expect(build.found(NoticeCode.unusedTrip).map(\.value) == ["T3"])
    }

    @Test("overlapping_frequency and block_trips_with_overlapping_stop_times")
    func overlaps() throws {
        let trips = "route_id,service_id,trip_id,block_id\nR1,WD,T1,B1\nR1,WD,T2,B1\nR1,WD,T3,B2\nR1,WD,T4,B2\n"
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:10:00,08:10:00,S2,2
            T2,08:05:00,08:05:00,S2,1
            T2,08:20:00,08:20:00,S1,2
            T3,09:00:00,09:00:00,S1,1
            T3,09:10:00,09:10:00,S2,2
            T4,09:10:00,09:10:00,S2,1
            T4,09:20:00,09:20:00,S1,2

            """
        let frequencies = "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,08:00:00,600\nT1,07:30:00,09:00:00,600\nT3,06:00:00,07:00:00,600\nT3,07:00:00,08:00:00,600\n"
        let build = try Checked(["trips.txt": trips, "stop_times.txt": stopTimes, "frequencies.txt": frequencies])
        #expect(build.built)
        #expect(build.found(NoticeCode.overlappingFrequency).map(\.line) == [3], "07:00 after 07:00 is not an overlap")
        let blocks = build.found(NoticeCode.blockTripsWithOverlappingStopTimes)
        #expect(blocks.map(\.line) == [2] && blocks.first?.value == "B1", "T4 starts with T3's last times: a transfer")
        let message = build.notices.first { $0["code"] as? String == NoticeCode.blockTripsWithOverlappingStopTimes }?["message"]
        #expect(message as? String == """
            of trip_id 'T1': the trip runs until 08:10:00, after trip_id 'T2' of the same block_id 'B1' starts (08:05:00), \
            on 2026-01-01: one vehicle cannot run both
            """, "\(message ?? "")")
        var apart = trips
        apart = apart.replacingOccurrences(of: "R1,WD,T2,B1", with: "R1,SA,T2,B1")
        let calendar = MinimalFeed.files["calendar.txt"]! + "SA,0,0,0,0,0,1,0,20260101,20261231\n"
        let otherDays = try Checked(["trips.txt": apart, "stop_times.txt": stopTimes, "calendar.txt": calendar])
        #expect(otherDays.found(NoticeCode.blockTripsWithOverlappingStopTimes).isEmpty, "trips on no common day")
    }

    @Test("shapes: decreasing_shape_distance, equal_shape_distance_*, points near the origin")
    func shapes() throws {
        let shapes = """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            SH1,52.5,13.4,1,0
            SH1,52.51,13.4,2,10
            SH1,52.52,13.4,3,5
            SH1,52.52,13.4,4,5
            SH2,52.5,13.4,1,0
            SH2,52.6,13.4,2,0
            SH2,52.600001,13.4,3,0
            SH3,0.1,0.1,1,

            """
        let build = try Checked(["shapes.txt": shapes, "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH1\nR1,WD,T2,SH2\n"])
        #expect(build.built)
        #expect(build.found(NoticeCode.decreasingShapeDistance).map(\.line) == [4])
        #expect(build.found(NoticeCode.equalShapeDistanceSameCoordinates).map(\.line) == [5])
        #expect(build.found(NoticeCode.equalShapeDistanceDiffCoordinates).map(\.line) == [7])
        #expect(build.found(NoticeCode.equalShapeDistanceDiffCoordinatesBelowThreshold).map(\.line) == [8])
        #expect(build.found(NoticeCode.pointNearOrigin).map(\.line) == [9])
        #expect(build.found(NoticeCode.singleShapePoint).map(\.line) == [9], "SH3 has one point")
        #expect(build.found(NoticeCode.decreasingShapeDistance).first?.severity == "WARNING")
        let increasing = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\nSH1,52.5,13.4,2,10\nSH1,52.6,13.4,1,0\n"
        #expect(try Checked(["shapes.txt": increasing, "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH1\n"]).notices.allSatisfy {
            ($0["file"] as? String)?.hasSuffix("shapes.txt") != true
        }, "points are compared in shape_pt_sequence order, not the file's")
    }

    @Test("pathways: wrong ends, loops, exit gates, elevators without levels, unreachable and dangling locations")
    func pathways() throws {
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,level_id
            S1,One,52.5,13.4,0,,
            S2,Two,52.6,13.5,0,,
            ST,Station,52.5,13.4,1,,
            P1,Platform 1,52.5,13.4,0,ST,
            P2,Platform 2,52.5,13.4,0,ST,
            BA,Boarding area,52.5,13.4,4,P2,
            E1,Entrance,52.5,13.4,2,ST,
            N1,Node,52.5,13.4,3,ST,
            N2,Node 2,52.5,13.4,3,ST,

            """
        let pathways = """
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional
            PW1,E1,P1,1,1
            PW2,E1,ST,1,1
            PW3,E1,P2,1,1
            PW4,N1,N1,1,0
            PW5,E1,N1,7,1
            PW6,P1,BA,5,0
            PW7,E1,N2,1,1

            """
        let build = try Checked(["stops.txt": stops, "pathways.txt": pathways])
        #expect(build.built)
        #expect(build.found(NoticeCode.pathwayToWrongLocationType).map(\.line) == [3])
        #expect(build.found(NoticeCode.pathwayToPlatformWithBoardingAreas).map(\.line) == [4])
        #expect(build.found(NoticeCode.pathwayLoop).map(\.line) == [5] && build.found(NoticeCode.pathwayLoop).first?.severity == "WARNING")
        #expect(build.found(NoticeCode.bidirectionalExitGate).map(\.line) == [6])
        #expect(build.found(NoticeCode.missingLevelID).map(\.field) == ["from_stop_id", "to_stop_id"])
        #expect(build.found(NoticeCode.pathwayUnreachableLocation).map(\.value) == ["BA"], "reaches no exit")
        #expect(build.found(NoticeCode.pathwayDanglingGenericNode).map(\.value) == ["N2"], "N1's loop counts as a neighbour")
        let strict = try Checked(["stops.txt": stops, "pathways.txt": pathways], strict: true)
        #expect(!strict.built && strict.found(NoticeCode.bidirectionalExitGate).first?.severity == "ERROR")
    }

    @Test("timepoint: missing_timepoint_value with the column, stop_time_timepoint_without_times")
    func timepoints() throws {
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,timepoint
            T1,08:00:00,08:00:00,S1,1,1
            T1,08:05:00,08:05:00,S2,2,
            T1,,,S1,3,1
            T1,08:10:00,08:10:00,S2,4,0
            T2,25:10:00,25:10:00,S1,1,0
            T2,25:20:00,25:20:00,S2,2,0

            """
        let build = try Checked(["stop_times.txt": stopTimes])
        #expect(build.found(NoticeCode.missingTimepointValue).map(\.line) == [3])
        #expect(build.found(NoticeCode.stopTimeTimepointWithoutTimes).map(\.line) == [4])
        let late = stopTimes.replacingOccurrences(of: "S1,1,1\n", with: "S1,1,\n")
        #expect(try Checked(["stop_times.txt": late]).found(NoticeCode.missingTimepointValue).map(\.line) == [2, 3], "found before the first row that gives one")
        #expect(try Checked([:]).found(NoticeCode.missingTimepointValue).isEmpty, "no timepoint column")
        let empty = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,timepoint\nT1,08:00:00,08:00:00,S1,1,\nT1,08:10:00,08:10:00,S2,2,\n"
        #expect(try Checked(["stop_times.txt": empty]).found(NoticeCode.missingTimepointValue).map(\.line) == [2, 3], "the header has it")
    }

    @Test("same_route_and_agency_url, route_long_name_contains_short_name, missing_bike_allowance, non_ascii ids")
    func advice() throws {
        let routes = """
            route_id,agency_id,route_short_name,route_long_name,route_type,route_url
            R1,A,1,1 - Main Street,3,HTTP://a.example
            R2,A,10,100 Street,4,http://r2.example

            """
        let build = try Checked([
            "routes.txt": routes, "trips.txt": "route_id,service_id,trip_id,bikes_allowed\nR1,WD,T1,\nR2,WD,T2,\nR2,WD,T3,1\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.4\nS2,Two,52.6,13.5\nSÜD,Süd,52.6,13.5\n"
        ])
        #expect(build.built)
        #expect(build.found(NoticeCode.sameRouteAndAgencyURL).map(\.line) == [2])
        #expect(build.found(NoticeCode.routeLongNameContainsShortName).map(\.line) == [2])
        #expect(build.found(NoticeCode.missingBikeAllowance).map(\.line) == [3], "a ferry's trip only")
        #expect(build.found(NoticeCode.nonASCIIOrNonPrintableChar).map(\.value) == ["SÜD"])
        #expect(AdviceChecks.longNameRepeats(short: "A", long: "a (express)") && !AdviceChecks.longNameRepeats(short: "1", long: "10"))
    }

    @Test("a region seed with a load error still checks each feed; a file a feed lacks names the feed")
    func regionAfterLoadError() throws {
        let folder = TemporaryFolder()
        let source = Repository.path("Tests/Fixtures/gtfs/sample-feed")
        for name in ["a", "b"] { try FileManager.default.copyItem(atPath: source, toPath: folder.file(name)) }
        let stopTimes = folder.file("b/stop_times.txt")
        let text = try String(contentsOfFile: stopTimes, encoding: .utf8)
        try text.replacingOccurrences(of: ",STAGECOACH,", with: ",NOWHERE,").write(
            toFile: stopTimes, atomically: true, encoding: .utf8)
        var options = BuildOptions(inputs: [folder.file("a"), folder.file("b")], output: folder.file("region.sqlite"))
        options.notices = folder.file("notices.json")
        options.today = "2026-06-01"
        #expect(throws: (any Error).self) { _ = try SeedBuilder(options: options).build() }
        let data = try #require(FileManager.default.contents(atPath: folder.file("notices.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let notices = report["notices"] as? [[String: Any]] ?? []
        let feeds = { (code: String) in Set(notices.filter { $0["code"] as? String == code }.compactMap { $0["feed"] as? String }) }
        #expect(feeds(NoticeCode.foreignKeyViolation) == ["b"])
        #expect(feeds(NoticeCode.missingRecommendedFile) == ["a", "b"], "feed_info.txt is missing in each feed")
        #expect(feeds(NoticeCode.expiredCalendar) == ["a", "b"], "the checks ran after the load error")
    }

    @Test("booking rules: fields each booking_type forbids or needs, and the prior notice's order")
    func bookingRules() throws {
        let rules = """
            booking_rule_id,booking_type,prior_notice_duration_min,prior_notice_duration_max,prior_notice_last_day,prior_notice_last_time,prior_notice_start_day,prior_notice_start_time,prior_notice_service_id
            RT,0,30,,,,,,
            SD,1,,,1,,,,
            PD,2,10,,,,,,
            MM,1,60,30,,,,,
            SS,2,,,3,12:00:00,2,,
            OK,1,30,,,,,,

            """
        let build = try Checked(["booking_rules.txt": rules])
        #expect(build.built)
        #expect(build.found(NoticeCode.forbiddenRealTimeBookingFieldValue).map(\.line) == [2])
        #expect(build.found(NoticeCode.forbiddenSameDayBookingFieldValue).map(\.line) == [3])
        #expect(build.found(NoticeCode.missingPriorNoticeDurationMin).map(\.line) == [3])
        #expect(build.found(NoticeCode.forbiddenPriorDayBookingFieldValue).map(\.line) == [4])
        #expect(build.found(NoticeCode.missingPriorNoticeLastDay).map(\.line) == [4])
        #expect(build.found(NoticeCode.missingPriorNoticeLastTime).map(\.line) == [4])
        #expect(build.found(NoticeCode.invalidPriorNoticeDurationMin).map(\.line) == [5])
        #expect(build.found(NoticeCode.priorNoticeLastDayAfterStartDay).map(\.line) == [6])
        #expect(build.found(NoticeCode.missingPriorNoticeStartTime).map(\.line) == [6])
        #expect(!build.notices.contains { $0["line"] as? Int == 7 && ($0["file"] as? String)?.hasSuffix("booking_rules.txt") == true })
        let strict = try Checked(["booking_rules.txt": rules], strict: true)
        #expect(!strict.built && strict.found(NoticeCode.forbiddenRealTimeBookingFieldValue).first?.severity == "ERROR")
    }

    @Test("fares v2: transfer rules' counts and limits, timeframes, default rider categories")
    func faresV2() throws {
        let transfers = """
            from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,duration_limit_type,fare_transfer_type
            G1,G2,,60,,0
            G1,G2,,,1,0
            G1,G1,0,,,0
            G1,G2,2,,,0
            G2,G2,,,,0
            G1,G1,-1,60,1,0

            """
        let timeframes = """
            timeframe_group_id,start_time,end_time,service_id
            PEAK,07:00:00,,WD
            PEAK,08:00:00,25:00:00,WD
            OFF,00:00:00,10:00:00,WD
            OFF,09:00:00,12:00:00,WD
            OFF,12:00:00,13:00:00,WD

            """
        let build = try Checked([
            "fare_transfer_rules.txt": transfers, "timeframes.txt": timeframes,
            "fare_leg_rules.txt": "leg_group_id,fare_product_id\nG1,P1\nG2,P2\n",
            "rider_categories.txt": "rider_category_id,rider_category_name,is_default_fare_category\nADULT,Adult,1\nSENIOR,Senior,1\nCHILD,Child,0\n",
            "fare_products.txt": "fare_product_id,rider_category_id,amount,currency\nP1,ADULT,2,EUR\nP1,SENIOR,1,EUR\nP2,ADULT,2,EUR\nP2,CHILD,1,EUR\n"
        ])
        #expect(build.built)
        #expect(build.found(NoticeCode.fareTransferRuleDurationLimitWithoutType).map(\.line) == [2])
        #expect(build.found(NoticeCode.fareTransferRuleDurationLimitTypeWithoutDurationLimit).map(\.line) == [3])
        #expect(build.found(NoticeCode.fareTransferRuleInvalidTransferCount).map(\.line) == [4])
        #expect(build.found(NoticeCode.fareTransferRuleWithForbiddenTransferCount).map(\.line) == [5])
        #expect(build.found(NoticeCode.fareTransferRuleWithoutTransferCount).map(\.line) == [6])
        #expect(build.found(NoticeCode.timeframeOnlyStartOrEndTimeSpecified).map(\.line) == [2])
        #expect(build.found(NoticeCode.timeframeStartOrEndTimeGreaterThanTwentyFourHours).map(\.line) == [3])
        #expect(build.found(NoticeCode.timeframeOverlap).map(\.line) == [5], "the later of two; 12:00 after 12:00 is no overlap")
        #expect(build.found(NoticeCode.fareProductWithMultipleDefaultRiderCategories).map(\.line) == [2, 3])
    }

    @Test("ranges out of order, agencies' time zones, transfers, stop_access, stop times at a station")
    func consistency() throws {
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,stop_access
            S1,One,52.5,13.4,0,ST,1
            S2,Two,52.6,13.5,0,,1
            ST,Station,52.5,13.4,1,,0
            E1,Entrance,52.5,13.4,2,ST,

            """
        let build = try Checked([
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,http://a.example,Europe/Berlin\nB,Other,http://b.example,Europe/Paris\n",
            "calendar.txt": MinimalFeed.files["calendar.txt"]! + "BAD,1,1,1,1,1,0,0,20261231,20260101\n",
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,09:00:00,08:00:00,600\nT1,10:00:00,10:00:00,600\n",
            "stops.txt": stops,
            "stop_times.txt": MinimalFeed.files["stop_times.txt"]! + "T2,25:20:00,25:20:00,ST,2\n",
            "transfers.txt": "from_stop_id,to_stop_id,from_route_id,from_trip_id,to_trip_id,transfer_type\nE1,S1,,,,0\nS1,S2,R2,T1,,0\nS2,S2,,T2,T1,1\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,B,2,3\n"
        ])
        #expect(build.built)
        #expect(build.found(NoticeCode.startAndEndRangeOutOfOrder).compactMap(\.line).sorted() == [2, 3], "calendar line 3, frequencies line 2")
        #expect(build.found(NoticeCode.startAndEndRangeEqual).map(\.line) == [3])
        #expect(build.found(NoticeCode.inconsistentAgencyTimezone).map(\.value) == ["Europe/Paris"])
        #expect(build.found(NoticeCode.transferWithInvalidStopLocationType).map(\.line) == [2])
        #expect(build.found(NoticeCode.transferWithInvalidTripAndRoute).map(\.line) == [3])
        #expect(build.found(NoticeCode.transferWithInvalidTripAndStop).map(\.line) == [4], "T2 serves S1 and ST, not S2")
        #expect(build.found(NoticeCode.stopAccessSpecifiedForIncorrectLocation).map(\.line) == [4])
        #expect(build.found(NoticeCode.stopAccessSpecifiedForStopWithNoParentStation).map(\.line) == [3])
        #expect(build.found(NoticeCode.locationWithUnexpectedStopTime).map(\.value) == ["1"] && build.found(NoticeCode.locationWithUnexpectedStopTime).first?.line == 4)
    }
}
