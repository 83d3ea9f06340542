import SeedSystem
import ArgumentParser
import Foundation
import SeedArchive
import SeedKit
import SeedShip

extension SeedGen {
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish a seed to a channel folder that apps and services update from.",
            discussion: """
                Writes into DIR what any static file host or CDN can serve (no server code): the \
                packed seed (seeds/vN/SEQ.sqlite.gz and its manifest), a delta from each of the \
                last --keep published versions (deltas/vN/OLD-SEQ.delta, kept only when smaller \
                than the packed seed), then index.json, last and atomically, so a client never \
                sees an index naming a file not yet there. Files beyond the last --keep versions \
                are removed afterwards. Upload the folder after each publish (index.json last).

                index.json has one entry per schema version: schemaVersion, seedVersion, \
                sequence (the previous one + 1; a packed seed's own sequence, from seedgen pack \
                --sequence, is kept), path, size, sha256 and deltas (from, path, size, sha256).

                The folder is its own history: the next publish makes its deltas from the packed \
                seeds kept in it. Keep it between publishes (sync it down from the bucket, or \
                cache it in CI); a fresh folder starts without deltas. Build each seed with \
                --previous of the one before, so the deltas follow the rows that changed.

                Publishing the seed the channel already serves changes nothing. --sign-key \
                (from seedgen keygen) signs index.json into index.json.sig; apps given the \
                public key refuse an unsigned or tampered index.

                Examples:
                  seedgen publish out/seed.sqlite --channel public/seeds --keep 7
                  seedgen publish out/seed.sqlite --channel public/seeds --sign-key channel.key
                """)

        @Argument(
            help: ArgumentHelp(
                "The seed to publish (.sqlite built by seedgen build, or a packed .sqlite.gz).", valueName: "seed"))
        var seed: String

        @Option(help: ArgumentHelp("The channel folder (created when missing).", valueName: "dir"))
        var channel: String

        @Option(help: ArgumentHelp("How many earlier versions to keep and make deltas from.", valueName: "n"))
        var keep = 3

        @Option(help: ArgumentHelp("Sign index.json with this key file (seedgen keygen).", valueName: "file"))
        var signKey: String?

        @Flag(name: .shortAndLong, help: "Print nothing but errors.")
        var quiet = false

        func validate() throws {
            if !(0...100).contains(keep) { throw ValidationError("--keep must be between 0 and 100.") }
        }

        func run() throws {
            Interrupts.removeScratchFilesOnSignal()
            var key: ChannelSigningKey?
            if let signKey {
                guard let text = try? String(contentsOfFile: signKey, encoding: .utf8) else {
                    throw ShipText.fail(
                        ChannelError(code: .fileSystem, source: signKey, message: "cannot read the key file"))
                }
                do { key = try ChannelSigningKey(fileText: text, path: signKey) } catch { throw ShipText.fail(error) }
            }
            let result: ChannelPublisher.Result
            do {
                result = try ChannelPublisher(channel: channel, keep: keep, signingKey: key).publish(seed: seed)
            } catch {
                throw ShipText.fail(error)
            }
            if !quiet { print(Self.summary(result, channel: channel)) }
        }

        static func summary(_ result: ChannelPublisher.Result, channel: String) -> String {
            let entry = result.entry
            if result.unchanged {
                return
                    """
                    unchanged \(channel): schema v\(entry.schemaVersion) already serves seed version \
                    \(entry.seedVersion) (sequence \(entry.sequence))
                    """
            }
            var lines = [
                """
                published \(channel)/\(entry.path): schema v\(entry.schemaVersion), seed version \
                \(entry.seedVersion), sequence \(entry.sequence), \(Format.bytes(entry.size))
                """
            ]
            for delta in entry.deltas {
                let share = entry.size > 0 ? Double(delta.size) * 100 / Double(entry.size) : 0
                lines.append(
                    """
                      delta \(delta.path) from \(delta.from): \(Format.bytes(delta.size)) \
                    (\(String(format: "%.1f", share))% of the seed)
                    """
                )
            }
            for skipped in result.skippedDeltas { lines.append("  no delta from \(skipped.from): \(skipped.reason)") }
            if !result.removed.isEmpty { lines.append("  removed \(result.removed.joined(separator: ", "))") }
            return lines.joined(separator: "\n")
        }
    }

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an Ed25519 key pair that signs a channel's index.json.",
            discussion: """
                Writes the key file (mode 0600; refuses to overwrite one) and prints the public \
                key in base64: give it to apps (SeedUpdater's publicKey) and to seedgen update \
                --public-key; keep the key file secret (a CI secret), never in the channel. \
                Whoever holds it can push seeds into every app that trusts the public key.

                Example:
                  seedgen keygen --out channel.key
                  seedgen publish seed.sqlite --channel public/seeds --sign-key channel.key
                """)

        @Option(help: ArgumentHelp("The key file to write.", valueName: "file"))
        var out: String

        func run() throws {
            let key = ChannelSigningKey()
            let file: FileDescriptor
            do { file = try FileSystem.createExclusively(out, mode: 0o600) } catch {
                let exists =
                    error.errno == EEXIST
                    ? " (it exists: a new key would orphan every app that trusts the old one)" : ""
                throw ShipText.fail(
                    ChannelError(
                        code: .fileSystem, source: out, message: "cannot create the key file: \(error.reason)\(exists)",
                        cause: error))
            }
            do throws(SystemCallError) {
                try Array(key.fileText.utf8).withUnsafeBytes { bytes in
                    Result { () throws(SystemCallError) in try file.write(bytes) }
                }.get()
                try file.sync()
            } catch {
                _ = try? FileSystem.remove(out)
                throw ShipText.fail(
                    ChannelError(
                        code: .fileSystem, source: out, message: "cannot write the key file: \(error.reason)",
                        cause: error))
            }
            print(key.publicKeyBase64)
        }
    }
}
