import ArgumentParser
import Foundation
import SeedKit
import SeedShip

extension SeedGen {
    struct Pack: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Gzip a seed for shipping and write its manifest beside it.",
            discussion: """
                Writes SEED.gz (or --out) and, beside it, the manifest: seed.sqlite.gz gets \
                seed.sqlite.manifest.json. The gzip is deterministic (no time stamp, no file \
                name; the header comment records the versions, `seedgen-seed schema-version=N \
                seed-version=V`, so an installer can read them without decompressing): the same \
                seed packs to the same bytes. It is streamed, so memory stays small whatever \
                the seed's size, and renamed into place only when complete.

                The manifest (JSON, sorted keys) holds schemaVersion, seedVersion, sha256 and \
                size of the uncompressed seed, gzipSha256 and gzipSize, tables (table name -> \
                row count), toolVersion and schemaName. SeedInstaller checks the seed against \
                it before installing, and uses size to check for free space.

                Prints the manifest's path and facts; --json prints the manifest itself.

                Examples:
                  seedgen pack out/cairns.sqlite
                  seedgen pack out/cairns.sqlite --out dist/seed.sqlite.gz --level 6
                """)

        @Argument(help: ArgumentHelp("The seed database (.sqlite) built by seedgen build.", valueName: "seed"))
        var seed: String

        @Option(
            name: .shortAndLong, help: ArgumentHelp("The gzip file to write (default: SEED.gz).", valueName: "file"))
        var out: String?

        @Option(help: ArgumentHelp("The deflate level, 0 (store) to 9 (smallest).", valueName: "n"))
        var level = 9

        @Option(
            help: ArgumentHelp(
                """
                Record this publication sequence (gzip header and manifest): an installer keeps an installed seed \
                of a higher sequence, e.g. one downloaded from a channel, instead of this one.
                """,
                valueName: "n"))
        var sequence: Int64?

        @OptionGroup var output: JSONOutput

        func validate() throws {
            if !(0...9).contains(level) { throw ValidationError("--level must be between 0 and 9.") }
            if let sequence, sequence < 1 { throw ValidationError("--sequence must be positive.") }
            if let out, !out.hasSuffix(".gz") {
                throw ValidationError("--out must end in .gz, so the manifest can be found beside it.")
            }
        }

        func run() throws {
            let result: SeedPacker.Result
            do { result = try SeedPacker(level: level, sequence: sequence).pack(seed: seed, to: out) } catch {
                throw ShipText.fail(error)
            }
            print(
                output.json ? String(decoding: result.manifest.encoded(), as: UTF8.self) : Self.summary(result),
                terminator: output.json ? "" : "\n")
        }

        /// Two lines: what was written, and how much smaller it is.
        static func summary(_ result: SeedPacker.Result) -> String {
            let manifest = result.manifest
            let ratio = manifest.size > 0 ? Double(manifest.gzipSize) * 100 / Double(manifest.size) : 0
            return """
                packed \(result.gzipPath): schema v\(manifest.schemaVersion), seed version \(manifest.seedVersion), \
                \(Format.bytes(manifest.size)) -> \(Format.bytes(manifest.gzipSize)) (\(String(format: "%.0f", ratio))%)
                manifest \(result.manifestPath): sha256 \(manifest.sha256), gzipSha256 \(manifest.gzipSha256)
                """
        }
    }
}
