import Foundation
import SeedArchive
import SeedInstaller
import SeedTestSupport
import Testing

/// A full disk fails the install clearly and leaves the old seed and the folder as they
/// were. Tried two ways: a small tmpfs (needs permission to mount) and a file-size limit
/// on the `seedgen install` process (EFBIG instead of ENOSPC).
@Suite(.serialized) struct DiskFullTests {
    let folder = TemporaryFolder()

    func makeSeeds() throws -> (small: String, big: String) {
        let small = try SeedFixture(seedVersion: "v1").writeGzip(to: folder.file("v1/seed.sqlite.gz").creatingFolder())
        let big = try SeedFixture(seedVersion: "v2", rows: 3000, payloadBytes: 1000)
            .writeGzip(to: folder.file("v2/seed.sqlite.gz").creatingFolder(), manifest: true)
        return (small, big)
    }

    @Test(.enabled(if: Tmpfs.canMount, Tmpfs.unavailable))
    func aFullTmpfsLeavesTheOldSeedIntact() throws {
        let (small, big) = try makeSeeds()
        let mount = folder.file("mnt")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        try #require(try ChildProcess.shell("mount -t tmpfs -o size=1m tmpfs '\(mount)'").status == 0)
        defer { _ = try? ChildProcess.shell("umount '\(mount)'") }
        let destination = mount + "/seed.sqlite"
        try SeedInstaller(source: small, destination: destination).install()
        let before = bytes(of: destination), listing = folder.contents(of: mount)

        // Without a manifest the size is unknown: decompression stops when it passes the free
        // space, before the disk is full.
        let withoutManifest = SeedInstaller(source: big, destination: destination, manifest: nil)
        try FileManager.default.moveItem(atPath: SeedManifest.path(forSeed: big), toPath: folder.file("aside.json"))
        let written = #expect(throws: SeedInstallerError.self) { try withoutManifest.install() }
        #expect(written?.code == .diskFull, "\(String(describing: written))")
        #expect(written?.message.contains("bytes free beside the destination; stopped there") == true)
        #expect(bytes(of: destination) == before && folder.contents(of: mount) == listing, "old seed intact, no temporary file")

        // With a manifest the size is known: refused before writing anything.
        try FileManager.default.moveItem(atPath: folder.file("aside.json"), toPath: SeedManifest.path(forSeed: big))
        let checked = #expect(throws: SeedInstallerError.self) { try SeedInstaller(source: big, destination: destination).install() }
        #expect(checked?.code == .diskFull && checked?.message.contains("not enough free space") == true)
        #expect(bytes(of: destination) == before && folder.contents(of: mount) == listing)
        #expect(try SeedFixture.seedVersion(at: destination) == "v1")
    }

    @Test func aFileSizeLimitLeavesTheOldSeedIntact() throws {
        try #require(SeedgenTool.exists)
        let (small, big) = try makeSeeds()
        try FileManager.default.removeItem(atPath: SeedManifest.path(forSeed: big))
        let destination = folder.file("data/seed.sqlite")
        try SeedInstaller(source: small, destination: destination).install()
        let before = bytes(of: destination), listing = folder.contents(of: folder.file("data"))
        // 1024 blocks of 512 bytes: the small seed fits, the 3 MB one does not.
        let limited = try ChildProcess.shell("ulimit -f 1024 && exec '\(SeedgenTool.path)' install '\(big)' --to '\(destination)'")
        #expect(limited.status == 1, "\(limited.stdout) \(limited.stderr)")
        #expect(limited.stderr.contains("disk-full") && limited.stderr.contains("the installed seed is unchanged"), "\(limited.stderr)")
        #expect(bytes(of: destination) == before && folder.contents(of: folder.file("data")) == listing, "old seed intact, no temporary file")
        #expect(try SeedgenTool.run(["install", big, "--to", destination]).status == 0, "without the limit it installs")
    }
}
