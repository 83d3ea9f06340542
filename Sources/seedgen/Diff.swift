import ArgumentParser
import Foundation
import SeedKit
import SeedShip

extension SeedGen {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show which rows were added, removed and changed between two seeds.",
            discussion: """
                Rows are matched by natural key: the schema's `key` with --schema, else the \
                columns of each table's unique index <table>_key in the seed (seedgen creates one \
                for every key), else the whole row (then a row is only added or removed). A \
                reference in a key is matched by the columns it was resolved from (stop_times is \
                keyed by trip_ref and stop_sequence, so it is matched by trip_id and \
                stop_sequence). A row is changed when its key is in both seeds and another \
                column differs.

                The integer primary key (id) and the reference columns (*_ref, every foreign \
                key) are not compared: they are row numbers, which shift whenever rows are \
                added or removed upstream. Only columns present in both seeds are compared. \
                Everything is computed in SQL on the two files, so big seeds are fine.

                --json prints {"old": {path, schemaVersion, seedVersion}, "new": {...}, \
                "tables": {NAME: {key, oldRows, newRows, added, removed, changed, \
                changedColumns: {COLUMN: rows}, examples: {added, removed, changed: [[key values]]}, \
                presence: both|added|removed}}} with sorted keys, for every table of either seed.

                When either seed is a region seed (several feeds built into one), feeds are matched \
                by name and rows within their feed, and the changes are also told per feed: \
                `+ feed NAME (source)` for a feed added, `- feed NAME` for one removed, and for a \
                feed in both its rows added, removed and changed per table. --json then has \
                "feeds": [{name, presence, oldSource, newSource, tables: {NAME: {oldRows, newRows, \
                added, removed, changed}}}].

                Exit code 0 (1 with --exit-code when the seeds differ; 2 when a seed cannot be read).

                Examples:
                  seedgen diff release-41.sqlite out/cairns.sqlite
                  seedgen diff old.sqlite.gz new.sqlite.gz --schema Schema/transit.yaml --json
                """)

        @Argument(help: ArgumentHelp("The earlier seed (.sqlite or .sqlite.gz).", valueName: "old"))
        var old: String

        @Argument(help: ArgumentHelp("The later seed (.sqlite or .sqlite.gz).", valueName: "new"))
        var new: String

        @Option(
            help: ArgumentHelp(
                "The schema whose keys match rows (a YAML file, or a built-in name such as 'transit').",
                valueName: "file"))
        var schema: String?

        @Option(help: ArgumentHelp("Example keys shown per table and kind of change.", valueName: "n"))
        var examples = 5

        @OptionGroup var output: JSONOutput

        @Flag(help: "Exit with code 1 when the seeds differ.")
        var exitCode = false

        func validate() throws {
            if examples < 0 { throw ValidationError("--examples must not be negative.") }
        }

        func run() throws {
            let schema = try schema.map(ShipText.loadSchema)
            let diff: SeedDiff
            do {
                diff = try SeedDiff.compare(
                    old: SeedFile(path: old), new: SeedFile(path: new), schema: schema, limit: examples)
            } catch {
                throw ShipText.fail(error, code: 2)
            }
            print(output.json ? ShipText.json(diff) : Self.text(diff), terminator: output.json ? "" : "\n")
            if exitCode && diff.hasChanges { throw ExitCode(1) }
        }

        static func text(_ diff: SeedDiff) -> String {
            func version(_ side: SeedDiff.Side) -> String {
                "seed version \(side.seedVersion ?? "?"), schema v\(side.schemaVersion)"
            }
            var lines = [
                "old \(diff.old.path) (\(version(diff.old)))", "new \(diff.new.path) (\(version(diff.new)))", ""
            ]
            let names = diff.tables.keys.sorted()
            let width = max(names.map(\.count).max() ?? 0, 5)
            lines.append(
                "table".padding(toLength: width, withPad: " ", startingAt: 0) + "  " + "added".leftPadded(10)
                    + "  " + "removed".leftPadded(10) + "  " + "changed".leftPadded(10) + "  " + "rows".leftPadded(10)
                    + "  key")
            for name in names {
                let table = diff.tables[name]!
                var line = name.padding(toLength: width, withPad: " ", startingAt: 0)
                for count in [table.added, table.removed, table.changed, table.newRows] {
                    line += "  " + Format.count(Int(count)).leftPadded(10)
                }
                line += "  " + (table.key.isEmpty ? "(whole row)" : table.key.joined(separator: ", "))
                if table.presence != "both" { line += "  [table \(table.presence)]" }
                lines.append(line)
                if !table.changedColumns.isEmpty {
                    lines.append(
                        "    changed columns: "
                            + table.changedColumns.sorted { $0.key < $1.key }.map {
                                "\($0.key) \(Format.count(Int($0.value)))"
                            }.joined(separator: ", "))
                }
                for (kind, keys) in [
                    ("added", table.examples.added), ("removed", table.examples.removed),
                    ("changed", table.examples.changed)
                ] where !keys.isEmpty {
                    lines.append("    \(kind): " + keys.map { $0.joined(separator: "/") }.joined(separator: "  "))
                }
            }
            let changed = names.filter { diff.tables[$0]!.hasChanges }.count
            var total =
                changed == 0 ? "no changes in \(names.count) tables" : "\(changed) of \(names.count) tables changed"
            if let feeds = diff.feeds {
                lines.append("")
                lines.append("feeds")
                lines += feedLines(feeds)
                let count = { (presence: String) in feeds.filter { $0.presence == presence }.count }
                let changedFeeds = feeds.filter { $0.presence == "both" && $0.hasChanges }.count
                total +=
                    """
                    ; feeds: \(count("added")) added, \(count("removed")) removed, \(changedFeeds) changed, \
                    \(count("both") - changedFeeds) unchanged
                    """
            }
            lines.append("")
            lines.append(total)
            return lines.joined(separator: "\n")
        }

        /// `+ feed NAME (source)` for a feed added, `- feed NAME` for one removed, `~ feed NAME`
        /// and its tables' changes for one changed, `= feed NAME` for one unchanged.
        static func feedLines(_ feeds: [SeedDiff.FeedChanges]) -> [String] {
            func rows(_ count: Int64) -> String { "\(Format.count(Int(count))) row\(count == 1 ? "" : "s")" }
            var lines: [String] = []
            for feed in feeds {
                switch feed.presence {
                case "added": lines.append("+ feed \(feed.name) (\(feed.newSource ?? "")): \(rows(feed.newRows))")
                case "removed": lines.append("- feed \(feed.name) (\(feed.oldSource ?? "")): \(rows(feed.oldRows))")
                default:
                    guard feed.hasChanges else {
                        lines.append("= feed \(feed.name): \(rows(feed.newRows)), no changes"); continue
                    }
                    var line = "~ feed \(feed.name): \(rows(feed.oldRows)) -> \(rows(feed.newRows))"
                    if feed.oldSource != feed.newSource {
                        line += ", source \(feed.oldSource ?? "?") -> \(feed.newSource ?? "?")"
                    }
                    lines.append(line)
                    let tables = feed.tables.filter(\.value.hasChanges).sorted { $0.key < $1.key }
                    let width = tables.map(\.key.count).max() ?? 0
                    for (name, table) in tables {
                        lines.append(
                            "    " + name.padding(toLength: width, withPad: " ", startingAt: 0)
                                + "  \(Format.count(Int(table.added))) added, \(Format.count(Int(table.removed))) "
                                + "removed, "
                                    + """
                                    \(Format.count(Int(table.changed))) changed; \(rows(table.oldRows)) -> \
                                    \(rows(table.newRows))
                                    """
                        )
                    }
                }
            }
            return lines
        }
    }
}
