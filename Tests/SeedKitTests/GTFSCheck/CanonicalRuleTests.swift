import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

/// A build of the minimal feed with `changes` and `today`, its notices report read back.
private struct RuleBuild {
    var built: Bool
    var report: [String: Any]
    var failure: String?
    var notices: [[String: Any]] { report["notices"] as? [[String: Any]] ?? [] }

    /// The notices of `code`.
    func notices(_ code: String) -> [[String: Any]] { notices.filter { $0["code"] as? String == code } }

    init(_ changes: [String: String?] = [:], today: String = "2026-06-01", strict: Bool = false) throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, changes)
        var options = BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite"), strict: strict)
        options.notices = folder.file("notices.json")
        options.today = today
        do { _ = try SeedBuilder(options: options).build(); built = true } catch {
            built = false
            failure = error.description
        }
        let data = try #require(FileManager.default.contents(atPath: folder.file("notices.json")))
        report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

private let feedInfo = "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version,feed_contact_email\nP,http://p.example,en,20260101,20261231,1,a@p.example\n"
private let agencies = "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,http://a.example,Europe/Berlin\nB,Other,http://b.example,Europe/Berlin\n"

@Suite("the canonical validator's rules, under its codes: each found, placed, at its severity")
struct CanonicalRuleTests {
    @Test("the minimal feed with feed_info.txt says nothing; without it, missing_recommended_file")
    func quietFeed() throws {
        // T2 of the minimal feed has one stop time (unusable_trip): given a second here.
        let stopTimes = MinimalFeed.files["stop_times.txt"]! + "T2,25:20:00,25:20:00,S2,2\n"
        let full = try RuleBuild(["feed_info.txt": feedInfo, "stop_times.txt": stopTimes])
        #expect(full.built && full.notices.isEmpty, "\(full.notices)")
        #expect(full.report["today"] as? String == "2026-06-01")
        let bare = try RuleBuild(["stop_times.txt": stopTimes])
        #expect(bare.built && bare.report["counts"] as? [String: Int] == [NoticeCode.missingRecommendedFile: 1])
        #expect(bare.notices.first?["file"] as? String == "feed_info.txt" && bare.notices.first?["severity"] as? String == "WARNING")
    }

    @Test("feed_info.txt: recommended fields empty, no contact")
    func feedInfoFields() throws {
        let build = try RuleBuild(["feed_info.txt": "feed_publisher_name,feed_publisher_url,feed_lang\nP,http://p.example,en\n"])
        #expect(build.built)
        #expect(Set(build.notices(NoticeCode.missingRecommendedField).compactMap { $0["field"] as? String }) == ["feed_start_date", "feed_end_date", "feed_version"])
        #expect(build.notices(NoticeCode.missingRecommendedField).allSatisfy { $0["line"] as? Int == 2 })
        #expect(build.notices(NoticeCode.missingFeedContactEmailAndURL).count == 1)
    }

    @Test("invalid_url: a warning at its field, an error under --strict")
    func invalidURL() throws {
        let agency = "agency_id,agency_name,agency_url,agency_timezone,agency_fare_url\nA,Agency,http://a.example,Europe/Berlin,www.a.example\n"
        let build = try RuleBuild(["agency.txt": agency, "feed_info.txt": feedInfo])
        #expect(build.built)
        let notice = try #require(build.notices(NoticeCode.invalidURL).first)
        #expect(notice["field"] as? String == "agency_fare_url" && notice["value"] as? String == "www.a.example" && notice["line"] as? Int == 2)
        #expect(notice["severity"] as? String == "WARNING" && build.notices(NoticeCode.invalidURL).count == 1)
        let strict = try RuleBuild(["agency.txt": agency, "feed_info.txt": feedInfo], strict: true)
        #expect(!strict.built && strict.notices(NoticeCode.invalidURL).first?["severity"] as? String == "ERROR")
        #expect(FeedChecks.isURL("https://x.example/a b") == false && FeedChecks.isURL("HTTP://x.example") && !FeedChecks.isURL("http://"))
    }

    @Test("agency_id: recommended with one agency, missing_required_agency_id with several")
    func agencyIDs() throws {
        let one = try RuleBuild(["routes.txt": "route_id,route_short_name,route_type\nR1,1,3\n", "feed_info.txt": feedInfo])
        #expect(one.built && one.notices(NoticeCode.missingRecommendedField).map { $0["file"] as? String }.contains { $0?.hasSuffix("routes.txt") == true })
        let several = try RuleBuild(["agency.txt": agencies, "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,,1,3\nR2,B,2,3\n",
                                     "feed_info.txt": feedInfo])
        #expect(several.built)
        let notice = try #require(several.notices(NoticeCode.missingRequiredAgencyID).first)
        #expect(notice["line"] as? Int == 2 && notice["field"] as? String == "agency_id" && several.notices(NoticeCode.missingRequiredAgencyID).count == 1)
    }

    @Test("route_short_name_too_long and mixed_case_recommended_field")
    func names() throws {
        let routes = "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,Pasian di Prato,MAIN STREET,3\nR2,A,2,Main Street,3\n"
        let build = try RuleBuild(["routes.txt": routes, "feed_info.txt": feedInfo])
        #expect(build.notices(NoticeCode.routeShortNameTooLong).map { $0["value"] as? String } == ["Pasian di Prato"])
        #expect(build.notices(NoticeCode.mixedCaseRecommendedField).map { $0["value"] as? String } == ["MAIN STREET"])
        #expect(FeedChecks.isSingleCase("palmeraie") && FeedChecks.isSingleCase("PK 18 ancien marché") && !FeedChecks.isSingleCase("Hauptbahnhof"))
        #expect(!FeedChecks.isSingleCase("12") && !FeedChecks.isSingleCase("U2"))
    }

    @Test("stop_without_stop_time: a stop no trip calls at, not a station")
    func unservedStop() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\nS1,One,52.5,13.4,,\nS2,Two,52.6,13.5,,\nS3,Three,52.7,13.6,0,\nST,Station,52.7,13.6,1,\n"
        let build = try RuleBuild(["stops.txt": stops, "feed_info.txt": feedInfo])
        #expect(build.built)
        #expect(build.notices(NoticeCode.stopWithoutStopTime).map { $0["value"] as? String } == ["S3"])
        #expect(build.notices(NoticeCode.stopWithoutStopTime).first?["line"] as? Int == 4)
    }

    @Test("decreasing_or_equal_stop_time_distance: along each trip, in stop_sequence order")
    func distances() throws {
        let stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\nT1,08:00:00,08:00:00,S1,1,0.0\nT1,08:10:00,08:10:00,S2,2,0.0\nT2,25:10:00,25:10:00,S1,1,5\n"
        let build = try RuleBuild(["stop_times.txt": stopTimes, "feed_info.txt": feedInfo])
        #expect(build.built)
        let notice = try #require(build.notices(NoticeCode.decreasingStopTimeDistance).first)
        #expect(build.notices(NoticeCode.decreasingStopTimeDistance).count == 1 && notice["line"] as? Int == 3 && notice["severity"] as? String == "WARNING")
        let strict = try RuleBuild(["stop_times.txt": stopTimes, "feed_info.txt": feedInfo], strict: true)
        #expect(!strict.built)
    }

    @Test("stop_too_far_from_shape: each (shape, stop) once, at the first stop time; rail termini get 400 m")
    func stopsFarFromShape() throws {
        // SH1 runs straight from S1 to S2; S3 is 200 m off its middle, S4 60 m, S5 250 m before its start.
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon,parent_station
            S1,One,52.5,13.4,
            S2,Two,52.6,13.5,
            S3,Three,52.550935,13.447476,
            S4,Four,52.550281,13.449243,
            S5,Five,52.497752,13.4,
            P5,Platform,,,S5

            """
        let shapes = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,52.5,13.4,1\nSH1,52.6,13.5,2\n"
        let trips = "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH1\nR1,WD,T2,SH1\nR2,WD,T3,SH1\n"
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:05:00,08:05:00,S4,2
            T1,08:06:00,08:06:00,S3,3
            T1,08:10:00,08:10:00,S2,4
            T2,09:00:00,09:00:00,S3,1
            T2,09:10:00,09:10:00,S2,2
            T3,10:00:00,10:00:00,P5,1
            T3,10:10:00,10:10:00,S2,2

            """
        func build(railType: Int) throws -> RuleBuild {
            try RuleBuild([
                "stops.txt": stops, "shapes.txt": shapes, "trips.txt": trips, "stop_times.txt": stopTimes,
                "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2,\(railType)\n",
                "feed_info.txt": feedInfo
            ])
        }
        let rail = try build(railType: 2)
        #expect(rail.built)
        let far = rail.notices(NoticeCode.stopTooFarFromShape)
        #expect(far.map { $0["value"] as? String } == ["S3"], "\(far)")
        let notice = try #require(far.first)
        #expect(notice["line"] as? Int == 4 && notice["field"] as? String == "stop_id" && notice["severity"] as? String == "WARNING")
        #expect((notice["message"] as? String)?.hasPrefix("is 200 m from shape_id 'SH1' of trip_id 'T1'") == true, "\(notice)")
        let bus = try build(railType: 3)
        #expect(bus.notices(NoticeCode.stopTooFarFromShape).map { $0["value"] as? String } == ["S3", "P5"], "a platform at its station's place, 250 m off")
        let line = Polyline(latitudes: [52.5, 52.6], longitudes: [13.4, 13.5])
        let (segment, distance) = line.nearest(latitude: 52.550935, longitude: 13.447476, within: 100, from: 0)
        #expect(segment == nil && abs(distance - 200) < 0.5)
        #expect(line.nearest(latitude: 52.550281, longitude: 13.449243, within: 100, from: 5).0 == 0)
    }

    @Test("--today: expired_calendar and the next 7 days' coverage follow the day given, not the clock")
    func today() throws {
        let during = try RuleBuild(["feed_info.txt": feedInfo], today: "2026-06-01")
        #expect(during.notices(NoticeCode.expiredCalendar).isEmpty && during.notices(NoticeCode.tripCoverageNotActiveForNext7Days).isEmpty)
        let late = try RuleBuild(["feed_info.txt": feedInfo], today: "2026-12-28")
        #expect(late.notices(NoticeCode.expiredCalendar).isEmpty && late.notices(NoticeCode.tripCoverageNotActiveForNext7Days).count == 1)
        let after = try RuleBuild(["feed_info.txt": feedInfo], today: "2027-01-01")
        let expired = try #require(after.notices(NoticeCode.expiredCalendar).first)
        #expect(expired["value"] as? String == "WD" && expired["line"] as? Int == 2 && expired["severity"] as? String == "WARNING")
        #expect(after.report["today"] as? String == "2027-01-01" && after.built)
        let added = try RuleBuild(["feed_info.txt": feedInfo, "calendar_dates.txt": "service_id,date,exception_type\nWD,20270105,1\n"], today: "2027-01-01")
        #expect(added.notices(NoticeCode.expiredCalendar).isEmpty, "a date added after today keeps the service alive")
    }

    @Test("without --today, today is the build's date in UTC, as Foundation's ISO 8601 formatter writes it")
    func todayDefault() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let before = formatter.string(from: Date())
        let today = BuildOptions(inputs: [], output: "seed.sqlite").effectiveToday
        let after = formatter.string(from: Date())
        #expect(today == before || today == after, "\(today), the clock's \(before)")
        var given = BuildOptions(inputs: [], output: "seed.sqlite")
        given.today = "2027-01-01"
        #expect(given.effectiveToday == "2027-01-01")
    }

    @Test("one pass: a load error does not hide the checks' findings; the message ends with the counts by code")
    func onePass() throws {
        let build = try RuleBuild(["calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20260101,20261331\n",
                                   "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH9\nR1,WD,T2,\n", "feed_info.txt": feedInfo])
        #expect(!build.built)
        #expect(build.notices(NoticeCode.invalidDate).count == 1, "the load stage's error")
        #expect(build.notices(NoticeCode.foreignKeyViolation).contains { $0["value"] as? String == "SH9" }, "the checks ran after it: \(build.notices)")
        let failure = try #require(build.failure)
        #expect(failure.hasSuffix("errors: foreign_key_violation 1, invalid_date 1; warnings: none") || failure.contains("errors: foreign_key_violation"), "\(failure)")
        #expect(failure.split(separator: "\n").last?.hasPrefix("errors: ") == true, "\(failure)")
    }
}
