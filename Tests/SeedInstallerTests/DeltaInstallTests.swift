import Foundation
import SeedArchive
import SeedDeltas
import SeedInstaller
import SeedSQLite
import SeedTestSupport
import Testing

/// Issue 19: installing a seed delta (`seedgen delta`) over the seed it was made from, with
/// every guarantee of installing a full seed; refused, leaving the installed seed as it was,
/// when anything is wrong. The patched seed is proven by its content digest (its file is not
/// the builder's byte for byte: no VACUUM on the device).
@Suite(.serialized) struct DeltaInstallTests {
    let folder = TemporaryFolder()
    var destination: String { folder.file("data/seed.sqlite") }

    init() throws {
        try #require(SeedgenTool.exists, "build the tool first (swift build): \(SeedgenTool.path)")
    }

    /// Three versions of a seed, as `seedgen build --previous` makes them: each next one made
    /// from the one before by changing, removing and adding a few percent of the rows. Like a
    /// built seed, each records its content digest and derives a table from `items`
    /// (`item_counts`, recipe in `seedgen_derive`), which a delta does not carry.
    struct Versions {
        let v1: String, v2: String, v3: String
        /// The delta from v1 to v2.
        let delta: String
        /// The content digest of each version, as recorded in it.
        let digests: [String: String]
    }

    /// The recipe of `item_counts`: how many items per first two letters of the name.
    static let countsFill = "INSERT INTO item_counts (prefix, n) SELECT substr(name, 1, 2), count(*) FROM items GROUP BY 1"

    /// - Parameter added: rows each next version adds (beyond the changed ones).
    func versions(rows: Int = 500, payloadBytes: Int = 40, added: Int = 1) throws -> Versions {
        let v1 = folder.file("v1.sqlite"), v2 = folder.file("v2.sqlite"), v3 = folder.file("v3.sqlite")
        let db = try Connection(path: folder.file("scratch.sqlite"))
        var digests: [String: String] = [:]
        /// Derives `item_counts` again, records the content digest and writes the version.
        func finish(_ version: String, to path: String) throws {
            try db.execute("""
                DELETE FROM item_counts;
                \(Self.countsFill);
                ANALYZE;
                DELETE FROM seedgen_metadata WHERE key = 'content_sha256';
                """)
            let digest = try ContentDigest.compute(db)
            try db.execute("INSERT INTO seedgen_metadata VALUES ('content_sha256', '\(digest)'); VACUUM INTO '\(path)';")
            digests[version] = digest
        }
        try db.execute("""
            PRAGMA journal_mode = OFF;
            PRAGMA application_id = \(0x53454544);
            PRAGMA user_version = 3;
            CREATE TABLE seedgen_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO seedgen_metadata VALUES ('schema_name', 'test'), ('schema_version', '3'), ('seed_version', 'v1');
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, payload BLOB);
            CREATE UNIQUE INDEX items_key ON items (name);
            CREATE TABLE item_counts (prefix TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
            \(DeriveRecipe.createStatement);
            INSERT INTO seedgen_derive VALUES (1, 'table', 'item_counts', 'items', NULL, '\(Self.countsFill)');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
              INSERT INTO items SELECT i, 'item-' || i, randomblob(\(payloadBytes)) FROM n;
            """)
        try finish("v1", to: v1)
        for version in ["v2", "v3"] {
            try db.execute("""
                UPDATE seedgen_metadata SET value = '\(version)' WHERE key = 'seed_version';
                DELETE FROM items WHERE id % 50 = 7;
                UPDATE items SET payload = randomblob(\(payloadBytes)) WHERE id % 50 = 11;
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(added))
                  INSERT INTO items SELECT (SELECT max(id) FROM items) + i, '\(version)-new-' || i, randomblob(\(payloadBytes)) FROM n;
                """)
            try finish(version, to: version == "v2" ? v2 : v3)
        }
        let delta = folder.file("v1-v2.delta")
        let written = try SeedgenTool.run(["delta", v1, v2, "--out", delta])
        try #require(written.status == 0, "\(written.stderr)")
        return Versions(v1: v1, v2: v2, v3: v3, delta: delta, digests: digests)
    }

    /// The content digest of the seed at `path` (nil when it cannot be read).
    func digest(of path: String) -> String? {
        try? ContentDigest.compute(path: path)
    }

    /// Rewrites the body of the delta at `path` into `output` (same header): `transform` gets
    /// every record but the end.
    func rewrite(_ path: String, to output: String, _ transform: ([DeltaRecord]) -> [DeltaRecord]) throws {
        let reader = try DeltaReader(path: path)
        var records: [DeltaRecord] = []
        while case let record = try reader.next(), record != .end { records.append(record) }
        let writer = try DeltaWriter(path: output, header: reader.header)
        for record in transform(records) { try writer.write(record) }
        try writer.finish(sync: false)
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
        // The new seed's content (not its bytes: this SQLite patched it in place, no VACUUM),
        // the derived table included, derived again from the patched rows.
        #expect(digest(of: destination) == seeds.digests["v2"], "the content of the new seed")
        #expect(seeds.digests["v1"] != seeds.digests["v2"])
        let counts = "SELECT group_concat(prefix || '=' || n, ' ') FROM (SELECT * FROM item_counts ORDER BY prefix)"
        let patchedCounts = try Connection(path: destination, mode: .readOnly).scalar(counts)?.text
        let newCounts = try Connection(path: seeds.v2, mode: .readOnly).scalar(counts)?.text
        #expect(patchedCounts != nil && patchedCounts == newCounts, "item_counts derived again")
        #expect(try Connection(path: destination, mode: .readOnly).scalar("PRAGMA integrity_check")?.text == "ok")
        #expect(destinationFolder == Self.seedFiles, "sidecars and temporary files gone: \(destinationFolder)")

        // The record names the content, not a file SHA-256 (the patched file has its own bytes).
        let recorded = try #require(InstalledSeed.read(destination: destination))
        #expect(recorded.seedVersion == "v2" && recorded.contentSHA256 == seeds.digests["v2"] && recorded.sha256 == nil, "\(recorded)")

        // The record is the new seed's: the delta again, or the full new seed, is up to date;
        // so is the new seed packed with a manifest (same content, other file SHA-256).
        let identityAfter = identity(of: destination)
        #expect(try install(seeds.delta).status == .upToDate)
        #expect(try install(seeds.v2).status == .upToDate)
        let packed = folder.file("v2.sqlite.gz")
        let pack = try SeedgenTool.run(["pack", seeds.v2, "--out", packed])
        try #require(pack.status == 0, "\(pack.stderr)")
        let manifest = try SeedManifest.read(path: SeedManifest.path(forSeed: packed))
        let patchedSHA = SHA256.hex(of: try #require(bytes(of: destination)))
        #expect(manifest.contentSHA256 == seeds.digests["v2"] && manifest.sha256 != patchedSHA)
        #expect(try install(packed).status == .upToDate, "the same content is the same seed")
        #expect(identity(of: destination) == identityAfter)

        let delta = try SeedDelta.read(path: seeds.delta)
        #expect(delta.from.seedVersion == "v1" && delta.to.seedVersion == "v2" && delta.schemaVersion == 3)
        #expect(delta.from.contentSHA256 == seeds.digests["v1"] && delta.to.contentSHA256 == seeds.digests["v2"])
        #expect(delta.from.size == Int64(try #require(bytes(of: seeds.v1)).count))
        #expect(delta.to.size == Int64(try #require(bytes(of: seeds.v2)).count))
        // SeedDeltas reads the same header, the body untouched (for choosing a delta).
        let header = try DeltaHeader.read(path: seeds.delta).header
        #expect(header.from.seedVersion == "v1" && header.to.seedVersion == "v2" && header.schemaVersion == 3)
        #expect(header.from.contentSHA256 == delta.from.contentSHA256 && header.to.contentSHA256 == delta.to.contentSHA256)
        #expect(header.from.size == delta.from.size && header.to.size == delta.to.size)
        let text = String(decoding: try #require(bytes(of: seeds.delta)).prefix(DeltaHeader.maximumLength), as: UTF8.self)
        let v2SHA = SHA256.hex(of: try #require(bytes(of: seeds.v2)))
        #expect(text.hasPrefix("seedgen-delta 2\n") && text.contains("\nto-content-sha256=\(seeds.digests["v2"]!)\n") && !text.contains(v2SHA),
                "format 2 names seeds by content: \(text.prefix(400))")

        // The command says `patched`.
        try install(seeds.v1)
        let command = try SeedgenTool.run(["install", seeds.delta, "--to", destination, "--json"])
        #expect(command.status == 0 && command.stdout.contains("\"status\": \"patched\""), "\(command.stdout) \(command.stderr)")
    }

    @Test func theFromSeedsContentInAnotherFileIsPatched() throws {
        let seeds = try versions()
        // The from seed's content rewritten by another SQLite (VACUUM: other pages, other bytes,
        // no record vouching for it): its content digest is computed and matches.
        try install(seeds.v1)
        try Connection(path: destination, mode: .readWrite).execute("PRAGMA page_size = 1024; VACUUM")
        try #require(bytes(of: destination) != bytes(of: seeds.v1))
        let patched = try install(seeds.delta)
        #expect(patched.status == .patched)
        #expect(digest(of: destination) == seeds.digests["v2"])
        #expect(InstalledSeed.read(destination: destination)?.contentSHA256 == seeds.digests["v2"])
    }

    @Test func refusedUnlessTheInstalledSeedHasItsFromSeedsContent() throws {
        let seeds = try versions()
        let nothing = #expect(throws: SeedInstallerError.self) { try install(seeds.delta) }
        #expect(nothing?.code == .deltaBaseMismatch && nothing?.message.contains("nothing is installed") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("data")), "nothing created")

        // Another seed installed (v3: another version, other content): refused from its record.
        try install(seeds.v3)
        let before = bytes(of: destination), identityBefore = identity(of: destination)
        let other = #expect(throws: SeedInstallerError.self) { try install(seeds.delta) }
        #expect(other?.code == .deltaBaseMismatch && other?.message.contains(seeds.digests["v3"]!) == true, "\(String(describing: other))")
        #expect(bytes(of: destination) == before && identity(of: destination) == identityBefore && destinationFolder == Self.seedFiles)

        // The from seed, but written to since (same size): the copy's content digest tells.
        try install(seeds.v1)
        let db = try Connection(path: destination, mode: .readWrite)
        try db.execute("UPDATE items SET name = 'ITEM-1' WHERE id = 1")
        let modified = bytes(of: destination)
        #expect(modified?.count == bytes(of: seeds.v1)?.count)
        let changed = #expect(throws: SeedInstallerError.self) { try install(seeds.delta) }
        #expect(changed?.code == .deltaBaseMismatch && changed?.message.contains("content digest") == true, "\(String(describing: changed))")
        #expect(bytes(of: destination) == modified && destinationFolder == Self.seedFiles)

        let wrongSchema = #expect(throws: SeedInstallerError.self) { try install(seeds.delta, expecting: 4) }
        #expect(wrongSchema?.code == .schemaMismatch)
    }

    @Test func aFormat1DeltaIsRefusedSayingToInstallTheFullSeed() throws {
        let seeds = try versions()
        try install(seeds.v1)
        let before = bytes(of: destination), identityBefore = identity(of: destination)
        // A delta from a seedgen before content digests: file SHA-256s and a schema cookie.
        let body = try #require(bytes(of: seeds.delta))
        let headerEnd = try #require(body.indices.first { body[$0] == 0x0A && $0 > 0 && body[$0 - 1] == 0x0A }) + 1
        let oldHeader = """
            seedgen-delta 1
            schema-name=test
            schema-version=3
            from-seed-version=v1
            from-size=\(bytes(of: seeds.v1)!.count)
            from-sha256=\(SHA256.hex(of: bytes(of: seeds.v1)!))
            to-seed-version=v2
            to-size=\(bytes(of: seeds.v2)!.count)
            to-sha256=\(SHA256.hex(of: bytes(of: seeds.v2)!))
            to-schema-cookie=7
            sqlite-version=3.40.1
            tool-version=0.9.0


            """
        let path = folder.file("format-1.delta")
        try (Data(oldHeader.utf8) + body.dropFirst(headerEnd)).write(to: URL(fileURLWithPath: path))
        let read = #expect(throws: SeedInstallerError.self) { try SeedDelta.read(path: path) }
        #expect(read?.code == .invalidDelta && read?.message.contains("format version 1") == true && read?.message.contains("install the full seed") == true,
                "\(String(describing: read))")
        let refused = #expect(throws: SeedInstallerError.self) { try install(path) }
        #expect(refused?.code == .invalidDelta && refused?.message.contains("install the full seed") == true, "\(String(describing: refused))")
        #expect(bytes(of: destination) == before && identity(of: destination) == identityBefore && destinationFolder == Self.seedFiles)
        let command = try SeedgenTool.run(["install", path, "--to", destination])
        #expect(command.status != 0 && command.stderr.contains("install the full seed"), "\(command.stderr)")
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
        let sha = try #require(text.split(separator: "\n").first { $0.hasPrefix("to-content-sha256=") })
        cases.append(("a result other than promised", Data(text.replacingOccurrences(of: sha, with: "to-content-sha256=" + String(repeating: "0", count: 64)).utf8) + delta.dropFirst(headerEnd)))

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

    /// The delta's section of `seedgen_derive` (a rowid table: position, then kind, target,
    /// reads, rows, fill) with `fill` of recipe 1 set to `fill`, spliced into the body in name order.
    func withRecipe(_ fill: String) -> ([DeltaRecord]) -> [DeltaRecord] {
        { records in
            let section: [DeltaRecord] = [.table(DeltaTable(name: "seedgen_derive", isRowID: true, keyCount: 1, valueCount: 5)),
                                          .update(key: [.integer(1)], changes: [DeltaRecord.Change(column: 4, value: .text(Array(fill.utf8)))])]
            let at = records.firstIndex { if case .table(let table) = $0 { return !DeltaWriter.isOrdered(table.name, before: "seedgen_derive") } else { return false } }
            var result = records
            result.insert(contentsOf: section, at: at ?? records.endIndex)
            return result
        }
    }

    @Test func aDeltaWhoseRecipeDerivesOtherRowsIsRefusedAndChangesNothing() throws {
        let seeds = try versions()
        try install(seeds.v1)
        let before = bytes(of: destination), identityBefore = identity(of: destination)
        // The header still promises v2; the body changes item_counts' recipe, so deriving it
        // again gives other rows than v2's: the result's content digest tells.
        let tampered = folder.file("tampered.delta")
        try rewrite(seeds.delta, to: tampered, withRecipe(Self.countsFill.replacingOccurrences(of: "count(*)", with: "count(*) + 1")))
        let tables = try DeltaPatch(path: tampered).checkBody()
        #expect(tables.contains("seedgen_derive") && tables.contains("items") && !tables.contains("item_counts"), "\(tables.sorted())")
        let refused = #expect(throws: SeedInstallerError.self) { try install(tampered) }
        #expect(refused?.code == .deltaResultMismatch && refused?.message.contains(seeds.digests["v2"]!) == true
                && refused?.message.contains("install the full seed") == true, "\(String(describing: refused))")
        #expect(bytes(of: destination) == before && identity(of: destination) == identityBefore, "the installed seed is unchanged")
        #expect(destinationFolder == Self.seedFiles, "no temporary file left: \(destinationFolder)")

        // A recipe that writes another table than its target is refused by SQLite's authorizer.
        let hostile = folder.file("hostile.delta")
        try rewrite(seeds.delta, to: hostile, withRecipe("INSERT INTO items (name) VALUES ('planted')"))
        let denied = #expect(throws: SeedInstallerError.self) { try install(hostile) }
        #expect(denied?.code == .invalidDelta && denied?.message.contains("item_counts") == true, "\(String(describing: denied))")
        #expect(bytes(of: destination) == before && identity(of: destination) == identityBefore && destinationFolder == Self.seedFiles)
        #expect(try install(seeds.delta).status == .patched, "the intact delta still applies")
        #expect(digest(of: destination) == seeds.digests["v2"])
    }

    @Test func killedAtRandomMomentsDuringApplyTheDestinationIsOldOrNew() throws {
        let seeds = try versions(rows: 40_000, payloadBytes: 200)
        let old = try #require(bytes(of: seeds.v1)), new = try #require(seeds.digests["v2"])
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
            let state = bytes(of: destination) == old ? "old" : digest(of: destination) == new ? "new" : "MIXED"
            window *= (killed.signalled && killed.status == SIGKILL) ? 1.1 : 0.8
            outcomes["\((killed.signalled && killed.status == SIGKILL) ? "killed" : "finished")/\(state)", default: 0] += 1
            if destinationFolder.contains(where: { $0.contains("seedgen-tmp") }) { outcomes["left a temporary file", default: 0] += 1 }
            #expect(state != "MIXED", "iteration \(iteration): the destination is neither seed")
            let next = try SeedgenTool.run(["install", seeds.delta, "--to", destination])
            #expect(next.status == 0, "iteration \(iteration): \(next.stderr)")
            #expect(digest(of: destination) == new, "iteration \(iteration): the next call finishes the job")
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

    @Test(.enabled(if: Tmpfs.canMount, Tmpfs.unavailable))
    func aFullTmpfsDuringApplyLeavesTheOldSeed() throws {
        // The next version twice the size: the copy being patched grows past the old seed's
        // size by about the size of the old seed.
        let seeds = try versions(rows: 3000, payloadBytes: 1000, added: 3000)
        let mount = folder.file("data")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        try #require(try ChildProcess.shell("mount -t tmpfs -o size=24m tmpfs '\(mount)'").status == 0)
        defer { _ = try? ChildProcess.shell("umount '\(mount)'") }
        try install(seeds.v1)
        let old = try #require(bytes(of: seeds.v1)).count, new = try #require(bytes(of: seeds.v2)).count
        #expect(new > old * 3 / 2)
        let before = bytes(of: destination), listing = destinationFolder
        func fill(leaving room: Int) throws {
            let free = try #require(try FileManager.default.attributesOfFileSystem(forPath: mount)[.systemFreeSize] as? Int)
            try #require(FileManager.default.createFile(atPath: mount + "/filler", contents: Data(count: max(0, free - room))))
        }
        func removeFiller() throws { try FileManager.default.removeItem(atPath: mount + "/filler") }

        // Less than a copy of the seed grown to the new seed's size: refused before anything is written.
        try fill(leaving: new - 256 * 1024)
        let refused = #expect(throws: SeedInstallerError.self) { try install(seeds.delta) }
        #expect(refused?.code == .diskFull && refused?.message.contains("not enough free space") == true, "\(String(describing: refused))")
        #expect(bytes(of: destination) == before && destinationFolder == (listing + ["filler"]).sorted(), "old seed intact, no temporary file")
        try removeFiller()

        // Enough for the check, not for the patch: a delta whose header says the new seed is no
        // bigger than the old one (the check trusts the sizes: a patched seed may be laid out
        // less compactly than the builder's), so the disk fills up while it is applied.
        let understated = folder.file("understated.delta")
        let original = try #require(bytes(of: seeds.delta))
        var (header, length) = try DeltaHeader.parse(Array(original.prefix(DeltaHeader.maximumLength)), path: seeds.delta)
        header.to = DeltaHeader.Seed(seedVersion: header.to.seedVersion, contentSHA256: header.to.contentSHA256, size: header.from.size)
        try (Data(header.encoded()) + original.dropFirst(length)).write(to: URL(fileURLWithPath: understated))
        try fill(leaving: old + 64 * 1024)
        let full = #expect(throws: SeedInstallerError.self) { try install(understated) }
        #expect(full?.code == .diskFull && full?.message.contains("no space left to patch") == true && full?.message.contains("unchanged") == true,
                "\(String(describing: full))")
        #expect(bytes(of: destination) == before && destinationFolder == (listing + ["filler"]).sorted(), "old seed intact, no temporary file: \(destinationFolder)")
        try removeFiller()
        #expect(try install(seeds.delta).status == .patched)
        #expect(digest(of: destination) == seeds.digests["v2"])
    }

    @Test func twoProcessesAtOnceApplyItOnce() throws {
        let seeds = try versions(rows: 5000, payloadBytes: 100)
        try install(seeds.v1)
        let processes = try (0..<3).map { _ in try SeedgenTool.start(["install", seeds.delta, "--to", destination, "--json"]) }
        let outputs = processes.map { $0.wait() }
        #expect(outputs.allSatisfy { $0.status == 0 }, "\(outputs.map(\.stderr))")
        #expect(outputs.filter { $0.stdout.contains("\"patched\"") }.count == 1, "\(outputs.map(\.stdout))")
        #expect(outputs.filter { $0.stdout.contains("\"up-to-date\"") }.count == 2)
        #expect(digest(of: destination) == seeds.digests["v2"])
    }
}
