import ArgumentParser
import Foundation
import SeedKit
import SeedShip

extension SeedGen {
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that a seed is fit to ship; exit 0 only when every check passes.",
            discussion: """
                Prints one line per check, `ok   NAME` or `FAIL NAME: what is wrong`:
                  journal_mode        not in WAL mode (database header bytes 18 and 19 are 1)
                  integrity_check     PRAGMA integrity_check
                  foreign_key_check   every reference names an existing row
                  vacuumed            no free pages (PRAGMA freelist_count = 0)
                  application_id      0x53454544 ("SEED"): built by seedgen
                  versions            user_version, seedgen_metadata schema_name, schema_version \
                (equal to user_version), seed_version and tool_version present
                  feed_rows FEED      in a region seed, one per feed: the feed's row_counts \
                (its feeds row) match its rows in each table
                  schema              with --schema: the tables, columns, declared types and \
                NOT NULL match the schema's DDL, and its version and name match the seed's
                  gzip_stamp          for a .sqlite.gz: the header comment holds the seed's versions
                  manifest_checksums  with a manifest: size and sha256 of the seed, gzipSize and \
                gzipSha256 of the .gz
                  manifest_contents   with a manifest: versions and row counts match the seed

                SEED may be a .sqlite, a .sqlite.gz (checked after decompressing it to a temporary \
                file) or a manifest (the seed beside it is checked: x.sqlite.gz, else x.sqlite). \
                The manifest beside SEED (x.sqlite.manifest.json) is used when present. Exit \
                code 1 when any check fails, 2 when SEED cannot be read at all.

                --json prints {"passed": BOOL, "checks": [{"name", "passed", "detail"}]}.

                In a region seed (several feeds built into one) every row's feed_ref names a \
                feed (foreign_key_check), and each feed gets its own feed_rows line with its rows. \
                In --json such a check also has "feed": NAME.

                Examples:
                  seedgen verify out/cairns.sqlite --schema Schema/transit.yaml
                  seedgen verify out/cairns.sqlite.gz --schema-version 1
                  seedgen verify out/cairns.sqlite.manifest.json --json
                """)

        @Argument(help: ArgumentHelp("A .sqlite seed, a .sqlite.gz or a .manifest.json.", valueName: "seed"))
        var seed: String

        @Option(
            help: ArgumentHelp(
                "The schema the seed must match (a YAML file, or a built-in name such as 'transit').", valueName: "file"
            ))
        var schema: String?

        @Option(help: ArgumentHelp("The schema version the seed must have (implied by --schema).", valueName: "n"))
        var schemaVersion: Int?

        @Option(
            help: ArgumentHelp(
                "The manifest to check against (default: the one beside SEED, if any).", valueName: "file"))
        var manifest: String?

        @OptionGroup var output: JSONOutput

        func run() throws {
            let schema = try schema.map(ShipText.loadSchema)
            let file: SeedFile
            do { file = try SeedFile(path: seed, manifestPath: manifest) } catch { throw ShipText.fail(error, code: 2) }
            let checks = SeedVerifier(schema: schema, schemaVersion: schemaVersion).verify(file)
            let passed = checks.allSatisfy(\.passed)
            if output.json {
                print(ShipText.json(Report(passed: passed, checks: checks)), terminator: "")
            } else {
                for check in checks {
                    let detail =
                        check.detail.isEmpty ? "" : (check.passed ? "  (\(check.detail))" : ": \(check.detail)")
                    print(
                        (check.passed ? "ok   " : "FAIL ") + check.name + (check.feed.map { " " + $0 } ?? "") + detail)
                }
                let failures = checks.filter { !$0.passed }.count
                print(
                    passed
                        ? "\(seed): all \(checks.count) checks passed"
                        : "\(seed): \(failures) of \(checks.count) checks failed")
            }
            if !passed { throw ExitCode(1) }
        }

        struct Report: Encodable {
            var passed: Bool
            var checks: [SeedCheck]
        }
    }
}
