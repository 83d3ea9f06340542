import ArgumentParser
import Foundation
import SeedHTMLReport
import SeedKit
import SeedShip
import SeedSQLite
import SeedSystem

extension SeedGen {
    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Build a seed database from input data.",
            discussion: """
                Each INPUT is a folder, a .zip archive (GTFS feeds are usually published zipped) \
                or a single file. The schema says which tables to build and how the input maps \
                onto them. Without --schema, seedgen uses, in order: a seedgen.yaml inside an \
                input folder, then a built-in schema recognised from the inputs (a GTFS feed \
                uses the transit schema, Schema/transit.yaml; an OpenStreetMap .osm file the \
                osm schema, Schema/osm.yaml; NeTEx XML, whose root is PublicationDelivery, the \
                netex schema; TransXChange XML the transxchange schema).

                The seed is written to a temporary file next to --out and renamed into place \
                only when complete: a failed build leaves an existing --out untouched. The same \
                inputs and schema always give the same bytes.

                Bad input (a malformed row, a value that is not of its column's type, a missing \
                required column or file, a duplicate key, a reference to a row that does not \
                exist) fails the build with the file, line, column and value, exit code 1. \
                With --lenient the build completes instead: a bad value in a nullable column \
                becomes NULL, a row that cannot be kept (bad required value, duplicate key: the \
                later row) is left out, a dangling reference becomes NULL; each decision is a \
                warning, and the rows left out of each file are counted in seedgen_inputs.rejected.

                Values are trimmed of surrounding spaces and tabs (a schema column may say \
                trim: false). CSV that Python's csv module accepts is repaired and reported as \
                a warning: text after a closing quote is kept as part of the value, a quote \
                inside an unquoted field is literal, spaces before an opening quote are skipped, \
                a row that leaves off trailing fields reads them as empty, a UTF-16 file (with \
                a byte-order mark) is read as text. Invalid UTF-8 and NUL bytes are stored as \
                U+FFFD, each with a warning. A 0-byte file is treated as absent. A mapping that \
                matches nothing (a table with no rows, a column whose source matched nothing in \
                any input) is a warning naming the schema line. --strict makes these repairs \
                and mapping warnings errors.

                Several feeds make one seed for a region (a metro, buses and a ferry, each \
                publishing its own feed): give each feed's folder or .zip (seedgen build \
                metro.zip buses/ ferry.zip), name them (--feed NAME=PATH; by default a feed is \
                named after its file or folder, without .zip, or, where that name is another \
                feed's too as in gtfs/*/feed, after the folder it is in), or give one folder whose \
                entries are all feeds. Each feed's ids are its own: the same stop_id in two feeds is two \
                stops, references resolve within their feed, and every row has a feed_ref to the \
                feeds table (name, source, feed_info, validity dates, row counts per table). \
                Messages name the feed beside the file. With --previous, a feed whose input did \
                not change keeps its rows and ids, so the delta carries the changed feeds only. \
                One feed builds the same bytes as before, with no feeds table.

                GTFS feeds are checked as MobilityData's validator checks them, with its notice \
                codes (shown in brackets): ids that name nothing (foreign_key_violation, also \
                trips.service_id and shape_id, fare zones and products) and repeated keys \
                (duplicate_key) are data errors; what an app would show wrongly (times running \
                backwards, a first or last stop without times, a time without its pair, a \
                negative stop_sequence, a time zone that does not exist, no calendar file, \
                invalid text) is a warning, an error under --strict. With --lenient, an optional \
                file whose header cannot be read (a required column missing, a column twice) is \
                left out with a warning. stops.txt may be absent beside locations.geojson or \
                location_groups.txt. --notices FILE.json writes every notice for CI to keep.

                Examples:
                  seedgen build examples/cairns --out cairns.sqlite
                  seedgen build feed.zip --out seed.sqlite --seed-version 2026.11.21
                  seedgen build topsongs.xml --schema Schema/topsongs.yaml --out songs.sqlite
                  seedgen build liechtenstein.osm --out osm.sqlite
                  seedgen build netex-export.zip --out netex.sqlite
                  seedgen build txc-folder/ --out txc.sqlite
                  seedgen build old-feed.zip --out seed.sqlite --lenient
                  seedgen build feed.zip --out seed.sqlite --strict --notices notices.json
                  seedgen build feed.zip --previous seed-0316.sqlite --out seed-0317.sqlite
                  seedgen build metro.zip buses.zip --feed ferry=ferry.zip --out region.sqlite
                  seedgen build feeds/ --out region.sqlite          (feeds/ holds only feeds)
                """)

        @Argument(
            help: ArgumentHelp(
                "Input folders, .zip archives or files; several folders or zips are several feeds.", valueName: "input")
        )
        var inputs: [String] = []

        @Option(
            help: ArgumentHelp(
                """
                A feed of a region seed, named: NAME=PATH (a folder, a .zip, or one XML export file). Repeat for \
                each feed; positional feeds are named after their file or folder, without .zip.
                """,
                valueName: "name=path"))
        var feed: [String] = []

        @Option(name: .shortAndLong, help: ArgumentHelp("The seed file to write.", valueName: "file"))
        var out: String

        @Option(help: ArgumentHelp("The schema file (YAML). Default: see the lookup order above.", valueName: "file"))
        var schema: String?

        @Option(
            help: ArgumentHelp(
                "The seed version to stamp. Default: a digest of the schema and the inputs.", valueName: "text"))
        var seedVersion: String?

        @Option(
            help: ArgumentHelp(
                """
                The seed this build follows: rows keep its ids (matched by their key, or the whole row), new rows \
                get ids above any it gave, references follow; so `seedgen delta` between the two carries only the \
                rows that changed. It must be a seed of the same schema.
                """,
                valueName: "file"))
        var previous: String?

        @Flag(
            help:
                """
                Keep rows whose reference names no row, with a NULL reference (reported as warnings). Implied by \
                --lenient.
                """
        )
        var allowDangling = false

        @Flag(
            help:
                """
                Keep going past data errors: bad values become NULL, rows that cannot be kept are left out \
                (counted in seedgen_inputs.rejected), dangling references become NULL, GTFS ids that name nothing \
                are kept as written, an optional file with a bad header is left out; each is a warning.
                """
        )
        var lenient = false

        @Flag(
            help:
                """
                Fail (exit 1, nothing written) on what is otherwise a warning: CSV syntax that is repaired (text \
                after a closing quote, a quote in an unquoted field, spaces before an opening quote, a short row, \
                a UTF-16 file), mapping mistakes (a table with no rows, a column whose source matched nothing in \
                any input) and GTFS data an app would show wrongly (times running backwards, a missing time zone, \
                invalid text, no calendar).
                """
        )
        var strict = false

        @Option(
            help: ArgumentHelp(
                "Keys each reference's lookup cache keeps (default 65536, or the schema's 'cache').", valueName: "n"))
        var cacheSize: Int?

        @Option(
            help: ArgumentHelp(
                """
                Keys kept per table in the map from integer keys to row ids that resolves references to tables whose \
                keys ascend (OSM ids) without a query; 8 bytes a key, so 2097152 keys are 16 MiB. Past it, or once \
                keys stop ascending, lookups use the cache and a query. 0 turns the maps off.
                """, valueName: "n"))
        var idMapSize: Int = 2_097_152

        @Option(
            help: ArgumentHelp(
                "The largest CSV record or GeoJSON feature accepted, in bytes (16777216 is 16 MiB).",
                valueName: "bytes"))
        var maxRecordSize: Int = InputLimits.defaultRecordBytes

        @Option(help: ArgumentHelp("The longest key or reference value accepted, in bytes.", valueName: "bytes"))
        var maxKeySize: Int = InputLimits.defaultKeyBytes

        @Option(help: ArgumentHelp("The deepest XML element nesting accepted.", valueName: "n"))
        var maxXmlDepth: Int = InputLimits.defaultXMLDepth

        @Option(
            help: ArgumentHelp(
                """
                Write every notice (warnings and errors) to this JSON file, whether the build succeeds or fails: \
                each with its code (MobilityData's GTFS validator's codes, such as foreign_key_violation), \
                severity, file, line, column, field and value, and the count of each code.
                """,
                valueName: "file.json"))
        var notices: String?

        @Option(
            help: ArgumentHelp(
                """
                Also write the seed's HTML report (see seedgen report), with the build's notices and, with \
                --previous, what changed since the previous seed.
                """,
                valueName: "report.html"))
        var report: String?

        @Option(
            help: ArgumentHelp(
                """
                The day GTFS's date-relative rules take as today (a calendar that ended before it is \
                expired_calendar; a week from it without trips, trip_coverage_not_active_for_next7_days): \
                default the build's date (UTC). Written in the notices report, not in the seed.
                """,
                valueName: "YYYY-MM-DD"))
        var today: String?

        @Flag(help: "Also pack the seed: OUT.gz and OUT.manifest.json beside it (see seedgen pack).")
        var gzip = false

        @Flag(name: .shortAndLong, help: "Print nothing but errors.")
        var quiet = false

        @Flag(
            help:
                """
                Also print each stage's wall time, CPU time and peak memory (prepare, load, checks, stable ids, \
                derive, feeds, index, digest, finish), with --quiet too: where a build's time went.
                """
        )
        var timings = false

        func validate() throws {
            if inputs.isEmpty && feed.isEmpty { throw ValidationError("Give at least one input folder, .zip or file.") }
            if let cacheSize, cacheSize < 1 { throw ValidationError("--cache-size must be at least 1.") }
            if idMapSize < 0 { throw ValidationError("--id-map-size must be 0 or more.") }
            // SQLite stores at most 1,000,000,000 bytes in one value.
            if !(1...1_000_000_000).contains(maxRecordSize) {
                throw ValidationError("--max-record-size must be between 1 and 1000000000.")
            }
            if !(1...1_000_000_000).contains(maxKeySize) {
                throw ValidationError("--max-key-size must be between 1 and 1000000000.")
            }
            if !(1...10_000_000).contains(maxXmlDepth) {
                throw ValidationError("--max-xml-depth must be between 1 and 10000000.")
            }
            if let today, !Self.isDate(today) { throw ValidationError("--today needs a date as YYYY-MM-DD.") }
            if let seedVersion, seedVersion.isEmpty { throw ValidationError("--seed-version must not be empty.") }
            if let notices, notices.isEmpty || notices == out {
                throw ValidationError("--notices needs a file of its own (not --out).")
            }
            if let report, report.isEmpty || report == out || report == notices {
                throw ValidationError("--report needs a file of its own (not --out or --notices).")
            }
        }

        func run() throws {
            do { try RawArguments.requireUTF8() } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                throw ExitCode(1)
            }
            Interrupts.removeScratchFilesOnSignal()
            Connection.disableMemoryStatistics()
            CurrentProcess.fixMallocMmapThreshold()
            var options = BuildOptions(
                inputs: inputs, output: out, schemaPath: schema, seedVersion: seedVersion,
                allowDangling: allowDangling, cacheSize: cacheSize, lenient: lenient, strict: strict)
            options.feeds = feed
            options.idMapCapacity = idMapSize
            options.previous = previous
            // The report shows the build's notices: kept beside it while the build runs when not asked for.
            let reportNotices = notices ?? report.map { $0 + ".notices.json" }
            options.notices = reportNotices
            defer {
                if notices == nil, let reportNotices { try? FileManager.default.removeItem(atPath: reportNotices) }
            }
            options.today = today
            options.limits = InputLimits(recordBytes: maxRecordSize, keyBytes: maxKeySize, xmlDepth: maxXmlDepth)
            let display = !quiet && isatty(STDERR_FILENO) == 1 ? TerminalProgress() : nil
            do {
                let summary = try SeedBuilder(options: options, progress: display).build()
                display?.clear()
                if !quiet { print(SummaryText(summary).text) }
                if timings { print(Self.timingsText(summary.timings)) }
            } catch {
                display?.clear()
                let hint = lenient ? nil : Self.lenientHint(error)
                FileHandle.standardError.write(Data((error.description + "\n" + (hint.map { $0 + "\n" } ?? "")).utf8))
                throw ExitCode(1)
            }
            if let report {
                try Self.writeReport(report, seed: out, previous: previous, notices: reportNotices, quiet: quiet)
            }
            if gzip {
                do { let packed = try SeedPacker().pack(seed: out); if !quiet { print(Pack.summary(packed)) } } catch {
                    throw ShipText.fail(error)
                }
            }
        }

        /// Writes `seedgen report`'s page about the seed just built.
        static func writeReport(_ path: String, seed: String, previous: String?, notices: String?, quiet: Bool) throws {
            let start = Date()
            do {
                let figures = try HTMLReport.write(
                    seed: seed, options: HTMLReport.Options(previous: previous, notices: notices), to: path)
                if !quiet { print(Report.line(out: path, figures, seconds: Date().timeIntervalSince(start))) }
            } catch {
                throw ShipText.fail(error)
            }
        }

        /// Whether `text` is a day of the calendar written `YYYY-MM-DD`.
        static func isDate(_ text: String) -> Bool {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard text.utf8.count == 10, parts.count == 3, parts.map(\.count) == [4, 2, 2],
                let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
            else { return false }
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            return (1...days).contains(day) && parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
        }

        /// What to do after data errors that `--lenient` turns into warnings (bad values, empty
        /// required values, duplicate keys, references naming no row, in the input's rows; not
        /// those of a derived table's recipe): nil for any other failure.
        static func lenientHint(_ error: BuildError) -> String? {
            let kept: Set<BuildIssue.Kind> = [.invalidValue, .missingValue, .duplicateKey, .danglingReference]
            guard error.code == .invalidInput, let groups = error.issueLog?.groups.filter(\.kind.isError),
                !groups.isEmpty,
                groups.allSatisfy({ group in
                    kept.contains(group.kind) && !group.file.hasPrefix("derived table ")
                        && !group.examples.contains { $0.message.contains("by the recipe of") }
                })
            else { return nil }
            return "To build the seed anyway, add --lenient: each of these errors becomes a warning, "
                + "its value stored as NULL (or kept as written) or its row left out (counted in the summary)."
        }

        /// The stages' timings as a table: a line a stage, then the whole build. A stage that ran
        /// beside another says so; its wall time is not added to the total's (its CPU time is).
        static func timingsText(_ stages: [StageTiming]) -> String {
            func line(_ name: String, _ wall: Double, _ cpu: Double, _ peak: Int64) -> String {
                name.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(format: "%8.2f s %8.2f CPU-s %7.1f MB peak", wall, cpu, Double(peak) / 1_048_576)
            }
            var lines = ["timings (wall, CPU of all threads, peak memory at the stage's end):"]
            lines += stages.map { stage in
                "  " + line(stage.stage, stage.wallSeconds, stage.cpuSeconds, stage.peakMemoryBytes)
                    + (stage.beside.map { " (beside \($0), on another thread)" } ?? "")
            }
            lines.append(
                "  "
                    + line(
                        "total", stages.filter { $0.beside == nil }.reduce(0) { $0 + $1.wallSeconds },
                        stages.reduce(0) { $0 + $1.cpuSeconds }, stages.map(\.peakMemoryBytes).max() ?? 0))
            return lines.joined(separator: "\n")
        }
    }
}
