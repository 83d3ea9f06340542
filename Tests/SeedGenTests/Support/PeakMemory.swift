import Foundation

/// Runs a command and reports its peak resident memory (`wait4`'s `ru_maxrss`).
enum PeakMemory {
    struct Result {
        var status: Int32
        /// Peak resident set size, in kilobytes.
        var kilobytes: Int
    }

    /// Runs `executable arguments...` with its output discarded and waits for it.
    static func run(_ executable: String, _ arguments: [String]) -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return Result(status: -1, kilobytes: 0) }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        return Result(status: (status >> 8) & 0xFF, kilobytes: usage.ru_maxrss)
    }
}

/// Writes a TopSongs-shaped Atom feed of `entries` entries, each carrying `padding` bytes of
/// unmapped HTML, in pieces (the test never holds the file in memory).
enum LargeFeed {
    static func write(entries: Int, padding: Int, to path: String) {
        FileManager.default.createFile(atPath: path, contents: nil)
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
