/// The codes a notice is known by in `--notices` reports and in messages: MobilityData's GTFS
/// validator's codes where it has one for the problem (so that a report can be compared with
/// the validator's), and codes of the same form for the rest.
///
/// A code says what is wrong; its severity in a build depends on the options (a data error is
/// an ERROR, and a WARNING under `--lenient`; what an app would show wrongly is a WARNING, and
/// an ERROR under `--strict`).
public enum NoticeCode {
    // MobilityData's codes.
    public static let csvParsingFailed = "csv_parsing_failed"
    public static let invalidRowLength = "invalid_row_length"
    public static let duplicatedColumn = "duplicated_column"
    public static let emptyColumnName = "empty_column_name"
    public static let emptyFile = "empty_file"
    public static let missingRequiredFile = "missing_required_file"
    public static let missingRequiredColumn = "missing_required_column"
    public static let missingRequiredField = "missing_required_field"
    public static let unknownColumn = "unknown_column"
    public static let unknownFile = "unknown_file"
    public static let duplicateKey = "duplicate_key"
    public static let foreignKeyViolation = "foreign_key_violation"
    public static let invalidInteger = "invalid_integer"
    public static let invalidFloat = "invalid_float"
    public static let invalidDate = "invalid_date"
    public static let invalidTime = "invalid_time"
    public static let invalidCharacter = "invalid_character"
    public static let invalidTimezone = "invalid_timezone"
    public static let numberOutOfRange = "number_out_of_range"
    public static let missingCalendarFiles = "missing_calendar_and_calendar_date_files"
    public static let missingTripEdge = "missing_trip_edge"
    public static let onlyArrivalOrDeparture = "stop_time_with_only_arrival_or_departure_time"
    public static let arrivalBeforePreviousDeparture = "stop_time_with_arrival_before_previous_departure_time"

    // seedgen's own, for what the validator has no code for.
    public static let repairedCSVSyntax = "repaired_csv_syntax"
    public static let utf16Encoding = "utf16_encoding"
    public static let invalidValue = "invalid_value"
    public static let malformedXML = "malformed_xml"
    public static let mappingMatchedNothing = "mapping_matched_nothing"
    public static let mappingReadAmbiguously = "mapping_read_ambiguously"
    public static let referenceOutsideInput = "reference_outside_input"
    public static let otherVersion = "other_version"
    public static let objectsNotRead = "objects_not_read"
    public static let referenceNamesSeveralObjects = "reference_names_several_objects"
    public static let derivedRows = "derived_rows"
    public static let rowLeftOut = "row_left_out"
    public static let fileLeftOut = "file_left_out"
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
        case .misleadingData, .misleadingDataError: NoticeCode.misleadingData
        case .errorKept: NoticeCode.foreignKeyViolation
        case .fileLeftOut: NoticeCode.fileLeftOut
        }
    }

    /// `misleadingData`, or its error under `--strict`.
    static func misleading(strict: Bool) -> Self { strict ? .misleadingDataError : .misleadingData }
}
