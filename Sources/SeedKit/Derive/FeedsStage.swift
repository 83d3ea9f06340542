import Foundation
import SeedSQLite

/// The stage that completes a region seed's `feeds` rows once every row is loaded and derived:
/// what each feed's `feed_info` says (publisher, version), its validity and its row counts.
///
/// - `start_date`, `end_date`: `feed_info`'s `feed_start_date` and `feed_end_date` when the feed
///   gives them; else the first and last day of its calendar (`calendar` periods and the dates
///   `calendar_dates` adds), when the schema has those tables (GTFS, and NeTEx and TransXChange,
///   which derive them).
/// - `row_counts`: a JSON object, each table holding rows of the feed -> how many, keys sorted.
///
/// The rows written are read back for the build summary (`BuildSummary.feeds`).
struct FeedsStage: BuildStage {
    func run(_ state: BuildState) throws {
        guard state.feeds.isRegion else { return }
        let connection = state.connection
        // What `seedgen verify` checks row_counts against, counted the same way.
        let counts = try connection.countFeedRows()
        try connection.execute("BEGIN")
        defer { try? connection.execute("ROLLBACK") } // a no-op after COMMIT
        let update = try connection.prepare("UPDATE \(quoted(Schema.feedsTable)) SET row_counts = ? WHERE id = ?")
        for feed in state.feeds.feeds {
            let object = (counts[feed.name] ?? [:]).sorted { $0.key < $1.key }.map { "\(Self.jsonString($0)):\($1)" }
                .joined(separator: ",")
            try update.run([.text("{" + object + "}"), .integer(feed.id)])
        }
        func has(_ table: String, _ columns: String...) -> Bool {
            guard let table = state.allTables.first(where: { $0.name == table }) else { return false }
            return columns.allSatisfy { name in table.columns.contains { $0.name == name && $0.stored } }
        }
        if has("feed_info", "feed_publisher_name", "feed_version", "feed_start_date", "feed_end_date") {
            try connection.execute(
                """
                UPDATE feeds SET feed_publisher_name = i.feed_publisher_name, feed_version = i.feed_version,
                                 start_date = i.feed_start_date, end_date = i.feed_end_date
                  FROM (SELECT feed_ref, feed_publisher_name, feed_version, feed_start_date, feed_end_date
                          FROM feed_info WHERE id IN (SELECT min(id) FROM feed_info GROUP BY feed_ref)) AS i
                 WHERE feeds.id = i.feed_ref
                """)
        }
        var days: [String] = []
        if has("calendar", "start_date", "end_date") {
            days.append("SELECT feed_ref, start_date AS first, end_date AS last FROM calendar")
        }
        if has("calendar_dates", "date", "exception_type") {
            days.append("SELECT feed_ref, date, date FROM calendar_dates WHERE exception_type = 1")
        }
        if !days.isEmpty {
            try connection.execute(
                """
                UPDATE feeds SET start_date = coalesce(start_date, d.first), end_date = coalesce(end_date, d.last)
                  FROM (SELECT feed_ref, min(first) AS first, max(last) AS last FROM \
                (\(days.joined(separator: " UNION ALL "))) GROUP BY feed_ref) AS d
                 WHERE feeds.id = d.feed_ref
                """)
        }
        try connection.execute("COMMIT")
        state.feedSummaries = try connection.seedFeeds() ?? []
        state.timer.mark("feeds")
    }

    /// `text` as a JSON string.
    static func jsonString(_ text: String) -> String {
        var bytes: [UInt8] = []
        ExtrasObject.appendString(Array(text.utf8), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
