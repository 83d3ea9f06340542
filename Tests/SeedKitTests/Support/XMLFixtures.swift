import Foundation
import SeedSQLite
@testable import SeedKit

/// The XML samples, schemas and real data sets the XML tests read.
enum XMLFixtures {
    static let topSongs = Repository.path("Tests/Fixtures/xml/topsongs/topsongs.xml")
    static let library = Repository.path("Tests/Fixtures/xml/library/library.xml")
    static func schema(_ name: String) -> String { Repository.path("Schema/\(name).yaml") }

    /// The shared real data (`../shared/data`), when this checkout has it.
    static let sharedData = Repository.path("../shared/data")
    static let stackExchange = sharedData + "/stackexchange-ai-2017"
    static let osm = sharedData + "/osm-liechtenstein-2013/liechtenstein-2013-08-03.osm"
    static var hasSharedData: Bool { FileManager.default.fileExists(atPath: osm) && FileManager.default.fileExists(atPath: stackExchange + "/Posts.xml") }

    /// How many times `needle` occurs in the file: counts taken without seedgen.
    static func occurrences(of needle: String, in path: String) -> Int {
        let data = Array(FileManager.default.contents(atPath: path)!)
        let pattern = Array(needle.utf8)
        var count = 0, index = 0
        while index + pattern.count <= data.count {
            if data[index] == pattern[0] && data[index..<(index + pattern.count)].elementsEqual(pattern) {
                count += 1
                index += pattern.count
            } else {
                index += 1
            }
        }
        return count
    }

    /// The values of `attribute` in the elements starting with `start` (`<nd `), in file order.
    static func attributeValues(_ attribute: String, of start: String, in text: String) -> [String] {
        var values: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: start) {
            let tagEnd = rest[range.upperBound...].firstIndex(of: ">") ?? rest.endIndex
            let tag = rest[range.upperBound..<tagEnd]
            if let name = tag.range(of: " \(attribute)=\"") ?? tag.range(of: "\(attribute)=\""),
               let close = tag[name.upperBound...].firstIndex(of: "\"") {
                values.append(String(tag[name.upperBound..<close]))
            }
            rest = rest[tagEnd...]
        }
        return values
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
        FileManager.default.createFile(atPath: path, contents: nil)
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
