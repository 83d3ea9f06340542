import ChannelTestSupport
import Foundation
import SeedArchive
import SeedDeltas
import SeedUpdater
import SeedTestSupport
import Testing

/// Issue 19, fetching: SeedUpdater against a real HTTP server on 127.0.0.1 serving a channel
/// written by `seedgen publish`, misbehaving on request.
@Suite("SeedUpdater")
struct SeedUpdaterTests {
    let fixture = ChannelFixture()

    var destination: String { fixture.file("app/seed.sqlite") }

    /// No deadline: when the whole suite runs, tests that build seeds synchronously can hold
    /// the concurrency pool's threads for many seconds, and an update test waits meanwhile.
    /// The deadline has tests of its own (TrustedUpdateTests).
    func updater(_ server: LoopbackServer, schemaVersion: Int? = 4, publicKey: SeedUpdater.PublicKey? = nil, timeout: TimeInterval = 5) -> SeedUpdater {
        SeedUpdater(channel: server.url, destination: URL(fileURLWithPath: destination), schemaVersion: schemaVersion,
                    publicKey: publicKey, timeout: timeout, deadline: nil)
    }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// The content digest of the seed at `path`: which seed it holds (an installed seed carries
    /// its sequence stamp, so its bytes are not the built file's).
    func content(_ path: String) -> String? { try? ContentDigest.compute(path: path) }

    /// The size of the channel's `index.json`: what reading it costs.
    func indexSize() throws -> Int64 {
        Int64(try #require(try FileManager.default.attributesOfItem(atPath: fixture.channel + "/index.json")[.size] as? Int))
    }

    /// The updater's partial downloads beside the destination.
    func partialDownloads() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.file("app"))) ?? []).filter { $0.contains(".seedgen-download-") }
    }


    @Test("installs the full seed, patches with a delta, then is up to date with a 304 for the index")
    func fullThenDeltaThenUpToDate() async throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        let recorder = ProgressRecorder()
        let first = try await updater(server).update { recorder.add($0) }
        #expect(first.status == .installed && first.previousSeedVersion == nil)
        #expect(content(destination) == content(fixture.seed(1)))
        let seedSize = try #require(fixture.entry()["size"] as? Int)
        #expect(first.bytesDownloaded == Int64(seedSize) + (try indexSize()), "every byte received: the index and the seed")
        let total = Int64(seedSize)
        #expect(recorder.phases == [.download, .verify, .apply, .verify], "downloaded, checked, decompressed, checked")
        let seedBytes = try #require(try FileManager.default.attributesOfItem(atPath: fixture.seed(1))[.size] as? Int)
        #expect(recorder.reports.last { $0.phase == .apply } == SeedUpdateProgress(file: .seed, phase: .apply, bytesDone: Int64(seedBytes), bytesTotal: Int64(seedBytes)),
                "the installer's progress: the seed decompressed")
        #expect(recorder.reports.last { $0.phase == .download } == SeedUpdateProgress(file: .seed, bytesDone: total, bytesTotal: total))

        try fixture.publish(2)
        let deltas = try #require(fixture.entry()["deltas"] as? [[String: Any]])
        let deltaSize = try #require(deltas.first?["size"] as? Int)
        let second = try await updater(server).update()
        #expect(second.status == .patched && second.previousSeedVersion == first.seedVersion, "\(second)")
        #expect(second.bytesDownloaded == Int64(deltaSize) + (try indexSize()) && deltaSize < seedSize / 2, "delta \(deltaSize), seed \(seedSize)")
        #expect(second.sequence == 2 && second.previousSequence == 1)
        // The second seed's content (the patched file is this SQLite's, not the built bytes),
        // recorded by its content digest, which the index names.
        let content = try #require(fixture.entry()["contentSha256"] as? String)
        #expect(try ChannelFixture.contentDigest(of: destination) == content)
        #expect(try ChannelFixture.contentDigest(of: fixture.seed(2)) == content)
        let recorded = try #require(InstalledSeed.read(destination: destination))
        #expect(recorded.sequence == 2 && recorded.contentSHA256 == content && recorded.sha256 == nil, "\(recorded)")

        server.resetCounts()
        let third = try await updater(server).update()
        #expect(third.status == .upToDate && third.bytesDownloaded == 0)
        #expect(server.requests.map(\.path) == ["index.json"])
        #expect(server.requests.first?.headers["if-none-match"] != nil, "the index is asked for with If-None-Match")
        #expect(partialDownloads().isEmpty)
    }

    @Test("a connection cut mid-body: the next run resumes and downloads only the rest")
    func cutThenResume() async throws {
        try fixture.publish(1)
        let entry = try fixture.entry()
        let path = try #require(entry["path"] as? String), size = try #require(entry["size"] as? Int)
        let server = try LoopbackServer(root: fixture.channel)
        server.setFault(.cut(after: size / 3, times: 1), for: path)

        let error = await expectError(.network) { () throws(SeedUpdaterError) in try await updater(server).update() }
        #expect(error?.message.isEmpty == false)
        #expect(!FileManager.default.fileExists(atPath: destination), "nothing installed")
        let partial = try #require(partialDownloads().first)
        let kept = try FileManager.default.attributesOfItem(atPath: fixture.file("app/" + partial))[.size] as? Int
        #expect(kept == size / 3)

        server.resetCounts()
        let result = try await updater(server).update()
        #expect(result.status == .installed)
        #expect(result.bytesDownloaded == Int64(size - size / 3))
        #expect(server.bytesSent(path) == size - size / 3)
        #expect(server.requests.first { $0.path == path }?.headers["range"] == "bytes=\(size / 3)-")
        #expect(content(destination) == content(fixture.seed(1)))
        #expect(partialDownloads().isEmpty)
    }

    @Test("wrong bytes: a delta is refused by its SHA-256 and the full seed installed; a wrong full seed changes nothing")
    func wrongBytes() async throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        try await updater(server).update()
        try fixture.publish(2)
        let entry = try fixture.entry()
        let deltaPath = try #require((entry["deltas"] as? [[String: Any]])?.first?["path"] as? String)
        server.setFault(.wrongBytes, for: deltaPath)
        let result = try await updater(server).update()
        #expect(result.status == .installed, "\(result)")
        #expect(result.deltaFailure?.code == .checksumMismatch && result.deltaFailure?.message.contains("SHA-256") == true, "\(String(describing: result.deltaFailure))")
        #expect(content(destination) == content(fixture.seed(2)))

        try fixture.publish(3)
        let seedPath = try #require(try fixture.entry()["path"] as? String)
        let deltaPath3 = try #require((try fixture.entry()["deltas"] as? [[String: Any]])?.first?["path"] as? String)
        server.setFault(.wrongBytes, for: seedPath)
        server.setFault(.status(404), for: deltaPath3)
        await expectError(.checksumMismatch) { () throws(SeedUpdaterError) in try await updater(server).update() }
        #expect(content(destination) == content(fixture.seed(2)), "the old seed is in use")
        #expect(partialDownloads().isEmpty, "a file that fails its checksum is not kept")
    }

    @Test("the delta missing (404): the full seed")
    func deltaMissing() async throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        try await updater(server).update()
        try fixture.publish(2)
        let deltaPath = try #require((try fixture.entry()["deltas"] as? [[String: Any]])?.first?["path"] as? String)
        try FileManager.default.removeItem(atPath: fixture.channel + "/" + deltaPath)
        let result = try await updater(server).update()
        #expect(result.status == .installed && result.deltaFailure?.httpStatus == 404, "\(result)")
        #expect(content(destination) == content(fixture.seed(2)))
    }

    @Test("an index published before content digests (no contentSha256): its deltas are not used, the full seed is installed and deltaFailure says why")
    func indexWithoutContentDigests() async throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        try await updater(server).update()
        try fixture.publish(2)
        // The index as an earlier seedgen wrote it: the same entry and deltas, no contentSha256.
        let indexPath = fixture.channel + "/index.json"
        var index = try fixture.index()
        var seeds = try #require(index["seeds"] as? [[String: Any]])
        #expect(seeds[0].removeValue(forKey: "contentSha256") != nil)
        let deltaPath = try #require((seeds[0]["deltas"] as? [[String: Any]])?.first?["path"] as? String)
        index["seeds"] = seeds
        try JSONSerialization.data(withJSONObject: index, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: indexPath))

        server.resetCounts()
        let result = try await updater(server).update()
        let published = try fixture.entry()["seedVersion"] as? String
        #expect(result.status == .installed && result.seedVersion == published, "\(result)")
        #expect(result.deltaFailure?.message.contains("before content digests") == true && result.deltaFailure?.message.contains("full seed") == true,
                "\(String(describing: result.deltaFailure))")
        #expect(!server.requests.contains { $0.path == deltaPath }, "the delta is not downloaded: \(server.requests.map(\.path))")
        #expect(content(destination) == content(fixture.seed(2)))
        #expect(InstalledSeed.read(destination: destination)?.sequence == 2)
    }

    @Test("500 and timeouts: a clear error, the old seed in use")
    func serverErrors() async throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        try await updater(server).update()
        try fixture.publish(2)
        let before = contents(destination)

        server.setFault(.status(500), for: "index.json")
        let failed = await expectError(.httpStatus) { () throws(SeedUpdaterError) in try await updater(server).update() }
        #expect(failed?.httpStatus == 500 && failed?.description.contains("index.json") == true, "\(String(describing: failed))")
        #expect(contents(destination) == before)

        server.setFault(nil, for: "index.json")
        let entry = try fixture.entry()
        server.setFault(.status(500), for: try #require((entry["deltas"] as? [[String: Any]])?.first?["path"] as? String))
        server.setFault(.status(500), for: try #require(entry["path"] as? String))
        await expectError(.httpStatus) { () throws(SeedUpdaterError) in try await updater(server).update() }
        #expect(contents(destination) == before)
        #expect(InstalledSeed.read(destination: destination)?.sequence == 1, "the old seed is still the recorded one")

        // A stall far longer than the timeout: had the stall ended the request, the index would
        // have arrived (no error). The server measures when the client hung up, on its own threads:
        // in the full suite, on 2 cores, seed-building tests hold the concurrency pool, and the
        // error has reached this task only after 53 s, so this task's clock says little.
        server.setFault(.stall(seconds: 120), for: "index.json")
        let timedOut = await expectError(.timeout) { () throws(SeedUpdaterError) in try await updater(server, timeout: 1).update() }
        var hungUp = server.secondsUntilHangUp("index.json")
        for _ in 0..<200 where hungUp == nil {  // the server sees the close within 50 ms of it
            try await Task.sleep(for: .milliseconds(50))
            hungUp = server.secondsUntilHangUp("index.json")
        }
        let seconds = try #require(hungUp, "the client closed the stalled connection")
        #expect(seconds < 20, "the 1 s timeout, not the stall, ended the request: \(seconds) s")
        #expect(timedOut?.message.contains("in time") == true)
        #expect(contents(destination) == before)
    }

    @Test("an index with no seed for the app's schema version: a clear error, nothing downloaded")
    func noSeedForSchema() async throws {
        try fixture.publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        let error = await expectError(.noSeedForSchema) { () throws(SeedUpdaterError) in try await updater(server, schemaVersion: 9).update() }
        #expect(error?.message.contains("schema version 9") == true && error?.message.contains("serves schema versions 4") == true, "\(String(describing: error))")
        #expect(server.requests.map(\.path) == ["index.json"])
        #expect(!FileManager.default.fileExists(atPath: destination))
    }

    @Test("signed channel: a tampered index or signature, an unsigned index and another key are refused before any download")
    func signatures() async throws {
        let keyFile = fixture.file("channel.key")
        let keygen = try SeedgenTool.run(["keygen", "--out", keyFile])
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let publicKey = try SeedUpdater.PublicKey(base64: keygen.stdout)
        try fixture.publish(1, ["--sign-key", keyFile])
        let server = try LoopbackServer(root: fixture.channel)
        let index = fixture.channel + "/index.json", signature = fixture.channel + "/index.json.sig"
        let original = try #require(contents(index)), originalSignature = try #require(contents(signature))

        func expectRefused(_ code: SeedUpdaterError.Code, key: SeedUpdater.PublicKey = publicKey) async {
            server.resetCounts()
            await expectError(code) { () throws(SeedUpdaterError) in try await updater(server, publicKey: key).update() }
            #expect(Set(server.requests.map(\.path)).isSubset(of: ["index.json", "index.json.sig"]), "nothing downloaded")
            #expect(!FileManager.default.fileExists(atPath: destination))
        }
        // One byte of the index changed (the sequence 1 becomes 7): still valid JSON.
        let text = String(decoding: original, as: UTF8.self)
        try Data(text.replacingOccurrences(of: "\"sequence\" : 1", with: "\"sequence\" : 7").utf8).write(to: URL(fileURLWithPath: index))
        await expectRefused(.badSignature)
        try original.write(to: URL(fileURLWithPath: index))
        var bytes = [UInt8](originalSignature)
        bytes[3] = bytes[3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        try Data(bytes).write(to: URL(fileURLWithPath: signature))
        await expectRefused(.badSignature)
        try FileManager.default.removeItem(atPath: signature)
        await expectRefused(.unsigned)
        try originalSignature.write(to: URL(fileURLWithPath: signature))
        await expectRefused(.badSignature, key: try SeedUpdater.PublicKey(base64: ChannelSigningKey().publicKeyBase64))

        let result = try await updater(server, publicKey: publicKey).update()
        #expect(result.status == .installed)
    }

    @Test("a public key that is not one: the updater's own error, with the channel's as its cause")
    func invalidPublicKey() {
        let error = #expect(throws: SeedUpdaterError.self) { try SeedUpdater.PublicKey(base64: "not a key") }
        #expect(error?.code == .configuration && error?.location == "<public key>", "\(String(describing: error))")
        #expect(error?.message == "not an Ed25519 public key: expected 32 bytes in base64, as seedgen keygen prints it")
        #expect((error?.cause as? ChannelError)?.code == .invalidKey)
        #expect((try? SeedUpdater.PublicKey(base64: " \(ChannelSigningKey().publicKeyBase64)\n")) != nil, "spaces and line breaks around it are ignored")
    }

    @Test("an older index replayed (validly signed) is refused: no rollback")
    func replayedIndex() async throws {
        let key = ChannelSigningKey()
        let keyFile = fixture.file("channel.key")
        try key.fileText.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let publicKey = try SeedUpdater.PublicKey(base64: key.publicKeyBase64)
        try fixture.publish(1, ["--sign-key", keyFile])
        let oldIndex = try #require(contents(fixture.channel + "/index.json"))
        let oldSignature = try #require(contents(fixture.channel + "/index.json.sig"))
        try fixture.publish(2, ["--sign-key", keyFile])
        let server = try LoopbackServer(root: fixture.channel)
        #expect(try await updater(server, publicKey: publicKey).update().sequence == 2)
        let installed = contents(destination)

        try oldIndex.write(to: URL(fileURLWithPath: fixture.channel + "/index.json"))
        try oldSignature.write(to: URL(fileURLWithPath: fixture.channel + "/index.json.sig"))
        server.resetCounts()
        let error = await expectError(.rollback) { () throws(SeedUpdaterError) in try await updater(server, publicKey: publicKey).update() }
        #expect(error?.message.contains("sequence 1") == true && error?.message.contains("sequence 2") == true, "\(String(describing: error))")
        #expect(Set(server.requests.map(\.path)).isSubset(of: ["index.json", "index.json.sig"]))
        #expect(contents(destination) == installed)
    }

    @Test("several updaters at once: one downloads, the others find the seed up to date")
    func concurrentUpdaters() async throws {
        try fixture.publish(1)
        let entry = try fixture.entry()
        let path = try #require(entry["path"] as? String), size = try #require(entry["size"] as? Int)
        let server = try LoopbackServer(root: fixture.channel)
        server.setFault(.slow(chunk: 16 << 10, delay: 0.01), for: path)
        let updater = self.updater(server)
        let statuses = try await withThrowingTaskGroup(of: SeedUpdateResult.Status.self) { group in
            for _ in 0..<4 { group.addTask { try await updater.update().status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == .installed }.count == 1 && statuses.filter { $0 == .upToDate }.count == 3, "\(statuses)")
        #expect(server.bytesSent(path) == size, "the seed was downloaded once")
        #expect(content(destination) == content(fixture.seed(1)))
    }

    @Test("cancelling stops the download and keeps what arrived for the next call")
    func cancellation() async throws {
        try fixture.publish(1)
        let entry = try fixture.entry()
        let path = try #require(entry["path"] as? String)
        let server = try LoopbackServer(root: fixture.channel)
        // 1 KiB a second, no minimum rate: over a minute for the whole seed, so the cancel comes
        // long before the end even when seed-building tests hold this task's threads (in the full
        // suite on 2 cores, an awaited result has reached a task only after 53 s).
        server.setFault(.slow(chunk: 1024, delay: 1), for: path)
        let updater = SeedUpdater(
            channel: server.url, destination: URL(fileURLWithPath: destination), schemaVersion: 4, timeout: 5,
            deadline: nil, minimumRate: 0)
        let task = Task { try await updater.update() }
        while partialDownloads().isEmpty || server.bytesSent(path) < 4096 { try await Task.sleep(nanoseconds: 10_000_000) }
        task.cancel()
        let outcome = await task.result
        guard case .failure(let failure) = outcome else { Issue.record("not cancelled: \(outcome)"); return }
        let error = try #require(failure as? SeedUpdaterError)
        #expect(error.code == .cancelled, "\(error)")
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(partialDownloads().count == 1)
        server.setFault(nil, for: path)
        #expect(try await updater.update().status == .installed)
        #expect(content(destination) == content(fixture.seed(1)))
    }
}

/// Collects progress reports from the updater's delegate queue.
final class ProgressRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [SeedUpdateProgress] = []

    func add(_ report: SeedUpdateProgress) {
        lock.lock()
        storage.append(report)
        lock.unlock()
    }

    var reports: [SeedUpdateProgress] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    /// The phases reported, each once, in order.
    var phases: [SeedUpdateProgress.Phase] {
        reports.map(\.phase).reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }
}
