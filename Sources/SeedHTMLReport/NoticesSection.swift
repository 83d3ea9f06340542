import Foundation
import SeedKit
import SeedShip

/// The notices of a build (`seedgen build --notices FILE.json`), grouped by code and severity
/// as MobilityData's validator report groups them: each code with its count, what it means and
/// its first rows. Without a notices file, the GTFS checks run again over the seed's tables
/// (`RecomputedNotices`).
enum NoticesSection {
    /// One notice of the report.
    struct Notice: Decodable {
        var code: String
        var severity: String
        var file: String?
        var feed: String?
        var line: Int?
        /// A notice recomputed from the seed: the row's key in its table (`stop_id 'S1'`).
        var row: String?
        var column: Int?
        var field: String?
        var value: String?
        var message: String?
    }

    struct Report: Decodable {
        var built: Bool?
        var errors: Int?
        var warnings: Int?
        var notices: [Notice]
    }

    /// The notices of one severity and code: how many, and the first `samples`.
    struct Group {
        var severity: String
        var code: String
        var count: Int
        var samples: [Notice]
    }

    static let samples = 5

    /// The section: the notices of `path`, or without one those `recomputing` finds in the seed.
    static func html(
        _ seed: ReportSeed, path: String?, recomputing: RecomputedNotices.Begun?
    ) throws(ShipError) -> String {
        guard let path else {
            let body = try recomputing.map { begun throws(ShipError) in try RecomputedNotices.html(seed, begun) }
            return HTMLText.section(id: "notices", title: "Notices", body: body ?? "")
        }
        let report: Report
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            report = try JSONDecoder().decode(Report.self, from: data)
        } catch {
            throw ShipError(
                code: .invalidFile, path: path, message: "cannot read the notices report: \(error)", cause: error)
        }
        return HTMLText.section(id: "notices", title: "Notices", body: body(report, path: path))
    }

    static func body(_ report: Report, path: String) -> String {
        var groups: [String: Group] = [:]
        for notice in report.notices {
            let key = notice.severity + "\u{1F}" + notice.code
            var group = groups[key] ?? Group(severity: notice.severity, code: notice.code, count: 0, samples: [])
            group.count += 1
            if group.samples.count < samples { group.samples.append(notice) }
            groups[key] = group
        }
        let errors = report.errors ?? report.notices.filter { $0.severity == "ERROR" }.count
        let warnings = report.warnings ?? report.notices.filter { $0.severity == "WARNING" }.count
        let html = HTMLText.note(
            """
            \(URL(fileURLWithPath: path).lastPathComponent): \(HTMLText.count(errors)) errors, \
            \(HTMLText.count(warnings)) warnings in \(groups.count) codes\
            \(report.built == false ? "; the build failed" : "").
            """)
        return html + grouped(Array(groups.values), recomputed: false)
    }

    /// `groups` in order (errors first, then by code): a table of the counts, then each code's
    /// first rows (their file and line; recomputed, their table and row).
    static func grouped(_ groups: [Group], recomputed: Bool) -> String {
        let order = ["ERROR": 0, "WARNING": 1, "INFO": 2]
        let groups = groups.sorted { ((order[$0.severity] ?? 3), $0.code) < ((order[$1.severity] ?? 3), $1.code) }
        guard !groups.isEmpty else { return HTMLText.note("No notices: nothing to report.") }
        let summary = groups.map { [$0.severity, $0.code, HTMLText.count($0.count), meaning($0.code)] }
        var html = HTMLText.table(
            caption: "Notices by severity and code", headers: ["severity", "code", "count", "what it means"],
            rows: summary, numeric: [2])
        for group in groups {
            html +=
                """
                <details class="notice \(group.severity.lowercased())">
                <summary>\(HTMLText.escape(group.severity)) \(HTMLText.escape(group.code)): \
                \(HTMLText.count(group.count))</summary>

                """
            let rows = group.samples.map { notice in
                [
                    (notice.feed.map { $0 + ": " } ?? "") + (notice.file ?? ""),
                    recomputed ? notice.row ?? "" : notice.line.map(String.init) ?? "",
                    notice.field ?? "", notice.value ?? "", notice.message ?? ""
                ]
            }
            html += HTMLText.table(
                caption: "The first \(rows.count) of \(group.count) \(group.code) notices",
                headers: [recomputed ? "table" : "file", recomputed ? "row" : "line", "field", "value", "message"],
                rows: rows, numeric: recomputed ? [] : [1])
            html += "</details>\n"
        }
        return html
    }

    /// What a code means, in a sentence (NoticeCode's documentation).
    static func meaning(_ code: String) -> String {
        meanings[code] ?? "See Documentation/gtfs.md."
    }

    private static let meanings: [String: String] = [
        NoticeCode.csvParsingFailed: "A record that is not valid CSV.",
        NoticeCode.invalidRowLength: "A record with more or fewer fields than the header.",
        NoticeCode.duplicatedColumn: "A column named twice in a header.",
        NoticeCode.emptyColumnName: "A header field with no name.",
        NoticeCode.emptyFile: "A file of 0 bytes.",
        NoticeCode.attributionWithoutRole:
            "An attribution with none of is_producer, is_operator and is_authority set to 1.",
        NoticeCode.duplicateFareMedia: "A fare medium with the fare_media_name and fare_media_type of an earlier one.",
        NoticeCode.emptyRow: "A CSV record of only spaces (left out).",
        NoticeCode.feedInfoLangAndAgencyLangMismatch:
            "An agency_lang that is not feed_info.txt's feed_lang (unless it is `mul`).",
        NoticeCode.inconsistentAgencyLang: "An agency_lang that is not the first agency's.",
        NoticeCode.leadingOrTrailingWhitespaces:
            "A quoted CSV value with spaces inside its quotes, before or after the text (stored without them).",
        NoticeCode.missingFeedInfoDate: "feed_info.txt with feed_start_date or feed_end_date, not both.",
        NoticeCode.moreThanOneEntity: "A file of one row (feed_info.txt) with more.",
        NoticeCode.routeColorContrast:
            "A route_color and route_text_color too close in brightness to read one on the other.",
        NoticeCode.sameNameAndDescriptionForRoute:
            "A route_desc that is the route's route_short_name or route_long_name.",
        NoticeCode.sameNameAndDescriptionForStop: "A stop_desc that is the stop's stop_name.",
        NoticeCode.sameStopAndAgencyURL: "A stop_url that is an agency's agency_url.",
        NoticeCode.sameStopAndRouteURL: "A stop_url that is a route's route_url.",
        NoticeCode.translationUnknownTableName: "A translation whose table_name names no file of the feed.",
        NoticeCode.unexpectedEnumValue:
            "An enumerated field (route_type, pickup_type, ...) with a value the reference does not define.",
        NoticeCode.missingRequiredFile: "A file the schema requires is absent.",
        NoticeCode.missingRequiredColumn: "A header without a column the schema requires.",
        NoticeCode.missingRequiredField: "An empty value where the schema requires one.",
        NoticeCode.unknownColumn: "A column the schema does not read.",
        NoticeCode.unknownFile: "A file no table reads.",
        NoticeCode.duplicateKey: "Two rows with the same key.",
        NoticeCode.foreignKeyViolation: "A reference to a row that does not exist.",
        NoticeCode.invalidInteger: "A value that is not an integer.",
        NoticeCode.invalidFloat: "A value that is not a number.",
        NoticeCode.invalidDate: "A value that is not a date (or a date that does not exist).",
        NoticeCode.invalidTime: "A value that is not a time.",
        NoticeCode.invalidCharacter: "Text with invalid UTF-8 or a NUL byte.",
        NoticeCode.invalidTimezone: "A time zone the tz database does not know.",
        NoticeCode.numberOutOfRange: "A number outside the range its field allows.",
        NoticeCode.missingCalendarFiles: "Neither calendar.txt nor calendar_dates.txt.",
        NoticeCode.missingTripEdge: "A trip's first or last stop without arrival and departure times.",
        NoticeCode.onlyArrivalOrDeparture: "A stop time with an arrival or a departure time, not both.",
        NoticeCode.arrivalBeforePreviousDeparture: "A stop time that arrives before the previous stop's departure.",
        NoticeCode.invalidURL: "A URL field that is not an http or https URL.",
        NoticeCode.missingRequiredAgencyID: "A route or fare without agency_id in a feed of several agencies.",
        NoticeCode.decreasingStopTimeDistance: "A shape_dist_traveled not above the previous stop's.",
        NoticeCode.missingRecommendedFile: "A file the validator recommends (feed_info.txt) is absent.",
        NoticeCode.missingRecommendedField: "An empty value in a field the validator recommends.",
        NoticeCode.missingFeedContactEmailAndURL: "feed_info.txt without feed_contact_email and feed_contact_url.",
        NoticeCode.routeShortNameTooLong: "A route_short_name of more than 12 characters.",
        NoticeCode.mixedCaseRecommendedField: "A name in all capitals or all small letters.",
        NoticeCode.stopWithoutStopTime: "A stop no stop time serves.",
        NoticeCode.expiredCalendar: "A service whose last day is before today (--today).",
        NoticeCode.tripCoverageNotActiveForNext7Days: "Trips whose days do not cover today and the 7 days after it.",
        NoticeCode.stopTooFarFromShape: "A stop more than 100 m from the shape of a trip that serves it.",
        NoticeCode.wrongParentLocationType: "A stop whose parent_station is of the wrong location_type.",
        NoticeCode.stationWithParentStation: "A station (location_type 1) with a parent_station.",
        NoticeCode.locationWithoutParentStation:
            "An entrance, a generic node or a boarding area without a parent_station.",
        NoticeCode.translationForeignKeyViolation: "A translation whose record_id names no row of its table_name.",
        NoticeCode.routeNetworksInMoreThanOneFile: "routes.txt's network_id beside route_networks.txt.",
        NoticeCode.routeBothNamesMissing: "A route with neither route_short_name nor route_long_name.",
        NoticeCode.missingStopName: "A stop, station or entrance without stop_name.",
        NoticeCode.stopWithoutLocation: "A stop, station or entrance without stop_lat and stop_lon.",
        NoticeCode.invalidColor: "A route_color or route_text_color that is not six hexadecimal digits.",
        NoticeCode.unusedTrip: "A trip no stop time names.",
        NoticeCode.unusedShape: "A shape no trip names.",
        NoticeCode.duplicateRouteName: "A route with the names, route_type and agency of an earlier one.",
        NoticeCode.feedExpirationDate7Days: "feed_info.txt's feed_end_date at most 7 days after today (--today).",
        NoticeCode.feedExpirationDate30Days: "feed_info.txt's feed_end_date at most 30 days after today (--today).",
        NoticeCode.invalidEmail: "An email field that is not an email address.",
        NoticeCode.invalidLanguageCode: "A language field that is not an IETF BCP 47 tag.",
        NoticeCode.invalidCurrency: "A currency field that is not an ISO 4217 code.",
        NoticeCode.pointNearOrigin: "A stop or shape point within a degree of latitude and longitude 0, 0.",
        NoticeCode.pointNearPole: "A stop or shape point 89 degrees or more from the equator.",
        NoticeCode.unusableTrip: "A trip with fewer than two stop times.",
        NoticeCode.overlappingFrequency: "Two frequencies of a trip whose times overlap.",
        NoticeCode.blockTripsWithOverlappingStopTimes: "Two trips of a block whose times overlap on a day both run.",
        NoticeCode.decreasingShapeDistance: "A shape point whose shape_dist_traveled is below the previous point's.",
        NoticeCode.equalShapeDistanceDiffCoordinates:
            "Two consecutive shape points more than 1.11 m apart with the same shape_dist_traveled.",
        NoticeCode.equalShapeDistanceDiffCoordinatesBelowThreshold:
            "Two consecutive shape points less than 1.11 m apart with the same shape_dist_traveled.",
        NoticeCode.equalShapeDistanceSameCoordinates:
            "Two consecutive shape points at the same place with the same shape_dist_traveled.",
        NoticeCode.forbiddenRealTimeBookingFieldValue:
            "A real-time booking rule (booking_type 0) with a prior_notice field.",
        NoticeCode.forbiddenSameDayBookingFieldValue:
            "A same-day booking rule (booking_type 1) with a field it forbids.",
        NoticeCode.forbiddenPriorDayBookingFieldValue:
            "A prior-day booking rule (booking_type 2) with a prior notice duration.",
        NoticeCode.missingPriorNoticeDurationMin: "A same-day booking rule without prior_notice_duration_min.",
        NoticeCode.missingPriorNoticeLastDay: "A prior-day booking rule without prior_notice_last_day.",
        NoticeCode.missingPriorNoticeLastTime: "A prior-day booking rule without prior_notice_last_time.",
        NoticeCode.invalidPriorNoticeDurationMin: "A prior_notice_duration_min above prior_notice_duration_max.",
        NoticeCode.forbiddenPriorNoticeStartDay: "A prior_notice_start_day beside prior_notice_duration_max.",
        NoticeCode.priorNoticeLastDayAfterStartDay: "A prior_notice_last_day after prior_notice_start_day.",
        NoticeCode.missingPriorNoticeStartTime: "A prior_notice_start_day without prior_notice_start_time.",
        NoticeCode.forbiddenPriorNoticeStartTime: "A prior_notice_start_time without prior_notice_start_day.",
        NoticeCode.fareTransferRuleDurationLimitTypeWithoutDurationLimit:
            "A fare transfer rule with duration_limit_type but no duration_limit.",
        NoticeCode.fareTransferRuleDurationLimitWithoutType:
            "A fare transfer rule with duration_limit but no duration_limit_type.",
        NoticeCode.fareTransferRuleInvalidTransferCount:
            "A transfer_count that is neither -1 nor 1 or more.",
        NoticeCode.fareTransferRuleWithForbiddenTransferCount:
            "A transfer_count for a transfer between two leg groups.",
        NoticeCode.fareTransferRuleWithoutTransferCount:
            "A transfer within one leg group without transfer_count.",
        NoticeCode.timeframeOnlyStartOrEndTimeSpecified:
            "A timeframe with start_time or end_time, not both.",
        NoticeCode.timeframeStartOrEndTimeGreaterThanTwentyFourHours:
            "A timeframe time after 24:00:00.",
        NoticeCode.timeframeOverlap:
            "Two timeframes of one group and service whose times overlap.",
        NoticeCode.fareProductWithMultipleDefaultRiderCategories:
            "A fare product with several default rider categories.",
        NoticeCode.startAndEndRangeOutOfOrder:
            "A start date or time after its end.",
        NoticeCode.startAndEndRangeEqual:
            "A frequency whose start_time is its end_time.",
        NoticeCode.inconsistentAgencyTimezone:
            "An agency whose agency_timezone is not the first agency's.",
        NoticeCode.transferWithInvalidStopLocationType:
            "A transfer from or to a location that is not a stop or station.",
        NoticeCode.transferWithInvalidTripAndRoute:
            "A transfer whose trip is of another route than the one it names.",
        NoticeCode.transferWithInvalidTripAndStop:
            "A transfer whose trip does not serve the stop it names.",
        NoticeCode.stopAccessSpecifiedForIncorrectLocation:
            "A stop_access on a location that is not a stop.",
        NoticeCode.stopAccessSpecifiedForStopWithNoParentStation:
            "A stop_access on a stop without parent_station.",
        NoticeCode.locationWithUnexpectedStopTime:
            "A station, entrance, node or boarding area that stop times serve.",
        NoticeCode.transferDistanceTooLarge: "A transfer between two stops more than 10 km apart.",
        NoticeCode.forbiddenShapeDistTraveled:
            "A GTFS-Flex stop time (a location or location group) with shape_dist_traveled.",
        NoticeCode.forbiddenArrivalOrDepartureTime:
            "A stop time with a pickup window and arrival_time or departure_time.",
        NoticeCode.missingPickupOrDropOffWindow: "A stop time with one end of a pickup window without the other.",
        NoticeCode.invalidPickupDropOffWindow: "A pickup window whose end is not after its start.",
        NoticeCode.forbiddenPickupType: "A pickup window with a regular pickup_type (0 or empty) or 3.",
        NoticeCode.forbiddenDropOffType: "A pickup window with a regular drop_off_type (0 or empty).",
        NoticeCode.fastTravelBetweenConsecutiveStops:
            "Two consecutive stop times a vehicle would travel between faster than its route_type allows.",
        NoticeCode.fastTravelBetweenFarStops:
            "Two stop times of a trip 10 km apart or more along it, travelled faster than its route_type allows.",
        NoticeCode.tripDistanceExceedsShapeDistance:
            "A trip whose last stop time is further along its shape than the shape is long.",
        NoticeCode.tripDistanceExceedsShapeDistanceBelowThreshold:
            """
        A trip whose last stop time is further along its shape than the shape is long, its stop at the shape's \
        end.
        """,
        NoticeCode.singleShapePoint: "A shape of one point.",
        NoticeCode.pathwayToWrongLocationType: "A pathway from or to a station.",
        NoticeCode.pathwayToPlatformWithBoardingAreas: "A pathway from or to a platform that has boarding areas.",
        NoticeCode.pathwayUnreachableLocation:
            "A location of a station with pathways that no entrance reaches, or that reaches no exit.",
        NoticeCode.pathwayDanglingGenericNode: "A generic node that pathways join to one location only.",
        NoticeCode.pathwayLoop: "A pathway from a location to itself.",
        NoticeCode.bidirectionalExitGate: "An exit gate (pathway_mode 7) that is bidirectional.",
        NoticeCode.missingLevelID: "An end of an elevator pathway without level_id.",
        NoticeCode.missingTimepointValue: "A stop time with times but no timepoint.",
        NoticeCode.stopTimeTimepointWithoutTimes: "A stop time with timepoint 1 but without both times.",
        NoticeCode.missingBikeAllowance: "A ferry trip without bikes_allowed.",
        NoticeCode.sameRouteAndAgencyURL: "A route_url that is its agency's agency_url.",
        NoticeCode.routeLongNameContainsShortName: "A route_long_name that begins with the route_short_name.",
        NoticeCode.nonASCIIOrNonPrintableChar: "An id with a character that is not printable ASCII.",
        NoticeCode.repairedCSVSyntax: "A field repaired as Python's csv module reads it.",
        NoticeCode.utf16Encoding: "A file in UTF-16, read as such.",
        NoticeCode.invalidValue: "A value its column cannot store.",
        NoticeCode.malformedXML: "XML that is not well-formed, or refused (entity declarations).",
        NoticeCode.mappingMatchedNothing: "A schema mapping that matched nothing in the input.",
        NoticeCode.mappingReadAmbiguously: "A schema mapping that matched more than once in a record.",
        NoticeCode.referenceOutsideInput: "A reference to objects the input does not hold.",
        NoticeCode.otherVersion: "Another version of an object, or objects sharing a key across documents.",
        NoticeCode.objectsNotRead: "Objects in the input that no table reads.",
        NoticeCode.referenceNamesSeveralObjects: "A reference that more than one object answers.",
        NoticeCode.derivedRows: "A derived table's warnings query found rows.",
        NoticeCode.rowLeftOut: "A row left out (--lenient).",
        NoticeCode.fileLeftOut: "A file left out (--lenient).",
        NoticeCode.newLineInValue: "A line break inside a quoted CSV value, kept in it.",
        NoticeCode.invalidInputFilesInSubfolder: "A GTFS file in a folder of a zip archive, read as if at its root.",
        NoticeCode.malformedJSON: "A locations.geojson that is not valid JSON.",
        NoticeCode.unsupportedGeoJSONType: "A locations.geojson that is not a GeoJSON FeatureCollection.",
        NoticeCode.unsupportedFeatureType: "A locations.geojson feature whose type is not Feature.",
        NoticeCode.inconsistentRouteTypeForBlockID: "A block whose trips are of routes of different route_types.",
        NoticeCode.inconsistentRouteTypeForInSeatTransfer:
            "An in-seat transfer between routes of different route_types.",
        NoticeCode.transferWithSuspiciousMidTripInSeat:
            "An in-seat transfer at a stop that is not its from trip's last or its to trip's first.",
        NoticeCode.serviceHasNoActiveDayOfTheWeek: "A calendar.txt service that runs on no day of the week.",
        NoticeCode.missingPickupDropOffBookingRuleID: "A phoned pickup or drop-off window without its booking rule.",
        NoticeCode.stopHasTooManyMatchesForShape: "A stop near its trip's shape at more than 20 places.",
        NoticeCode.invalidGeometry: "A locations.geojson polygon whose rings are not closed or too short.",
        NoticeCode.misleadingData: "Data an app would show wrongly (times running backwards, say)."
    ]
}
