import ArgumentParser
import Foundation
import SeedArchive
import SeedUpdater

extension SeedGen {
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Update an installed seed from a channel: the newest compatible seed, or only what changed.",
            discussion: """
                For services and scripts: what SeedUpdater does in an app. Reads the channel's \
                index.json (If-None-Match: an unchanged index is not transferred again), picks \
                the newest seed for the schema version, downloads the delta from the installed \
                seed when the channel has one, else the full seed, into a partial file beside \
                DEST (an interrupted download resumes from it), checks its size and SHA-256, and \
                installs it as seedgen install does. A delta that fails in any way is followed \
                by the full seed, once. Any failure leaves the installed seed as it was.

                With --public-key, an index that is unsigned or not signed by that key is \
                refused; an index whose sequence is lower than the installed seed's is always \
                refused (no rollback). The installed seed's version, content digest and \
                sequence are read from the seed itself (the installer stamps the sequence into \
                it), so a touched, copied or restored seed is still recognised and gets deltas. \
                The new seed must be the one the index names, else it is refused and the old \
                one kept. Several updates of one DEST at once take turns.

                --deadline bounds the whole update (default 60 s: a service's startup waits \
                no longer, then goes on with the seed it has; 0 for none); --timeout each wait \
                for data; --min-rate the speed of a download (default 4096 bytes/s over 10 s), \
                below which it counts as stalled and stops. What arrived is kept: the next \
                update resumes it. The free space a download and its install need is checked \
                before anything is downloaded.

                On a terminal, progress is shown on standard error (phase, bytes of total, \
                rate); with --json or when standard error is not a terminal, none.

                Prints one line starting with up-to-date, installed (full seed) or patched \
                (delta) and exits 0; --json prints status, seedVersion, previousSeedVersion, \
                schemaVersion, sequence, previousSequence, bytesDownloaded (every byte \
                received, a failed delta's included), deltaFailure (code and message, or null), \
                attempts (each download: file, url, bytes, failure) and path. Otherwise prints \
                every failure of the run, in order, and exits 1 (--json: status "error", code, \
                message, bytesDownloaded, attempts).

                Example, at a service's startup:
                  seedgen update --channel https://cdn.example.com/seeds/ \\
                      --to /var/lib/app/seed.sqlite --schema-version 2 \\
                      --public-key "$SEED_CHANNEL_KEY"
                """)

        @Option(help: ArgumentHelp("The channel's http(s) URL (its folder, or its index.json).", valueName: "url"))
        var channel: String

        @Option(name: .customLong("to"), help: ArgumentHelp("The installed seed.", valueName: "dest"))
        var destination: String

        @Option(help: "The schema version to fetch (default: the installed seed's, or the channel's only one).")
        var schemaVersion: Int?

        @Option(
            help: ArgumentHelp(
                "The channel's public key (seedgen keygen); refuses unsigned or badly signed indexes.",
                valueName: "base64"))
        var publicKey: String?

        @Option(help: ArgumentHelp("Seconds without data before a request fails.", valueName: "seconds"))
        var timeout: Double = 30

        @Option(
            help: ArgumentHelp("Seconds for the whole update, then it stops (0: no deadline).", valueName: "seconds"))
        var deadline: Double = SeedUpdater.defaultDeadline

        @Option(
            name: .customLong("min-rate"),
            help: ArgumentHelp(
                """
                Bytes per second a download must average over 10 s, else it counts as stalled and stops (0: no \
                minimum).
                """,
                valueName: "bytes"))
        var minimumRate: Int64 = SeedUpdater.defaultMinimumRate

        @OptionGroup var output: JSONOutput

        func validate() throws {
            guard let url = URL(string: channel), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme)
            else {
                // URLSession reads no channel from a file URL: say so here, not as a network error.
                throw ValidationError(
                    """
                    --channel must be an http or https URL (a channel folder on disk: serve it, e.g. python3 -m \
                    http.server, or check it with seedgen channel check DIR).
                    """
                )
            }
            if timeout <= 0 { throw ValidationError("--timeout must be positive.") }
            if deadline < 0 { throw ValidationError("--deadline must be 0 (none) or positive.") }
            if minimumRate < 0 { throw ValidationError("--min-rate must be 0 (none) or positive.") }
        }

        func run() async throws {
            var key: SeedUpdater.PublicKey?
            if let publicKey {
                do { key = try SeedUpdater.PublicKey(base64: publicKey) } catch {
                    throw ShipText.fail(CommandFailure("seedgen update: --public-key: \(error.message)"))
                }
            }
            let updater = SeedUpdater(
                channel: URL(string: channel)!, destination: URL(fileURLWithPath: destination),
                schemaVersion: schemaVersion, publicKey: key, timeout: timeout,
                deadline: deadline > 0 ? deadline : nil, minimumRate: minimumRate)
            let display = ProgressLine.forTerminal(json: output.json)
            var progress: (@Sendable (SeedUpdateProgress) -> Void)?
            if let display { progress = { display.show($0) } }
            do throws(SeedUpdaterError) {
                let result = try await updater.update(progress: progress)
                display?.clear()
                print(output.json ? Self.json(result) : result.description)
            } catch {
                display?.clear()
                if output.json { print(Self.json(error)) }
                var lines: [String] = []
                for attempt in error.attempts.dropLast() {
                    if let failure = attempt.failure {
                        lines.append(
                            "seedgen update: the \(attempt.file.rawValue) failed first: \(failure.code): \(failure)")
                    }
                }
                lines.append("seedgen update: \(error.code): \(error)")
                throw ShipText.fail(CommandFailure(lines.joined(separator: "\n")))
            }
        }

        static func json(_ result: SeedUpdateResult) -> String {
            let fields = [
                ("status", quoted(result.status.rawValue)), ("seedVersion", quoted(result.seedVersion)),
                ("previousSeedVersion", result.previousSeedVersion.map(quoted) ?? "null"),
                ("schemaVersion", String(result.schemaVersion)), ("sequence", String(result.sequence)),
                ("previousSequence", result.previousSequence.map(String.init) ?? "null"),
                ("bytesDownloaded", String(result.bytesDownloaded)),
                ("deltaFailure", result.deltaFailure.map(failure) ?? "null"),
                ("attempts", attempts(result.attempts)), ("path", quoted(result.path))
            ]
            return object(fields)
        }

        static func json(_ error: SeedUpdaterError) -> String {
            object([
                ("status", quoted("error")), ("code", quoted(error.code.name)), ("message", quoted(error.description)),
                ("bytesDownloaded", String(error.bytesDownloaded)), ("attempts", attempts(error.attempts))
            ])
        }

        private static func failure(_ error: SeedUpdaterError) -> String {
            object([("code", quoted(error.code.name)), ("message", quoted(error.description))])
        }

        private static func attempts(_ attempts: [SeedUpdateAttempt]) -> String {
            "["
                + attempts.map { attempt in
                    object([
                        ("file", quoted(attempt.file.rawValue)), ("url", quoted(attempt.url)),
                        ("bytesDownloaded", String(attempt.bytesDownloaded)),
                        ("failure", attempt.failure.map(failure) ?? "null")
                    ])
                }.joined(separator: ", ") + "]"
        }

        private static func object(_ fields: [(String, String)]) -> String {
            "{" + fields.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
        }

        private static func quoted(_ text: String) -> String { Install.quoted(text) }
    }
}

/// A failure already worded for the user.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
