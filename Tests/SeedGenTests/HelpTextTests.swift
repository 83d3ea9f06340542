import Foundation
import SeedTestSupport
import Testing

/// `seedgen ... --help` where the output is not a terminal: 80 columns, as in a CI log or a pipe.
@Suite("--help reads well at 80 columns")
struct HelpTextTests {
    /// Each command's path (`["schema", "swift"]`), discussion and options, from the parser's
    /// own description of the tool (`--experimental-dump-help`).
    private struct Command {
        var path: [String]
        var discussion: String
        var options: [[String: Any]]
    }

    private func commands() throws -> [Command] {
        let dump = try SeedgenTool.run(["--experimental-dump-help"])
        try #require(dump.status == 0, "\(dump.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var found: [Command] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            found.append(Command(path: path, discussion: command["discussion"] as? String ?? "",
                                 options: command["arguments"] as? [[String: Any]] ?? []))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + [sub["commandName"] as? String ?? "?"])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return found
    }

    @Test("examples, tables and code keep their lines: the parser never breaks them")
    func preformattedLines() throws {
        let commands = try commands()
        #expect(commands.count > 10)
        for command in commands {
            let help = try SeedgenTool.run(command.path + ["--help"])
            #expect(help.status == 0)
            let shown = Set(help.stdout.components(separatedBy: "\n"))
            // An indented line is an example, a table row or code; a list item ("  - ") is prose.
            for line in command.discussion.components(separatedBy: "\n") where line.hasPrefix("  ") && !line.hasPrefix("  - ") {
                #expect(shown.contains(line), "seedgen \(command.path.joined(separator: " ")) --help breaks: \(line)")
            }
            for line in shown where !line.hasPrefix("USAGE: ") {
                #expect(line.count <= 80, "seedgen \(command.path.joined(separator: " ")) --help: \(line)")
            }
        }
    }

    @Test("an option with a default leaves it to the parser, which prints it once")
    func oneDefault() throws {
        for command in try commands() {
            for option in command.options where option["defaultValue"] != nil {
                let text = option["abstract"] as? String ?? ""
                #expect(!text.lowercased().contains("default"), "seedgen \(command.path.joined(separator: " ")): \(text)")
            }
        }
    }
}
