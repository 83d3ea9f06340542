import ChannelTestSupport
import Foundation
import SeedArchive
import SeedTestSupport
import Testing

/// Issue 29: `seedgen channel check` finds each fault planted in a copy of a real channel
/// (published by the real `seedgen publish`, signed) and passes the intact one, from its folder
/// and over HTTP.
@Suite("seedgen channel check")
struct ChannelCheckCommandTests {
    let fixture = ChannelFixture()
    let key = ChannelSigningKey()

    /// Days 1 to 3 published and signed; returns the signature of day 2's index, as a cache
    /// would keep it.
    func publishChannel() throws -> Data {
        let keyFile = fixture.file("channel.key")
        try key.fileText.write(toFile: keyFile, atomically: true, encoding: .utf8)
        try fixture.publish(1, ["--sign-key", keyFile])
        try fixture.publish(2, ["--sign-key", keyFile])
        let signature = try #require(FileManager.default.contents(atPath: fixture.channel + "/index.json.sig"))
        try fixture.publish(3, ["--sign-key", keyFile])
        return signature
    }

    func check(_ channel: String, key: Bool = true) throws -> ChildProcess.Output {
        try SeedgenTool.run(["channel", "check", channel] + (key ? ["--public-key", self.key.publicKeyBase64] : []))
    }

    /// A copy of the channel folder with `plant` applied to it.
    func copy(_ name: String, _ plant: (String) throws -> Void) throws -> String {
        let copy = fixture.file(name)
        let result = try ChildProcess.shell("cp -a '\(fixture.channel)' '\(copy)'")
        try #require(result.status == 0, "\(result.stderr)")
        try plant(copy)
        return copy
    }

    func shell(_ command: String) throws {
        let result = try ChildProcess.shell(command)
        try #require(result.status == 0, "\(command): \(result.stderr)")
    }

    @Test("the intact channel passes, from its folder and over HTTP, and its listing says what it serves")
    func intact() throws {
        _ = try publishChannel()
        let entry = try fixture.entry()
        let folder = try check(fixture.channel)
        #expect(folder.status == 0, "\(folder.stdout)\(folder.stderr)")
        #expect(folder.stdout.contains("schema v4: sequence 3, seed version \(entry["seedVersion"] as? String ?? "?")"), "\(folder.stdout)")
        #expect(folder.stdout.components(separatedBy: "    delta from ").count - 1 == (entry["deltas"] as? [Any])?.count, "\(folder.stdout)")
        #expect(folder.stdout.contains("signature: valid") && folder.stdout.contains("ok: every file"), "\(folder.stdout)")

        let server = try LoopbackServer(root: fixture.channel)
        let remote = try check(server.url.absoluteString)
        #expect(remote.status == 0, "\(remote.stdout)\(remote.stderr)")
        #expect(remote.stdout.contains("ok: every file"))
        #expect(server.requests.contains { $0.path == "seeds/v4/1.sqlite.gz" }, "the from seeds were fetched to apply the deltas")

        // A bucket synced without --delete keeps files the index no longer uses: a note, not a fault.
        try shell("cp '\(fixture.channel)/index.json' '\(fixture.channel)/seeds/v4/0.sqlite.gz'")
        let stray = try check(fixture.channel)
        #expect(stray.status == 0 && stray.stdout.contains("note: ") && stray.stdout.contains("seeds/v4/0.sqlite.gz"), "\(stray.stdout)")
    }

    @Test("each planted fault is found: a truncated delta, a wrong hash, a stale signature, a missing file")
    func plantedFaults() throws {
        let oldSignature = try publishChannel()
        let entry = try fixture.entry()
        let seedPath = try #require(entry["path"] as? String)
        let deltas = try #require(entry["deltas"] as? [[String: Any]])
        let deltaPath = try #require(deltas.first?["path"] as? String), deltaSize = try #require(deltas.first?["size"] as? Int)

        let truncated = try copy("truncated") { try shell("truncate -s \(deltaSize / 2) '\($0)/\(deltaPath)'") }
        let wrongHash = try copy("wrong-hash") { channel in
            // One byte changed in the middle of the packed seed: the same size, another hash.
            let path = channel + "/" + seedPath
            var bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
            bytes[bytes.count / 2] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let stale = try copy("stale") { channel in
            // Yesterday's signature, as a CDN that caches index.json.sig longer serves it.
            try oldSignature.write(to: URL(fileURLWithPath: channel + "/index.json.sig"))
            try shell("touch -d '-1 day' '\(channel)/index.json.sig'")
        }
        let tampered = try copy("tampered") { channel in
            // A new signature by another key: wrong, but not older than the index.
            try Data(ChannelSigningKey().signatureFile(for: Array(try #require(FileManager.default.contents(atPath: channel + "/index.json")))))
                .write(to: URL(fileURLWithPath: channel + "/index.json.sig"))
        }
        let missing = try copy("missing") { try FileManager.default.removeItem(atPath: $0 + "/seeds/v4/1.sqlite.gz") }

        let expectations: [(String, [String])] = [
            (truncated, ["fault: \(deltaPath): \(deltaSize / 2) bytes, the index says \(deltaSize) (truncated)"]),
            (wrongHash, ["fault: \(seedPath): SHA-256 is not the index's"]),
            (stale, ["fault: index.json.sig: stale: it is 24 h older than index.json", "Cache-Control: no-cache", "signature: INVALID"]),
            (tampered, ["fault: index.json.sig: not the public key's signature"]),
            (missing, ["fault: deltas/v4/1-3.delta: its from seed seeds/v4/1.sqlite.gz is missing"]),
        ]
        for (channel, wanted) in expectations {
            let result = try check(channel)
            #expect(result.status == 1, "\(channel): \(result.stdout)")
            for text in wanted { #expect(result.stdout.contains(text), "\(channel): wanted \(text) in\n\(result.stdout)") }
            #expect(result.stdout.components(separatedBy: "\nfault: ").count - 1 == 1, "exactly the planted fault: \(result.stdout)")
        }

        // A stale signature served over HTTP: told by Last-Modified.
        let server = try LoopbackServer(root: stale)
        let remote = try check(server.url.absoluteString)
        #expect(remote.status == 1 && remote.stdout.contains("fault: index.json.sig: stale"), "\(remote.stdout)")
    }

    @Test("a delta the index lists under another from seed is found by applying it")
    func deltaFromAnotherSeed() throws {
        _ = try publishChannel()
        // The index (signed again) says the first delta applies to another seed version: its
        // file is intact, so only applying it to its from seed tells.
        var index = try fixture.index()
        var seeds = try #require(index["seeds"] as? [[String: Any]])
        var deltas = try #require(seeds[0]["deltas"] as? [[String: Any]])
        let deltaPath = try #require(deltas.first?["path"] as? String)
        deltas[0]["from"] = "0000feedbeef0000"
        seeds[0]["deltas"] = deltas
        index["seeds"] = seeds
        let bytes = try JSONSerialization.data(withJSONObject: index, options: [.prettyPrinted, .sortedKeys])
        try bytes.write(to: URL(fileURLWithPath: fixture.channel + "/index.json"))
        try Data(key.signatureFile(for: Array(bytes))).write(to: URL(fileURLWithPath: fixture.channel + "/index.json.sig"))
        let result = try check(fixture.channel)
        #expect(result.status == 1 && result.stdout.contains("fault: \(deltaPath): the index says it applies to seed version 0000feedbeef0000"), "\(result.stdout)")
    }
}
