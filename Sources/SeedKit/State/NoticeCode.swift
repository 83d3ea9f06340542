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
