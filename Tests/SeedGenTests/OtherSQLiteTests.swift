import Foundation
import SeedTestSupport
import Testing

/// Issue 28: a seed is its content. Deltas the builder writes apply on other SQLite versions than
/// the builder's (apps run on the SQLite of their device): `seedgen install` runs with another
/// libsqlite3 loaded in place of the system's (`LD_PRELOAD`, libraries that `make other-sqlites`
/// installs, listed in `.venv-sqlite/libraries.txt`), and the patched seed has the new seed's
/// content digest (and chunk record), as computed by an independent implementation
/// (`scripts/content_digest.py`).
@Suite("Other SQLite versions", .serialized)
struct OtherSQLiteTests {
    let folder = TemporaryFolder()

    /// The libraries `make other-sqlites` installed: (version, path).
    static func libraries() throws -> [(version: String, path: String)] {
        let list = Repository.path(".venv-sqlite/libraries.txt")
        guard let text = try? String(contentsOfFile: list, encoding: .utf8) else {
            throw Missing(message: "\(list) is missing: run `make other-sqlites` (make test does)")
        }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }

    struct Missing: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// `seedgen arguments...` with `library` loaded in place of the system's SQLite.
    func seedgen(_ arguments: [String], library: String? = nil) throws -> ChildProcess.Output {
        var environment = ProcessInfo.processInfo.environment
        if let library { environment["LD_PRELOAD"] = library }
        return try ChildProcess.run(SeedgenTool.path, arguments, environment: environment)
    }

    /// The content digest of each file, by the Python implementation of the spec, which also
    /// checks that each seed's chunk record (`seedgen_content_chunks`) is its chunks.
    static func pythonDigests(_ paths: [String]) throws -> [String] {
        let script = Repository.path("scripts/content_digest.py")
        let run = try ChildProcess.run("/usr/bin/env", ["python3", script, "--check-record"] + paths)
        #expect(run.status == 0, "content_digest.py: \(run.stderr)")
        return run.stdout.split(separator: "\n").map { String($0.prefix(64)) }
    }

    /// The digest a seed records.
    func recorded(_ seed: String) throws -> String {
        let run = try seedgen(["inspect", seed, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return try #require(object?["contentSha256"] as? String)
    }

    /// The SQLite version that last wrote a database (bytes 96-99 of its header).
    func writerVersion(_ path: String) throws -> String {
        let header = try #require(FileManager.default.contents(atPath: path)?.prefix(100))
        let number = header.suffix(4).reduce(0) { $0 << 8 | Int($1) }
        return "\(number / 1_000_000).\(number / 1000 % 1000).\(number % 1000)"
    }

    @Test("a day's delta applies with SQLite 3.46 and 3.50 as with the builder's, to the new seed's content digest",
          .realData("gtfs-daily-renfe-ld/renfe-ld-2026-03-16.zip", "gtfs-daily-renfe-ld/renfe-ld-2026-03-17.zip"))
    func deltasApplyOnOtherVersions() throws {
        let libraries = try Self.libraries()
        #expect(libraries.count >= 2, "two SQLite versions besides the system's")
        let old = folder.file("16.sqlite"), new = folder.file("17.sqlite"), delta = folder.file("16-17.delta")
        #expect(try seedgen(["build", RealData.path("gtfs-daily-renfe-ld/renfe-ld-2026-03-16.zip"), "--out", old, "--quiet"]).status == 0)
        #expect(try seedgen(["build", RealData.path("gtfs-daily-renfe-ld/renfe-ld-2026-03-17.zip"), "--previous", old, "--out", new, "--quiet"]).status == 0)
        #expect(try seedgen(["pack", old]).status == 0)
        let written = try seedgen(["delta", old, new, "--out", delta])
        #expect(written.status == 0, "\(written.stderr)")
        let expected = try recorded(new)
        #expect(try Self.pythonDigests([new]) == [expected])
        let system = try writerVersion(new)
        for library in libraries {
            #expect(library.version != system)
            try expectPatched(old: old, delta: delta, to: folder.file("\(library.version)/seed.sqlite"), expected: expected, with: library)
        }
    }

    /// Installs `old` (packed) at `destination` and applies `delta` with SQLite `library`: the
    /// seed is patched, written by that SQLite, has the content `expected` (Python's digest),
    /// and passes verify under that SQLite too (indexes agree with their tables), all but
    /// `vacuumed`: a patch is not compacted (its free pages serve the next one: `DeltaPatch`).
    func expectPatched(old: String, delta: String, to destination: String, expected: String, with library: (version: String, path: String)) throws {
        #expect(try seedgen(["install", old + ".gz", "--to", destination], library: library.path).status == 0)
        let patched = try seedgen(["install", delta, "--to", destination], library: library.path)
        #expect(patched.status == 0 && patched.stdout.hasPrefix("patched "), "SQLite \(library.version): \(patched.stdout) \(patched.stderr)")
        #expect(try writerVersion(destination) == library.version, "the patched seed was written by SQLite \(library.version)")
        #expect(try Self.pythonDigests([destination]) == [expected], "SQLite \(library.version): the patched seed has the new seed's content")
        let verify = try seedgen(["verify", destination, "--json"], library: library.path)
        let report = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any]
        let checks = report?["checks"] as? [[String: Any]] ?? []
        #expect(checks.count >= 8, "SQLite \(library.version): \(verify.stdout)")
        let failed = checks.filter { $0["passed"] as? Bool != true }.compactMap { $0["name"] as? String }
        #expect(failed.allSatisfy { $0 == "vacuumed" }, "SQLite \(library.version): \(verify.stdout)")
    }

    @Test("a region seed's delta applies with SQLite 3.46 and 3.50, each feed's service days derived again, to the new seed's content digest",
          .realData("gtfs-daily-renfe-ld/renfe-ld-2026-03-16.zip", "gtfs-daily-renfe-ld/renfe-ld-2026-03-17.zip", "gtfs-world/chisinau/feed",
                    "gtfs-world/aguascalientes/feed"))
    func regionDeltasApplyOnOtherVersions() throws {
        let libraries = try Self.libraries()
        #expect(libraries.count >= 2, "two SQLite versions besides the system's")
        let others = ["chisinau", "aguascalientes"].flatMap { ["--feed", "\($0)=" + RealData.path("gtfs-world/\($0)/feed")] }
        let old = folder.file("r16.sqlite"), new = folder.file("r17.sqlite"), delta = folder.file("r16-17.delta")
        #expect(try seedgen(["build"] + others + ["--feed", "renfe=" + RealData.path("gtfs-daily-renfe-ld/renfe-ld-2026-03-16.zip"),
                                                   "--out", old, "--quiet"]).status == 0)
        #expect(try seedgen(["build"] + others + ["--feed", "renfe=" + RealData.path("gtfs-daily-renfe-ld/renfe-ld-2026-03-17.zip"),
                                                   "--previous", old, "--out", new, "--quiet"]).status == 0)
        #expect(try seedgen(["pack", old]).status == 0)
        let written = try seedgen(["delta", old, new, "--out", delta])
        #expect(written.status == 0, "\(written.stderr)")
        let expected = try recorded(new)
        for library in libraries {
            try expectPatched(old: old, delta: delta, to: folder.file("region-\(library.version)/seed.sqlite"), expected: expected, with: library)
        }
    }

    @Test("the builder's digest equals the Python implementation's on seeds built with SQLite 3.46 and 3.50",
          .realData("gtfs-cairns-2014/feed"))
    func buildersOfOtherVersionsAgree() throws {
        var seeds = [folder.file("system.sqlite")]
        #expect(try seedgen(["build", RealData.path("gtfs-cairns-2014/feed"), "--out", seeds[0], "--quiet"]).status == 0)
        for library in try Self.libraries() {
            let seed = folder.file("\(library.version).sqlite")
            #expect(try seedgen(["build", RealData.path("gtfs-cairns-2014/feed"), "--out", seed, "--quiet"], library: library.path).status == 0)
            #expect(try writerVersion(seed) == library.version)
            seeds.append(seed)
        }
        let digests = try Self.pythonDigests(seeds)
        #expect(Set(digests).count == 1 && digests.count == seeds.count, "\(digests)")
        #expect(try digests.first == recorded(seeds[0]))
    }
}
