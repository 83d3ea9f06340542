import ChannelTestSupport
import Foundation
import SeedArchive
import SeedTestSupport
import Testing

/// Issue 19 end to end: `seedgen publish`, `keygen`, `update` (against a loopback server),
/// `pack --sequence` and the bundle-versus-channel rule of `install`.
@Suite("seedgen publish and update")
struct ChannelCommandTests {
    let fixture = ChannelFixture()

    /// Every file of the channel folder, relative path -> bytes.
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: fixture.channel)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = fixture.channel + "/" + name
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    func sha256(_ data: Data) -> String {
        var hash = SHA256()
        hash.update(data)
        return hash.hexDigest()
    }

    @Test("publish: index.json names the packed seed and the deltas, with their sizes and SHA-256s; sequences count up")
    func indexContract() throws {
        let first = try fixture.publish(1)
        #expect(first.stdout.hasPrefix("published "), "\(first.stdout)")
        try fixture.publish(2)
        let third = try fixture.publish(3)
        let index = try fixture.index()
        #expect(Set(index.keys) == ["format", "seeds"] && index["format"] as? Int == 1)
        let entry = try fixture.entry()
        #expect(Set(entry.keys) == ["schemaVersion", "seedVersion", "sequence", "path", "size", "sha256", "deltas", "contentSha256", "seedSize"])
        let seedSize = try FileManager.default.attributesOfItem(atPath: fixture.seed(3))[.size] as? Int
        #expect(entry["seedSize"] as? Int == seedSize, "the seed's size decompressed: what an updater checks the free space for")
        // The seed's content digest: the one it records, and its manifest's.
        let content = try #require(try ChannelFixture.contentDigest(of: fixture.seed(3)))
        #expect(entry["contentSha256"] as? String == content)
        #expect(try SeedManifest.read(path: fixture.channel + "/seeds/v4/3.sqlite.manifest.json").contentSHA256 == content)
        #expect(entry["schemaVersion"] as? Int == 4 && entry["sequence"] as? Int == 3)
        let path = try #require(entry["path"] as? String)
        let packed = try #require(FileManager.default.contents(atPath: fixture.channel + "/" + path))
        #expect(entry["size"] as? Int == packed.count && entry["sha256"] as? String == sha256(packed))
        let deltas = try #require(entry["deltas"] as? [[String: Any]])
        for delta in deltas {
            #expect(Set(delta.keys) == ["from", "path", "size", "sha256"])
            let bytes = try #require(FileManager.default.contents(atPath: fixture.channel + "/" + (delta["path"] as? String ?? "")))
            #expect(delta["size"] as? Int == bytes.count && delta["sha256"] as? String == sha256(bytes))
            #expect(bytes.count < packed.count, "kept only when smaller than the full seed")
        }
        let earlier = try [1, 2].map { sequence in
            try SeedManifest.read(path: fixture.channel + "/seeds/v4/\(sequence).sqlite.manifest.json").seedVersion
        }
        // A delta from each earlier version, or a line saying why there is none (a delta that
        // does not give the new seed's content is not kept).
        let froms = Set(deltas.compactMap { $0["from"] as? String })
        #expect(froms.contains(earlier[1]), "the delta from the version just before")
        for version in earlier where !froms.contains(version) {
            #expect(third.stdout.contains("no delta from \(version): "), "\(third.stdout)")
        }
        #expect(try SeedManifest.read(path: fixture.channel + "/seeds/v4/3.sqlite.manifest.json").sequence == 3)
    }

    @Test("publishing the same seed twice changes nothing: the folder is byte for byte the same")
    func idempotent() throws {
        try fixture.publish(1)
        try fixture.publish(2)
        let before = snapshot()
        let again = try fixture.publish(2)
        #expect(again.stdout.hasPrefix("unchanged "), "\(again.stdout)")
        #expect(snapshot() == before)
        #expect(before.keys.contains("index.json") && before.keys.contains { $0.hasSuffix(".delta") })
    }

    @Test("--keep N prunes the versions and deltas beyond the last N")
    func pruning() throws {
        for day in 1...4 { try fixture.publish(day, ["--keep", "1"]) }
        let files = Set(snapshot().keys)
        #expect(files == ["index.json", "seeds/v4/3.sqlite.gz", "seeds/v4/3.sqlite.manifest.json", "seeds/v4/4.sqlite.gz",
                          "seeds/v4/4.sqlite.manifest.json", "deltas/v4/3-4.delta"], "\(files.sorted())")
    }

    @Test("keygen and --sign-key: index.json.sig verifies with the printed public key")
    func signing() throws {
        let keyFile = fixture.file("channel.key")
        let keygen = try SeedgenTool.run(["keygen", "--out", keyFile])
        #expect(keygen.status == 0)
        let publicKey = try ChannelPublicKey(base64: keygen.stdout)
        #expect((try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int) == 0o600)
        let written = try #require(FileManager.default.contents(atPath: keyFile))
        let again = try SeedgenTool.run(["keygen", "--out", keyFile])
        #expect(again.status != 0, "an existing key is never overwritten")
        #expect(again.stderr.contains("cannot create the key file: File exists (it exists: a new key would orphan every app"), "\(again.stderr)")
        #expect(FileManager.default.contents(atPath: keyFile) == written, "the key file is as it was")
        try fixture.publish(1, ["--sign-key", keyFile])
        let index = try #require(FileManager.default.contents(atPath: fixture.channel + "/index.json"))
        let signature = try #require(FileManager.default.contents(atPath: fixture.channel + "/index.json.sig"))
        #expect(publicKey.isValidSignature(Array(signature), for: Array(index)))
        #expect(!publicKey.isValidSignature(Array(signature), for: Array(index) + [0x20]))
    }

    @Test("update: one line (installed, patched, up-to-date), exit 0; --json has exactly the documented keys")
    func updateCommand() throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        let destination = fixture.file("srv/seed.sqlite")
        let installed = try SeedgenTool.run(["update", "--channel", server.url.absoluteString, "--to", destination])
        #expect(installed.status == 0 && installed.stdout.hasPrefix("installed seed-version="), "\(installed.stdout)\(installed.stderr)")
        try fixture.publish(2)
        let patched = try SeedgenTool.run(["update", "--channel", server.url.absoluteString, "--to", destination, "--schema-version", "4", "--json"])
        #expect(patched.status == 0, "\(patched.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(patched.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["status", "seedVersion", "previousSeedVersion", "schemaVersion", "sequence", "previousSequence",
                                     "bytesDownloaded", "deltaFailure", "attempts", "path"])
        #expect(object["status"] as? String == "patched" && object["schemaVersion"] as? Int == 4 && object["path"] as? String == destination)
        #expect(object["sequence"] as? Int == 2 && object["previousSequence"] as? Int == 1 && object["deltaFailure"] is NSNull)
        #expect((object["attempts"] as? [[String: Any]])?.map { $0["file"] as? String } == ["delta"])
        let content = try ChannelFixture.contentDigest(of: destination), second = try ChannelFixture.contentDigest(of: fixture.seed(2))
        #expect(content != nil && content == second, "the second seed's content")
        let upToDate = try SeedgenTool.run(["update", "--channel", server.url.absoluteString + "index.json", "--to", destination])
        #expect(upToDate.status == 0 && upToDate.stdout.hasPrefix("up-to-date "), "\(upToDate)")

        server.setFault(.status(500), for: "index.json")
        let failed = try SeedgenTool.run(["update", "--channel", server.url.absoluteString, "--to", destination])
        #expect(failed.status == 1 && failed.stderr.contains("http-status") && failed.stderr.contains("500"), "\(failed.stderr)")
    }

    @Test("update --json reports a delta's failure, both downloads and every byte; when both fail, every failure is printed in order")
    func updateReportsEveryFailure() throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        let destination = fixture.file("srv/seed.sqlite")
        let arguments = ["update", "--channel", server.url.absoluteString, "--to", destination, "--json"]
        #expect(try SeedgenTool.run(arguments).status == 0)
        try fixture.publish(2)
        let entry = try fixture.entry()
        let seedPath = try #require(entry["path"] as? String)
        let deltaPath = try #require((entry["deltas"] as? [[String: Any]])?.first?["path"] as? String)
        server.setFault(.wrongBytes, for: deltaPath)
        server.resetCounts()
        let fellBack = try SeedgenTool.run(arguments)
        #expect(fellBack.status == 0, "\(fellBack.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(fellBack.stdout.utf8)) as? [String: Any])
        let failure = try #require(object["deltaFailure"] as? [String: Any], "\(fellBack.stdout)")
        #expect(failure["code"] as? String == "checksum-mismatch" && (failure["message"] as? String)?.contains("SHA-256") == true)
        let sent = ["index.json", deltaPath, seedPath].map(server.bytesSent).reduce(0, +)
        #expect(object["bytesDownloaded"] as? Int == sent, "every byte received: \(object["bytesDownloaded"] ?? "") of \(sent) sent")
        let attempts = try #require(object["attempts"] as? [[String: Any]])
        #expect(attempts.map { $0["file"] as? String } == ["delta", "seed"] && attempts[1]["failure"] is NSNull)
        #expect(attempts[0]["bytesDownloaded"] as? Int == server.bytesSent(deltaPath))
        #expect(object["status"] as? String == "installed" && object["sequence"] as? Int == 2 && object["previousSequence"] as? Int == 1)

        try fixture.publish(3)
        let entry3 = try fixture.entry()
        server.setFault(.wrongBytes, for: try #require((entry3["deltas"] as? [[String: Any]])?.first?["path"] as? String))
        server.setFault(.status(500), for: try #require(entry3["path"] as? String))
        let failed = try SeedgenTool.run(Array(arguments.dropLast()))
        #expect(failed.status == 1)
        let lines = failed.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].contains("the delta failed first: checksum-mismatch") && lines[1].contains("http-status"), "\(failed.stderr)")
        let json = try SeedgenTool.run(arguments)
        let error = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        #expect(error["status"] as? String == "error" && error["code"] as? String == "http-status")
        #expect((error["attempts"] as? [[String: Any]])?.compactMap { ($0["failure"] as? [String: Any])?["code"] as? String } == ["checksum-mismatch", "http-status"])
    }

    @Test("update --deadline: a server trickling bytes is cut at the deadline, not at --timeout")
    func updateDeadline() throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        server.setFault(.slow(chunk: 1, delay: 0.5), for: try #require(try fixture.entry()["path"] as? String))
        let start = ContinuousClock.now
        let result = try SeedgenTool.run(["update", "--channel", server.url.absoluteString, "--to", fixture.file("srv/seed.sqlite"),
                                          "--timeout", "10", "--deadline", "2", "--min-rate", "0"])
        let elapsed = ContinuousClock.now - start
        #expect(result.status == 1 && result.stderr.contains("deadline:"), "\(result.stderr)")
        #expect(elapsed < .seconds(8), "\(elapsed)")
        #expect(result.stderr.contains("\u{1B}[K") == false, "no progress when standard error is not a terminal")
    }

    @Test("on a terminal, update and install show their progress (phase, bytes of total, rate); with --json, none")
    func progressOnATerminal() throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        let entry = try fixture.entry()
        // About a second of download, so that the rate is drawn.
        server.setFault(.slow(chunk: 8192, delay: 0.08), for: try #require(entry["path"] as? String))
        /// Runs seedgen under `script`, which gives it a pseudo-terminal; returns what it showed.
        func onTerminal(_ arguments: [String]) throws -> String {
            let command = ([SeedgenTool.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            let result = try ChildProcess.run("/usr/bin/script", ["-qec", command, "/dev/null"])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            return result.stdout
        }
        let update = try onTerminal(["update", "--channel", server.url.absoluteString, "--to", fixture.file("srv/seed.sqlite")])
        let size = try #require(entry["size"] as? Int)
        #expect(update.contains("\u{1B}[Kdownload seed: ") && update.contains(" of \(Self.bytes(Int64(size)))") && update.contains("/s"), "\(update.debugDescription)")
        #expect(update.contains("\u{1B}[Kapply seed: ") && update.contains("\u{1B}[Kverify seed"), "\(update.debugDescription)")
        #expect(update.contains("installed seed-version="))

        let install = try onTerminal(["install", fixture.seed(2), "--to", fixture.file("other/seed.sqlite")])
        #expect(install.contains("\u{1B}[Kapply seed: ") && install.contains("\u{1B}[Kverify seed") && install.contains("installed seed-version="),
                "\(install.debugDescription)")
        let json = try onTerminal(["install", fixture.seed(1), "--to", fixture.file("third/seed.sqlite"), "--json"])
        #expect(!json.contains("\u{1B}[K") && json.contains("\"status\": \"installed\""), "\(json.debugDescription)")
    }

    /// As the tool prints sizes: 1.2 MB.
    static func bytes(_ value: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB"]
        var size = Double(value), unit = 0
        while size >= 1000 && unit < units.count - 1 { size /= 1000; unit += 1 }
        return unit == 0 ? "\(value) bytes" : String(format: "%.1f %@", size, units[unit])
    }

    @Test("kill -9 during download and during apply: afterwards the old seed or the new one, never a mix")
    func killedUpdates() throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        let destination = fixture.file("srv/seed.sqlite")
        let arguments = ["update", "--channel", server.url.absoluteString, "--to", destination]
        #expect(try SeedgenTool.run(arguments).status == 0)
        try fixture.publish(2)
        let entry = try fixture.entry()
        let seedPath = try #require(entry["path"] as? String)
        let deltaPath = try #require((entry["deltas"] as? [[String: Any]])?.first?["path"] as? String)
        let old = FileManager.default.contents(atPath: destination)
        let newContent = try #require(try ChannelFixture.contentDigest(of: fixture.seed(2)))
        /// The new seed, in full or patched: its content (the installed file carries its sequence stamp).
        func isNew(_ bytes: Data?) throws -> Bool { try bytes != old && ChannelFixture.contentDigest(of: destination) == newContent }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<6 {
            // Even rounds: the full seed, slowly (the delta refused); odd: the delta, killed while applied.
            server.setFault(round % 2 == 0 ? .status(404) : nil, for: deltaPath)
            server.setFault(round % 2 == 0 ? .slow(chunk: 8192, delay: 0.02) : nil, for: seedPath)
            let process = try SeedgenTool.start(arguments)
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.4, using: &generator))
            process.send(SIGKILL)
            _ = process.wait()
            let now = FileManager.default.contents(atPath: destination)
            let isNewSeed = try isNew(now)
            #expect(now == old || isNewSeed, "round \(round): the installed file is neither seed")
            if isNewSeed {
                // Back to the old seed for the next round.
                try old?.write(to: URL(fileURLWithPath: destination))
            }
        }
        server.setFault(nil, for: seedPath)
        server.setFault(nil, for: deltaPath)
        let finished = try SeedgenTool.run(arguments)
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(try isNew(FileManager.default.contents(atPath: destination)))
    }

    @Test("pack --sequence: a bundled seed does not replace a later downloaded one; a newer bundle or another schema does")
    func bundleAndChannel() throws {
        let destination = fixture.file("app/seed.sqlite")
        func pack(_ day: Int, sequence: Int?) throws -> String {
            let out = fixture.file("bundle\(day)-\(sequence ?? 0)/seed.sqlite.gz")
            try FileManager.default.createDirectory(atPath: (out as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let result = try SeedgenTool.run(["pack", fixture.seed(day), "--out", out] + (sequence.map { ["--sequence", String($0)] } ?? []))
            #expect(result.status == 0, "\(result.stderr)")
            return out
        }
        func install(_ path: String) throws -> String {
            let result = try SeedgenTool.run(["install", path, "--to", destination])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        let bundled = try pack(1, sequence: 1)
        let manifest = try String(contentsOfFile: fixture.file("bundle1-1/seed.sqlite.manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"sequence\" : 1"))
        #expect(try install(bundled).hasPrefix("installed"))
        #expect(try install(try pack(3, sequence: 3)).hasPrefix("installed"), "the download of sequence 3")
        #expect(try install(bundled).hasPrefix("up-to-date"), "the bundled sequence 1 is not put back")
        #expect(try ChannelFixture.contentDigest(of: destination) == ChannelFixture.contentDigest(of: fixture.seed(3)))
        #expect(try install(try pack(4, sequence: 4)).hasPrefix("installed"), "an app update bundling sequence 4 replaces it")

        // Another schema version replaces regardless of sequences.
        let schema = try String(contentsOfFile: Repository.root + "/Schema/transit.yaml", encoding: .utf8)
            .replacingOccurrences(of: "schemaVersion: 4", with: "schemaVersion: 7")
        try schema.write(toFile: fixture.file("transit7.yaml"), atomically: true, encoding: .utf8)
        let other = fixture.file("other.sqlite")
        let feed = ((fixture.seed(1) as NSString).deletingLastPathComponent as NSString).appendingPathComponent("feed1")
        let built = try SeedgenTool.run(["build", feed, "--schema", fixture.file("transit7.yaml"), "--out", other, "-q"])
        #expect(built.status == 0, "\(built.stderr)")
        let packed = fixture.file("other/seed.sqlite.gz")
        try FileManager.default.createDirectory(atPath: fixture.file("other"), withIntermediateDirectories: true)
        #expect(try SeedgenTool.run(["pack", other, "--out", packed, "--sequence", "1"]).status == 0)
        #expect(try install(packed).hasPrefix("installed"), "schema version 7 over schema version 4")

        // Without sequences, today's behaviour: any other seed version replaces.
        #expect(try install(try pack(2, sequence: nil)).hasPrefix("installed"))
        #expect(try install(try pack(1, sequence: nil)).hasPrefix("installed"))
    }
}
