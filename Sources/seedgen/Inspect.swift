import ArgumentParser
import Foundation
import SeedKit
import SeedShip

extension SeedGen {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show what is inside a seed: versions, tables, indexes, pages, inputs.",
            discussion: """
                SEED is a seed database (.sqlite), a packed seed (.sqlite.gz, decompressed to a \
                temporary file) or a manifest (.manifest.json, whose facts are shown as they are). \
                The file's kind is recognised from its first bytes. Nothing is written beside SEED.

                --json prints one object with sorted keys. Scripts can rely on:
                  schemaVersion  the schema version (PRAGMA user_version)
                  seedVersion    the seed version
                  tables         table name -> row count
                and, when known: schemaName, toolVersion, schemaSha256, contentSha256, format (sqlite, gzip, \
                manifest), size (bytes of the uncompressed seed), pageSize, pageCount, \
                freelistCount, journalMode (delete or wal), applicationId, tableDetails \
                [{name, rows, bytes, columns: [{name, type, notNull, primaryKey, references}]}], \
                indexes [{name, table, unique, columns, bytes}], queryIndexes [{name, kind (search, \
                spatial, derived or index), table, rows, bytes (for an index: beyond the reference's index it \
                replaces), replaces, indexBytes}], inputs [{name, sha256, bytes, rows, rejected}], \
                feeds [{name, source, startDate, endDate, publisher, version, rows: {table: count}}], \
                gzip {size, sha256, comment}, manifest (the manifest beside the seed). Fields that \
                do not apply are left out.

                A region seed (several feeds built into one) also lists its feeds, from its feeds \
                table: each feed's name, source, validity, publisher and version, and its rows per \
                table. A seed of one feed has no feeds.

                Examples:
                  seedgen inspect out/cairns.sqlite
                  seedgen inspect out/cairns.sqlite.gz --json | jq .tables
                  seedgen inspect out/cairns.sqlite.manifest.json
                """)

        @Argument(help: ArgumentHelp("A .sqlite seed, a .sqlite.gz or a .manifest.json.", valueName: "seed"))
        var seed: String

        @OptionGroup var output: JSONOutput

        func run() throws {
            let report: SeedReport
            do {
                report = try SeedInspector.report(for: SeedFile(path: seed))
            } catch {
                throw ShipText.fail(error)
            }
            print(output.json ? ShipText.json(report) : Self.text(report), terminator: output.json ? "" : "\n")
        }

        static func text(_ report: SeedReport) -> String {
            var lines = ["\(report.path) (\(report.format.rawValue))"]
            let name = report.schemaName.map { "'\($0)' " } ?? ""
            lines.append("  schema         \(name)version \(report.schemaVersion.map(String.init) ?? "?")")
            lines.append("  seed version   \(report.seedVersion ?? "?")")
            if let tool = report.toolVersion { lines.append("  built by       seedgen \(tool)") }
            if let digest = report.schemaSha256, !digest.isEmpty { lines.append("  schema sha256  \(digest)") }
            if let digest = report.contentSha256 { lines.append("  content sha256 \(digest)") }
            if let size = report.size {
                lines.append("  size           \(Format.bytes(size)) (\(Format.count(Int(size))) bytes)")
            }
            if let gzip = report.gzip {
                lines.append(
                    """
                      gzip           \(Format.bytes(gzip.size)) (\(Format.count(Int(gzip.size))) \
                    bytes)\(gzip.sha256.map { ", sha256 \($0)" } ?? "")
                    """
                )
                if let comment = gzip.comment { lines.append("  gzip comment   \(comment)") }
            }
            if let pageSize = report.pageSize, let pageCount = report.pageCount {
                lines.append(
                    """
                      pages          \(Format.count(Int(pageCount))) of \(pageSize) bytes, \
                    \(report.freelistCount ?? 0) free
                    """
                )
            }
            if let mode = report.journalMode { lines.append("  journal mode   \(mode)") }
            if report.manifest != nil && report.format != .manifest { lines.append("  manifest       present") }

            if let feeds = report.feeds {
                lines.append("")
                lines.append("feeds")
                lines += FeedText.lines(feeds, tableLimit: nil)
            }

            lines.append("")
            lines.append("tables")
            let details: [(name: String, rows: Int64, bytes: Int64?, columns: Int)] =
                report.tableDetails?.map {
                    ($0.name, $0.rows, $0.bytes, $0.columns.count)
                } ?? report.tables.sorted { $0.key < $1.key }.map { ($0.key, $0.value, nil, 0) }
            let width = details.map(\.name.count).max() ?? 0
            for table in details {
                var line =
                    "  " + table.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + Format.count(Int(table.rows)).leftPadded(12) + " rows"
                if let bytes = table.bytes { line += "  " + Format.bytes(bytes).leftPadded(10) }
                if table.columns > 0 { line += "  \(table.columns) columns" }
                lines.append(line)
            }
            if let indexes = report.indexes, !indexes.isEmpty {
                lines.append("")
                lines.append("indexes")
                let width = indexes.map(\.name.count).max() ?? 0
                for index in indexes {
                    var line = "  " + index.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    line +=
                        "  \(index.unique ? "UNIQUE " : "")ON \(index.table) (\(index.columns.joined(separator: ", ")))"
                    if let bytes = index.bytes { line += "  \(Format.bytes(bytes))" }
                    lines.append(line)
                }
            }
            if let indexes = report.queryIndexes {
                lines.append("")
                lines.append("query features (search, spatial, derived tables, indexes beyond a reference's)")
                lines += SummaryText.costLines(indexes, seedBytes: report.size)
            }
            if let inputs = report.inputs, !inputs.isEmpty {
                lines.append("")
                lines.append("inputs")
                let width = inputs.map(\.name.count).max() ?? 0
                for input in inputs {
                    lines.append(
                        "  " + input.name.padding(toLength: width, withPad: " ", startingAt: 0)
                            + "  " + Format.count(Int(input.rows)).leftPadded(12) + " rows  "
                            + Format.bytes(input.bytes).leftPadded(10) + "  sha256 " + input.sha256
                            + ((input.rejected ?? 0) > 0
                                ? "  (\(Format.count(Int(input.rejected ?? 0))) rejected)" : ""))
                }
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// What the ship commands (inspect, verify, pack, diff, schema) share: JSON and errors.
enum ShipText {
    /// `value` as JSON: sorted keys, pretty-printed, ending with a newline; stable for scripts.
    static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // The report types hold strings, numbers and booleans only: encoding cannot fail.
        return String(decoding: try! encoder.encode(value), as: UTF8.self) + "\n"
    }

    /// Prints `error` to standard error and returns the exit code to throw.
    static func fail(_ error: any Error, code: Int32 = 1) -> ExitCode {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        return ExitCode(code)
    }

    /// Loads `--schema`: a schema file, or the name of a built-in schema (`transit`).
    static func loadSchema(_ path: String) throws -> Schema {
        if !FileManager.default.fileExists(atPath: path),
            let builtIn = SchemaLocator.builtIns.first(where: { $0.name == path })
        {
            do { return try builtIn.load() } catch { throw fail(error) }
        }
        do { return try Schema.load(path: path) } catch { throw fail(error) }
    }
}
