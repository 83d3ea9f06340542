/// The codes a notice is known by in `--notices` reports and in messages: MobilityData's GTFS
/// validator's codes where it has one for the problem (so that a report can be compared with
/// the validator's), and codes of the same form for the rest.
///
/// A code says what is wrong; its severity in a build depends on the options (a data error is
/// an ERROR, and a WARNING under `--lenient`; what an app would show wrongly is a WARNING, and
/// an ERROR under `--strict`).
public enum NoticeCode {
    // MobilityData's codes.
    /// A record that is not valid CSV.
    public static let csvParsingFailed = "csv_parsing_failed"
    /// A record with more or fewer fields than the header.
    public static let invalidRowLength = "invalid_row_length"
    /// A column named twice in a header.
    public static let duplicatedColumn = "duplicated_column"
    /// A header field with no name.
    public static let emptyColumnName = "empty_column_name"
    /// A file of 0 bytes.
    public static let emptyFile = "empty_file"
    /// A file the schema requires is absent.
    public static let missingRequiredFile = "missing_required_file"
    /// A header without a column the schema requires.
    public static let missingRequiredColumn = "missing_required_column"
    /// An empty value where the schema requires one.
    public static let missingRequiredField = "missing_required_field"
    /// A column the schema does not read.
    public static let unknownColumn = "unknown_column"
    /// A file no table reads.
    public static let unknownFile = "unknown_file"
    /// Two rows with the same key.
    public static let duplicateKey = "duplicate_key"
    /// A reference to a row that does not exist.
    public static let foreignKeyViolation = "foreign_key_violation"
    /// A value that is not an integer.
    public static let invalidInteger = "invalid_integer"
    /// A value that is not a number.
    public static let invalidFloat = "invalid_float"
    /// A value that is not a date (or a date that does not exist).
    public static let invalidDate = "invalid_date"
    /// A value that is not a time.
    public static let invalidTime = "invalid_time"
    /// Text with invalid UTF-8 or a NUL byte.
    public static let invalidCharacter = "invalid_character"
    /// A time zone the tz database does not know.
    public static let invalidTimezone = "invalid_timezone"
    /// A number outside the range its field allows.
    public static let numberOutOfRange = "number_out_of_range"
    /// Neither calendar.txt nor calendar_dates.txt.
    public static let missingCalendarFiles = "missing_calendar_and_calendar_date_files"
    /// A trip's first or last stop without arrival and departure times.
    public static let missingTripEdge = "missing_trip_edge"
    /// A stop time with an arrival or a departure time, not both.
    public static let onlyArrivalOrDeparture = "stop_time_with_only_arrival_or_departure_time"
    /// A stop time that arrives before the previous stop's departure.
    public static let arrivalBeforePreviousDeparture = "stop_time_with_arrival_before_previous_departure_time"
    /// A URL field that is not an http or https URL.
    public static let invalidURL = "invalid_url"
    /// A route or fare without agency_id in a feed of several agencies.
    public static let missingRequiredAgencyID = "missing_required_agency_id"
    /// A stop time whose shape_dist_traveled is not above the previous stop's.
    public static let decreasingStopTimeDistance = "decreasing_or_equal_stop_time_distance"
    /// A file the validator recommends (feed_info.txt) is absent.
    public static let missingRecommendedFile = "missing_recommended_file"
    /// An empty value in a field the validator recommends.
    public static let missingRecommendedField = "missing_recommended_field"
    /// feed_info.txt without feed_contact_email and feed_contact_url.
    public static let missingFeedContactEmailAndURL = "missing_feed_contact_email_and_url"
    /// A route_short_name of more than 12 characters.
    public static let routeShortNameTooLong = "route_short_name_too_long"
    /// A name in all capitals or all small letters.
    public static let mixedCaseRecommendedField = "mixed_case_recommended_field"
    /// A stop more than 100 m from the shape of a trip that serves it.
    public static let stopTooFarFromShape = "stop_too_far_from_shape"
    /// A stop whose parent_station is of the wrong location_type.
    public static let wrongParentLocationType = "wrong_parent_location_type"
    /// A station (location_type 1) with a parent_station.
    public static let stationWithParentStation = "station_with_parent_station"
    /// An entrance, a generic node or a boarding area without a parent_station.
    public static let locationWithoutParentStation = "location_without_parent_station"
    /// A translation whose record_id names no row of its table_name.
    public static let translationForeignKeyViolation = "translation_foreign_key_violation"
    /// routes.txt's network_id beside route_networks.txt.
    public static let routeNetworksInMoreThanOneFile = "route_networks_specified_in_more_than_one_file"
    /// A route with neither route_short_name nor route_long_name.
    public static let routeBothNamesMissing = "route_both_short_and_long_name_missing"
    /// A stop, station or entrance without stop_name.
    public static let missingStopName = "missing_stop_name"
    /// A stop, station or entrance without stop_lat and stop_lon.
    public static let stopWithoutLocation = "stop_without_location"
    /// A route_color or route_text_color that is not six hexadecimal digits.
    public static let invalidColor = "invalid_color"
    /// A trip no stop time names.
    public static let unusedTrip = "unused_trip"
    /// A shape no trip names.
    public static let unusedShape = "unused_shape"
    /// A route with the names, route_type and agency of an earlier one.
    public static let duplicateRouteName = "duplicate_route_name"
    /// feed_info.txt's feed_end_date at most 7 days after today (`--today`).
    public static let feedExpirationDate7Days = "feed_expiration_date7_days"
    /// feed_info.txt's feed_end_date at most 30 days after today (`--today`).
    public static let feedExpirationDate30Days = "feed_expiration_date30_days"
    /// A stop no stop time serves.
    public static let stopWithoutStopTime = "stop_without_stop_time"
    /// A service whose last day is before today (`--today`).
    public static let expiredCalendar = "expired_calendar"
    /// Trips whose days do not cover today and the 7 days after it (`--today`).
    public static let tripCoverageNotActiveForNext7Days = "trip_coverage_not_active_for_next7_days"
    /// An email field that is not an email address.
    public static let invalidEmail = "invalid_email"
    /// A language field that is not an IETF BCP 47 tag.
    public static let invalidLanguageCode = "invalid_language_code"
    /// A currency field that is not an ISO 4217 code.
    public static let invalidCurrency = "invalid_currency"
    /// A stop or shape point within a degree of latitude and longitude 0, 0.
    public static let pointNearOrigin = "point_near_origin"
    /// A stop or shape point 89 degrees or more from the equator.
    public static let pointNearPole = "point_near_pole"
    /// A trip with fewer than two stop times.
    public static let unusableTrip = "unusable_trip"
    /// Two frequencies of a trip whose times overlap.
    public static let overlappingFrequency = "overlapping_frequency"
    /// Two trips of a block whose times overlap on a day both run.
    public static let blockTripsWithOverlappingStopTimes = "block_trips_with_overlapping_stop_times"
    /// A shape point whose shape_dist_traveled is below the previous point's.
    public static let decreasingShapeDistance = "decreasing_shape_distance"
    /// Two consecutive shape points more than 1.11 m apart with the same shape_dist_traveled.
    public static let equalShapeDistanceDiffCoordinates = "equal_shape_distance_diff_coordinates"
    /// Two consecutive shape points less than 1.11 m apart with the same shape_dist_traveled.
    public static let equalShapeDistanceDiffCoordinatesBelowThreshold =
        "equal_shape_distance_diff_coordinates_distance_below_threshold"
    /// Two consecutive shape points at the same place with the same shape_dist_traveled.
    public static let equalShapeDistanceSameCoordinates = "equal_shape_distance_same_coordinates"
    /// A real-time booking rule (booking_type 0) with a prior_notice field.
    public static let forbiddenRealTimeBookingFieldValue = "forbidden_real_time_booking_field_value"
    /// A same-day booking rule (booking_type 1) with a field it forbids.
    public static let forbiddenSameDayBookingFieldValue = "forbidden_same_day_booking_field_value"
    /// A prior-day booking rule (booking_type 2) with a prior notice duration.
    public static let forbiddenPriorDayBookingFieldValue = "forbidden_prior_day_booking_field_value"
    /// A same-day booking rule without prior_notice_duration_min.
    public static let missingPriorNoticeDurationMin = "missing_prior_notice_duration_min"
    /// A prior-day booking rule without prior_notice_last_day.
    public static let missingPriorNoticeLastDay = "missing_prior_notice_last_day"
    /// A prior-day booking rule without prior_notice_last_time.
    public static let missingPriorNoticeLastTime = "missing_prior_notice_last_time"
    /// A prior_notice_duration_min above prior_notice_duration_max.
    public static let invalidPriorNoticeDurationMin = "invalid_prior_notice_duration_min"
    /// A prior_notice_start_day beside prior_notice_duration_max.
    public static let forbiddenPriorNoticeStartDay = "forbidden_prior_notice_start_day"
    /// A prior_notice_last_day after prior_notice_start_day.
    public static let priorNoticeLastDayAfterStartDay = "prior_notice_last_day_after_start_day"
    /// A prior_notice_start_day without prior_notice_start_time.
    public static let missingPriorNoticeStartTime = "missing_prior_notice_start_time"
    /// A prior_notice_start_time without prior_notice_start_day.
    public static let forbiddenPriorNoticeStartTime = "forbidden_prior_notice_start_time"
    /// A fare transfer rule with duration_limit_type but no duration_limit.
    public static let fareTransferRuleDurationLimitTypeWithoutDurationLimit =
        "fare_transfer_rule_duration_limit_type_without_duration_limit"
    /// A fare transfer rule with duration_limit but no duration_limit_type.
    public static let fareTransferRuleDurationLimitWithoutType = "fare_transfer_rule_duration_limit_without_type"
    /// A transfer_count that is neither -1 nor 1 or more.
    public static let fareTransferRuleInvalidTransferCount = "fare_transfer_rule_invalid_transfer_count"
    /// A transfer_count for a transfer between two leg groups.
    public static let fareTransferRuleWithForbiddenTransferCount = "fare_transfer_rule_with_forbidden_transfer_count"
    /// A transfer within one leg group without transfer_count.
    public static let fareTransferRuleWithoutTransferCount = "fare_transfer_rule_without_transfer_count"
    /// A timeframe with start_time or end_time, not both.
    public static let timeframeOnlyStartOrEndTimeSpecified = "timeframe_only_start_or_end_time_specified"
    /// A timeframe time after 24:00:00.
    public static let timeframeStartOrEndTimeGreaterThanTwentyFourHours =
        "timeframe_start_or_end_time_greater_than_twenty_four_hours"
    /// Two timeframes of one group and service whose times overlap.
    public static let timeframeOverlap = "timeframe_overlap"
    /// A fare product with several default rider categories.
    public static let fareProductWithMultipleDefaultRiderCategories =
        "fare_product_with_multiple_default_rider_categories"
    /// A start date or time after its end.
    public static let startAndEndRangeOutOfOrder = "start_and_end_range_out_of_order"
    /// A frequency whose start_time is its end_time.
    public static let startAndEndRangeEqual = "start_and_end_range_equal"
    /// An agency whose agency_timezone is not the first agency's.
    public static let inconsistentAgencyTimezone = "inconsistent_agency_timezone"
    /// A transfer from or to a location that is not a stop or station.
    public static let transferWithInvalidStopLocationType = "transfer_with_invalid_stop_location_type"
    /// A transfer whose trip is of another route than the one it names.
    public static let transferWithInvalidTripAndRoute = "transfer_with_invalid_trip_and_route"
    /// A transfer whose trip does not serve the stop it names.
    public static let transferWithInvalidTripAndStop = "transfer_with_invalid_trip_and_stop"
    /// A stop_access on a location that is not a stop.
    public static let stopAccessSpecifiedForIncorrectLocation = "stop_access_specified_for_incorrect_location"
    /// A stop_access on a stop without parent_station.
    public static let stopAccessSpecifiedForStopWithNoParentStation =
        "stop_access_specified_for_stop_with_no_parent_station"
    /// A station, entrance, node or boarding area that stop times serve.
    public static let locationWithUnexpectedStopTime = "location_with_unexpected_stop_time"
    /// A transfer between two stops more than 10 km apart.
    public static let transferDistanceTooLarge = "transfer_distance_too_large"
    /// A transfer between two stops more than 2 km (and at most 10 km) apart.
    public static let transferDistanceAbove2km = "transfer_distance_above_2_km"
    /// A phone number with characters other than digits and separators, or fewer than two digits.
    public static let invalidPhoneNumber = "invalid_phone_number"
    /// A fare's amount written with other decimals than its currency's minor unit.
    public static let invalidCurrencyAmount = "invalid_currency_amount"
    /// A fare rule with an earlier rule's route_id, origin_id, destination_id and contains_id.
    public static let duplicateFareRuleZoneIdFields = "duplicate_fare_rule_zone_id_fields"
    /// A stop farther from the point of its trip's shape at its shape_dist_traveled than allowed.
    public static let stopTooFarFromShapeUsingUserDistance = "stop_too_far_from_shape_using_user_distance"
    /// Two stops of a trip that match its shape only in the reverse order.
    public static let stopsMatchShapeOutOfOrder = "stops_match_shape_out_of_order"
    /// A GTFS-Flex stop time (a location or location group) with shape_dist_traveled.
    public static let forbiddenShapeDistTraveled = "forbidden_shape_dist_traveled"
    /// A stop time with a pickup window and arrival_time or departure_time.
    public static let forbiddenArrivalOrDepartureTime = "forbidden_arrival_or_departure_time"
    /// A stop time with one end of a pickup window without the other.
    public static let missingPickupOrDropOffWindow = "missing_pickup_or_drop_off_window"
    /// A pickup window whose end is not after its start.
    public static let invalidPickupDropOffWindow = "invalid_pickup_drop_off_window"
    /// A pickup window with a regular pickup_type (0 or empty) or 3.
    public static let forbiddenPickupType = "forbidden_pickup_type"
    /// A pickup window with a regular drop_off_type (0 or empty).
    public static let forbiddenDropOffType = "forbidden_drop_off_type"
    /// A pickup window on a trip of a route with continuous stopping (0, 2 or 3).
    public static let forbiddenContinuousPickupDropOff = "forbidden_continuous_pickup_drop_off"
    /// A phoned pickup window alone on its trip (travel within a zone needs two stop times).
    public static let missingStopTimesRecord = "missing_stop_times_record"
    /// A stop time naming more than one of stop_id, location_group_id and location_id.
    public static let forbiddenGeographyID = "forbidden_geography_id"
    /// An id given by more than one of stops.txt, location_groups.txt and locations.geojson.
    public static let duplicateGeographyID = "duplicate_geography_id"
    /// A pathway to a stop that riders reach from the street (stop_access 1).
    public static let pathwayToStopWithAccessOutsideOfStationPathways =
        "pathway_to_stop_with_access_outside_of_station_pathways"
    /// A translation with a field that must be empty for its table_name or the fields it gives.
    public static let translationUnexpectedValue = "translation_unexpected_value"
    /// A locations.geojson that is not valid JSON.
    public static let malformedJSON = "malformed_json"
    /// A locations.geojson that is JSON but not a FeatureCollection.
    public static let unsupportedGeoJSONType = "unsupported_geo_json_type"
    /// A locations.geojson feature whose `type` is not `Feature`.
    public static let unsupportedFeatureType = "unsupported_feature_type"
    /// A locations.geojson feature whose geometry is not a Polygon or MultiPolygon.
    public static let unsupportedGeometryType = "unsupported_geometry_type"
    /// A line break inside a quoted CSV value (kept in it).
    public static let newLineInValue = "new_line_in_value"
    /// A GTFS file inside a subfolder of the input, not at its root.
    public static let invalidInputFilesInSubfolder = "invalid_input_files_in_subfolder"
    /// Two consecutive stop times a vehicle would travel between faster than its route_type allows.
    public static let fastTravelBetweenConsecutiveStops = "fast_travel_between_consecutive_stops"
    /// Two stop times of a trip 10 km apart or more along it, travelled faster than its route_type allows.
    public static let fastTravelBetweenFarStops = "fast_travel_between_far_stops"
    /// A trip whose last stop time is further along its shape than the shape is long.
    public static let tripDistanceExceedsShapeDistance = "trip_distance_exceeds_shape_distance"
    /// As `tripDistanceExceedsShapeDistance`, its last stop within 11.1 m of the shape's end.
    public static let tripDistanceExceedsShapeDistanceBelowThreshold =
        "trip_distance_exceeds_shape_distance_below_threshold"
    /// A shape of one point.
    public static let singleShapePoint = "single_shape_point"
    /// A pathway from or to a station.
    public static let pathwayToWrongLocationType = "pathway_to_wrong_location_type"
    /// A pathway from or to a platform that has boarding areas.
    public static let pathwayToPlatformWithBoardingAreas = "pathway_to_platform_with_boarding_areas"
    /// A location of a station with pathways that no entrance reaches, or that reaches no exit.
    public static let pathwayUnreachableLocation = "pathway_unreachable_location"
    /// A generic node that pathways join to one location only.
    public static let pathwayDanglingGenericNode = "pathway_dangling_generic_node"
    /// A pathway from a location to itself.
    public static let pathwayLoop = "pathway_loop"
    /// An exit gate (pathway_mode 7) that is bidirectional.
    public static let bidirectionalExitGate = "bidirectional_exit_gate"
    /// An end of an elevator pathway (pathway_mode 5) without level_id.
    public static let missingLevelID = "missing_level_id"
    /// A stop time with times but no timepoint, in a stop_times.txt with the column.
    public static let missingTimepointValue = "missing_timepoint_value"
    /// A stop time with timepoint 1 but without arrival_time or departure_time.
    public static let stopTimeTimepointWithoutTimes = "stop_time_timepoint_without_times"
    /// A ferry trip without bikes_allowed.
    public static let missingBikeAllowance = "missing_bike_allowance"
    /// A route_url that is its agency's agency_url.
    public static let sameRouteAndAgencyURL = "same_route_and_agency_url"
    /// A route_long_name that begins with the route_short_name.
    public static let routeLongNameContainsShortName = "route_long_name_contains_short_name"
    /// An id with a character that is not printable ASCII.
    public static let nonASCIIOrNonPrintableChar = "non_ascii_or_non_printable_char"

    // The validator's WARNINGs on vehicles, services and bookings, and its polygons' ERROR.
    /// A block whose trips are of routes of different route_types.
    public static let inconsistentRouteTypeForBlockID = "inconsistent_route_type_for_block_id"
    /// An in-seat transfer (transfer_type 4) between routes of different route_types.
    public static let inconsistentRouteTypeForInSeatTransfer = "inconsistent_route_type_for_in_seat_transfer"
    /// An in-seat transfer at a stop that is not its from trip's last or its to trip's first.
    public static let transferWithSuspiciousMidTripInSeat = "transfer_with_suspicious_mid_trip_in_seat"
    /// A calendar.txt service that runs on no day of the week.
    public static let serviceHasNoActiveDayOfTheWeek = "service_has_no_active_day_of_the_week"
    /// A phoned pickup (drop-off) window without pickup_booking_rule_id (drop_off_booking_rule_id).
    public static let missingPickupDropOffBookingRuleID = "missing_pickup_drop_off_booking_rule_id"
    /// A stop near its trip's shape at more than 20 places.
    public static let stopHasTooManyMatchesForShape = "stop_has_too_many_matches_for_shape"
    /// A locations.geojson polygon whose rings are not closed, too short, or not of positions.
    public static let invalidGeometry = "invalid_geometry"

    // seedgen's own, for what the validator has no code for.
    /// A field repaired as Python's csv module reads it (a stray quote, spaces before a quote).
    public static let repairedCSVSyntax = "repaired_csv_syntax"
    /// A file in UTF-16, read as such.
    public static let utf16Encoding = "utf16_encoding"
    /// A value its column cannot store.
    public static let invalidValue = "invalid_value"
    /// XML that is not well-formed, or refused (entity declarations).
    public static let malformedXML = "malformed_xml"
    /// A schema mapping that matched nothing in the input.
    public static let mappingMatchedNothing = "mapping_matched_nothing"
    /// A schema mapping that matched more than once in a record.
    public static let mappingReadAmbiguously = "mapping_read_ambiguously"
    /// A reference to objects the input does not hold.
    public static let referenceOutsideInput = "reference_outside_input"
    /// Another version of an object, or objects sharing a key across documents.
    public static let otherVersion = "other_version"
    /// Objects in the input that no table reads.
    public static let objectsNotRead = "objects_not_read"
    /// A reference that more than one object answers.
    public static let referenceNamesSeveralObjects = "reference_names_several_objects"
    /// A derived table's `warnings` query found rows.
    public static let derivedRows = "derived_rows"
    /// A row left out (`--lenient`).
    public static let rowLeftOut = "row_left_out"
    /// A file left out (`--lenient`).
    public static let fileLeftOut = "file_left_out"
    /// Data an app would show wrongly (times running backwards, say).
    public static let misleadingData = "misleading_data"

    /// The code of an invalid value of a column of `type`.
    static func invalidValue(of type: ColumnType) -> String {
        switch type {
        case .integer, .boolean: invalidInteger
        case .real: invalidFloat
        case .date: invalidDate
        case .time: invalidTime
        default: invalidValue
        }
    }
}

extension BuildIssue.Kind {
    /// The code of an issue of this kind that names none of its own.
    public var noticeCode: String {
        switch self {
        case .malformedRow: NoticeCode.csvParsingFailed
        case .malformedXML: NoticeCode.malformedXML
        case .invalidValue, .invalidValueAsNull: NoticeCode.invalidValue
        case .missingValue: NoticeCode.missingRequiredField
        case .missingColumn: NoticeCode.missingRequiredColumn
        case .missingFile: NoticeCode.missingRequiredFile
        case .duplicateKey, .repeatedRow: NoticeCode.duplicateKey
        case .danglingReference, .nullReference: NoticeCode.foreignKeyViolation
        case .unmatchedMappingError, .unmatchedMapping: NoticeCode.mappingMatchedNothing
        case .ambiguousMappingError, .ambiguousMapping: NoticeCode.mappingReadAmbiguously
        case .unknownColumn: NoticeCode.unknownColumn
        case .unusedFile: NoticeCode.unknownFile
        case .outsideReference: NoticeCode.referenceOutsideInput
        case .repairedSyntax: NoticeCode.repairedCSVSyntax
        case .emptyFile: NoticeCode.emptyFile
        case .rowLeftOut: NoticeCode.rowLeftOut
        case .otherVersion, .sharedKey: NoticeCode.otherVersion
        case .unreadObjects: NoticeCode.objectsNotRead
        case .ambiguousReference, .ambiguousDocumentReference: NoticeCode.referenceNamesSeveralObjects
        case .derivedRows: NoticeCode.derivedRows
        case .misleadingData, .misleadingDataError, .bestPractice: NoticeCode.misleadingData
        case .errorKept: NoticeCode.foreignKeyViolation
        case .fileLeftOut: NoticeCode.fileLeftOut
        }
    }

    /// `misleadingData`, or its error under `--strict`.
    static func misleading(strict: Bool) -> Self { strict ? .misleadingDataError : .misleadingData }
}
