import Foundation
import SeedTestSupport
import Testing

/// SeedKit's folders follow the pipeline (`Documentation/layout.md`): no folder uses a later
/// stage or the builder, and the guide's table is what `scripts/folder-graph.py` prints.
@Suite("SeedKit's folders in the order data flows")
struct FolderLayoutTests {
    @Test("no folder uses a later stage, the builder or a folder that uses it")
    func noFolderUsesALaterOne() throws {
        let check = try ChildProcess.run("/usr/bin/env", ["python3", Repository.path("scripts/folder-graph.py"), "--check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("0 problem(s)"), "\(check.stdout)")
    }

    @Test("the layout guide shows the folders as they are")
    func guideShowsTheGraph() throws {
        let graph = try ChildProcess.run("/usr/bin/env", ["python3", Repository.path("scripts/folder-graph.py")])
        try #require(graph.status == 0, "\(graph.stderr)")
        let guide = try String(contentsOfFile: Repository.path("Documentation/layout.md"), encoding: .utf8)
        #expect(guide.contains(graph.stdout.trimmingCharacters(in: .newlines)),
                "Documentation/layout.md: paste the table `scripts/folder-graph.py` prints:\n\(graph.stdout)")
    }
}
