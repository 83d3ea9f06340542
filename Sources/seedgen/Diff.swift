import ArgumentParser
import Foundation
import SeedKit

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

                Exit code 0 (1 with --exit-code when the seeds differ; 2 when a seed cannot be read).

                Examples:
                  seedgen diff release-41.sqlite out/cairns.sqlite
                  seedgen diff old.sqlite.gz new.sqlite.gz --schema Schema/transit.yaml --json
                """)

        @Argument(help: ArgumentHelp("The earlier seed (.sqlite or .sqlite.gz).", valueName: "old"))
        var old: String

        @Argument(help: ArgumentHelp("The later seed (.sqlite or .sqlite.gz).", valueName: "new"))
        var new: String

        @Option(help: ArgumentHelp("The schema whose keys match rows (a YAML file, or a built-in name such as 'transit').", valueName: "file"))
        var schema: String?

        @Option(help: ArgumentHelp("Example keys shown per table and kind of change.", valueName: "n"))
        var examples = 5

        @Flag(help: "Print JSON (see above) instead of text.")
        var json = false

        @Flag(help: "Exit with code 1 when the seeds differ.")
        var exitCode = false

        func validate() throws {
            if examples < 0 { throw ValidationError("--examples must not be negative.") }
        }

        func run() throws {
            let schema = try schema.map(ShipText.loadSchema)
            let diff: SeedDiff
            do {
                diff = try SeedDiff.compare(old: SeedFile(path: old), new: SeedFile(path: new), schema: schema, limit: examples)
            } catch {
                throw ShipText.fail(error, code: 2)
            }
            print(json ? ShipText.json(diff) : Self.text(diff), terminator: json ? "" : "\n")
            if exitCode && diff.hasChanges { throw ExitCode(1) }
        }

        static func text(_ diff: SeedDiff) -> String {
            func version(_ side: SeedDiff.Side) -> String { "seed version \(side.seedVersion ?? "?"), schema v\(side.schemaVersion)" }
            var lines = ["old \(diff.old.path) (\(version(diff.old)))", "new \(diff.new.path) (\(version(diff.new)))", ""]
            let names = diff.tables.keys.sorted()
            let width = max(names.map(\.count).max() ?? 0, 5)
            lines.append("table".padding(toLength: width, withPad: " ", startingAt: 0) + "  " + "added".leftPadded(10)
                         + "  " + "removed".leftPadded(10) + "  " + "changed".leftPadded(10) + "  " + "rows".leftPadded(10) + "  key")
            for name in names {
                let table = diff.tables[name]!
                var line = name.padding(toLength: width, withPad: " ", startingAt: 0)
                for count in [table.added, table.removed, table.changed, table.newRows] { line += "  " + Format.count(Int(count)).leftPadded(10) }
                line += "  " + (table.key.isEmpty ? "(whole row)" : table.key.joined(separator: ", "))
                if table.presence != "both" { line += "  [table \(table.presence)]" }
                lines.append(line)
                if !table.changedColumns.isEmpty {
                    lines.append("    changed columns: " + table.changedColumns.sorted { $0.key < $1.key }.map { "\($0.key) \(Format.count(Int($0.value)))" }.joined(separator: ", "))
                }
                for (kind, keys) in [("added", table.examples.added), ("removed", table.examples.removed), ("changed", table.examples.changed)] where !keys.isEmpty {
                    lines.append("    \(kind): " + keys.map { $0.joined(separator: "/") }.joined(separator: "  "))
                }
            }
            let changed = names.filter { diff.tables[$0]!.hasChanges }.count
            lines.append("")
            lines.append(changed == 0 ? "no changes in \(names.count) tables" : "\(changed) of \(names.count) tables changed")
            return lines.joined(separator: "\n")
        }
    }
}
