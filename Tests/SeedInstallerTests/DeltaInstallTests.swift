import Foundation
import SeedArchive
import SeedInstaller
import SeedSQLite
import SeedTestSupport
import Testing

/// Issue 19: installing a seed delta (`seedgen delta`) over the seed it was made from, with
/// every guarantee of installing a full seed; refused, leaving the installed seed as it was,
/// when anything is wrong.
@Suite(.serialized) struct DeltaInstallTests {
    let folder = TemporaryFolder()
    var destination: String { folder.file("data/seed.sqlite") }

    init() throws {
        try #require(SeedgenTool.exists, "build the tool first (swift build): \(SeedgenTool.path)")
    }

    /// Three versions of a seed, as `seedgen build --previous` makes them: each next one made
    /// from the one before by changing, removing and adding a few percent of the rows.
    struct Versions {
        let v1: String, v2: String, v3: String
        /// The delta from v1 to v2.
        let delta: String
    }

    /// - Parameter added: rows each next version adds (beyond the changed ones).
    func versions(rows: Int = 500, payloadBytes: Int = 40, added: Int = 1) throws -> Versions {
        let v1 = folder.file("v1.sqlite"), v2 = folder.file("v2.sqlite"), v3 = folder.file("v3.sqlite")
        let db = try Connection(path: folder.file("scratch.sqlite"))
        try db.execute("""
            PRAGMA journal_mode = OFF;
            PRAGMA application_id = \(0x53454544);
            PRAGMA user_version = 3;
            CREATE TABLE seedgen_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO seedgen_metadata VALUES ('schema_name', 'test'), ('schema_version', '3'), ('seed_version', 'v1');
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, payload BLOB);
            CREATE UNIQUE INDEX items_key ON items (name);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
              INSERT INTO items SELECT i, 'item-' || i, randomblob(\(payloadBytes)) FROM n;
            ANALYZE;
            VACUUM INTO '\(v1)';
            """)
        for version in ["v2", "v3"] {
            try db.execute("""
                UPDATE seedgen_metadata SET value = '\(version)' WHERE key = 'seed_version';
                DELETE FROM items WHERE id % 50 = 7;
                UPDATE items SET payload = randomblob(\(payloadBytes)) WHERE id % 50 = 11;
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(added))
                  INSERT INTO items SELECT (SELECT max(id) FROM items) + i, '\(version)-new-' || i, randomblob(\(payloadBytes)) FROM n;
                ANALYZE;
                VACUUM INTO '\(version == "v2" ? v2 : v3)';
                """)
        }
        let delta = folder.file("v1-v2.delta")
        let written = try SeedgenTool.run(["delta", v1, v2, "--out", delta])
        try #require(written.status == 0, "\(written.stderr)")
        return Versions(v1: v1, v2: v2, v3: v3, delta: delta)
    }

    @discardableResult
    func install(_ source: String, expecting schemaVersion: Int? = nil) throws(SeedInstallerError) -> SeedInstallResult {
        try SeedInstaller(source: source, destination: destination, expectedSchemaVersion: schemaVersion).install()
    }

    /// The names in the destination's folder.
    var destinationFolder: [String] { folder.contents(of: folder.file("data")) }
    static let seedFiles = ["seed.sqlite", "seed.sqlite.seedgen-install", "seed.sqlite.seedgen-lock"]

    @Test func aDeltaTurnsTheInstalledSeedIntoTheNextOne() throws {
        let seeds = try versions()
        try install(seeds.v1)
        try #require(FileManager.default.createFile(atPath: destination + "-shm", contents: Data("stale".utf8)))
        let patched = try install(seeds.delta, expecting: 3)
        #expect(patched.status == .patched && patched.didInstall)
        #expect(patched.seedVersion == "v2" && patched.previousSeedVersion == "v1")
        #expect(bytes(of: destination) == bytes(of: seeds.v2), "byte for byte the new seed")
        #expect(destinationFolder == Self.seedFiles, "sidecars and temporary files gone: \(destinationFolder)")

        // The record is the new seed's: the delta again, or the full new seed, is up to date.
        let identityAfter = identity(of: destination)
        #expect(try install(seeds.delta).status == .upToDate)
        #expect(try install(seeds.v2).status == .upToDate)
        #expect(identity(of: destination) == identityAfter)

        let delta = try SeedDelta.read(path: seeds.delta)
        #expect(delta.from.seedVersion == "v1" && delta.to.seedVersion == "v2" && delta.schemaVersion == 3)
        #expect(delta.from.sha256 == SHA256.hex(of: try #require(bytes(of: seeds.v1))))
        #expect(delta.to.sha256 == SHA256.hex(of: try #require(bytes(of: seeds.v2))))
        #expect(delta.to.size == Int64(try #require(bytes(of: seeds.v2)).count))
        // SeedArchive reads the same header, the body untouched (for choosing a delta).
        let header = try DeltaHeader.read(path: seeds.delta).header
        #expect(header.from.seedVersion == "v1" && header.to.seedVersion == "v2" && header.schemaVersion == 3)
        #expect(header.from.sha256 == delta.from.sha256 && header.to.sha256 == delta.to.sha256)
        #expect(header.from.size == delta.from.size && header.to.size == delta.to.size)

        // The command says `patched`.
        try install(seeds.v1)
        let command = try SeedgenTool.run(["install", seeds.delta, "--to", destination, "--json"])
        #expect(command.status == 0 && command.stdout.contains("\"status\": \"patched\""), "\(command.stdout) \(command.stderr)")
    }

    @Test func refusedUnlessTheInstalledSeedIsExactlyItsFromSeed() throws {
        let seeds = try versions()
        let nothing = #expect(throws: SeedInstallerError.self) { try install(seeds.delta) }
        #expect(nothing?.code == .deltaBaseMismatch && nothing?.message.contains("nothing is installed") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("data")), "nothing created")

        // Another seed installed (v3: another version, other bytes).
        try install(seeds.v3)
        let before = bytes(of: destination), identityBefore = identity(of: destination)
        let other = #expect(throws: SeedInstallerError.self) { try install(seeds.delta) }
        #expect(other?.code == .deltaBaseMismatch, "\(String(describing: other))")
        #expect(bytes(of: destination) == before && identity(of: destination) == identityBefore && destinationFolder == Self.seedFiles)

        // The from seed, but written to since (same size): the copy's SHA-256 tells.
        try install(seeds.v1)
        let db = try Connection(path: destination, mode: .readWrite)
        try db.execute("UPDATE items SET name = 'ITEM-1' WHERE id = 1")
        let modified = bytes(of: destination)
        #expect(modified?.count == bytes(of: seeds.v1)?.count)
        let changed = #expect(throws: SeedInstallerError.self) { try install(seeds.delta) }
        #expect(changed?.code == .deltaBaseMismatch && changed?.message.contains("SHA-256") == true, "\(String(describing: changed))")
        #expect(bytes(of: destination) == modified && destinationFolder == Self.seedFiles)

        let wrongSchema = #expect(throws: SeedInstallerError.self) { try install(seeds.delta, expecting: 4) }
        #expect(wrongSchema?.code == .schemaMismatch)
    }

    @Test func aTruncatedOrDamagedDeltaIsRefusedAndChangesNothing() throws {
        let seeds = try versions()
        let delta = try #require(bytes(of: seeds.delta))
        let headerEnd = try #require(delta.indices.first { delta[$0] == 0x0A && $0 > 0 && delta[$0 - 1] == 0x0A }) + 1
        var cases: [(String, Data)] = [
            ("cut in the header", delta.prefix(40)),
            ("cut after the header", delta.prefix(headerEnd)),
            ("cut in the body", delta.prefix(headerEnd + (delta.count - headerEnd) / 2)),
            ("last byte missing", delta.dropLast()),
            ("a byte more", delta + Data([0])),
        ]
        var flipped = delta
        flipped[headerEnd + (delta.count - headerEnd) / 2] ^= 0x55
        cases.append(("a byte flipped in the body", flipped))
        // A well-formed delta that promises another result (as one made by another SQLite).
        let text = String(decoding: delta.prefix(headerEnd), as: UTF8.self)
        let sha = try #require(text.split(separator: "\n").first { $0.hasPrefix("to-sha256=") })
        cases.append(("a result other than promised", Data(text.replacingOccurrences(of: sha, with: "to-sha256=" + String(repeating: "0", count: 64)).utf8) + delta.dropFirst(headerEnd)))

        try install(seeds.v1)
        let before = bytes(of: destination), identityBefore = identity(of: destination)
        for (name, damaged) in cases {
            let path = folder.file("damaged.delta")
            try damaged.write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: SeedInstallerError.self, "\(name)") { try install(path) }
            let expected: [SeedInstallerError.Code] = name == "a result other than promised" ? [.deltaResultMismatch] : [.truncated, .corrupt, .invalidDelta]
            #expect(error.map { expected.contains($0.code) } == true, "\(name): \(String(describing: error))")
            #expect(bytes(of: destination) == before && identity(of: destination) == identityBefore, "\(name): the installed seed is unchanged")
            #expect(destinationFolder == Self.seedFiles, "\(name): no temporary file left: \(destinationFolder)")
        }
        #expect(try install(seeds.delta).status == .patched, "the intact delta still applies")
    }

    @Test func killedAtRandomMomentsDuringApplyTheDestinationIsOldOrNew() throws {
        let seeds = try versions(rows: 40_000, payloadBytes: 200)
        let old = try #require(bytes(of: seeds.v1)), new = try #require(bytes(of: seeds.v2))
        let start = Date()
        try install(seeds.v1)
        #expect(try install(seeds.delta).status == .patched)
        var window = max(Date().timeIntervalSince(start) * 1.2, 0.05)
        var generator = SystemRandomNumberGenerator()
        var outcomes: [String: Int] = [:]
        for iteration in 0..<16 {
            try install(seeds.v1)
            let process = try SeedgenTool.start(["install", seeds.delta, "--to", destination])
            usleep(UInt32(Double.random(in: 0...window, using: &generator) * 1_000_000))
            process.send(SIGKILL)
            let killed = process.wait()
            let found = bytes(of: destination)
            let state = found == old ? "old" : found == new ? "new" : "MIXED"
            window *= (killed.signalled && killed.status == SIGKILL) ? 1.1 : 0.8
            outcomes["\((killed.signalled && killed.status == SIGKILL) ? "killed" : "finished")/\(state)", default: 0] += 1
            if destinationFolder.contains(where: { $0.contains("seedgen-tmp") }) { outcomes["left a temporary file", default: 0] += 1 }
            #expect(state != "MIXED", "iteration \(iteration): the destination is neither seed")
            let next = try SeedgenTool.run(["install", seeds.delta, "--to", destination])
            #expect(next.status == 0, "iteration \(iteration): \(next.stderr)")
            #expect(bytes(of: destination) == new, "iteration \(iteration): the next call finishes the job")
            #expect(destinationFolder == Self.seedFiles, "iteration \(iteration): \(destinationFolder)")
        }
        #expect(outcomes["killed/old", default: 0] > 0, "\(outcomes)")
        print("delta kill loop outcomes: \(outcomes.sorted { $0.key < $1.key })")
    }

    @Test func aFileSizeLimitDuringApplyLeavesTheOldSeed() throws {
        let seeds = try versions(rows: 3000, payloadBytes: 1000)
        try install(seeds.v1)
        let before = bytes(of: destination), listing = destinationFolder
        // 2048 blocks of 512 bytes: less than the 3 MB copy of the seed the patch starts from.
        let limited = try ChildProcess.shell("ulimit -f 2048 && exec '\(SeedgenTool.path)' install '\(seeds.delta)' --to '\(destination)'")
        #expect(limited.status == 1, "\(limited.stdout) \(limited.stderr)")
        #expect(limited.stderr.contains("disk-full") && limited.stderr.contains("unchanged"), "\(limited.stderr)")
        #expect(bytes(of: destination) == before && destinationFolder == listing, "old seed intact, no temporary file")
        #expect(try install(seeds.delta).status == .patched, "without the limit it applies")
    }

    @Test(.enabled(if: DiskFullTests.canMountTmpfs, "mounting a tmpfs is not permitted here"))
    func aFullTmpfsDuringApplyLeavesTheOldSeed() throws {
        // The next version twice the size: the copy being patched grows past the old seed's
        // size, so room for a copy of each seed (what the installer checks first) runs out
        // while the changes are applied.
        let seeds = try versions(rows: 3000, payloadBytes: 1000, added: 3000)
        let mount = folder.file("data")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        try #require(try ChildProcess.shell("mount -t tmpfs -o size=24m tmpfs '\(mount)'").status == 0)
        defer { _ = try? ChildProcess.shell("umount '\(mount)'") }
        try install(seeds.v1)
        let old = try #require(bytes(of: seeds.v1)).count, new = try #require(bytes(of: seeds.v2)).count
        let before = bytes(of: destination), listing = destinationFolder
        func fill(leaving room: Int) throws {
            let free = try #require(try FileManager.default.attributesOfFileSystem(forPath: mount)[.systemFreeSize] as? Int)
            try #require(FileManager.default.createFile(atPath: mount + "/filler", contents: Data(count: max(0, free - room))))
        }
        func removeFiller() throws { try FileManager.default.removeItem(atPath: mount + "/filler") }

        // Less than a copy of each seed: refused before anything is written.
        try fill(leaving: old + new / 2)
        let refused = #expect(throws: SeedInstallerError.self) { try install(seeds.delta) }
        #expect(refused?.code == .diskFull && refused?.message.contains("not enough free space") == true, "\(String(describing: refused))")
        #expect(bytes(of: destination) == before && destinationFolder == (listing + ["filler"]).sorted(), "old seed intact, no temporary file")
        try removeFiller()

        // Just enough for the check, not for the patch: the disk fills up while it is applied.
        try fill(leaving: old + new + 64 * 1024)
        let full = #expect(throws: SeedInstallerError.self) { try install(seeds.delta) }
        #expect(full?.code == .diskFull && full?.message.contains("not enough free space") == false, "\(String(describing: full))")
        #expect(bytes(of: destination) == before && destinationFolder == (listing + ["filler"]).sorted(), "old seed intact, no temporary file: \(destinationFolder)")
        try removeFiller()
        #expect(try install(seeds.delta).status == .patched)
        #expect(bytes(of: destination) == bytes(of: seeds.v2))
    }

    @Test func twoProcessesAtOnceApplyItOnce() throws {
        let seeds = try versions(rows: 5000, payloadBytes: 100)
        try install(seeds.v1)
        let processes = try (0..<3).map { _ in try SeedgenTool.start(["install", seeds.delta, "--to", destination, "--json"]) }
        let outputs = processes.map { $0.wait() }
        #expect(outputs.allSatisfy { $0.status == 0 }, "\(outputs.map(\.stderr))")
        #expect(outputs.filter { $0.stdout.contains("\"patched\"") }.count == 1, "\(outputs.map(\.stdout))")
        #expect(outputs.filter { $0.stdout.contains("\"up-to-date\"") }.count == 2)
        #expect(bytes(of: destination) == bytes(of: seeds.v2))
    }
}
