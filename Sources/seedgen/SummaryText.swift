import SeedKit

/// The summary printed after a build.
struct SummaryText {
    let summary: BuildSummary

    init(_ summary: BuildSummary) { self.summary = summary }

    var text: String {
        var lines: [String] = []
        if !summary.warningReport.isEmpty { lines.append(summary.warningReport) }
        lines.append("built \(summary.output): schema \(summary.schemaName) v\(summary.schemaVersion), seed version \(summary.seedVersion)")
        let width = summary.tables.map(\.name.count).max() ?? 0
        for table in summary.tables {
            var line = "  " + table.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Format.count(table.rows).leftPadded(12)
            if let skipped = summary.filtered[table.name], skipped > 0 { line += "  (\(Format.count(skipped)) filtered out)" }
            if let rejected = summary.rejected[table.name], rejected > 0 { line += "  (\(Format.count(rejected)) rejected)" }
            lines.append(line)
        }
        for (name, stats) in summary.references.sorted(by: { $0.key < $1.key }) where stats.created > 0 || stats.hits + stats.misses > 0 {
            var line = "  reference \(name): \(Format.count(stats.hits)) cache hits, \(Format.count(stats.misses)) misses"
            if stats.created > 0 { line += ", \(Format.count(stats.created)) created" }
            if stats.unresolved > 0 { line += ", \(Format.count(stats.unresolved)) unresolved" }
            lines.append(line)
        }
        let rate = summary.seconds > 0 ? Int(Double(summary.totalRows) / summary.seconds) : 0
        lines.append("\(summary.tables.count) tables, \(Format.count(summary.totalRows)) rows, \(summary.warnings) warning\(summary.warnings == 1 ? "" : "s"), "
                     + "\(Format.bytes(summary.outputBytes)), \(String(format: "%.2f", summary.seconds)) s (\(Format.count(rate)) rows/s)")
        return lines.joined(separator: "\n")
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
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
