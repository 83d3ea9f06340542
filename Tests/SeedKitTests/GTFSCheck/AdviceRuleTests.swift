import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

/// The canonical validator's best-practice warnings on names, URLs, languages, feed_info.txt,
/// enumerated values and CSV padding (issue 44): each found at its file, line and field, a
/// warning whatever the flags, and the minimal feed without the condition says nothing.
@Suite("the canonical validator's advice on names, languages, enums and CSV padding")
struct AdviceRuleTests {
    static let codes = [
        NoticeCode.attributionWithoutRole, NoticeCode.duplicateFareMedia, NoticeCode.emptyRow,
        NoticeCode.feedInfoLangAndAgencyLangMismatch, NoticeCode.inconsistentAgencyLang,
        NoticeCode.leadingOrTrailingWhitespaces, NoticeCode.missingFeedInfoDate, NoticeCode.moreThanOneEntity,
        NoticeCode.routeColorContrast, NoticeCode.sameNameAndDescriptionForRoute,
        NoticeCode.sameNameAndDescriptionForStop, NoticeCode.sameStopAndAgencyURL, NoticeCode.sameStopAndRouteURL,
        NoticeCode.translationUnknownTableName, NoticeCode.unexpectedEnumValue
    ]

    static let feedInfo =
        "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version\n"
        + "Pub,http://pub.example,en,20260101,20261231,1\n"

    @Test("the minimal feed, with a feed_info.txt and a translation, says none of them")
    func minimalFeed() throws {
        let build = try Checked([
            "feed_info.txt": Self.feedInfo,
            "translations.txt": "table_name,field_name,language,translation,record_id\nstops,stop_name,de,Eins,S1\n"
        ])
        #expect(build.built)
        for code in Self.codes { #expect(build.found(code).isEmpty, "\(code)") }
    }

    @Test("attribution_without_role: none of is_producer, is_operator, is_authority is 1")
    func attributionWithoutRole() throws {
        let attributions =
            "attribution_id,organization_name,is_producer,is_operator,is_authority\nAT1,Org,0,0,\nAT2,Other,,1,\n"
        for strict in [false, true] {
            let build = try Checked(["attributions.txt": attributions], strict: strict)
            #expect(build.built, "a warning whatever the flags")
            let found = build.found(NoticeCode.attributionWithoutRole)
            #expect(found.map(\.line) == [2] && found.first?.field == "is_producer")
            #expect(found.first?.severity == "WARNING")
        }
    }

    @Test("duplicate_fare_media: the name and type of an earlier fare medium, at the later")
    func duplicateFareMedia() throws {
        let media = "fare_media_id,fare_media_name,fare_media_type\nM1,Card,2\nM2,Card,1\nM3,Card,2\nM4,,0\nM5,,0\n"
        let build = try Checked(["fare_media.txt": media])
        #expect(build.built)
        let found = build.found(NoticeCode.duplicateFareMedia)
        #expect(found.map(\.line) == [4, 6] && found.first?.value == "Card" && found.first?.field == "fare_media_name")
        #expect(found.allSatisfy { $0.severity == "WARNING" })
    }

    @Test("empty_row: a line of spaces is left out, not read as a row of empty fields")
    func emptyRow() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,One,52.5,13.4,\n   \nS2,Two,52.6,13.5,\n"
        for strict in [false, true] {
            let build = try Checked(["stops.txt": stops], strict: strict)
            #expect(build.built, "the line is left out: no row without a stop_id")
            let found = build.found(NoticeCode.emptyRow)
            #expect(found.map(\.line) == [3] && found.first?.severity == "WARNING")
            #expect(build.found(NoticeCode.invalidRowLength).isEmpty && build.found(NoticeCode.missingRequiredField).isEmpty)
        }
    }

    @Test("inconsistent_agency_lang and feed_info_lang_and_agency_lang_mismatch")
    func languages() throws {
        let agency = """
            agency_id,agency_name,agency_url,agency_timezone,agency_lang
            A,Agency,http://a.example,Europe/Berlin,de
            B,Other,http://b.example,Europe/Berlin,EN
            C,Third,http://c.example,Europe/Berlin,

            """
        let feedInfo = Self.feedInfo.replacingOccurrences(of: ",en,", with: ",de,")
        let build = try Checked(["agency.txt": agency, "feed_info.txt": feedInfo])
        #expect(build.built)
        let inconsistent = build.found(NoticeCode.inconsistentAgencyLang)
        #expect(inconsistent.map(\.line) == [3] && inconsistent.first?.value == "EN")
        #expect(inconsistent.first?.field == "agency_lang" && inconsistent.first?.severity == "WARNING")
        let mismatch = build.found(NoticeCode.feedInfoLangAndAgencyLangMismatch)
        #expect(mismatch.map(\.line) == [3] && mismatch.first?.field == "agency_lang")
        let several = try Checked([
            "agency.txt": agency, "feed_info.txt": Self.feedInfo.replacingOccurrences(of: ",en,", with: ",mul,")
        ])
        #expect(several.found(NoticeCode.feedInfoLangAndAgencyLangMismatch).isEmpty, "mul: a feed in several languages")
    }

    @Test("leading_or_trailing_whitespaces: a quoted value padded inside its quotes")
    func paddedQuotes() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,\"One \",52.5,13.4,\nS2, Two ,52.6,13.5,\n"
        let build = try Checked(["stops.txt": stops])
        #expect(build.built)
        let found = build.found(NoticeCode.leadingOrTrailingWhitespaces)
        #expect(found.map(\.line) == [2], "an unquoted value is trimmed silently, as the validator's reader does")
        #expect(found.first?.field == "stop_name" && found.first?.value == "One " && found.first?.severity == "WARNING")
    }

    @Test("missing_feed_info_date and more_than_one_entity")
    func feedInfoRows() throws {
        let feedInfo = """
            feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version
            Pub,http://pub.example,en,20260101,,1
            Other,http://other.example,en,,20261231,1

            """
        let build = try Checked(["feed_info.txt": feedInfo])
        #expect(build.built)
        let dates = build.found(NoticeCode.missingFeedInfoDate)
        #expect(dates.map(\.line).sorted { ($0 ?? 0) < ($1 ?? 0) } == [2, 3])
        #expect(Set(dates.compactMap(\.field)) == ["feed_start_date", "feed_end_date"])
        let rows = build.found(NoticeCode.moreThanOneEntity)
        #expect(rows.map(\.line) == [3] && rows.first?.value == "2" && rows.first?.severity == "WARNING")
    }

    @Test("route_color_contrast: colors too close in brightness")
    func routeColorContrast() throws {
        let routes = """
            route_id,agency_id,route_short_name,route_type,route_color,route_text_color
            R1,A,1,3,FFFFFF,FFFF00
            R2,A,2,3,FFFFFF,000000
            R3,A,3,3,,FFFFFF

            """
        let build = try Checked(["routes.txt": routes])
        #expect(build.built)
        let found = build.found(NoticeCode.routeColorContrast)
        #expect(found.map(\.line) == [2] && found.first?.field == "route_text_color" && found.first?.value == "FFFF00")
        #expect(found.first?.severity == "WARNING")
        #expect(FeedAdviceChecks.lacksContrast(background: "0000FF", text: "000000"), "luma 28 and 0")
        #expect(!FeedAdviceChecks.lacksContrast(background: "0000FF", text: "FFFFFF"))
    }

    @Test("same_name_and_description_for_route and _for_stop, ignoring case")
    func sameNameAndDescription() throws {
        let routes = """
            route_id,agency_id,route_short_name,route_long_name,route_desc,route_type
            R1,A,1,Main Street,main street,3
            R2,A,2,Other,Goes along the river,3

            """
        let stops = "stop_id,stop_name,stop_desc,stop_lat,stop_lon\nS1,One,ONE,52.5,13.4\nS2,Two,Platform 2,52.6,13.5\n"
        let build = try Checked(["routes.txt": routes, "stops.txt": stops])
        #expect(build.built)
        let route = build.found(NoticeCode.sameNameAndDescriptionForRoute)
        #expect(route.map(\.line) == [2] && route.first?.field == "route_desc" && route.first?.value == "main street")
        let stop = build.found(NoticeCode.sameNameAndDescriptionForStop)
        #expect(stop.map(\.line) == [2] && stop.first?.field == "stop_desc" && stop.first?.severity == "WARNING")
    }

    @Test("same_stop_and_agency_url and same_stop_and_route_url")
    func stopURLs() throws {
        let routes = "route_id,agency_id,route_short_name,route_type,route_url\nR1,A,1,3,http://r.example/1\n"
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon,stop_url
            S1,One,52.5,13.4,HTTP://A.EXAMPLE
            S2,Two,52.6,13.5,http://r.example/1
            S3,Three,52.7,13.6,http://s.example/3

            """
        let build = try Checked(["routes.txt": routes, "stops.txt": stops])
        #expect(build.built)
        let agency = build.found(NoticeCode.sameStopAndAgencyURL)
        #expect(agency.map(\.line) == [2] && agency.first?.field == "stop_url" && agency.first?.severity == "WARNING")
        #expect(build.found(NoticeCode.sameStopAndRouteURL).map(\.line) == [3])
    }

    @Test("translation_unknown_table_name: a table_name whose file the feed does not have")
    func translationTables() throws {
        let translations = """
            table_name,field_name,language,translation,record_id
            stops,stop_name,de,Eins,S1
            bogus,stop_name,de,Eins,S1
            pathways,signposted_as,de,Ausgang,P1

            """
        let build = try Checked(["translations.txt": translations, "feed_info.txt": Self.feedInfo])
        let found = build.found(NoticeCode.translationUnknownTableName)
        #expect(found.map(\.line) == [3, 4] && found.first?.value == "bogus" && found.first?.field == "table_name")
        #expect(found.allSatisfy { $0.severity == "WARNING" })
    }

    @Test("unexpected_enum_value: found while loading, in every table (stop_times too), the value kept")
    func enumValues() throws {
        let routes = "route_id,agency_id,route_short_name,route_type\nR1,A,1,700\n"
        let trips = "route_id,service_id,trip_id,direction_id\nR1,WD,T1,0\nR1,WD,T2,3\n"
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type,timepoint
            T1,08:00:00,08:00:00,S1,1,7,0,1
            T1,08:10:00,08:10:00,S2,2,0,0,2
            T2,25:10:00,25:10:00,S1,1,,-1,

            """
        for strict in [false, true] {
            let build = try Checked(["routes.txt": routes, "trips.txt": trips, "stop_times.txt": stopTimes], strict: strict)
            #expect(build.built, "the values are kept: a warning whatever the flags")
            let found = build.found(NoticeCode.unexpectedEnumValue)
            let seen = Set(found.map { "\($0.field ?? "")=\($0.value ?? "")@\($0.line ?? 0)" })
            #expect(
                seen == [
                    "route_type=700@2", "direction_id=3@3", "pickup_type=7@2", "timepoint=2@3", "drop_off_type=-1@4"
                ])
            #expect(found.allSatisfy { $0.severity == "WARNING" })
        }
    }
}
