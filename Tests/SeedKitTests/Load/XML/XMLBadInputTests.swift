import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Malformed, hostile and badly valued XML stops the build with the place and the reason,
/// and leaves nothing behind.
@Suite("XML bad input")
struct XMLBadInputTests {
    private static let feedHead = #"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:im="http://itunes.apple.com/rss">"#

    /// Builds `text` as a TopSongs feed and returns the failure; checks nothing was written.
    private func failure(_ text: String, file: String = "feed.xml") throws -> BuildError {
        let folder = TemporaryFolder()
        folder.write("in/" + file, text)
        let output = folder.file("out.sqlite")
        let error = try #require(throws: BuildError.self) {
            try SeedBuilder.build([folder.file("in")], to: output, schema: XMLFixtures.schema("topsongs"))
        }
        #expect(folder.contents == ["in"], "no output or scratch file is left behind")
        return error
    }

    @Test("malformed XML names file, line, column and libxml2's message")
    func malformed() throws {
        let error = try failure("""
            <?xml version="1.0"?>
            \(Self.feedHead)
              <entry><im:name>A</im:name></entry>
              <entry><im:name>B</im:name>
            </feed>
            """)
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .malformedXML)
        #expect(issue.file.hasSuffix("in/feed.xml"))
        #expect(issue.line == 5)
        #expect(issue.column != nil)
        #expect(issue.message.contains("Opening and ending tag mismatch: entry line 4 and feed"))
        #expect(error.description.contains("feed.xml:5:"))
    }

    @Test("a billion-laughs document is refused at its first nesting entity declaration, fast")
    func billionLaughs() throws {
        var declarations = #"<!ENTITY lol0 "lollollollollollollollollollol">"#
        for level in 1...9 {
            let previous = String(repeating: "&lol\(level - 1);", count: 10)
            declarations += "\n <!ENTITY lol\(level) \"\(previous)\">"
        }
        let clock = ContinuousClock.now
        let error = try failure("""
            <?xml version="1.0"?>
            <!DOCTYPE feed [
             \(declarations)
            ]>
            \(Self.feedHead)<entry><im:name>&lol9;</im:name></entry></feed>
            """)
        #expect(ContinuousClock.now - clock < .seconds(5 * Sanitizer.slowdown))
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .malformedXML)
        // lol0 is plain text, which is read; lol1 refers to it, which is not.
        #expect(issue.line == 4)
        #expect(issue.message.contains("declares the entity 'lol1', whose text refers to another entity ('&lol0;')"))
        #expect(issue.message.contains("only plain-text internal entities are read"))
    }

    @Test("an external entity naming a local file is refused; the file is never read")
    func externalEntity() throws {
        let error = try failure("""
            <?xml version="1.0"?>
            <!DOCTYPE feed [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
            \(Self.feedHead)<entry><im:name>&secret;</im:name></entry></feed>
            """)
        #expect(!error.description.contains("root:"))
        let issue = try #require(error.issues.first)
        #expect(issue.line == 2)
        #expect(issue.message.contains("'secret' (it names 'file:///etc/passwd')"))
    }

    @Test("an external DTD is not loaded, and entities it might declare stay unknown")
    func externalDTD() throws {
        let error = try failure("""
            <?xml version="1.0"?>
            <!DOCTYPE feed SYSTEM "file:///etc/passwd">
            \(Self.feedHead)<entry><im:name>x&undeclared;y</im:name></entry></feed>
            """)
        let issue = try #require(error.issues.first)
        #expect(issue.message.contains("Entity 'undeclared' not defined"))
        #expect(!error.description.contains("root:"))
    }

    @Test("a value that does not parse names the element path, line and value")
    func badValue() throws {
        let error = try failure("""
            <?xml version="1.0"?>
            \(Self.feedHead)
              <entry><im:name>A</im:name>
                <im:price amount="1.2x9" currency="USD">$1.29</im:price>
              </entry>
              <entry><im:name>B</im:name>
                <im:releaseDate>14/02/2013</im:releaseDate>
              </entry>
            </feed>
            """)
        let issues = error.issues
        let price = try #require(issues.first { $0.field == "feed/entry/im:price/@amount" })
        #expect(price.kind == .invalidValue)
        #expect(price.line == 4)
        #expect(price.value == "1.2x9")
        #expect(price.description.contains("feed.xml:4:"))
        let date = try #require(issues.first { $0.field == "feed/entry/im:releaseDate" })
        #expect(date.line == 7)
        #expect(date.value == "14/02/2013")
    }

    @Test("a missing required value names the path")
    func missingRequired() throws {
        let error = try failure("""
            \(Self.feedHead)<entry><title>no im:name</title></entry></feed>
            """)
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .missingValue)
        #expect(issue.field == "feed/entry/im:name")
    }

    @Test("a schema whose files match no input fails before reading anything")
    func noInput() throws {
        let folder = TemporaryFolder()
        folder.write("in/readme.txt", "not xml")
        let error = try #require(throws: BuildError.self) {
            try SeedBuilder.build([folder.file("in")], to: folder.file("out.sqlite"), schema: XMLFixtures.schema("osm"))
        }
        #expect(error.issues.contains { $0.kind == .missingFile && $0.file == "*.osm" })
    }
}
