import SeedSQLite

/// The canonical validator's ERRORs on GTFS-Flex's booking_rules.txt, reported as warnings
/// (errors under `--strict`): the seed keeps each rule as written, only what a rider is told
/// about booking is off. By booking_type (0 real time, 1 the same day, 2 up to the day before):
///
/// - `forbidden_real_time_booking_field_value`: type 0 with any prior_notice_* field;
///   `forbidden_same_day_booking_field_value`: type 1 with prior_notice_last_day,
///   prior_notice_last_time or prior_notice_service_id; `forbidden_prior_day_booking_field_value`:
///   type 2 with prior_notice_duration_min or _max.
/// - `missing_prior_notice_duration_min` (type 1), `missing_prior_notice_last_day`,
///   `missing_prior_notice_last_time` (type 2).
/// - `invalid_prior_notice_duration_min` (above prior_notice_duration_max),
///   `forbidden_prior_notice_start_day` (beside prior_notice_duration_max),
///   `prior_notice_last_day_after_start_day`, `missing_prior_notice_start_time` (a start day
///   without it), `forbidden_prior_notice_start_time` (without a start day).
struct BookingRuleChecks {
    let checks: GTFSChecks

    /// A condition on a booking rule, the field it is about, its code and what it says.
    private struct Rule {
        var condition: String
        var field: String
        var code: String
        var message: String
    }

    /// SQL naming which of `fields` a row gives, joined by commas.
    private static func given(_ fields: [String]) -> String {
        "rtrim(" + fields.map { "CASE WHEN \($0) IS NOT NULL THEN '\($0), ' ELSE '' END" }.joined(separator: " || ")
            + ", ', ')"
    }

    private static let priorNotice = [
        "prior_notice_duration_min", "prior_notice_duration_max", "prior_notice_last_day", "prior_notice_last_time",
        "prior_notice_start_day", "prior_notice_start_time", "prior_notice_service_id"
    ]
    private static let sameDayForbidden = ["prior_notice_last_day", "prior_notice_last_time", "prior_notice_service_id"]
    private static let priorDayForbidden = ["prior_notice_duration_min", "prior_notice_duration_max"]

    private static let rules: [Rule] = [
        Rule(
            condition: "booking_type = 0", field: "booking_type", code: NoticeCode.forbiddenRealTimeBookingFieldValue,
            message: "is 0 (real-time booking), which gives no prior notice, but the rule gives "),
        Rule(
            condition: "booking_type = 1", field: "booking_type", code: NoticeCode.forbiddenSameDayBookingFieldValue,
            message: "is 1 (booking the same day), which forbids "),
        Rule(
            condition: "booking_type = 2", field: "booking_type", code: NoticeCode.forbiddenPriorDayBookingFieldValue,
            message: "is 2 (booking up to the day before), which forbids "),
        Rule(
            condition: "booking_type = 1 AND prior_notice_duration_min IS NULL", field: "prior_notice_duration_min",
            code: NoticeCode.missingPriorNoticeDurationMin,
            message: "is empty: booking the same day (type 1) needs it"),
        Rule(
            condition: "booking_type = 2 AND prior_notice_last_day IS NULL", field: "prior_notice_last_day",
            code: NoticeCode.missingPriorNoticeLastDay, message: "is empty: booking the day before (type 2) needs it"),
        Rule(
            condition: "booking_type = 2 AND prior_notice_last_time IS NULL", field: "prior_notice_last_time",
            code: NoticeCode.missingPriorNoticeLastTime, message: "is empty: booking the day before (type 2) needs it"),
        Rule(
            condition: "prior_notice_duration_max < prior_notice_duration_min", field: "prior_notice_duration_min",
            code: NoticeCode.invalidPriorNoticeDurationMin, message: "is above prior_notice_duration_max"),
        Rule(
            condition: "prior_notice_duration_max IS NOT NULL AND prior_notice_start_day IS NOT NULL",
            field: "prior_notice_start_day", code: NoticeCode.forbiddenPriorNoticeStartDay,
            message: "is given beside prior_notice_duration_max: one or the other"),
        Rule(
            condition: "prior_notice_last_day > prior_notice_start_day", field: "prior_notice_last_day",
            code: NoticeCode.priorNoticeLastDayAfterStartDay,
            message: "is after prior_notice_start_day: booking would close before it opens"),
        Rule(
            condition: "prior_notice_start_day IS NOT NULL AND prior_notice_start_time IS NULL",
            field: "prior_notice_start_time", code: NoticeCode.missingPriorNoticeStartTime,
            message: "is empty beside prior_notice_start_day, which needs it"),
        Rule(
            condition: "prior_notice_start_time IS NOT NULL AND prior_notice_start_day IS NULL",
            field: "prior_notice_start_time", code: NoticeCode.forbiddenPriorNoticeStartTime,
            message: "is given without prior_notice_start_day")
    ]

    func run() throws {
        guard Self.priorNotice.allSatisfy({ checks.has(table: "booking_rules", column: $0) }) else { return }
        let kind = BuildIssue.Kind.misleading(strict: checks.options.strict)
        let forbidden: [String: [String]] = [
            NoticeCode.forbiddenRealTimeBookingFieldValue: Self.priorNotice,
            NoticeCode.forbiddenSameDayBookingFieldValue: Self.sameDayForbidden,
            NoticeCode.forbiddenPriorDayBookingFieldValue: Self.priorDayForbidden
        ]
        for rule in Self.rules {
            let fields = forbidden[rule.code]
            let condition =
                fields.map { "\(rule.condition) AND (\($0.map { "\($0) IS NOT NULL" }.joined(separator: " OR ")))" }
                ?? rule.condition
            try checks.flagRows(
                of: "booking_rules", key: "booking_rule_id", columns: ["booking_type"], condition: condition,
                detail: fields.map(Self.given) ?? "''", field: rule.field, kind: kind, code: rule.code
            ) { id, given in "of booking_rule_id '\(id)' " + rule.message + given }
        }
    }
}
