import SeedSQLite

/// The canonical validator's ERRORs on fares v2's files, reported as warnings (errors under
/// `--strict`): the seed keeps the rows as written, only a fare computed from them is off.
///
/// - fare_transfer_rules.txt: `fare_transfer_rule_duration_limit_type_without_duration_limit`,
///   `fare_transfer_rule_duration_limit_without_type` (one of the two without the other),
///   `fare_transfer_rule_invalid_transfer_count` (neither -1 nor 1 or more),
///   `fare_transfer_rule_with_forbidden_transfer_count` (a transfer_count between two leg
///   groups), `fare_transfer_rule_without_transfer_count` (none within one leg group).
/// - timeframes.txt: `timeframe_only_start_or_end_time_specified`,
///   `timeframe_start_or_end_time_greater_than_twenty_four_hours`, `timeframe_overlap` (a
///   timeframe that starts before an earlier one of its timeframe_group_id and service_id ends).
/// - `fare_product_with_multiple_default_rider_categories`: a fare product whose rows name two
///   rider categories or more with is_default_fare_category 1.
struct FareRuleChecks {
    let checks: GTFSChecks

    private static let transferFields = [
        "from_leg_group_id", "to_leg_group_id", "transfer_count", "duration_limit", "duration_limit_type",
        "fare_transfer_type", "fare_product_id"
    ]
    private static let transferRules: [(condition: String, field: String, code: String, message: String)] = [
        (
            "duration_limit_type IS NOT NULL AND duration_limit IS NULL", "duration_limit_type",
            NoticeCode.fareTransferRuleDurationLimitTypeWithoutDurationLimit, "is given without duration_limit"
        ),
        (
            "duration_limit IS NOT NULL AND duration_limit_type IS NULL", "duration_limit",
            NoticeCode.fareTransferRuleDurationLimitWithoutType, "is given without duration_limit_type"
        ),
        (
            "transfer_count IS NOT NULL AND transfer_count <> -1 AND transfer_count < 1", "transfer_count",
            NoticeCode.fareTransferRuleInvalidTransferCount, "is neither -1 (no limit) nor 1 or more"
        ),
        (
            "transfer_count IS NOT NULL AND coalesce(from_leg_group_id, '') <> coalesce(to_leg_group_id, '')",
            "transfer_count", NoticeCode.fareTransferRuleWithForbiddenTransferCount,
            "is given for a transfer between two leg groups: it counts transfers within one"
        ),
        (
            "transfer_count IS NULL AND coalesce(from_leg_group_id, '') = coalesce(to_leg_group_id, '')",
            "transfer_count", NoticeCode.fareTransferRuleWithoutTransferCount,
            "is empty for a transfer within one leg group, which needs it"
        )
    ]

    func run() throws {
        let kind = BuildIssue.Kind.misleading(strict: checks.options.strict)
        for rule in Self.transferRules {
            try checks.flagRows(
                of: "fare_transfer_rules", matching: Self.transferFields, condition: rule.condition, field: rule.field,
                kind: kind, code: rule.code, message: rule.message)
        }
        try checkTimeframes(kind: kind)
        try checks.flagRows(
            of: "fare_products", matching: ["fare_product_id", "rider_category_id"],
            condition:
                """
                rider_category_ref IN (SELECT id FROM rider_categories WHERE is_default_fare_category = 1) \
                AND fare_product_id IN (SELECT p.fare_product_id FROM fare_products p JOIN rider_categories r \
                ON r.id = p.rider_category_ref WHERE r.is_default_fare_category = 1 GROUP BY p.fare_product_id \
                HAVING count(DISTINCT r.id) > 1)
                """,
            field: "rider_category_id", kind: kind, code: NoticeCode.fareProductWithMultipleDefaultRiderCategories,
            message: "is one of the fare product's several default rider categories: there is one default")
    }

    private func checkTimeframes(kind: BuildIssue.Kind) throws {
        let fields = ["timeframe_group_id", "start_time", "end_time", "service_id"]
        try checks.flagRows(
            of: "timeframes", matching: fields, condition: "(start_time IS NULL) <> (end_time IS NULL)",
            field: "start_time", kind: kind, code: NoticeCode.timeframeOnlyStartOrEndTimeSpecified,
            message: "and end_time: one is given without the other")
        try checks.flagRows(
            of: "timeframes", matching: fields, condition: "start_time > 86400 OR end_time > 86400",
            field: "start_time", kind: kind, code: NoticeCode.timeframeStartOrEndTimeGreaterThanTwentyFourHours,
            message: "or end_time is after 24:00:00: a timeframe is within a day")
        guard fields.allSatisfy({ checks.has(table: "timeframes", column: $0) }),
            let id = checks.schema.table(named: "timeframes").map({ quoted($0.rowID) })
        else { return }
        // An empty start and end are the whole day, as the reference reads them; a timeframe is
        // reported when an earlier one (by start_time) of its group and service ends after it starts.
        let start = { (row: String) in "coalesce(\(row).start_time, 0)" }
        let end = { (row: String) in "coalesce(\(row).end_time, 86400)" }
        let whole = { (row: String) in "(\(row).start_time IS NULL) = (\(row).end_time IS NULL)" }
        try checks.flagRows(
            of: "timeframes", matching: fields,
            condition:
                """
                \(whole("timeframes")) AND EXISTS (SELECT 1 FROM timeframes o WHERE \(whole("o")) \
                AND o.timeframe_group_id = timeframes.timeframe_group_id AND o.service_id = timeframes.service_id \
                AND (\(start("o")) < \(start("timeframes")) OR (\(start("o")) = \(start("timeframes")) \
                AND o.\(id) < timeframes.\(id))) AND \(start("timeframes")) < \(end("o")))
                """,
            field: "start_time", kind: kind, code: NoticeCode.timeframeOverlap,
            message: "is before the end of an earlier timeframe of its timeframe_group_id and service_id: they overlap")
    }
}
