import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Deeply nested record elements: linear time, bounded depth with a clear error.
@Suite("XML nesting")
struct XMLNestingTests {
    /// `levels` nested `<node>` records, each with one `<tag>` (a nested table) inside.
    private func nested(_ levels: Int) -> String {
        var text = "<osm>"
        text.reserveCapacity(levels * 60)
        for i in 1...levels { text += #"<node id="\#(i)" lat="1" lon="2"><tag k="level" v="\#(i)"/>"# }
        text += String(repeating: "</node>", count: levels) + "</osm>"
        return text
    }

    @Test("8,000 nested records with nested tags build in linear time, each tag under its own node")
    func deepRecords() throws {
        let folder = TemporaryFolder()
        folder.write("in/deep.osm", nested(8_000))
        let output = folder.file("out.sqlite")
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            _ = try SeedBuilder.build([folder.file("in")], to: output, schema: XMLFixtures.schema("osm"))
        }
        // Quadratic, this took over 10 s (1 GB) in a debug build; linear, well under one.
        #expect(elapsed < .seconds(8 * Sanitizer.slowdown), "\(elapsed)")
        let db = try Connection(path: output)
        #expect(try db.int("SELECT count(*) FROM node") == 8_000)
        #expect(try db.int("SELECT count(*) FROM node_tag t JOIN node n ON n.rowid = t.node_ref WHERE t.value = CAST(n.osm_id AS TEXT)") == 8_000)
    }

    @Test("nesting past the limit fails with the place and how to raise it")
    func tooDeep() throws {
        let folder = TemporaryFolder()
        folder.write("in/deep.osm", "<osm>" + String(repeating: "<a>", count: 101) + String(repeating: "</a>", count: 101) + "</osm>")
        var options = BuildOptions(inputs: [folder.file("in")], output: folder.file("out.sqlite"), schemaPath: XMLFixtures.schema("osm"))
        options.limits.xmlDepth = 100
        let error = try #require(throws: BuildError.self) { try SeedBuilder(options: options).build() }
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .malformedXML && issue.line == 1 && issue.column != nil)
        #expect(issue.message.contains("nested more than 100 deep") && issue.message.contains("--max-xml-depth"))
        #expect(folder.contents == ["in"])
        options.limits.xmlDepth = 102
        _ = try SeedBuilder(options: options).build()
    }
}
