import Foundation
import SeedTestSupport
import SeedSQLite
@testable import SeedKit

/// The XML samples, schemas and real data sets the XML tests read.
enum XMLFixtures {
    static let topSongs = Repository.path("Tests/Fixtures/xml/topsongs/topsongs.xml")
    static let library = Repository.path("Tests/Fixtures/xml/library/library.xml")
    /// Three ways, their nodes and one relation, cut from the Liechtenstein extract.
    static let osmExcerpt = Repository.path("Tests/Fixtures/xml/osm/liechtenstein-excerpt.osm")
    static func schema(_ name: String) -> String { Repository.path("Schema/\(name).yaml") }

    /// The real dumps (see ``RealData``); tests that read them carry `.realData(...)`.
    static let stackExchangeData = "stackexchange-ai-2017"
    static let osmData = "osm-liechtenstein-2013/liechtenstein-2013-08-03.osm"
    static let stackExchange = RealData.path(stackExchangeData)
    static let osm = RealData.path(osmData)

    /// How many times `needle` occurs in the file: counts taken without seedgen.
    static func occurrences(of needle: String, in path: String) -> Int {
        var count = 0
        scan(FileManager.default.contents(atPath: path)!, for: needle) { _, _ in count += 1 }
        return count
    }

    /// The values of `attribute` in the elements starting with `start` (`<nd `), in file order.
    static func attributeValues(_ attribute: String, of start: String, in data: Data) -> [String] {
        var values: [String] = []
        let key = Array(" \(attribute)=\"".utf8)
        scan(data, for: start) { bytes, offset in
            guard let tagEnd = bytes[offset...].firstIndex(of: UInt8(ascii: ">")),
                  let keyAt = find(key, in: bytes, from: offset, to: tagEnd),
                  let close = bytes[(keyAt + key.count)..<tagEnd].firstIndex(of: UInt8(ascii: "\"")) else { return }
            values.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(keyAt + key.count)..<close]), as: UTF8.self))
        }
        return values
    }

    /// Calls `body` with the offset of every occurrence of `needle` (memchr: fast in debug builds).
    private static func scan(_ data: Data, for needle: String, _ body: (UnsafeRawBufferPointer, Int) -> Void) {
        let pattern = Array(needle.utf8)
        data.withUnsafeBytes { bytes in
            var offset = 0
            while let at = find(pattern, in: bytes, from: offset, to: bytes.count) {
                body(bytes, at)
                offset = at + pattern.count
            }
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        let base = bytes.baseAddress!
        var at = start
        while end - at >= pattern.count {
            guard let hit = memchr(base + at, Int32(pattern[0]), end - at - pattern.count + 1) else { return nil }
            let offset = UnsafeRawPointer(hit) - base
            if memcmp(base + offset, pattern, pattern.count) == 0 { return offset }
            at = offset + 1
        }
        return nil
    }
}

/// A TopSongs-shaped feed written by the tests: `entries` entries over `categories` categories.
enum GeneratedFeed {
    static let head = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns:im="http://itunes.apple.com/rss" xmlns="http://www.w3.org/2005/Atom">

        """

    static func entry(_ n: Int, categories: Int) -> String {
        """
          <entry>
            <id im:id="\(500_000_000 + n)">https://itunes.apple.com/us/album/id\(n)?i=\(n)&amp;uo=2</id>
            <title>Song \(n) - Artist \(n % 997)</title>
            <im:name>Song \(n)</im:name>
            <category im:id="\(n % categories)" term="Genre \(n % categories)" label="Genre \(n % categories)"/>
            <im:artist href="https://itunes.apple.com/us/artist/id\(n % 997)?uo=2">Artist \(n % 997)</im:artist>
            <im:price amount="\(n % 2 == 0 ? "0.99000" : "1.29000")" currency="USD">$1.29</im:price>
            <im:image height="55">http://a1.mzstatic.com/us/r1000/\(n)/55x55-75.jpg</im:image>
            <im:releaseDate label="February 14, 2013">2013-02-14T00:00:00-07:00</im:releaseDate>
            <im:collection><im:name>Album \(n % 997)</im:name></im:collection>
          </entry>

        """
    }

    /// Writes the feed to `path` in pieces (the test process never holds the whole file).
    static func write(entries: Int, categories: Int = 25, to path: String) {
        precondition(FileManager.default.createFile(atPath: path, contents: nil), "cannot create \(path)")
        let handle = FileHandle(forWritingAtPath: path)!
        defer { try? handle.close() }
        handle.write(Data(head.utf8))
        var chunk = ""
        for n in 1...max(1, entries) {
            chunk += entry(n, categories: categories)
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data((chunk + "</feed>\n").utf8))
    }
}
