import Foundation
import SeedArchive
import SeedInstaller
import SeedSQLite
import SeedTestSupport
import Testing

/// The up-to-date check decides without the lock and without listing the folder, from a
/// small text record; installing reads the seed once, trusting a matching manifest instead
/// of `PRAGMA quick_check`, which `seedgen pack` runs before writing that manifest.
@Suite(.serialized) struct FastPathTests {
    let folder = TemporaryFolder()
    var destination: String { folder.file("data/seed.sqlite") }

    init() throws {
        try #require(SeedgenTool.exists, "build the tool first (swift build): \(SeedgenTool.path)")
    }

    /// `seedgen pack` of a fixture seed: returns the gzip and its manifest.
    func packed(_ seedVersion: String, level: Int = 9, rows: Int = 200) throws -> (gz: String, manifest: String) {
        let plain = try SeedFixture(seedVersion: seedVersion, rows: rows, payloadBytes: 100)
            .writeSQLite(to: folder.file("\(seedVersion).sqlite"))
        let gz = plain + ".gz"
        let pack = try SeedgenTool.run(["pack", plain, "--level", String(level)])
        try #require(pack.status == 0, "\(pack.stderr)")
        return (gz, SeedManifest.path(forSeed: gz))
    }

    @discardableResult
    func install(_ source: String, manifest: String? = nil) throws(SeedInstallerError) -> SeedInstallResult {
        try SeedInstaller(source: source, destination: destination, expectedSchemaVersion: 3, manifest: manifest).install()
    }

    /// Makes `path` fail `PRAGMA quick_check` while every table still reads: one more page,
    /// counted in the header, that no table or free list uses ("Page N is never used").
    func addUnusedPage(_ path: String) throws {
        var data = try #require(bytes(of: path))
        let sizeField = Int(data[16]) << 8 | Int(data[17])
        let pageSize = sizeField == 1 ? 65536 : sizeField
        let pages = data[28..<32].reduce(0) { $0 << 8 | Int($1) } + 1
        data.replaceSubrange(28..<32, with: (0..<4).map { UInt8(truncatingIfNeeded: pages >> (24 - 8 * $0)) })
        data.append(Data(count: pageSize))
        try data.write(to: URL(fileURLWithPath: path))
        let check = try Connection(path: path, mode: .readOnly).rows("PRAGMA quick_check").compactMap { $0.first?.text }
        try #require(check != ["ok"], "the damage is visible to quick_check")
    }

    // MARK: - Deciding

    @Test func decidingUpToDateNeitherWaitsForTheLockNorTouchesLeftovers() throws {
        let v1 = try packed("v1")
        try install(v1.gz)
        let leftover = folder.file("data/.seed.sqlite.seedgen-tmp-4242-00000000deadbeef")
        try Data("partial".utf8).write(to: URL(fileURLWithPath: leftover))
        // Hold the installers' lock, as an install in progress would.
        let lock = open(destination + ".seedgen-lock", O_RDWR)
        try #require(lock >= 0 && flock(lock, LOCK_EX) == 0)
        defer { close(lock) }
        let process = try SeedgenTool.start(["install", v1.gz, "--to", destination])
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.send(SIGKILL) }
        let output = process.wait()
        #expect(output.status == 0 && output.stdout.hasPrefix("up-to-date"), "it waited for the lock: \(output)")
        #expect(bytes(of: leftover) == Data("partial".utf8), "deciding does not list the folder or remove leftovers")
    }

    @Test func anInstallStillWaitsForTheLockAndRemovesLeftovers() throws {
        let v1 = try packed("v1"), v2 = try packed("v2")
        try install(v1.gz)
        let leftover = folder.file("data/.seed.sqlite.seedgen-tmp-4242-00000000deadbeef")
        try Data("partial".utf8).write(to: URL(fileURLWithPath: leftover))
        let lock = open(destination + ".seedgen-lock", O_RDWR)
        try #require(lock >= 0 && flock(lock, LOCK_EX) == 0)
        let process = try SeedgenTool.start(["install", v2.gz, "--to", destination])
        usleep(500_000)
        #expect(process.isRunning, "an install waits for the lock")
        #expect(try SeedFixture.seedVersion(at: destination) == "v1")
        close(lock)
        let output = process.wait()
        #expect(output.status == 0 && output.stdout.hasPrefix("installed seed-version=v2"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    @Test func theRecordIsTextAndAnOldJSONRecordMeansOneReinstall() throws {
        let v1 = try packed("v1")
        try install(v1.gz)
        let recordPath = destination + ".seedgen-install"
        let record = String(decoding: try #require(bytes(of: recordPath)), as: UTF8.self)
        let lines = record.split(separator: "\n")
        #expect(lines.first == "seedgen-install 1")
        #expect(lines.contains("seed-version v1") && lines.contains("schema-version 3"))
        #expect(lines.contains { $0.hasPrefix("file ") } && lines.contains { $0.hasPrefix("gzip ") })
        // The record earlier versions of seedgen wrote (same fields, as JSON).
        let json = """
            {
              "file" : { "device" : 1, "inode" : 2, "isRegularFile" : true, "modificationNanoseconds" : 0,
                         "modificationSeconds" : 0, "size" : 1 },
              "schemaVersion" : 3,
              "seedVersion" : "v1",
              "sha256" : "00",
              "size" : 1
            }
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: recordPath))
        let again = try install(v1.gz)
        #expect(again.status == .installed && again.reason == "nothing installed", "\(again)")
        #expect(try install(v1.gz).status == .upToDate)
        #expect(String(decoding: try #require(bytes(of: recordPath)), as: UTF8.self).hasPrefix("seedgen-install 1\n"))
    }

    @Test func aSeedVersionWithSpacesAndNewlinesSurvivesTheRecord() throws {
        // An unstamped gzip's versions come from the seed itself, which may hold any text.
        let odd = "v 1\n%2\u{e9}"
        let plain = try SeedFixture(seedVersion: odd).writeSQLite(to: folder.file("odd.sqlite"))
        try #require(try ChildProcess.shell("gzip -9 '\(plain)'").status == 0)
        #expect(try install(plain + ".gz").status == .installed)
        let second = try install(plain + ".gz")
        #expect(second.status == .upToDate && second.seedVersion == odd)
    }

    // MARK: - Installing: one read, proved by the manifest

    @Test func aSeedTamperedAfterPackingIsRefused() throws {
        let v1 = try packed("v1")
        try install(v1.gz)
        let before = bytes(of: destination)
        // Stored (level 0), so the seed's bytes appear as they are: change one item's name and
        // fix the gzip CRC. The gzip is valid and as long as the manifest says; only the
        // SHA-256 of its content tells.
        let v2 = try packed("v2", level: 0)
        var gz = try #require(bytes(of: v2.gz))
        let plain = try #require(bytes(of: folder.file("v2.sqlite")))
        let at = try #require(gz.range(of: Data("v2-17".utf8))).lowerBound
        gz[at + 3] = UInt8(ascii: "9")
        var content = plain
        content[try #require(content.range(of: Data("v2-17".utf8))).lowerBound + 3] = UInt8(ascii: "9")
        let crc = ReferenceCRC32.checksum(content)
        gz.replaceSubrange(gz.count - 8..<gz.count - 4, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) })
        try gz.write(to: URL(fileURLWithPath: v2.gz))
        let refused = #expect(throws: SeedInstallerError.self) { try install(v2.gz) }
        #expect(refused?.code == .checksumMismatch && refused?.message.contains("SHA-256") == true, "\(String(describing: refused))")
        #expect(bytes(of: destination) == before, "the installed seed is unchanged")
        // Without fixing the CRC, gzip itself refuses it.
        gz[at + 3] = UInt8(ascii: "8")
        try gz.write(to: URL(fileURLWithPath: v2.gz))
        let corrupt = #expect(throws: SeedInstallerError.self) { try install(v2.gz) }
        #expect(corrupt?.code == .corrupt, "\(String(describing: corrupt))")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: folder.file("data"))).contains { $0.contains("seedgen-tmp") })
    }

    @Test func aManifestThatDoesNotMatchIsRefused() throws {
        let v1 = try packed("v1")
        let good = try SeedManifest.read(path: v1.manifest)
        func refusal(_ change: (inout SeedManifest) -> Void) throws -> SeedInstallerError? {
            var manifest = good
            change(&manifest)
            let path = folder.file("changed.manifest.json")
            try manifest.write(path: path)
            return #expect(throws: SeedInstallerError.self) { try install(v1.gz, manifest: path) }
        }
        let sha = try refusal { $0.sha256 = String(repeating: "0", count: 64) }
        #expect(sha?.code == .checksumMismatch && sha?.message.contains("SHA-256") == true, "\(String(describing: sha))")
        let smaller = try refusal { $0.size -= 1 }
        #expect(smaller?.code == .checksumMismatch && smaller?.message.contains("more than") == true, "\(String(describing: smaller))")
        let larger = try refusal { $0.size += 1 }
        #expect(larger?.code == .checksumMismatch, "\(String(describing: larger))")
        let gzipSize = try refusal { $0.gzipSize += 1 }
        #expect(gzipSize?.code == .checksumMismatch && gzipSize?.message.contains("gzip file has") == true, "\(String(describing: gzipSize))")
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(try install(v1.gz).status == .installed, "the real manifest installs")
    }

    @Test func aPlainGzipIsStillQuickChecked() throws {
        let plain = try SeedFixture(seedVersion: "v1", rows: 200, payloadBytes: 100).writeSQLite(to: folder.file("damaged.sqlite"))
        try addUnusedPage(plain)
        let gz = plain + ".gz"
        let summary = try SeedFixture.gzip(plain, to: gz, comment: nil)
        let refused = #expect(throws: SeedInstallerError.self) { try install(gz) }
        #expect(refused?.code == .integrityCheckFailed && refused?.message.contains("quick_check") == true, "\(String(describing: refused))")
        #expect(!FileManager.default.fileExists(atPath: destination))

        // With a manifest that matches, the installer does not read the seed a second time: the
        // manifest vouches for it (`seedgen pack` quick_checks before writing one, see below), so
        // this hand-made manifest for a damaged seed gets it installed. That is the trust model.
        let stamped = folder.file("stamped/damaged.sqlite.gz")
        try FileManager.default.createDirectory(atPath: folder.file("stamped"), withIntermediateDirectories: true)
        let stamp = SeedStamp(schemaVersion: 3, seedVersion: "v1")
        let stampedSummary = try SeedFixture.gzip(plain, to: stamped, comment: stamp.comment)
        #expect(stampedSummary.sha256 == summary.sha256)
        try SeedManifest(stamp: stamp, summary: stampedSummary, tables: ["items": 200]).write(path: SeedManifest.path(forSeed: stamped))
        #expect(try install(stamped).status == .installed)
    }

    @Test func packRefusesASeedThatFailsQuickCheck() throws {
        let plain = try SeedFixture(seedVersion: "v1", rows: 200, payloadBytes: 100).writeSQLite(to: folder.file("damaged.sqlite"))
        try addUnusedPage(plain)
        let pack = try SeedgenTool.run(["pack", plain])
        #expect(pack.status != 0)
        #expect(pack.stderr.contains("quick_check") && pack.stderr.contains("never used"), "\(pack.stderr)")
        #expect(!FileManager.default.fileExists(atPath: plain + ".gz"))
        #expect(!FileManager.default.fileExists(atPath: SeedManifest.path(forSeed: plain + ".gz")))
    }

    // MARK: - The manifest reader

    @Test func theManifestReaderAgreesWithFoundationOnWhatPackWrites() throws {
        let v1 = try packed("v1")
        let data = try #require(bytes(of: v1.manifest))
        let ours = try SeedManifest.decode(Array(data))
        let foundation = try JSONDecoder().decode(SeedManifest.self, from: data)
        #expect(ours == foundation)
    }
}

