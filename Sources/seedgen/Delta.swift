import ArgumentParser
import Foundation
import SeedDeltas
import SeedKit
import SeedShip

extension SeedGen {
    struct Delta: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the delta that turns one seed into the next: only the rows that changed.",
            discussion: """
                The delta holds, per table, the rows of NEW that OLD lacks or holds with other \
                values, and the keys of the rows NEW lacks, compared by id (rowid or primary key) \
                in every table the seed does not derive (seedgen_metadata and sqlite_stat1 \
                included); deflate-compressed. What the seed derives (derive: tables such as \
                service_dates, search and spatial indexes) is not in it: the installer derives it \
                again. Its header names both seeds by version and content digest (the \
                content_sha256 they record). `seedgen install DELTA --to DEST` (or SeedInstaller in \
                an app) applies it, with that device's own SQLite, to the seed installed at DEST \
                when it has OLD's content: the result has NEW's content digest (it is checked), \
                with every guarantee of installing a full seed.

                Build each seed with --previous of the one before (seedgen build ... --previous \
                OLD.sqlite): rows then keep their ids, and the delta follows the rows that changed \
                rather than the rows that moved.

                Before it is kept, the delta is applied to a copy of OLD and must give NEW's \
                content (--no-verify skips this). Refused, exit 1, with a message saying to ship \
                the full seed: seeds of different schemas, or of different SQL schemas (a new \
                extra_ table). The file is written beside --out and renamed into place when complete.

                Examples:
                  seedgen build feed-0317.zip --previous seed-0316.sqlite --out seed-0317.sqlite
                  seedgen delta seed-0316.sqlite seed-0317.sqlite --out 0316-0317.delta
                  seedgen install 0316-0317.delta --to /var/lib/app/seed.sqlite
                """)

        @Argument(help: ArgumentHelp("The seed the delta applies to.", valueName: "old"))
        var old: String

        @Argument(help: ArgumentHelp("The seed it produces.", valueName: "new"))
        var new: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The delta file to write.", valueName: "file"))
        var out: String

        @Option(help: ArgumentHelp("The deflate level, 0 (store) to 9 (smallest).", valueName: "n"))
        var level = 9

        @Flag(help: "Do not apply the delta to a copy of OLD to check that it gives NEW's content before keeping it.")
        var noVerify = false

        @Flag(name: .shortAndLong, help: "Print nothing but errors.")
        var quiet = false

        func validate() throws {
            if !(0...9).contains(level) { throw ValidationError("--level must be between 0 and 9.") }
        }

        func run() throws {
            Interrupts.removeScratchFilesOnSignal()
            let summary: SeedDeltaWriter.Summary
            do {
                summary = try SeedDeltaWriter(level: level, verify: !noVerify).write(old: old, new: new, to: out)
            } catch {
                throw ShipText.fail(error)
            }
            if !quiet { print(Self.summary(summary, new: new)) }
        }

        /// What was written, how it compares with the full seed, and the changes per table.
        static func summary(_ summary: SeedDeltaWriter.Summary, new: String) -> String {
            let header = summary.header
            var size = "\(Format.bytes(summary.size))"
            let packed = new + ".gz"
            if let attributes = try? FileManager.default.attributesOfItem(atPath: packed),
                let full = attributes[.size] as? Int64, full > 0
            {
                size += String(
                    format: " (%.1f%% of %@, %@)", Double(summary.size) * 100 / Double(full),
                    (packed as NSString).lastPathComponent, Format.bytes(full))
            }
            var lines = [
                """
                delta \(summary.output): seed version \(header.from.seedVersion) -> \(header.to.seedVersion), \
                schema v\(header.schemaVersion), \(size)
                """
            ]
            for table in summary.tables {
                lines.append(
                    "  \(table.name): \(table.removed) removed, \(table.added) added, \(table.changed) changed")
            }
            if summary.verified {
                lines.append(
                    """
                    verified: applied to a copy of the old seed (content \
                    \(header.from.contentSHA256.prefix(12))…), it gives the new seed's content \
                    \(header.to.contentSHA256)
                    """
                )
            }
            return lines.joined(separator: "\n")
        }
    }
}
