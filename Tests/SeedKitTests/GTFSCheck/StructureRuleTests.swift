import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

/// A build of the minimal feed with `changes`, its notices report read back.
private struct Build {
    var built: Bool
    var notices: [[String: Any]]

    /// The notices of `code`, each as (line, value, severity).
    func found(_ code: String) -> [(line: Int?, value: String?, severity: String?)] {
        notices.filter { $0["code"] as? String == code }.map {
            ($0["line"] as? Int, $0["value"] as? String, $0["severity"] as? String)
        }
    }

    init(_ changes: [String: String?], today: String = "2026-06-01", strict: Bool = false) throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, changes)
        var options = BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite"), strict: strict)
        options.notices = folder.file("notices.json")
        options.today = today
        do { _ = try SeedBuilder(options: options).build(); built = true } catch { built = false }
        let data = try #require(FileManager.default.contents(atPath: folder.file("notices.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        notices = report["notices"] as? [[String: Any]] ?? []
    }
}

@Suite("the canonical validator's rules on how rows fit together and what nothing uses")
struct StructureRuleTests {
    @Test("stations: wrong_parent_location_type, station_with_parent_station, location_without_parent_station")
    func stations() throws {
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            S1,One,52.5,13.4,0,ST2
            S2,Two,52.6,13.5,0,S1
            ST,Station,52.5,13.4,1,ST2
            ST2,Station 2,52.5,13.4,1,
            E1,Entrance,52.5,13.4,2,

            """
        let build = try Build(["stops.txt": stops])
        #expect(build.built)
        let wrong = build.found(NoticeCode.wrongParentLocationType)
        #expect(wrong.count == 1 && wrong.first?.line == 3 && wrong.first?.value == "S1" && wrong.first?.severity == "WARNING")
        #expect(build.found(NoticeCode.stationWithParentStation).map(\.line) == [4])
        #expect(build.found(NoticeCode.locationWithoutParentStation).map(\.line) == [6])
        let strict = try Build(["stops.txt": stops], strict: true)
        #expect(!strict.built && strict.found(NoticeCode.wrongParentLocationType).first?.severity == "ERROR")
    }

    @Test("translation_foreign_key_violation: a record_id (and record_sub_id) naming no row")
    func translations() throws {
        let translations = """
            table_name,field_name,language,translation,record_id,record_sub_id,field_value
            stops,stop_name,de,Eins,S1,,
            stops,stop_name,de,Neun,S9,,
            stop_times,stop_headsign,de,X,T1,2,
            stop_times,stop_headsign,de,Y,T1,7,
            routes,route_long_name,de,Z,,,Main

            """
        let build = try Build(["translations.txt": translations])
        #expect(build.built)
        let found = build.found(NoticeCode.translationForeignKeyViolation)
        #expect(found.map(\.line) == [3, 5] && found.map(\.value) == ["S9", "T1"], "\(found)")
    }

    @Test("route_networks_specified_in_more_than_one_file: routes.network_id beside route_networks.txt")
    func networks() throws {
        let changes: [String: String?] = [
            "routes.txt": "route_id,agency_id,route_short_name,route_type,network_id\nR1,A,1,3,N1\n",
            "networks.txt": "network_id,network_name\nN1,Net\n", "route_networks.txt": "network_id,route_id\nN1,R1\n"
        ]
        let build = try Build(changes)
        #expect(build.built && build.found(NoticeCode.routeNetworksInMoreThanOneFile).count == 1)
        var apart = changes
        apart["route_networks.txt"] = nil
        #expect(try Build(apart).found(NoticeCode.routeNetworksInMoreThanOneFile).isEmpty)
    }

    @Test("unused_trip, unused_shape, duplicate_route_name (extended route types count as one)")
    func usage() throws {
        let build = try Build([
            "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH1\nR1,WD,T2,\nR1,WD,T3,\n",
            "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,52.5,13.4,1\nSH1,52.6,13.5,2\nSH2,52.5,13.4,1\nSH2,52.6,13.5,2\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,1,3\nR3,A,1,700\nR4,A,1,900\nR5,A,1,0\n"
        ])
        #expect(build.built)
        #expect(build.found(NoticeCode.unusedTrip).map(\.value) == ["T3"] && build.found(NoticeCode.unusedTrip).first?.line == 4)
        #expect(build.found(NoticeCode.unusedShape).map(\.value) == ["SH2"] && build.found(NoticeCode.unusedShape).first?.line == 4)
        #expect(build.found(NoticeCode.duplicateRouteName).map(\.value) == ["R2", "R4"])
    }

    @Test("unused_trip wherever the trip stands in the pass's order: first, between used trips, last")
    func unusedTripsInOrder() throws {
        let build = try Build([
            "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,T2\nR1,WD,T3\nR1,WD,T4\nR1,WD,T5\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T4,09:00:00,09:00:00,S1,1
                T4,09:10:00,09:10:00,S2,2
                T2,08:00:00,08:00:00,S1,1
                T2,08:10:00,08:10:00,S2,2

                """
        ])
        #expect(build.built)
        #expect(build.found(NoticeCode.unusedTrip).compactMap(\.value).sorted() == ["T1", "T3", "T5"])
        #expect(build.found(NoticeCode.unusedTrip).compactMap(\.line).sorted() == [2, 4, 6])
    }

    @Test("feed_expiration_date7_days and 30_days, against --today")
    func expiration() throws {
        let feedInfo = "feed_publisher_name,feed_publisher_url,feed_lang,feed_end_date\nP,http://p.example,en,20261231\n"
        let week = try Build(["feed_info.txt": feedInfo], today: "2026-12-25")
        #expect(week.found(NoticeCode.feedExpirationDate7Days).map(\.line) == [2] && week.found(NoticeCode.feedExpirationDate30Days).isEmpty)
        let month = try Build(["feed_info.txt": feedInfo], today: "2026-12-10")
        #expect(month.found(NoticeCode.feedExpirationDate30Days).map(\.value) == ["20261231"] && month.found(NoticeCode.feedExpirationDate7Days).isEmpty)
        let early = try Build(["feed_info.txt": feedInfo], today: "2026-06-01")
        #expect(early.found(NoticeCode.feedExpirationDate30Days).isEmpty && early.found(NoticeCode.feedExpirationDate7Days).isEmpty)
    }

    @Test("route_both_short_and_long_name_missing, missing_stop_name, stop_without_location, invalid_color")
    func records() throws {
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            S1,One,52.5,13.4,,
            S2,,52.6,13.5,,
            S3,Three,,,0,
            N1,,,,3,ST
            ST,Station,52.5,13.4,1,

            """
        let routes = """
            route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color
            R1,A,1,,3,FF00AA,000000
            R2,A,,,3,red,FFF

            """
        let build = try Build(["stops.txt": stops, "routes.txt": routes, "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR2,WD,T2\n"])
        #expect(build.built)
        #expect(build.found(NoticeCode.missingStopName).map(\.line) == [3], "a generic node needs no name")
        #expect(build.found(NoticeCode.stopWithoutLocation).map(\.value) == ["S3"] && build.found(NoticeCode.stopWithoutLocation).first?.severity == "WARNING")
        #expect(build.found(NoticeCode.routeBothNamesMissing).map(\.line) == [3])
        #expect(Set(build.found(NoticeCode.invalidColor).compactMap(\.value)) == ["red", "FFF"])
        let strict = try Build(["stops.txt": stops, "routes.txt": routes], strict: true)
        #expect(!strict.built && strict.found(NoticeCode.invalidColor).first?.severity == "ERROR")
    }
}
