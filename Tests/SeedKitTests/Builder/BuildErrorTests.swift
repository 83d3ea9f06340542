import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

@Suite("A failed build says what kind of failure it is and keeps its cause")
struct BuildErrorTests {
    private func failure(_ options: BuildOptions) throws -> BuildError {
        try #require(throws: BuildError.self) { try SeedBuilder(options: options).build() }
    }

    @Test("an input that cannot be read: code input, the InputError as cause")
    func unreadableInput() throws {
        let folder = TemporaryFolder()
        let error = try failure(BuildOptions(inputs: [folder.file("absent")], output: folder.file("seed.sqlite")))
        let cause = try #require(error.cause as? InputError)
        #expect(error.code == .input && error.path == cause.path && error.message == cause.message)
        #expect(error.description == "error: \(cause)")
    }

    @Test("a schema that cannot be used: code schema, the SchemaError (with its place) as cause")
    func unusableSchema() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder)
        let schema = folder.write("bad.yaml", "name: bad\nschemaVersion: 1\ntables: 7\n")
        let error = try failure(BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite"), schemaPath: schema))
        let cause = try #require(error.cause as? SchemaError)
        #expect(error.code == .schema && error.message == cause.message)
        #expect(error.description == cause.description, "printed as the schema error itself")
    }

    @Test("bad rows: code invalid-input, with the issue log; the text lists the issues")
    func invalidInput() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, ["stops.txt": "stop_id,stop_name,stop_lat\nS1,One,north\nS2,Two,1\n"])
        let error = try failure(BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite")))
        let log = try #require(error.issueLog)
        #expect(error.code == .invalidInput && error.cause == nil && log.errorCount == 1)
        #expect(
            error.description
                == log.report(errors: true)
                + "\n1 error; no seed was written.\nerrors: invalid_float 1; warnings: missing_recommended_file 1, "
                + "stop_without_location 1",
            "the issues, then the counts by code")
        #expect(error.description.contains("'north'"))
    }

    @Test("an output folder that does not exist: code output")
    func missingOutputFolder() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder)
        let output = folder.file("absent/seed.sqlite")
        let error = try failure(BuildOptions(inputs: [folder.file("feed")], output: output))
        #expect(error.code == .output && error.path == output)
        #expect(error.description == "error: \(output): the folder \(folder.file("absent")) does not exist")
    }

    @Test("a writer failure keeps SQLite's error: code disk-full when the disk is full, output otherwise")
    func writerFailures() throws {
        let database = try Connection(path: ":memory:", mode: .create)
        try database.execute("PRAGMA max_page_count = 3; CREATE TABLE t (k INTEGER UNIQUE, v BLOB)")
        let full = try #require(#expect(throws: SQLiteError.self) { try database.execute("INSERT INTO t VALUES (1, zeroblob(100000))") })
        #expect(full.isDiskFull)
        let seedFull = BuildError.seed(full)
        #expect(seedFull.code == .diskFull && (seedFull.cause as? SQLiteError)?.code == full.code)
        #expect(seedFull.description == "error: the seed: \(full)")
        try database.execute("INSERT INTO t VALUES (1, NULL)")
        let broken = try #require(#expect(throws: SQLiteError.self) { try database.execute("INSERT INTO t VALUES (1, NULL)") })
        let seedBroken = BuildError.seed(broken)
        #expect(seedBroken.code == .output && (seedBroken.cause as? SQLiteError)?.isUniqueViolation == true)
        #expect(BuildError.output(path: "x", message: "m").cause == nil && BuildError.output(path: "x", message: "m").code == .output)
    }

    @Test("a full disk: code disk-full, SQLite's error as cause, 'the disk is full' in the text",
          .enabled(if: Tmpfs.canMount, Tmpfs.unavailable))
    func fullDisk() throws {
        let folder = TemporaryFolder()
        let mount = folder.file("mnt")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        try #require(Self.shell("mount -t tmpfs -o size=256k tmpfs '\(mount)'") == 0)
        defer { _ = Self.shell("umount -l '\(mount)'") }
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for sequence in 1...20_000 { stopTimes += "T1,08:00:00,08:00:00,S\(sequence % 2 + 1),\(sequence)\n" }
        MinimalFeed.write(into: folder, ["stop_times.txt": stopTimes])
        let output = mount + "/seed.sqlite"
        let error = try failure(BuildOptions(inputs: [folder.file("feed")], output: output))
        let cause = try #require(error.cause as? SQLiteError, "\(error)")
        #expect(error.code == .diskFull && cause.isDiskFull)
        #expect(error.description == "error: \(output): the disk is full (\(cause.message))")
        #expect(folder.contentsOf(mount).isEmpty, "no scratch file is left")
    }

    private static func shell(_ command: String) -> Int32 {
        (try? ChildProcess.shell(command))?.status ?? -1
    }
}

private extension TemporaryFolder {
    func contentsOf(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
