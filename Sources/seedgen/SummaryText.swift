import SeedKit

/// The summary printed after a build.
struct SummaryText {
    let summary: BuildSummary

    init(_ summary: BuildSummary) { self.summary = summary }

    var text: String {
        var lines: [String] = []
        if !summary.warningReport.isEmpty { lines.append(summary.warningReport) }
        lines.append(
            """
            built \(summary.output): schema \(summary.schemaName) v\(summary.schemaVersion), seed version \
            \(summary.seedVersion)
            """
        )
        let width = summary.tables.map(\.name.count).max() ?? 0
        for table in summary.tables {
            var line =
                "  " + table.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + Format.count(table.rows).leftPadded(12)
            if let skipped = summary.filtered[table.name], skipped > 0 {
                line += "  (\(Format.count(skipped)) filtered out)"
            }
            if let rejected = summary.rejected[table.name], rejected > 0 {
                line += "  (\(Format.count(rejected)) rejected)"
            }
            lines.append(line)
        }
        if !summary.feeds.isEmpty {
            lines.append("  feeds:")
            lines += FeedText.lines(summary.feeds, tableLimit: 4).map { "  " + $0 }
        }
        for (name, stats) in summary.references.sorted(by: { $0.key < $1.key })
        where stats.created > 0 || stats.hits + stats.misses > 0 {
            var line =
                "  reference \(name): \(Format.count(stats.hits)) cache hits, \(Format.count(stats.misses)) misses"
            if stats.created > 0 { line += ", \(Format.count(stats.created)) created" }
            if stats.unresolved > 0 { line += ", \(Format.count(stats.unresolved)) unresolved" }
            lines.append(line)
        }
        if !summary.queryIndexes.isEmpty {
            lines.append("  query features (search, spatial, derived tables, indexes beyond a reference's):")
            lines += Self.costLines(summary.queryIndexes, seedBytes: summary.outputBytes).map { "  " + $0 }
        }
        let rate = summary.seconds > 0 ? Int(Double(summary.totalRows) / summary.seconds) : 0
        lines.append(
            "\(summary.tables.count) tables, \(Format.count(summary.totalRows)) rows, \(summary.warnings) "
                + "warning\(summary.warnings == 1 ? "" : "s"), "
                    + """
                    \(Format.bytes(summary.outputBytes)), \(String(format: "%.2f", summary.seconds)) s \
                    (\(Format.count(rate)) rows/s)
                    """
        )
        return lines.joined(separator: "\n")
    }
}

extension SummaryText {
    /// One line per index (or filled table): kind, name, table, rows, bytes and share of the
    /// seed; then their total when there are several.
    static func costLines(_ costs: [QueryIndexCost], seedBytes: Int64?) -> [String] {
        func share(_ bytes: Int64) -> String {
            guard let seedBytes, seedBytes > 0 else { return "" }
            return String(format: " (%.1f %%)", Double(bytes) * 100 / Double(seedBytes))
        }
        let width = costs.map(\.name.count).max() ?? 0
        var lines = costs.map { cost in
            var line =
                "  " + cost.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                + cost.name.padding(toLength: width, withPad: " ", startingAt: 0)
            if let table = cost.table, table != cost.name { line += "  on \(table)" }
            line +=
                "  " + Format.count(Int(cost.rows))
                + (cost.kind == .spatial && cost.name.hasSuffix("_rtree") ? " boxes" : " rows")
            if let leftOut = cost.leftOut, leftOut > 0 {
                line += " (\(Format.count(Int(leftOut))) rows without coordinates left out)"
            }
            if let bytes = cost.bytes { line += ", " + Format.bytes(bytes) + share(bytes) }
            if let replaces = cost.replaces, let indexBytes = cost.indexBytes {
                line += " beyond the \(replaces) index it replaces (\(Format.bytes(indexBytes)) in all)"
            }
            return line
        }
        let sizes = costs.compactMap(\.bytes)
        if costs.count > 1 && sizes.count == costs.count {
            let total = sizes.reduce(0, +)
            lines.append("  total   \(Format.bytes(total))\(share(total))")
        }
        return lines
    }
}

/// Numbers for people: 1,234,567 and 12.3 MB.
enum Format {
    static func count(_ value: Int) -> String { NumberText.grouped(value) }

    static func bytes(_ value: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var size = Double(value), unit = 0
        while size >= 1000 && unit < units.count - 1 { size /= 1000; unit += 1 }
        return unit == 0 ? "\(value) bytes" : String(format: "%.1f %@", size, units[unit])
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
