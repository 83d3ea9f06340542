/// MobilityData's WARNING codes for what a feed would better say otherwise (issue 44), kept
/// apart from `NoticeCode`'s main list: each is a warning whatever the flags (`bestPractice`).
extension NoticeCode {
    /// An attribution with none of is_producer, is_operator and is_authority set to 1.
    public static let attributionWithoutRole = "attribution_without_role"
    /// A fare medium with the fare_media_name and fare_media_type of an earlier one.
    public static let duplicateFareMedia = "duplicate_fare_media"
    /// A CSV record of only spaces (left out).
    public static let emptyRow = "empty_row"
    /// An agency_lang that is not feed_info.txt's feed_lang (unless it is `mul`).
    public static let feedInfoLangAndAgencyLangMismatch = "feed_info_lang_and_agency_lang_mismatch"
    /// An agency_lang that is not the first agency's.
    public static let inconsistentAgencyLang = "inconsistent_agency_lang"
    /// A quoted CSV value with spaces inside its quotes, before or after the text (stored without them).
    public static let leadingOrTrailingWhitespaces = "leading_or_trailing_whitespaces"
    /// feed_info.txt with feed_start_date or feed_end_date, not both.
    public static let missingFeedInfoDate = "missing_feed_info_date"
    /// A file of one row (feed_info.txt) with more.
    public static let moreThanOneEntity = "more_than_one_entity"
    /// A route_color and route_text_color too close in brightness to read one on the other.
    public static let routeColorContrast = "route_color_contrast"
    /// A route_desc that is the route's route_short_name or route_long_name.
    public static let sameNameAndDescriptionForRoute = "same_name_and_description_for_route"
    /// A stop_desc that is the stop's stop_name.
    public static let sameNameAndDescriptionForStop = "same_name_and_description_for_stop"
    /// A stop_url that is an agency's agency_url.
    public static let sameStopAndAgencyURL = "same_stop_and_agency_url"
    /// A stop_url that is a route's route_url.
    public static let sameStopAndRouteURL = "same_stop_and_route_url"
    /// A translation whose table_name names no file of the feed.
    public static let translationUnknownTableName = "translation_unknown_table_name"
    /// An enumerated field (route_type, pickup_type, ...) with a value the reference does not define.
    public static let unexpectedEnumValue = "unexpected_enum_value"
}
