import Foundation
import SeedArchive
import SeedInstaller
import SeedSQLite
import SeedTestSupport
import Testing

/// The installer in real processes: `seedgen install` run many at once, killed mid-install, and
/// replacing a seed whose killed writer left committed frames in its `-wal`.
@Suite(.serialized) struct InstallProcessTests {
    let folder = TemporaryFolder()
    var destination: String { folder.file("data/seed.sqlite") }

    init() throws {
        try #require(SeedgenTool.exists, "build the tool first (swift build): \(SeedgenTool.path)")
    }

    /// A gzipped seed and the bytes of its uncompressed form.
    func seed(_ version: String, payloadBytes: Int = 0, rows: Int = 20) throws -> (gz: String, plain: Data) {
        let fixture = SeedFixture(seedVersion: version, rows: rows, payloadBytes: payloadBytes)
        let plain = try fixture.writeSQLite(to: folder.file("\(version).sqlite"))
        let gz = folder.file("\(version).sqlite.gz")
        try SeedFixture.gzip(plain, to: gz, comment: fixture.stamp.comment)
        return (gz, try #require(bytes(of: plain)))
    }

    @Test func theCommandPrintsOneLineAndExitsZero() throws {
        let v1 = try seed("v1")
        let first = try SeedgenTool.run(["install", v1.gz, "--to", destination, "--schema-version", "3"])
        #expect(first.status == 0)
        #expect(first.stdout.hasPrefix("installed seed-version=v1 schema-version=3"))
        #expect(first.stdout.split(separator: "\n").count == 1)
        let second = try SeedgenTool.run(["install", v1.gz, "--to", destination, "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any]
        #expect(json?["status"] as? String == "up-to-date")
        #expect(json?["seedVersion"] as? String == "v1" && json?["schemaVersion"] as? Int == 3)
        #expect(json?["path"] as? String == destination)
        #expect(json?.keys.contains("previousSeedVersion") == true)
        let refused = try SeedgenTool.run(["install", v1.gz, "--to", destination, "--schema-version", "4"])
        #expect(refused.status != 0 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("schema-mismatch") && refused.stderr.contains("schema version 3 but the app expects 4"))
    }

    @Test func eightProcessesStartedTogetherInstallOnce() throws {
        let v1 = try seed("v1", payloadBytes: 1000, rows: 500)
        let processes = try (0..<10).map { _ in try SeedgenTool.start(["install", v1.gz, "--to", destination, "--json"]) }
        let outputs = processes.map { $0.wait() }
        #expect(outputs.allSatisfy { $0.status == 0 }, "\(outputs.map(\.stderr))")
        let statuses = outputs.map { $0.stdout.contains("\"status\": \"installed\"") ? "installed" : $0.stdout.contains("up-to-date") ? "up-to-date" : $0.stdout }
        #expect(statuses.filter { $0 == "installed" }.count == 1, "\(statuses)")
        #expect(statuses.filter { $0 == "up-to-date" }.count == 9, "\(statuses)")
        #expect(bytes(of: destination) == v1.plain)
    }

    @Test func killedAtRandomMomentsTheDestinationIsAlwaysOldOrNew() throws {
        let a = try seed("A", payloadBytes: 1000, rows: 1000), b = try seed("B", payloadBytes: 1000, rows: 1000)
        let start = Date()
        #expect(try SeedgenTool.run(["install", a.gz, "--to", destination]).status == 0)
        // Half the kills land anywhere in an install; the other half between the latest moment
        // known to leave the old seed and the earliest known to leave the new one, a bracket
        // that closes on the swap, where verification, the record and the rename happen.
        // (Aiming at the end of the process instead sent every kill past the swap under
        // ThreadSanitizer, whose process exit is long.)
        var before = 0.0, after = Date().timeIntervalSince(start)
        var generator = SystemRandomNumberGenerator()
        var outcomes: [String: Int] = [:]
        for iteration in 0..<32 {
            let (old, new) = iteration % 2 == 0 ? (a, b) : (b, a)
            let moment = iteration / 2 % 2 == 0 ? Double.random(in: 0...after * 1.2, using: &generator)
                                                : Double.random(in: before...after, using: &generator)
            let process = try SeedgenTool.start(["install", new.gz, "--to", destination])
            usleep(UInt32(moment * 1_000_000))
            process.send(SIGKILL)
            let killed = process.wait()
            let found = bytes(of: destination)
            let state = found == old.plain ? "old" : found == new.plain ? "new" : found == nil ? "absent" : "MIXED"
            // Process start-up varies from run to run: a moment on the wrong side widens the bracket.
            if state == "old" {
                before = moment
                if after <= before { after = before * 1.1 }
            } else {
                after = max(moment, 0.001)
                if before >= after { before = after * 0.9 }
            }
            outcomes["\(killed.status == SIGKILL ? "killed" : "finished")/\(state)", default: 0] += 1
            if (try FileManager.default.contentsOfDirectory(atPath: folder.file("data"))).contains(where: { $0.contains("seedgen-tmp") }) {
                outcomes["left a temporary file", default: 0] += 1
            }
            #expect(state != "MIXED", "iteration \(iteration): the destination is neither seed")
            #expect(!FileManager.default.fileExists(atPath: destination + "-wal"))
            let next = try SeedgenTool.run(["install", new.gz, "--to", destination])
            #expect(next.status == 0, "iteration \(iteration): \(next.stderr)")
            #expect(bytes(of: destination) == new.plain, "iteration \(iteration): the next call finishes the job")
            #expect(!(try FileManager.default.contentsOfDirectory(atPath: folder.file("data"))).contains { $0.contains("seedgen-tmp") })
        }
        // The kills landed both before and after the swap (not only at the start or the end).
        #expect(outcomes["killed/old", default: 0] > 0, "\(outcomes)")
        #expect(outcomes["left a temporary file", default: 0] > 0, "some kills landed mid-copy: \(outcomes)")
        print("kill loop outcomes: \(outcomes.sorted { $0.key < $1.key })")
    }

    @Test func aStaleWALFromAKilledWriterIsNeverAppliedToTheNewSeed() throws {
        let v1 = try seed("v1"), v2 = try seed("v2")
        #expect(try SeedgenTool.run(["install", v1.gz, "--to", destination]).status == 0)

        // A writer opens the installed seed in WAL mode, commits without checkpointing, and dies.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        writer.arguments = [destination]
        let input = Pipe(), output = Pipe()
        writer.standardInput = input
        writer.standardOutput = output
        try writer.run()
        input.fileHandleForWriting.write(Data("""
            PRAGMA journal_mode=WAL;
            PRAGMA wal_autocheckpoint=0;
            INSERT INTO items(name) VALUES ('committed-in-wal');
            UPDATE items SET name = 'changed-in-wal' WHERE id = 1;
            SELECT 'ready';

            """.utf8))
        var seen = ""
        while !seen.contains("ready") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        let walSize = (try? FileManager.default.attributesOfItem(atPath: destination + "-wal")[.size] as? Int) ?? 0
        #expect(walSize > 0, "the killed writer left a -wal with frames")

        // Those frames are committed: a copy of the pair shows them.
        let copy = folder.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: destination, toPath: copy)
        try FileManager.default.copyItem(atPath: destination + "-wal", toPath: copy + "-wal")
        #expect(try SeedFixture.itemNames(at: copy).contains("committed-in-wal"))

        let replaced = try SeedgenTool.run(["install", v2.gz, "--to", destination])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(!FileManager.default.fileExists(atPath: destination + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: destination + "-shm"))
        #expect(bytes(of: destination) == v2.plain)
        let db = try Connection(path: destination, mode: .readOnly)
        #expect(try db.scalar("PRAGMA integrity_check")?.text == "ok")
        #expect(try SeedFixture.itemNames(at: destination) == (1...20).map { "v2-\($0)" })
    }
}
