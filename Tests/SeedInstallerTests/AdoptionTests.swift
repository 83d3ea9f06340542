import Foundation
import SeedArchive
import SeedInstaller
import SeedSQLite
import SeedTestSupport
import Testing

/// The installer as an app developer adopts it: any gzip of a seed, bounded decompression,
/// honest errors, `.replacedModified`, the URL, Bundle and async forms.
@Suite(.serialized) struct AdoptionTests {
    let folder = TemporaryFolder()
    var destination: String { folder.file("data/seed.sqlite") }

    /// `gzip -9` of a fixture seed: no stamp in the header, no manifest.
    func plainGzip(_ seedVersion: String, schemaVersion: Int = 3, rows: Int = 20) throws -> String {
        let plain = try SeedFixture(schemaVersion: schemaVersion, seedVersion: seedVersion, rows: rows)
            .writeSQLite(to: folder.file("ship-\(seedVersion)/seed.sqlite").creatingFolder())
        let gzip = try ChildProcess.shell("gzip -9 -f '\(plain)'")
        try #require(gzip.status == 0, "\(gzip.stderr)")
        return plain + ".gz"
    }

    @Test func aPlainGzipOfASeedInstallsAndIsThenUpToDate() throws {
        let source = try plainGzip("v1")
        #expect(try GzipHeader.read(path: source).stamp == nil, "gzip writes no stamp")
        let first = try SeedInstaller(source: source, destination: destination, expectedSchemaVersion: 3).install()
        #expect(first.status == .installed && first.seedVersion == "v1" && first.schemaVersion == 3, "versions read from the seed itself")
        #expect(try SeedFixture.itemNames(at: destination).count == 20)
        let before = identity(of: destination), record = bytes(of: destination + ".seedgen-install")

        let second = try SeedInstaller(source: source, destination: destination, expectedSchemaVersion: 3).install()
        #expect(second.status == .upToDate && second.seedVersion == "v1")
        #expect(identity(of: destination) == before && bytes(of: destination + ".seedgen-install") == record, "nothing written")

        // Another plain gzip at the same path: its trailer differs, so it is installed.
        try FileManager.default.removeItem(atPath: source)
        try FileManager.default.moveItem(atPath: try plainGzip("v2", rows: 30), toPath: source)
        let third = try SeedInstaller(source: source, destination: destination, expectedSchemaVersion: 3).install()
        #expect(third.status == .installed && third.seedVersion == "v2" && third.previousSeedVersion == "v1")
        #expect(try SeedFixture.itemNames(at: destination).count == 30)

        // The expected schema version is checked on the decompressed seed, and when up to date.
        let refused = #expect(throws: SeedInstallerError.self) {
            try SeedInstaller(source: source, destination: destination, expectedSchemaVersion: 4).install()
        }
        #expect(refused?.code == .schemaMismatch)
        #expect(try SeedFixture.seedVersion(at: destination) == "v2")
    }

    @Test func theCommandInstallsAPlainGzipAndReportsAReplacedModifiedSeed() throws {
        try #require(SeedgenTool.exists)
        let source = try plainGzip("v1")
        let first = try SeedgenTool.run(["install", source, "--to", destination, "--json"])
        #expect(first.status == 0 && first.stdout.contains(#""status": "installed", "seedVersion": "v1""#), "\(first.stdout)\(first.stderr)")
        let second = try SeedgenTool.run(["install", source, "--to", destination])
        #expect(second.status == 0 && second.stdout.hasPrefix("up-to-date seed-version=v1"), "\(second.stdout)\(second.stderr)")
        let db = try Connection(path: destination)
        try db.execute("DELETE FROM items")
        _ = db
        let third = try SeedgenTool.run(["install", source, "--to", destination, "--json"])
        #expect(third.status == 0 && third.stdout.contains(#""status": "replaced-modified""#), "\(third.stdout)\(third.stderr)")
        #expect(try SeedFixture.itemNames(at: destination).count == 20)
    }

    @Test func aGzipThatIsNotASeedNamesSeedgenPack() throws {
        let other = folder.file("other.sqlite")
        let db = try Connection(path: other, mode: .create)
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        _ = db
        #expect(try ChildProcess.shell("gzip -9 '\(other)'").status == 0)
        let error = #expect(throws: SeedInstallerError.self) { try SeedInstaller(source: other + ".gz", destination: destination).install() }
        #expect(error?.code == .notASeed && error?.message.contains("seedgen pack") == true, "\(String(describing: error))")
        #expect(error?.path == other + ".gz", "names the shipped file")

        let text = folder.file("notes.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        let plain = #expect(throws: SeedInstallerError.self) { try SeedInstaller(source: text, destination: destination).install() }
        #expect(plain?.code == .notSQLite && plain?.message.contains("seedgen pack") == true, "\(String(describing: plain))")
        #expect(!FileManager.default.fileExists(atPath: destination))
    }

    @Test func decompressionStopsAtTheManifestsSize() throws {
        let fixture = SeedFixture(seedVersion: "big", rows: 2000, payloadBytes: 1000)
        let source = try fixture.writeGzip(to: folder.file("big/seed.sqlite.gz").creatingFolder(), manifest: true)
        let manifestPath = SeedManifest.path(forSeed: source)
        var manifest = try SeedManifest.read(path: manifestPath)
        manifest.size = 100_000
        try manifest.write(path: manifestPath)
        // Damage the trailer: a reader that went to the end would report a CRC mismatch.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: source))
        try handle.seek(toOffset: try handle.seekToEnd() - 8)
        try handle.write(contentsOf: Data([0, 0, 0, 0]))
        try handle.close()

        let error = #expect(throws: SeedInstallerError.self) { try SeedInstaller(source: source, destination: destination).install() }
        #expect(error?.code == .checksumMismatch, "\(String(describing: error))")
        #expect(error?.message.contains("more than the 100000 bytes its manifest says") == true, "\(String(describing: error))")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: folder.file("data"))).contains { $0.contains("seedgen-tmp") })
    }

    @Test func messagesQuoteAtMost200CharactersOfAValue() throws {
        let source = try SeedFixture(seedVersion: "v1").writeGzip(to: folder.file("long/seed.sqlite.gz").creatingFolder(), manifest: true)
        let manifestPath = SeedManifest.path(forSeed: source)
        var manifest = try SeedManifest.read(path: manifestPath)
        manifest.seedVersion = String(repeating: "x", count: 100_000)
        try manifest.write(path: manifestPath)
        let error = #expect(throws: SeedInstallerError.self) { try SeedInstaller(source: source, destination: destination).install() }
        #expect(error?.code == .versionMismatch)
        let text = error?.description ?? ""
        #expect(text.count < 600 && text.contains(String(repeating: "x", count: 200)) && !text.contains(String(repeating: "x", count: 201)), "\(text.count) characters")
        #expect(text.contains("(100000 bytes in all)"))
    }

    @Test(.enabled(if: Tmpfs.canMount || getuid() != 0, "needs a read-only mount or a non-root user"))
    func aReadOnlyFolderReportsTheRealErrorAndGetsNothing() throws {
        let source = try SeedFixture(seedVersion: "v1").writeGzip(to: folder.file("ship/seed.sqlite.gz").creatingFolder())
        let readOnly = folder.file("ro")
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
        let expectedErrno: Int32
        if Tmpfs.canMount {
            try #require(try ChildProcess.shell("mount -t tmpfs -o ro,size=64k tmpfs '\(readOnly)'").status == 0)
            expectedErrno = EROFS
        } else {
            try #require(chmod(readOnly, 0o555) == 0)
            expectedErrno = EACCES
        }
        defer {
            if Tmpfs.canMount { _ = try? ChildProcess.shell("umount '\(readOnly)'") } else { chmod(readOnly, 0o755) }
        }
        let error = #expect(throws: SeedInstallerError.self) { try SeedInstaller(source: source, destination: readOnly + "/seed.sqlite").install() }
        #expect(error?.errno == expectedErrno, "\(String(describing: error))")
        #expect(error?.path == readOnly + "/seed.sqlite.seedgen-lock")
        #expect(error?.systemError == "open failed: " + String(cString: strerror(expectedErrno)))
        #expect(folder.contents(of: readOnly).isEmpty)
    }

    @Test func aManifestIsReadWithItsErrnoAndBounded() throws {
        let source = try SeedFixture(seedVersion: "v1").writeGzip(to: folder.file("ship/seed.sqlite.gz").creatingFolder())
        let directory = folder.file("manifest-dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let unreadable = #expect(throws: SeedInstallerError.self) {
            try SeedInstaller(source: source, destination: destination, manifest: directory).install()
        }
        #expect(unreadable?.errno == EISDIR && unreadable?.path == directory, "\(String(describing: unreadable))")
        let huge = folder.file("huge.json")
        try Data(repeating: 0x20, count: 5 << 20).write(to: URL(fileURLWithPath: huge))
        let tooBig = #expect(throws: SeedInstallerError.self) {
            try SeedInstaller(source: source, destination: destination, manifest: huge).install()
        }
        #expect(tooBig?.code == .invalidManifest && tooBig?.message.contains("5242880 bytes") == true, "\(String(describing: tooBig))")
        #expect(!FileManager.default.fileExists(atPath: folder.file("data")), "nothing written")
    }

    @Test func aDirectoryDestinationIsRefusedBeforeAnythingIsWritten() throws {
        let source = try SeedFixture(seedVersion: "v1").writeGzip(to: folder.file("ship/seed.sqlite.gz").creatingFolder())
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        let error = #expect(throws: SeedInstallerError.self) { try SeedInstaller(source: source, destination: destination).install() }
        #expect(error?.code == .fileSystem && error?.errno == EISDIR && error?.path == destination, "\(String(describing: error))")
        #expect(error?.message.contains("is a directory") == true)
        #expect(folder.contents(of: folder.file("data")) == ["seed.sqlite"], "no lock, no record, no temporary file")
        #expect(folder.contents(of: destination).isEmpty)
    }

    @Test func aSeedTheAppWroteToIsReplacedWithADistinctStatus() throws {
        let source = try SeedFixture(seedVersion: "v1").writeGzip(to: folder.file("ship/seed.sqlite.gz").creatingFolder())
        let installer = SeedInstaller(source: source, destination: destination, expectedSchemaVersion: 3)
        #expect(try installer.install().status == .installed)
        let db = try Connection(path: destination)
        try db.execute("INSERT INTO items(name) VALUES ('favourite')")
        _ = db
        let replaced = try installer.install()
        #expect(replaced.status == .replacedModified, "\(replaced)")
        #expect(replaced.reason?.contains("modified after it was installed; its changes are lost") == true)
        #expect(replaced.description.hasPrefix("replaced-modified seed-version=v1"))
        #expect(try SeedFixture.itemNames(at: destination).count == 20, "the shipped seed again")
        #expect(try installer.install().status == .upToDate)

        // A missing file is reinstalled, not "modified".
        try FileManager.default.removeItem(atPath: destination)
        #expect(try installer.install().status == .installed)
    }

    @Test func theConventionFallsBackToThePasswordDatabaseAndIgnoresARelativeXDGDataHome() throws {
        let source = try SeedFixture(seedVersion: "v1").writeGzip(to: folder.file("ship/seed.sqlite.gz").creatingFolder())
        let home = String(cString: try #require(getpwuid(getuid())?.pointee.pw_dir))
        let noHome = try SeedInstaller.conventional(environment: ["SEEDGEN_SEED": source, "SEEDGEN_APP_NAME": "transit"])
        #expect(noHome.destination == home + "/.local/share/transit/seed.sqlite")
        let relative = try SeedInstaller.conventional(environment: ["SEEDGEN_SEED": source, "SEEDGEN_APP_NAME": "transit",
                                                                    "HOME": "/home/u", "XDG_DATA_HOME": "data"])
        #expect(relative.destination == "/home/u/.local/share/transit/seed.sqlite")
        let absolute = try SeedInstaller.conventional(environment: ["SEEDGEN_SEED": source, "SEEDGEN_APP_NAME": "transit",
                                                                    "HOME": "/home/u", "XDG_DATA_HOME": "/srv/data"])
        #expect(absolute.destination == "/srv/data/transit/seed.sqlite")
    }

    @Test func theURLBundleAndAsyncForms() async throws {
        let resources = folder.file("App_App.resources")
        let source = try SeedFixture(seedVersion: "v1").writeGzip(to: (resources + "/seed.sqlite.gz").creatingFolder(), manifest: true)
        let bundle = try #require(Bundle(path: resources))
        let environment = ["SEEDGEN_SEED_DEST": destination]
        let conventional = try SeedInstaller.conventional(bundle: bundle, resource: "seed", schemaVersion: 3, environment: environment)
        #expect(URL(fileURLWithPath: conventional.source).standardizedFileURL == URL(fileURLWithPath: source).standardizedFileURL)
        let result = try SeedInstaller.installIfNeeded(bundle: bundle, resource: "seed", schemaVersion: 3, environment: environment)
        #expect(result.status == .installed && result.url == URL(fileURLWithPath: destination))
        let missing = #expect(throws: SeedInstallerError.self) {
            try SeedInstaller.installIfNeeded(bundle: bundle, resource: "other", environment: environment)
        }
        #expect(missing?.code == .configuration && missing?.message.contains("other.sqlite.gz") == true)

        let byURL = SeedInstaller(source: URL(fileURLWithPath: source), destination: URL(fileURLWithPath: destination), expectedSchemaVersion: 3)
        #expect(byURL.source == source && byURL.destination == destination)
        let background = try await byURL.installInBackground()
        #expect(background.status == .upToDate)
        do {
            _ = try await SeedInstaller(source: source, destination: destination, expectedSchemaVersion: 9).installInBackground()
            Issue.record("a schema mismatch must throw")
        } catch {
            #expect(error.code == .schemaMismatch, "the error is typed: SeedInstallerError")
        }
    }

    @Test func appsCanBuildAResultInTheirTests() {
        let result = SeedInstallResult(status: .replacedModified, seedVersion: "2", schemaVersion: 3, previousSeedVersion: "1",
                                       path: "/data/seed.sqlite", reason: "the installed seed was modified")
        #expect(result.didInstall && result.description == "replaced-modified seed-version=2 schema-version=3 (was seed-version=1) [the installed seed was modified] at /data/seed.sqlite")
        #expect(!SeedInstallResult(status: .upToDate, seedVersion: "2", schemaVersion: 3, path: "/x").didInstall)
    }
}
