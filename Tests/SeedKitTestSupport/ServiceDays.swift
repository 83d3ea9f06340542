/// The transit schema's `service_days` as one row per service and date, for tests that compare
/// the calendar with a reference: bit i of `days`k is the day `block * 256 + 64 * k + i` (a
/// Julian day number; `date(n - 0.5)` is its date).
public enum ServiceDays {
    /// `service_id`, `date` of every day each service runs.
    public static let expanded = """
        WITH RECURSIVE bit(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM bit WHERE i < 255)
        SELECT service_id, date(block * 256 + i - 0.5) AS date FROM service_days, bit
         WHERE (CASE i / 64 WHEN 0 THEN days0 WHEN 1 THEN days1 WHEN 2 THEN days2 ELSE days3 END >> (i % 64)) & 1
        """
}
