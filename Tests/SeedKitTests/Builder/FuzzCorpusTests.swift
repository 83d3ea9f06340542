import Foundation
import SeedDeltas
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Replays the committed fuzz corpus (`Tests/Fuzz/TARGET/`): every input the fuzzers found
/// interesting, and every one that once crashed, must run through its reader without a trap.
@Suite("Fuzz corpus")
struct FuzzCorpusTests {
    @Test("every corpus input runs without a trap", arguments: FuzzEntry.targets)
    func replay(target: String) throws {
        let folder = Repository.path("Tests/Fuzz/" + target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(!names.isEmpty, "the corpus of \(target) has seeds")
        let scratch = TemporaryFolder()
        for name in names {
            let data = try #require(FileManager.default.contents(atPath: folder + "/" + name))
            FuzzEntry.run(target, Array(data), scratch: scratch.path)
        }
    }

    /// Where the `delta` fuzz target's run of `bytes` ends: the same steps (the header's `from`
    /// pointed at the target's base seed), the outcome named.
    static func deltaOutcome(_ bytes: [UInt8], scratch: TemporaryFolder) throws -> String {
        let base = try #require(FuzzEntry.deltaBase(scratch: scratch.path))
        var input = bytes
        if let (header, length) = try? DeltaHeader.parse(Array(bytes.prefix(DeltaHeader.maximumLength)), path: "fuzz.delta") {
            var retargeted = header
            retargeted.from = DeltaHeader.Seed(seedVersion: header.from.seedVersion, contentSHA256: base.contentSHA256, size: base.size)
            input = retargeted.encoded() + bytes.dropFirst(length)
        }
        let path = scratch.file("outcome.delta"), output = scratch.file("outcome.sqlite")
        try Data(input).write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: output)
        do {
            let patch = try DeltaPatch(path: path)
            let tables = try patch.checkBody()
            try patch.apply(base: base.path, baseIsProven: true, changedTables: tables, output: output)
            // Applied: the result has the promised content, which is not the base's unless
            // the delta changes nothing but its metadata.
            #expect(try ContentDigest.compute(path: output) == patch.header.to.contentSHA256)
            return "applied"
        } catch let error as DeltaError {
            return "header or body: \(error.code)"
        } catch let failure as DeltaPatch.Failure {
            switch failure {
            case .format(let error): return "header or body: \(error.code)"
            case .sqlite: return "sqlite"
            case .mismatch: return "mismatch"
            case .baseMismatch: return "base mismatch"
            case .resultMismatch: return "result mismatch"
            case .io: return "io"
            }
        }
    }

    @Test("the delta corpus reaches the whole apply: valid deltas apply to the target's base, damaged ones fail where they are damaged")
    func deltaCorpusPaths() throws {
        let folder = Repository.path("Tests/Fuzz/delta")
        let scratch = TemporaryFolder()
        var outcomes: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".delta") {
            let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + name))
            outcomes[String(name.dropLast(6))] = try Self.deltaOutcome(Array(bytes), scratch: scratch)
        }
        let expected: [String: Set<String>] = [
            "changes": ["applied"], "unique-swap": ["applied"], "storage-classes": ["applied"], "no-change": ["applied"],
            "cut-in-header": ["header or body: truncated"], "cut-in-body": ["header or body: truncated"],
            "flipped-body-byte": ["header or body: corrupt", "header or body: invalid-body"],
            "wrong-result": ["result mismatch"], "foreign-base": ["sqlite", "mismatch"],
            "format-1": ["header or body: unsupported-version"],
        ]
        for (name, allowed) in expected {
            #expect(outcomes[name].map(allowed.contains) == true, "\(name).delta: \(outcomes[name] ?? "missing") (regenerate with scripts/fuzz-delta-corpus.py)")
        }
        #expect(Set(outcomes.keys).isSubset(of: Set(expected.keys)), "\(outcomes)")
    }
}
