import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SeedArchive
import SeedKit
import SeedShip

extension SeedGen {
    struct Channel: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Look at a channel that seedgen publish wrote: what it serves, and whether apps can use it.",
            subcommands: [Check.self])
    }
}

extension SeedGen.Channel {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List what a channel serves and check every file of it, as apps will receive it.",
            discussion: """
                CHANNEL is the channel folder, or its URL (http or https: the files are fetched \
                as apps fetch them, through the host or CDN). Lists, per schema version, the \
                sequence, seed version and sizes of the seed and of each delta. Then checks:
                  - index.json: a channel index this version reads;
                  - every file it names: present, with the size and SHA-256 the index says;
                  - each packed seed's stamp: the entry's schema version, seed version, sequence;
                  - with --public-key, index.json.sig: the key's signature of index.json. A \
                signature that does not match and is older than the index (file time, or \
                Last-Modified) is named stale: a cache keeping index.json.sig longer than \
                index.json, or an upload that skipped it;
                  - each delta: installed over its from seed (seeds/vN/FROM.sqlite.gz) with the \
                installer apps use, it must give the entry's seed.
                A folder's files that the index does not use are listed as a note (an upload \
                without --delete leaves them in the bucket).

                Prints the listing, then each fault and note; exits 0 when there is no fault, \
                1 otherwise.

                Examples:
                  seedgen channel check public/seeds --public-key "$SEED_CHANNEL_PUBLIC_KEY"
                  seedgen channel check https://cdn.example.com/seeds/ --public-key "$KEY"
                """)

        @Argument(help: ArgumentHelp("The channel folder, or its http(s) URL.", valueName: "channel"))
        var channel: String

        @Option(
            help: ArgumentHelp("The channel's public key (seedgen keygen): check index.json.sig.", valueName: "base64"))
        var publicKey: String?

        func run() throws {
            var key: ChannelPublicKey?
            if let publicKey {
                do { key = try ChannelPublicKey(base64: publicKey) } catch {
                    throw ShipText.fail(CommandFailure("seedgen channel check: --public-key: \(error.message)"))
                }
            }
            let files: any ChannelFiles
            var mirror: ChannelURLFiles?
            if let url = URL(string: channel), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https"
            {
                let remote = ChannelURLFiles(url: url)
                mirror = remote
                files = remote
            } else {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: channel, isDirectory: &isDirectory), isDirectory.boolValue
                else {
                    throw ShipText.fail(
                        CommandFailure("seedgen channel check: \(channel): not a folder or an http(s) URL"))
                }
                files = ChannelFolder(folder: channel)
            }
            defer { mirror?.remove() }
            let report = ChannelCheck(files: files, publicKey: key).run()
            print(Self.text(report, channel: files.name))
            if !report.faults.isEmpty { throw ExitCode(1) }
        }

        static func text(_ report: ChannelCheck.Report, channel: String) -> String {
            var lines = ["channel \(channel)"]
            for entry in report.index?.seeds ?? [] {
                var line =
                    """
                      schema v\(entry.schemaVersion): sequence \(entry.sequence), seed version \
                    \(entry.seedVersion), \(entry.path) \(Format.bytes(entry.size))
                    """
                if let seedSize = entry.seedSize { line += " (\(Format.bytes(seedSize)) installed)" }
                lines.append(line)
                for delta in entry.deltas {
                    let share = entry.size > 0 ? Double(delta.size) * 100 / Double(entry.size) : 0
                    lines.append(
                        """
                            delta from \(delta.from): \(delta.path) \(Format.bytes(delta.size)) \
                        (\(String(format: "%.1f", share))% of the seed)
                        """
                    )
                }
            }
            switch report.signatureValid {
            case true?: lines.append("  signature: valid")
            case false?: lines.append("  signature: INVALID")
            case nil: break
            }
            lines += report.findings.map { "\($0)" }
            let faults = report.faults.count
            lines.append(
                faults == 0
                    ? "ok: every file, signature and delta checked"
                    : "\(faults) fault\(faults == 1 ? "" : "s"): apps cannot use this channel as it is")
            return lines.joined(separator: "\n")
        }
    }
}

/// A channel served over HTTP, fetched file by file into a temporary mirror as apps fetch it
/// (no cache); `Last-Modified` is kept to tell a stale signature.
final class ChannelURLFiles: ChannelFiles {
    let url: URL
    private let mirror = NSTemporaryDirectory() + "seedgen-channel-\(UUID().uuidString)"
    private var fetched: [String: (path: String, modified: Date?)?] = [:]

    init(url: URL) {
        self.url = url.lastPathComponent == ChannelIndex.fileName ? url.deletingLastPathComponent() : url
    }

    var name: String { url.absoluteString }

    func listing() -> [String]? { nil }

    func file(_ path: String) throws -> (path: String, modified: Date?)? {
        if let known = fetched[path] { return known }
        let local = mirror + "/" + path
        try FileManager.default.createDirectory(
            atPath: (local as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let result = Self.get(url.appendingPathComponent(path), to: local)
        switch result {
        case .failure(let error): throw error
        case .success(let status, _) where status == 404 || status == 410:
            fetched[path] = .some(nil)
            return nil
        case .success(let status, _) where status != 200:
            throw CommandFailure("HTTP \(status) for \(url.appendingPathComponent(path).absoluteString)")
        case .success(_, let modified):
            fetched[path] = (local, modified)
            return (local, modified)
        }
    }

    func remove() { try? FileManager.default.removeItem(atPath: mirror) }

    private enum Outcome { case success(Int, Date?), failure(CommandFailure) }

    /// One GET, the body written to `path`; waits for it (the command is synchronous).
    private static func get(_ url: URL, to path: String) -> Outcome {
        // @unchecked: written by the completion handler before it signals `done`, read after the wait.
        final class Box: @unchecked Sendable { var outcome = Outcome.failure(CommandFailure("no response")) }
        let box = Box(), done = DispatchSemaphore(value: 0)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 60)
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        let task = URLSession.shared.downloadTask(with: request) { location, response, error in
            defer { done.signal() }
            guard let http = response as? HTTPURLResponse else {
                box.outcome = .failure(
                    CommandFailure("\(url.absoluteString): \(error?.localizedDescription ?? "no HTTP response")"))
                return
            }
            if http.statusCode == 200, let location {
                try? FileManager.default.removeItem(atPath: path)
                do { try FileManager.default.moveItem(at: location, to: URL(fileURLWithPath: path)) } catch {
                    box.outcome = .failure(
                        CommandFailure("\(url.absoluteString): cannot keep the download: \(error.localizedDescription)")
                    )
                    return
                }
            }
            let modified = http.value(forHTTPHeaderField: "Last-Modified").flatMap(HTTPDate.parse)
            box.outcome = .success(http.statusCode, modified)
        }
        task.resume()
        done.wait()
        return box.outcome
    }
}
