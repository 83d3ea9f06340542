import ArgumentParser
import SeedInstaller
import SeedSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SeedGen {
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install a shipped seed at a destination, only when its version changed.",
            discussion: """
                Does what SeedInstaller.installIfNeeded() does at app startup, for shells, deploy \
                scripts and tests. The seed is installed when nothing is installed, when the shipped \
                seed version differs from the installed one (newer or older), or when the installed \
                file is missing or changed; otherwise nothing is written.

                The new seed is decompressed beside DEST, flushed, verified (SQLite header, not WAL, \
                schema and seed versions, size and SHA-256 against the manifest; PRAGMA quick_check \
                only for a plain gzip, which has no manifest to vouch for it), then \
                renamed into place after the old -wal, -shm and -journal files are removed. A crash \
                leaves the old seed or the new one, never a mix. Concurrent installs wait for each other.

                Any gzip of a seed works: `seedgen pack` output (versions in the gzip header and \
                the manifest) or a plain `gzip -9 seed.sqlite` (versions read from the seed once \
                decompressed; the next run compares the gzip trailer and file size instead).

                A seed delta (`seedgen delta OLD NEW --out FILE`, recognised by its first bytes) is \
                applied to the seed installed at DEST, which must have OLD's content (else it is \
                refused, delta-base-mismatch, and nothing changes): a copy of DEST is patched beside \
                it, checked to have NEW's content (its content digest), then renamed into place like \
                a full seed. Any failure leaves DEST as it was; install the full seed then.

                On a terminal, progress is shown on standard error (apply: bytes decompressed of \
                the seed's size, rate; verify); with --json or when standard error is not a \
                terminal, none.

                Prints one line starting with `installed`, `replaced-modified` (the installed seed's \
                content had been changed since it was installed; those changes are gone), `patched` (a \
                delta was applied) or `up-to-date` and exits 0; otherwise prints the reason to standard error and \
                exits 1 \
                (3 when the schema version differs).

                Example:
                  $ seedgen install seed.sqlite.gz --to /var/lib/app/seed.sqlite \\
                      --schema-version 3
                  installed seed-version=42 schema-version=3 [nothing installed] at ...
                """
        )

        @Argument(help: "The shipped seed: seed.sqlite.gz (gzip) or seed.sqlite; or a delta from the installed seed.")
        var seed: String

        @Option(name: .customLong("to"), help: ArgumentHelp("Where to install the seed.", valueName: "dest"))
        var destination: String

        @Option(help: "Refuse a seed whose schema version is not this one.")
        var schemaVersion: Int?

        @Option(help: "The seed's manifest (default: x.sqlite.manifest.json beside x.sqlite.gz, if present).")
        var manifest: String?

        @OptionGroup var output: JSONOutput

        func run() throws {
            // With a file-size limit, report EFBIG as a full disk instead of dying of SIGXFSZ.
            signal(SIGXFSZ, SIG_IGN)
            // A delta is applied with SQLite: its memory statistics only cost a global mutex.
            Connection.disableMemoryStatistics()
            var installer = SeedInstaller(
                source: seed, destination: destination, expectedSchemaVersion: schemaVersion, manifest: manifest)
            let display = ProgressLine.forTerminal(json: output.json)
            if let display { installer.progress = { display.show($0) } }
            do {
                let result = try installer.install()
                display?.clear()
                print(output.json ? Self.json(result) : result.description)
            } catch {
                display?.clear()
                if output.json {
                    print(Self.json(error))
                }
                var standardError = StandardError()
                print("seedgen install: \(error.code): \(error)", to: &standardError)
                throw ExitCode(error.code == .schemaMismatch ? 3 : 1)
            }
        }

        static func json(_ result: SeedInstallResult) -> String {
            var fields = [
                ("status", quoted(result.status.rawValue)), ("seedVersion", quoted(result.seedVersion)),
                ("schemaVersion", String(result.schemaVersion))
            ]
            fields.append(("previousSeedVersion", result.previousSeedVersion.map(quoted) ?? "null"))
            fields.append(("previousSchemaVersion", result.previousSchemaVersion.map(String.init) ?? "null"))
            fields.append(("path", quoted(result.path)))
            fields.append(("reason", result.reason.map(quoted) ?? "null"))
            return "{" + fields.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
        }

        static func json(_ error: SeedInstallerError) -> String {
            var fields = [
                ("status", quoted("error")), ("code", quoted(error.code.name)), ("message", quoted(error.message)),
                ("path", quoted(error.path))
            ]
            fields.append(("systemError", error.systemError.map(quoted) ?? "null"))
            return "{" + fields.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
        }

        static func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    out +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
    }
}

/// Standard error as a `TextOutputStream`, for `print(..., to:)`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        writeToStandardError(&bytes)
    }
}

private func writeToStandardError(_ bytes: inout [UInt8]) {
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
