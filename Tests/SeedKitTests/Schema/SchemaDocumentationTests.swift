import Foundation
import SeedTestSupport
import Testing
@testable import SeedKit

/// The schema documentation shows what the parser accepts: every YAML example in
/// `Schema/README.md` parses. Fragments (a `tables:` list, one table, a `columns:` list) are
/// completed with the least that makes them a schema.
@Suite("Schema/README.md examples")
struct SchemaDocumentationTests {
    static let readme = Repository.path("Schema/README.md")

    /// The ```yaml blocks of the file, with the line each starts on.
    static func snippets() throws -> [(line: Int, text: String)] {
        let lines = try String(contentsOfFile: readme, encoding: .utf8).components(separatedBy: "\n")
        var result: [(Int, String)] = []
        var start: Int?
        var body: [String] = []
        for (index, line) in lines.enumerated() {
            if start == nil, line.trimmingCharacters(in: .whitespaces) == "```yaml" {
                start = index + 1
                body = []
            } else if let first = start, line.trimmingCharacters(in: .whitespaces) == "```" {
                result.append((first + 1, body.joined(separator: "\n") + "\n"))
                start = nil
            } else if start != nil {
                body.append(line)
            }
        }
        return result
    }

    /// A whole schema around `snippet`.
    static func completed(_ snippet: String) -> String {
        let header = "name: snippet\nschemaVersion: 1\nformat: xml\n"
        let first = snippet.split(separator: "\n").first { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") } ?? ""
        if first.hasPrefix("name:") { return snippet }
        if first.hasPrefix("tables:") { return header + snippet }
        if first.hasPrefix("columns:") {
            return header + "tables:\n  - name: snippet\n" + snippet.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        }
        // One or more tables: declare the parents they name, as plain tables.
        var text = header + "tables:\n" + snippet
        let parents = snippet.matches(of: /parent: (\w+)/).map { String($0.output.1) }
        for parent in Set(parents).sorted() where !snippet.contains("name: \(parent)\n") {
            text += "  - name: \(parent)\n    columns: [{ name: code }]\n"
        }
        return text
    }

    @Test("every YAML example parses")
    func examplesParse() throws {
        let snippets = try Self.snippets()
        #expect(snippets.count >= 5)
        for (line, snippet) in snippets {
            do {
                _ = try Schema.parse(Array(Self.completed(snippet).utf8), file: "Schema/README.md:\(line)")
            } catch {
                Issue.record("the example at Schema/README.md:\(line) does not parse: \(error)\n\(Self.completed(snippet))")
            }
        }
    }

    @Test("the filter example is a list, as the parser wants")
    func filterIsAList() throws {
        let snippet = try #require(try Self.snippets().first { $0.text.contains("filter:") })
        let schema = try Schema.parse(Array(Self.completed(snippet.text).utf8), file: "README")
        #expect(schema.tables.first?.filter.count == 2)
    }
}
