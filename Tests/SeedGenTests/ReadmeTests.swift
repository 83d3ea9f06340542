import Foundation
import SeedTestSupport
import Testing

/// README.md as a new user reads it: its example output is what seedgen prints, and its tour's
/// commands run.
@Suite("README tells the truth")
struct ReadmeTests {
    private static let marker = "<!-- the output of make example: written by make readme -->"

    private func readme() throws -> [String] {
        try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8).components(separatedBy: "\n")
    }

    /// The last line without its time and rate (`..., 3.7 MB, 0.22 s (284,458 rows/s)`): they vary.
    private static func timeless(_ line: String) -> String {
        guard line.hasSuffix(" rows/s)"), let comma = line.range(of: ", ", options: .backwards) else { return line }
        return line[..<comma.lowerBound] + ", (time)"
    }

    @Test("the example's output is what `make example` prints now, the time aside (`make readme` writes it)")
    func exampleOutput() throws {
        let lines = try readme()
        let marker = try #require(lines.firstIndex(of: Self.marker), "README.md has no line \(Self.marker)")
        try #require(lines[marker + 1] == "```")
        let end = try #require(lines[(marker + 2)...].firstIndex(of: "```"))
        let scratch = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: scratch.file("out"), withIntermediateDirectories: true)
        // `make example`'s command, from a folder of its own.
        let result = try SeedgenTool.run(["build", Repository.path("examples/cairns"), "--out", "out/cairns.sqlite"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        // The feed's warnings name its files by the path given: the reader's is `examples/cairns`.
        let printed = result.stdout.replacingOccurrences(of: Repository.path("examples/cairns"), with: "examples/cairns")
            .components(separatedBy: "\n").dropLast().map(Self.timeless)
        #expect(printed == lines[(marker + 2)..<end].map(Self.timeless), "README.md's example output is not what seedgen prints: run make readme")
    }

    @Test("every seedgen command of the tour runs, in order, as written")
    func tour() throws {
        let lines = try readme()
        let start = try #require(lines.firstIndex(of: "## A tour"))
        let end = lines[start...].firstIndex { $0.hasPrefix("## ") && $0 != "## A tour" } ?? lines.endIndex
        let commands = lines[start..<end].filter { $0.hasPrefix("seedgen ") }.map { line in
            // Without its comment: `seedgen pack out/cairns.sqlite   # out/cairns.sqlite.gz and ...`.
            (line.range(of: " #").map { String(line[..<$0.lowerBound]) } ?? line).split(separator: " ").map(String.init)
        }
        #expect(commands.count >= 6, "\(commands)")
        // The repository's folders the tour names, beside an out/ of the test's own.
        let scratch = TemporaryFolder()
        for folder in ["examples", "Schema", "Tests"] {
            try FileManager.default.createSymbolicLink(atPath: scratch.file(folder), withDestinationPath: Repository.path(folder))
        }
        try FileManager.default.createDirectory(atPath: scratch.file("out"), withIntermediateDirectories: true)
        for command in commands {
            let result = try SeedgenTool.run(Array(command.dropFirst()), in: scratch.path)
            #expect(result.status == 0, "\(command.joined(separator: " ")): \(result.stdout)\(result.stderr)")
        }
    }
}
