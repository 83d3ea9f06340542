import Foundation
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
}
