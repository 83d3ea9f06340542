import Foundation
import SeedTestSupport
import Testing

/// The README and the guides link to each other, to the schema reference and to the code with
/// relative links; moving a section or renaming a heading must not leave one pointing nowhere.
/// Every relative link names a file or folder that exists, and every `#anchor` a heading of
/// the Markdown file it points into (as GitHub makes anchors from headings).
@Suite("Documentation links")
struct DocumentationLinkTests {
    /// The Markdown files whose links are checked, relative to the repository.
    static let pages: [String] = {
        let guides = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("Documentation"))) ?? []
        return ["README.md", "Schema/README.md", "bench/README.md"]
            + guides.filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
    }()

    @Test("the guides exist and are linked from the README")
    func guidesAreLinked() throws {
        let guides = Self.pages.filter { $0.hasPrefix("Documentation/") }
        #expect(guides.contains("Documentation/README.md"))
        #expect(guides.count > 1)
        let readme = try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)
        for guide in guides {
            #expect(readme.contains("](\(guide))"), "README.md does not link to \(guide)")
        }
    }

    @Test("every relative link and anchor exists", arguments: pages)
    func linksResolve(page: String) throws {
        let text = try String(contentsOfFile: Repository.path(page), encoding: .utf8)
        let links = Self.links(in: text)
        let folder = (Repository.path(page) as NSString).deletingLastPathComponent
        for link in links where !link.target.contains(":") {
            let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file = parts[0].isEmpty ? Repository.path(page) : ((folder as NSString).appendingPathComponent(String(parts[0])) as NSString).standardizingPath
            guard FileManager.default.fileExists(atPath: file) else {
                Issue.record("\(page):\(link.line): \(link.target): there is no such file or folder")
                continue
            }
            guard parts.count == 2 else { continue }
            let anchors = Self.anchors(in: try String(contentsOfFile: file, encoding: .utf8))
            #expect(anchors.contains(String(parts[1])), "\(page):\(link.line): \(link.target): no heading there has that anchor")
        }
    }

    @Test("links are read from the text, not from code blocks")
    func linksAreFound() {
        let links = Self.links(in: "See [a](a.md) and [b](../b.md#top).\n```\n[c](c.md)\n```\n[d](https://d.example)\n")
        #expect(links.map(\.line) == [1, 1, 5])
        #expect(links.map(\.target) == ["a.md", "../b.md#top", "https://d.example"])
    }

    @Test("anchors are made from headings as GitHub makes them")
    func anchorsFollowGitHub() {
        let anchors = Self.anchors(in: "# Top\n## Real feeds: `--lenient` and `--strict`\n```\n# not a heading\n```\n## Top\n### Built in\n")
        #expect(anchors == ["top", "real-feeds---lenient-and---strict", "top-1", "built-in"])
    }

    /// The targets of the inline links `[text](target)` outside fenced code blocks, with their
    /// 1-based line numbers.
    static func links(in text: String) -> [(line: Int, target: String)] {
        var result: [(Int, String)] = []
        for (index, line) in lines(outsideCodeBlocks: text) {
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                result.append((index, String(after[..<close])))
                rest = after[close...]
            }
        }
        return result
    }

    /// The anchors of the file's headings: lower case, punctuation removed, spaces made
    /// hyphens, and `-1`, `-2`, ... appended to a repeated one.
    static func anchors(in text: String) -> [String] {
        var seen: [String: Int] = [:]
        var result: [String] = []
        for (_, line) in lines(outsideCodeBlocks: text) where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = String(title.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }
                .map { $0 == " " ? "-" : $0 })
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            result.append(count == 0 ? slug : "\(slug)-\(count)")
        }
        return result
    }

    /// The file's lines with their 1-based numbers, leaving out those of fenced code blocks.
    static func lines(outsideCodeBlocks text: String) -> [(Int, String)] {
        var inCode = false
        var result: [(Int, String)] = []
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inCode.toggle()
            } else if !inCode {
                result.append((index + 1, line))
            }
        }
        return result
    }
}
