import SeedKit

/// A region seed's feeds as text, for the build summary and `seedgen inspect`.
enum FeedText {
    /// Two lines or more per feed: its name, rows, validity and source; then its publisher and
    /// version when known; then its tables, the biggest first.
    /// - Parameter tableLimit: how many tables to name per feed (the rest are counted); nil for all.
    static func lines(_ feeds: [FeedSummary], tableLimit: Int?) -> [String] {
        let width = feeds.map(\.name.count).max() ?? 0
        let rowsWidth = feeds.map { Format.count(Int($0.totalRows)).count }.max() ?? 0
        let indent = String(repeating: " ", count: width + 4)
        var lines: [String] = []
        for feed in feeds {
            lines.append(
                "  " + feed.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + Format.count(Int(feed.totalRows)).leftPadded(rowsWidth) + " rows  " + validity(feed) + "  "
                    + feed.source)
            let facts = [feed.publisher.map { "publisher \($0)" }, feed.version.map { "version \($0)" }].compactMap {
                $0
            }
            if !facts.isEmpty { lines.append(indent + facts.joined(separator: ", ")) }
            if !feed.rows.isEmpty { lines.append(indent + tables(feed, limit: tableLimit)) }
        }
        return lines
    }

    /// `2020-01-01 to 2021-12-31`; `from ...` or `until ...` when one end is unknown.
    static func validity(_ feed: FeedSummary) -> String {
        switch (feed.startDate, feed.endDate) {
        case let (start?, end?): "\(start) to \(end)"
        case let (start?, nil): "from \(start)"
        case let (nil, end?): "until \(end)"
        case (nil, nil): "validity unknown"
        }
    }

    /// `stop_times 59,953, trips 2,538, stops 619 and 5 more tables`.
    static func tables(_ feed: FeedSummary, limit: Int?) -> String {
        let tables = feed.tablesBySize
        let shown = tables.prefix(limit ?? tables.count).map { "\($0.name) \(Format.count(Int($0.rows)))" }.joined(
            separator: ", ")
        let more = tables.count - min(limit ?? tables.count, tables.count)
        return more == 0 ? shown : "\(shown) and \(more) more table\(more == 1 ? "" : "s")"
    }
}
