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
                refused (no rollback). Several updates of one DEST at once take turns.

                Prints one line starting with up-to-date, installed (full seed) or patched \
                (delta) and exits 0; --json prints status, seedVersion, previousSeedVersion, \
                schemaVersion, bytesDownloaded and path. Otherwise prints the error and exits 1.

                Example, at a service's startup:
                  seedgen update --channel https://cdn.example.com/seeds/ \\
                      --to /var/lib/app/seed.sqlite --schema-version 2 \\
                      --public-key "$SEED_CHANNEL_KEY"
                """)

        @Option(help: ArgumentHelp("The channel's URL (its folder, or its index.json).", valueName: "url"))
        var channel: String

        @Option(name: .customLong("to"), help: ArgumentHelp("The installed seed.", valueName: "dest"))
        var destination: String

        @Option(help: "The schema version to fetch (default: the installed seed's, or the channel's only one).")
        var schemaVersion: Int?

        @Option(help: ArgumentHelp("The channel's public key (seedgen keygen); refuses unsigned or badly signed indexes.", valueName: "base64"))
        var publicKey: String?

        @Option(help: ArgumentHelp("Seconds without data before a request fails.", valueName: "seconds"))
        var timeout: Double = 30

        @Flag(help: "Print one JSON object instead of a line of text.")
        var json = false

        func validate() throws {
            guard let url = URL(string: channel), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
                throw ValidationError("--channel must be an http, https or file URL.")
            }
            if timeout <= 0 { throw ValidationError("--timeout must be positive.") }
        }

        func run() async throws {
            var key: ChannelPublicKey?
            if let publicKey {
                do { key = try ChannelPublicKey(base64: publicKey) } catch { throw ShipText.fail(CommandFailure("seedgen update: --public-key: \(error.message)")) }
            }
            let updater = SeedUpdater(channel: URL(string: channel)!, destination: URL(fileURLWithPath: destination),
                                      schemaVersion: schemaVersion, publicKey: key, timeout: timeout)
            do {
                let result = try await updater.update()
                print(json ? Self.json(result) : result.description)
            } catch {
                if json { print("{\"status\": \"error\", \"code\": \(Self.quoted(error.code.name)), \"message\": \(Self.quoted(error.description))}") }
                throw ShipText.fail(CommandFailure("seedgen update: \(error.code): \(error)"))
            }
        }

        static func json(_ result: SeedUpdateResult) -> String {
            let fields = [("status", quoted(result.status.rawValue)), ("seedVersion", quoted(result.seedVersion)),
                          ("previousSeedVersion", result.previousSeedVersion.map(quoted) ?? "null"),
                          ("schemaVersion", String(result.schemaVersion)), ("bytesDownloaded", String(result.bytesDownloaded)),
                          ("path", quoted(result.path))]
            return "{" + fields.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
        }

        private static func quoted(_ text: String) -> String { Install.quoted(text) }
    }
}

/// A failure already worded for the user.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
