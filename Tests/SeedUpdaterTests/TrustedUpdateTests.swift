import ChannelTestSupport
import Foundation
import SeedArchive
import SeedDeltas
import SeedUpdater
import SeedTestSupport
import Testing

/// Issue 29: the rollback guard and the delta choice read the seed itself, a seed whose own
/// stamp is not the index's is refused, reports count every byte and every failure, deadlines,
/// and space checked first. Against a real HTTP server on 127.0.0.1 serving a channel that the
/// real `seedgen publish` wrote.
@Suite("SeedUpdater: trusted updates")
struct TrustedUpdateTests {
    let fixture = ChannelFixture()
    let key = ChannelSigningKey()
    /// What an app is given: the key's public half, as `seedgen keygen` prints it.
    var publicKey: SeedUpdater.PublicKey { try! SeedUpdater.PublicKey(base64: key.publicKeyBase64) }

    var destination: String { fixture.file("app/seed.sqlite") }

    func updater(_ server: LoopbackServer, destination: String? = nil, signed: Bool = true, timeout: TimeInterval = 5,
                 deadline: TimeInterval? = nil, minimumRate: Int64 = 0) -> SeedUpdater {
        SeedUpdater(channel: server.url, destination: URL(fileURLWithPath: destination ?? self.destination), schemaVersion: 4,
                    publicKey: signed ? publicKey : nil, timeout: timeout,
                    deadline: deadline, minimumRate: minimumRate)
    }

    /// `seedgen publish` of `day`, signed with the test's key.
    func publish(_ day: Int) throws {
        let keyFile = fixture.file("channel.key")
        if !FileManager.default.fileExists(atPath: keyFile) { try key.fileText.write(toFile: keyFile, atomically: true, encoding: .utf8) }
        try fixture.publish(day, ["--sign-key", keyFile])
    }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
    func content(_ path: String) -> String? { try? ContentDigest.compute(path: path) }

    /// The channel's index and signature as they are now, to replay later.
    func savedIndex() throws -> (index: Data, signature: Data) {
        (try #require(contents(fixture.channel + "/index.json")), try #require(contents(fixture.channel + "/index.json.sig")))
    }

    func replay(_ saved: (index: Data, signature: Data)) throws {
        try saved.index.write(to: URL(fileURLWithPath: fixture.channel + "/index.json"))
        try saved.signature.write(to: URL(fileURLWithPath: fixture.channel + "/index.json.sig"))
    }

    /// Rewrites the index's entry with `change` and signs it again with the channel's key: an
    /// index the key really signed.
    func signIndex(_ change: (inout [String: Any]) -> Void) throws {
        var index = try fixture.index()
        var seeds = try #require(index["seeds"] as? [[String: Any]])
        change(&seeds[0])
        index["seeds"] = seeds
        let bytes = try JSONSerialization.data(withJSONObject: index, options: [.prettyPrinted, .sortedKeys])
        try bytes.write(to: URL(fileURLWithPath: fixture.channel + "/index.json"))
        try Data(key.signatureFile(for: Array(bytes))).write(to: URL(fileURLWithPath: fixture.channel + "/index.json.sig"))
    }

    func shell(_ command: String) throws {
        let result = try ChildProcess.shell(command)
        try #require(result.status == 0, "\(command): \(result.stderr)")
    }


    @Test("a touched, copied (cp -a) and restored seed refuses a replayed older index, signed or not, and still gets deltas")
    func guardReadsTheSeedItself() async throws {
        try publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        try await updater(server).update()
        let first = try savedIndex()
        try publish(2)
        #expect(try await updater(server).update().status == .patched)
        #expect(InstalledSeed.read(destination: destination)?.sequence == 2, "the sequence is stamped into the seed")
        let second = try savedIndex()

        let copied = fixture.file("copy/seed.sqlite"), restored = fixture.file("restored/seed.sqlite")
        try shell("mkdir -p '\(fixture.file("copy"))' '\(fixture.file("restored"))' && cp -a '\(destination)' '\(copied)' && cat '\(destination)' > '\(restored)'")
        try await Task.sleep(nanoseconds: 20_000_000)
        try shell("touch '\(destination)'")
        let seeds = [destination, copied, restored]
        for seed in seeds {
            let installed = try #require(InstalledSeed.read(destination: seed))
            #expect(installed.sequence == 2 && !installed.isRecordedFile && installed.hasRecordedContent(), "\(seed): \(installed)")
        }

        try replay(first)
        for seed in seeds {
            for signed in [true, false] {
                let before = contents(seed)
                let error = await expectError(.rollback) { () throws(SeedUpdaterError) in try await updater(server, destination: seed, signed: signed).update() }
                #expect(error?.message.contains("sequence 1") == true && error?.message.contains("sequence 2") == true, "\(String(describing: error))")
                #expect(contents(seed) == before, "\(seed) unchanged")
            }
        }

        // Up to date, a touched seed is proven once and recorded again: the next run reads nothing of it.
        try replay(second)
        #expect(try await updater(server, destination: copied).update().status == .upToDate)
        #expect(InstalledSeed.read(destination: copied)?.isRecordedFile == true)
        try publish(3)
        for seed in seeds {
            let result = try await updater(server, destination: seed).update()
            #expect(result.status == .patched && result.previousSequence == 2 && result.sequence == 3, "\(seed): \(result)")
            #expect(result.attempts.map(\.file) == [.delta] && result.deltaFailure == nil)
            #expect(content(seed) == content(fixture.seed(3)))
        }
    }

    @Test("the bundle rule reads the seed too: a touched or copied later seed is kept over the bundled one; a modified one is replaced")
    func bundleRuleReadsTheSeedItself() async throws {
        try publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        try await updater(server).update()
        try publish(2)
        try await updater(server).update()
        let bundled = fixture.file("bundle/seed.sqlite.gz")
        try shell("mkdir -p '\(fixture.file("bundle"))'")
        let pack = try SeedgenTool.run(["pack", fixture.seed(1), "--out", bundled, "--sequence", "1"])
        try #require(pack.status == 0, "\(pack.stderr)")

        try shell("touch '\(destination)'")
        let kept = try SeedInstaller(source: bundled, destination: destination, expectedSchemaVersion: 4).install()
        #expect(kept.status == .upToDate && content(destination) == content(fixture.seed(2)), "\(kept)")
        let record = contents(destination + ".seedgen-install")
        #expect(try SeedInstaller(source: bundled, destination: destination).install().status == .upToDate)
        #expect(contents(destination + ".seedgen-install") == record, "recognised once, then decided from the record again")

        // A byte-identical copy of the installed seed with the bundle of its own sequence: the
        // same seed, not a modified one.
        let copy = fixture.file("copy/seed.sqlite"), sameBundle = fixture.file("bundle2/seed.sqlite.gz")
        try shell("mkdir -p '\(fixture.file("copy"))' '\(fixture.file("bundle2"))' && cp -a '\(destination)' '\(copy)'")
        #expect(try SeedgenTool.run(["pack", fixture.seed(2), "--out", sameBundle, "--sequence", "2"]).status == 0)
        let same = try SeedInstaller(source: sameBundle, destination: copy).install()
        #expect(same.status == .upToDate, "\(same)")

        // Content changed: modified, and replaced by the bundle.
        try shell("sqlite3 '\(copy)' \"UPDATE stops SET stop_name = 'changed' WHERE id = 1\"")
        let replaced = try SeedInstaller(source: bundled, destination: copy).install()
        #expect(replaced.status == .replacedModified && replaced.reason?.contains("content was modified") == true, "\(replaced)")
        #expect(content(copy) == content(fixture.seed(1)))
    }

    @Test("a signed index that names another seed version than its file is refused, the old seed kept, both failures reported")
    func wrongSeedVersionInTheIndex() async throws {
        try publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        try await updater(server).update()
        try publish(2)
        let before = contents(destination)
        let realVersion = try #require(try fixture.entry()["seedVersion"] as? String)
        // The index names day 2's files but another seed version (as if the file of another
        // publish were served): the delta says so, and the full seed's own stamp does.
        try signIndex { $0["seedVersion"] = "f00dfeedf00dfeed" }
        let error = await expectError(.install) { () throws(SeedUpdaterError) in try await updater(server).update() }
        #expect(error?.installerError?.code == .versionMismatch, "\(String(describing: error))")
        #expect(error?.message.contains("f00dfeedf00dfeed") == true && error?.message.contains(realVersion) == true, "\(String(describing: error))")
        #expect(error?.attempts.map(\.file) == [.delta, .seed] && error?.attempts.allSatisfy { $0.failure != nil } == true,
                "\(String(describing: error?.attempts))")
        #expect(contents(destination) == before, "the old seed is kept")
        #expect(InstalledSeed.read(destination: destination)?.sequence == 1)

        // The wrong content digest alone is refused too.
        try signIndex {
            $0["seedVersion"] = realVersion
            $0["contentSha256"] = String(repeating: "a", count: 64)
        }
        let digest = await expectError(.install) { () throws(SeedUpdaterError) in try await updater(server).update() }
        #expect(digest?.message.contains("content digest") == true, "\(String(describing: digest))")
        #expect(contents(destination) == before)
    }

    @Test("a stale signature (a cache keeping index.json.sig longer than index.json) is named as such, not as tampering")
    func staleSignature() async throws {
        try publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        try await updater(server).update()
        let first = try savedIndex()
        try publish(2)
        // Yesterday's signature beside today's index, as a CDN serves it.
        try first.signature.write(to: URL(fileURLWithPath: fixture.channel + "/index.json.sig"))
        try shell("touch -d '-1 day' '\(fixture.channel)/index.json.sig'")
        let stale = await expectError(.badSignature) { () throws(SeedUpdaterError) in try await updater(server).update() }
        #expect(stale?.message.contains("stale") == true && stale?.message.contains("Cache-Control: no-cache") == true, "\(String(describing: stale))")
        #expect(stale?.message.contains("tampered") == false)

        // Another key's signature, as new as the index: tampering, or the wrong key.
        let index = try #require(contents(fixture.channel + "/index.json"))
        try Data(ChannelSigningKey().signatureFile(for: Array(index))).write(to: URL(fileURLWithPath: fixture.channel + "/index.json.sig"))
        let foreign = await expectError(.badSignature) { () throws(SeedUpdaterError) in try await updater(server).update() }
        #expect(foreign?.message.contains("tampered, or signed with another key") == true, "\(String(describing: foreign))")
    }

    @Test("bytesDownloaded counts every byte received: a delta that failed its checksum, then the full seed")
    func everyByteCounted() async throws {
        try publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        try await updater(server).update()
        try publish(2)
        let entry = try fixture.entry()
        let delta = try #require((entry["deltas"] as? [[String: Any]])?.first)
        let deltaPath = try #require(delta["path"] as? String), seedPath = try #require(entry["path"] as? String)
        server.setFault(.wrongBytes, for: deltaPath)
        server.resetCounts()
        let result = try await updater(server).update()
        let sent = ["index.json", "index.json.sig", deltaPath, seedPath].map(server.bytesSent).reduce(0, +)
        #expect(result.status == .installed && result.bytesDownloaded == Int64(sent), "\(result.bytesDownloaded) reported, \(sent) sent")
        #expect(result.attempts.count == 2 && result.attempts[0].bytesDownloaded == Int64(server.bytesSent(deltaPath)))
        #expect(result.deltaFailure?.code == .checksumMismatch)
    }

    /// The timing of a cut at the deadline is tested on the command line, in a process of its
    /// own (ChannelCommandTests, `update --deadline`): in this one, tests that build seeds
    /// synchronously can hold the concurrency pool's threads for seconds, which an in-process
    /// clock would count. Here: the API takes both limits, and what arrived is kept. (The
    /// limits are checked by a Dispatch timer, not a task of that pool: when a task checked
    /// them, a held pool let the trickle finish uncut.)
    @Test("the Swift API takes a deadline and a minimum rate: a passed deadline downloads nothing; a trickle is cut as stalled; what arrived is kept")
    func deadlineAndMinimumRate() async throws {
        try publish(1)
        let server = try LoopbackServer(root: fixture.channel)
        let seedPath = try #require(try fixture.entry()["path"] as? String)
        let late = await expectError(.deadline) { () throws(SeedUpdaterError) in try await updater(server, deadline: 0).update() }
        #expect(late?.bytesDownloaded == 0 && server.requests.isEmpty, "\(String(describing: late))")
        #expect(!FileManager.default.fileExists(atPath: destination))

        // 200 bytes every 0.1 s (2 KB/s) with a minimum of 4 KB/s over 1 s: stalled.
        server.setFault(.slow(chunk: 200, delay: 0.1), for: seedPath)
        var slow = updater(server, deadline: nil, minimumRate: 4096)
        slow.rateWindow = 1
        let stalled = await expectError(.stalled) { () throws(SeedUpdaterError) in try await slow.update() }
        #expect(stalled?.message.contains("minimum rate of 4096") == true, "\(String(describing: stalled))")
        #expect(stalled?.bytesDownloaded ?? 0 > 0)

        server.setFault(nil, for: seedPath)
        let done = try await updater(server).update()
        #expect(done.status == .installed && content(destination) == content(fixture.seed(1)))
    }

    @Test(.enabled(if: Tmpfs.canMount, Tmpfs.unavailable))
    func aFullDiskDownloadsNothing() async throws {
        try publish(1)
        let entry = try fixture.entry()
        let gzSize = try #require(entry["size"] as? Int), seedSize = try #require(entry["seedSize"] as? Int)
        let mount = fixture.file("mnt")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        // Room for the download but not for the seed decompressed beside it.
        let size = (gzSize + seedSize / 2 + 4095) / 4096 * 4096
        try shell("mount -t tmpfs -o size=\(size) tmpfs '\(mount)'")
        defer { _ = try? ChildProcess.shell("umount '\(mount)'") }
        let server = try LoopbackServer(root: fixture.channel)
        let error = await expectError(.diskFull) { () throws(SeedUpdaterError) in try await updater(server, destination: mount + "/seed.sqlite").update() }
        #expect(error?.message.contains("nothing was downloaded") == true, "\(String(describing: error))")
        #expect(server.bytesSent(try #require(entry["path"] as? String)) == 0, "nothing downloaded")
        let left = try FileManager.default.contentsOfDirectory(atPath: mount).filter { $0.contains("seedgen-download") }
        #expect(left.isEmpty, "\(left)")
    }

}
