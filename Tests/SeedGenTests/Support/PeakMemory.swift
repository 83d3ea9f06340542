import Foundation
import SeedTestSupport

/// Runs a command and reports its peak resident memory, measured by `/usr/bin/time -f %M`.
///
/// Not `wait4` on a child spawned from the test: on Linux a child started with
/// `posix_spawn` (a vfork-style clone) inherits the test runner's high-water mark at exec,
/// so `ru_maxrss` would report the larger of the two. `time` forks a small process first.
enum PeakMemory {
    static let timeTool = "/usr/bin/time"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: timeTool) }

    struct Result {
        var status: Int32
        /// Peak resident set size, in kilobytes.
        var kilobytes: Int
    }

    /// Runs `executable arguments...` and waits for it (its output is read and dropped).
    static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let folder = TemporaryFolder()
        let report = folder.file("peak")
        let output = try ChildProcess.run(timeTool, ["-f", "%M", "-o", report, executable] + arguments)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let kilobytes = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return Result(status: output.status, kilobytes: kilobytes)
    }
}

/// Writes a TopSongs-shaped Atom feed of `entries` entries, each carrying `padding` bytes of
/// unmapped HTML, in pieces (the test never holds the file in memory).
enum LargeFeed {
    static func write(entries: Int, padding: Int, to path: String) {
        precondition(FileManager.default.createFile(atPath: path, contents: nil), "cannot create \(path)")
        let handle = FileHandle(forWritingAtPath: path)!
        defer { try? handle.close() }
        handle.write(Data(#"<?xml version="1.0" encoding="utf-8"?><feed xmlns:im="http://itunes.apple.com/rss" xmlns="http://www.w3.org/2005/Atom">"#.utf8))
        let html = String(repeating: "&lt;p&gt;Lyrics &amp; notes, line after line.&lt;/p&gt;\n", count: max(1, padding / 60))
        var chunk = ""
        for n in 1...entries {
            chunk += """
                <entry><im:name>Song \(n)</im:name><im:artist>Artist \(n % 101)</im:artist>
                <category term="Genre \(n % 17)" label="Genre \(n % 17)"/><im:price amount="1.29" currency="USD">$1.29</im:price>
                <im:releaseDate label="February 14, 2013">2013-02-14T00:00:00-07:00</im:releaseDate>
                <im:collection><im:name>Album \(n % 101)</im:name></im:collection>
                <content type="html">\(html)</content></entry>

                """
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data((chunk + "</feed>\n").utf8))
    }
}
