import Foundation
import SeedArchive
import SeedInstaller
import SeedSQLite
import SeedTestSupport
import Testing

/// The installer puts the shipped seed in place the first time, replaces it when its version
/// changes, leaves it alone otherwise, and refuses anything wrong with the installed seed untouched.
@Suite struct SeedInstallerTests {
    let folder = TemporaryFolder()
    var destination: String { folder.file("data/seed.sqlite") }

    func shipped(_ seedVersion: String, schemaVersion: Int = 3, manifest: Bool = false) throws -> String {
        try SeedFixture(schemaVersion: schemaVersion, seedVersion: seedVersion)
            .writeGzip(to: folder.file("ship-\(seedVersion)-\(schemaVersion)/seed.sqlite.gz").creatingFolder(), manifest: manifest)
    }

    @discardableResult
    func install(_ source: String, schemaVersion: Int? = 3, manifest: String? = nil) throws(SeedInstallerError) -> SeedInstallResult {
        try SeedInstaller(source: source, destination: destination, expectedSchemaVersion: schemaVersion, manifest: manifest).install()
    }

    /// Installs v1, then expects installing `source` to fail with `code` and leave v1 as it was.
    func expectRefused(_ source: String, _ code: SeedInstallerError.Code, schemaVersion: Int? = 3,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        try install(try shipped("v1"))
        let before = bytes(of: destination), beforeID = identity(of: destination)
        let error = #expect(throws: SeedInstallerError.self, sourceLocation: sourceLocation) { try install(source, schemaVersion: schemaVersion) }
        #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(bytes(of: destination) == before && identity(of: destination) == beforeID, "the old seed is intact", sourceLocation: sourceLocation)
        #expect(!folder.contents.contains { $0.contains("seedgen-tmp") }, sourceLocation: sourceLocation)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: folder.file("data"))).contains { $0.contains("seedgen-tmp") },
                "no temporary file remains", sourceLocation: sourceLocation)
    }

    @Test func firstInstallPutsTheShippedSeedInPlaceByteForByte() throws {
        let source = try shipped("v1")
        let result = try install(source)
        #expect(result.status == .installed)
        #expect(result.seedVersion == "v1" && result.schemaVersion == 3 && result.previousSeedVersion == nil)
        #expect(result.description.hasPrefix("installed seed-version=v1 schema-version=3"))
        let plain = folder.file("v1.sqlite")
        try SeedFixture(seedVersion: "v1").writeSQLite(to: plain)
        #expect(try SeedFixture.itemNames(at: destination) == (1...20).map { "v1-\($0)" })
        #expect(bytes(of: destination)?.count == bytes(of: plain)?.count)
    }

    @Test func secondCallWritesNothing() throws {
        let source = try shipped("v1")
        try install(source)
        let seed = identity(of: destination), record = identity(of: destination + ".seedgen-install")
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.file("data")).sorted()
        let result = try install(source)
        #expect(result.status == .upToDate)
        #expect(result.description == "up-to-date seed-version=v1 schema-version=3 at \(destination)")
        #expect(identity(of: destination) == seed && identity(of: destination + ".seedgen-install") == record)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("data")).sorted() == listing)
    }

    @Test func decidingReadsOnlyTheGzipHeader() throws {
        let source = try shipped("v1")
        try install(source)
        // Damage everything after the header: deciding must not notice, since it never decompresses.
        var data = try #require(bytes(of: source))
        for i in 100..<data.count { data[i] = 0 }
        try data.write(to: URL(fileURLWithPath: source))
        #expect(try install(source).status == .upToDate)
    }

    @Test func aNewVersionReplacesTheSeedAndARollbackToo() throws {
        let v1 = try shipped("v1"), v2 = try shipped("v2")
        try install(v1)
        let upgrade = try install(v2)
        #expect(upgrade.status == .installed && upgrade.seedVersion == "v2" && upgrade.previousSeedVersion == "v1")
        #expect(try SeedFixture.seedVersion(at: destination) == "v2")
        let rollback = try install(v1)
        #expect(rollback.status == .installed && rollback.seedVersion == "v1" && rollback.previousSeedVersion == "v2")
        #expect(try SeedFixture.itemNames(at: destination).first == "v1-1")
    }

    @Test func aMissingOrChangedInstalledFileIsInstalledAgain() throws {
        let source = try shipped("v1")
        try install(source)
        try FileManager.default.removeItem(atPath: destination)
        #expect(try install(source).status == .installed)
        // The app wrote to the seed: no longer the recorded file, which has a status of its own.
        try Data("not the seed".utf8).write(to: URL(fileURLWithPath: destination))
        #expect(try install(source).status == .replacedModified)
        #expect(try SeedFixture.seedVersion(at: destination) == "v1")
    }

    @Test func plainSQLiteSeedsInstallToo() throws {
        let source = try SeedFixture(seedVersion: "p1").writeSQLite(to: folder.file("seed.sqlite"))
        #expect(try install(source).status == .installed)
        #expect(bytes(of: destination) == bytes(of: source))
        #expect(try install(source).status == .upToDate)
    }

    @Test func refusesAnotherSchemaVersion() throws {
        try expectRefused(try shipped("v2", schemaVersion: 4), .schemaMismatch)
    }

    @Test func refusesATruncatedGzip() throws {
        let source = try shipped("v2")
        let data = try #require(bytes(of: source))
        try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: source))
        try expectRefused(source, .truncated)
    }

    @Test("a refusal keeps the error underneath as its cause: the gzip reader's, the manifest's; == ignores it")
    func refusalsKeepTheirCause() throws {
        let source = try shipped("v2")
        let data = try #require(bytes(of: source))
        try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: source))
        let truncated = #expect(throws: SeedInstallerError.self) { try install(source) }
        #expect((truncated?.cause as? GzipError)?.code == .truncated, "\(String(describing: truncated))")
        let manifest = folder.write("broken.json", "{\"schemaVersion\": ")
        let invalid = #expect(throws: SeedInstallerError.self) { try install(try shipped("v3"), manifest: manifest) }
        #expect(invalid?.code == .invalidManifest && (invalid?.cause as? SeedManifestError)?.code == .invalidManifest, "\(String(describing: invalid))")
        let bare = try #require(invalid)
        #expect(SeedInstallerError(code: bare.code, message: bare.message, path: bare.path) == bare)
    }

    @Test func refusesACorruptGzip() throws {
        let source = try shipped("v2")
        var data = try #require(bytes(of: source))
        for i in (data.count / 2)..<(data.count / 2 + 40) { data[i] ^= 0xa5 }
        try data.write(to: URL(fileURLWithPath: source))
        try expectRefused(source, .corrupt)
    }

    @Test func refusesAWALModeSeed() throws {
        var fixture = SeedFixture(seedVersion: "v2")
        fixture.journalMode = "WAL"
        let plain = try fixture.writeSQLite(to: folder.file("wal.sqlite"))
        let gz = folder.file("wal.sqlite.gz")
        try SeedFixture.gzip(plain, to: gz, comment: fixture.stamp.comment)
        try expectRefused(gz, .walMode)
        try expectRefused(plain, .walMode)
    }

    @Test func refusesAFileThatIsNotSQLite() throws {
        let text = folder.file("text.bin")
        try Data(repeating: 0x41, count: 5000).write(to: URL(fileURLWithPath: text))
        let gz = folder.file("text.sqlite.gz")
        try SeedFixture.gzip(text, to: gz, comment: SeedStamp(schemaVersion: 3, seedVersion: "v2").comment)
        try expectRefused(gz, .notSQLite)
        try expectRefused(text, .notSQLite)
    }

    @Test func refusesAGzipWhoseLabelDisagreesWithItsContent() throws {
        let plain = try SeedFixture(seedVersion: "v2").writeSQLite(to: folder.file("v2.sqlite"))
        let gz = folder.file("mislabelled.sqlite.gz")
        try SeedFixture.gzip(plain, to: gz, comment: SeedStamp(schemaVersion: 3, seedVersion: "v9").comment)
        try expectRefused(gz, .versionMismatch)
    }

    @Test func usesTheManifestBesideTheSeed() throws {
        let source = try shipped("v2", manifest: true)
        let result = try install(source)
        #expect(result.status == .installed)
        let manifest = try SeedManifest.read(path: SeedManifest.path(forSeed: source))
        #expect(manifest.sha256 == SHA256.hex(of: try #require(bytes(of: destination))))
    }

    @Test func theSameSeedIsTheSameContentWhenBothKnowItsDigestElseTheSameFile() throws {
        let source = try shipped("v1", manifest: true)
        let manifestPath = SeedManifest.path(forSeed: source)
        var manifest = try SeedManifest.read(path: manifestPath)
        let content = String(repeating: "c", count: 64), other = String(repeating: "d", count: 64)
        manifest.contentSHA256 = content
        try manifest.write(path: manifestPath)
        #expect(try install(source).status == .installed)
        let recorded = try #require(InstalledSeed.read(destination: destination))
        #expect(recorded.contentSHA256 == content && recorded.sha256 == manifest.sha256, "a full install records both: \(recorded)")
        #expect(try install(source).status == .upToDate)

        // The same file, but the manifest names other content: another seed.
        manifest.contentSHA256 = other
        try manifest.write(path: manifestPath)
        let replaced = try install(source)
        #expect(replaced.status == .installed && replaced.reason == "seed content changed", "\(replaced)")
        #expect(InstalledSeed.read(destination: destination)?.contentSHA256 == other)

        // A manifest without a content digest (from a seedgen before them): the file's SHA-256 decides.
        manifest.contentSHA256 = nil
        try manifest.write(path: manifestPath)
        #expect(try install(source).status == .upToDate)
    }

    @Test func withoutAManifestTheSeedsOwnRecordOfItsContentIsKept() throws {
        let plain = folder.file("plain/seed.sqlite")
        try FileManager.default.createDirectory(atPath: folder.file("plain"), withIntermediateDirectories: true)
        try SeedFixture(seedVersion: "v1").writeSQLite(to: plain)
        let digest = String(repeating: "e", count: 64)
        try Connection(path: plain, mode: .readWrite).execute("INSERT INTO seedgen_metadata VALUES ('content_sha256', '\(digest)')")
        try install(plain)
        #expect(InstalledSeed.read(destination: destination)?.contentSHA256 == digest)
        #expect(InstalledSeed.read(destination: destination)?.sha256 == SHA256.hex(of: try #require(bytes(of: plain))))
    }

    @Test func refusesASeedWhoseChecksumDiffersFromItsManifest() throws {
        let source = try shipped("v2", manifest: true)
        var manifest = try SeedManifest.read(path: SeedManifest.path(forSeed: source))
        manifest.sha256 = String(repeating: "0", count: 64)
        try manifest.write(path: SeedManifest.path(forSeed: source))
        try expectRefused(source, .checksumMismatch)
    }

    @Test func refusesAGzipWhoseSizeDiffersFromItsManifestWithoutReadingIt() throws {
        let source = try shipped("v2", manifest: true)
        var manifest = try SeedManifest.read(path: SeedManifest.path(forSeed: source))
        manifest.gzipSize += 1
        try manifest.write(path: SeedManifest.path(forSeed: source))
        try expectRefused(source, .checksumMismatch)
    }

    @Test func neverTouchesOtherFilesInTheFolder() throws {
        try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
        let others = ["seed.sqlite.bak", "seed-user.sqlite", "seeds.txt", "seed.sqlite-wal.keep", ".seed.sqlite.seedgen-tmp-notmine",
                      ".seed.sqlite.seedgen-tmp-12-xyz"]
        for name in others { try Data(name.utf8).write(to: URL(fileURLWithPath: folder.file("data/" + name))) }
        try install(try shipped("v1"))
        try install(try shipped("v2"))
        for name in others { #expect(bytes(of: folder.file("data/" + name)) == Data(name.utf8), "\(name) survives") }
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.file("data")).sorted()
        #expect(listing == (others + ["seed.sqlite", "seed.sqlite.seedgen-install", "seed.sqlite.seedgen-lock"]).sorted())
    }

    @Test func removesTemporaryFilesACrashLeftBehind() throws {
        let data = folder.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let leftover = data + "/.seed.sqlite.seedgen-tmp-4242-00000000deadbeef"
        try Data("partial".utf8).write(to: URL(fileURLWithPath: leftover))
        let source = try shipped("v1")
        try install(source)
        #expect(!FileManager.default.fileExists(atPath: leftover))
        // Deciding "up to date" never lists the folder (its cost must not grow with the
        // folder), so a leftover stays until the next install removes it.
        try Data("partial".utf8).write(to: URL(fileURLWithPath: leftover))
        #expect(try install(source).status == .upToDate)
        #expect(FileManager.default.fileExists(atPath: leftover))
        #expect(try install(try shipped("v2")).status == .installed)
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    @Test func removesTheOldSeedsSidecarsAndOnlyThose() throws {
        try install(try shipped("v1"))
        for suffix in ["-wal", "-shm", "-journal"] {
            try Data("stale".utf8).write(to: URL(fileURLWithPath: destination + suffix))
        }
        try install(try shipped("v2"))
        for suffix in ["-wal", "-shm", "-journal"] { #expect(!FileManager.default.fileExists(atPath: destination + suffix)) }
        #expect(try SeedFixture.itemNames(at: destination).count == 20)
    }

    @Test func threadsCallingAtOnceInstallOnce() async throws {
        let source = try shipped("v1")
        let installer = SeedInstaller(source: source, destination: destination, expectedSchemaVersion: 3)
        let statuses = try await withThrowingTaskGroup(of: SeedInstallResult.Status.self) { group in
            for _ in 0..<8 { group.addTask { try installer.install().status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == .installed }.count == 1)
        #expect(statuses.filter { $0 == .upToDate }.count == 7)
    }

    @Test func theOneLineFormFollowsTheConvention() throws {
        let source = try shipped("v1")
        let environment = ["SEEDGEN_SEED": source, "SEEDGEN_SEED_DEST": destination, "SEEDGEN_SCHEMA_VERSION": "3"]
        let installer = try SeedInstaller.conventional(environment: environment)
        #expect(installer.source == source && installer.destination == destination && installer.expectedSchemaVersion == 3)
        #expect(try SeedInstaller.installIfNeeded(environment: environment).status == .installed)
        #expect(try SeedInstaller.installIfNeeded(environment: environment).status == .upToDate)
        let error = #expect(throws: SeedInstallerError.self) { try SeedInstaller.installIfNeeded(schemaVersion: 9, environment: environment) }
        #expect(error?.code == .schemaMismatch)
        let defaults = try SeedInstaller.conventional(environment: ["SEEDGEN_SEED": source, "HOME": "/home/u", "SEEDGEN_APP_NAME": "transit"])
        #expect(defaults.destination == "/home/u/.local/share/transit/seed.sqlite")
    }
}

extension String {
    /// Creates the folder of this path and returns the path.
    func creatingFolder() -> String {
        try! FileManager.default.createDirectory(atPath: (self as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return self
    }
}
