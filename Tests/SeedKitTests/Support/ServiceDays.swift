/// The transit schema's `service_days` as one row per service and date, for tests that compare
/// the calendar with a reference: bit i of `days` is the day `block * 64 + i` (a Julian day
/// number; `date(n - 0.5)` is its date).
enum ServiceDays {
    /// `service_id`, `date` of every day each service runs.
    static let expanded = """
        WITH RECURSIVE bit(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM bit WHERE i < 63)
        SELECT service_id, date(block * 64 + i - 0.5) AS date FROM service_days, bit WHERE (days >> i) & 1
        """
}
