import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Named character entities beyond XML's five: HTML's with `entities: html` (a DBLP-style
/// file), plain-text internal entities a DTD declares (bounded), and nothing else.
@Suite("XML entities")
struct XMLEntityTests {
    static let dblp = """
        <?xml version="1.0" encoding="ISO-8859-1"?>
        <!DOCTYPE dblp SYSTEM "dblp.dtd">
        <dblp>
        <article key="journals/x/M\\u{fc}ller99" mdate="2019-05-01">
        <author>J&uuml;rgen M&uuml;ller</author><author>Ren&eacute;e Dupr&eacute;</author>
        <title>On &lt;markup&gt; &amp; caf&eacute;s&nbsp;&mdash; a study</title>
        <year>1999</year>
        <journal note="Fr&auml;nkische Bl&auml;tter">FB</journal>
        </article>
        </dblp>
        """

    static func schema(entities: String?) -> String {
        """
        name: dblp
        schemaVersion: 1
        format: xml
        \(entities.map { "entities: \($0)\n" } ?? "")tables:
          - name: article
            element: article
            key: dblp_key
            columns:
              - { name: dblp_key, source: "@key" }
              - { name: title, source: title }
              - { name: year, type: integer, source: year }
              - { name: journal_note, source: journal/@note }
          - name: author
            element: author
            parent: article
            columns:
              - { name: position, type: integer, source: $position }
              - { name: name, source: . }
        """
    }

    private func build(_ xml: String, schema: String) throws -> Connection {
        let folder = TemporaryFolder()
        folder.write("in/dblp.xml", xml)
        let schemaPath = folder.write("dblp.yaml", schema)
        let output = folder.file("out.sqlite")
        _ = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: output, schemaPath: schemaPath)).build()
        return try Connection(path: output)
    }

    private func failure(_ xml: String, schema: String) throws -> BuildIssue {
        let folder = TemporaryFolder()
        folder.write("in/dblp.xml", xml)
        let schemaPath = folder.write("dblp.yaml", schema)
        let error = try #require(throws: BuildError.self) {
            try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: folder.file("out.sqlite"), schemaPath: schemaPath)).build()
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.sqlite")))
        return try #require(error.issues.first)
    }

    @Test("entities: html reads &uuml; &eacute; &nbsp; &mdash; in text and attributes; the five XML ones still work")
    func htmlEntities() throws {
        let db = try build(Self.dblp, schema: Self.schema(entities: "html"))
        #expect(try db.text("SELECT group_concat(name, '|') FROM (SELECT name FROM author ORDER BY position)") == "Jürgen Müller|Renée Dupré")
        #expect(try db.text("SELECT title FROM article") == "On <markup> & cafés\u{A0}— a study")
        #expect(try db.text("SELECT journal_note FROM article") == "Fränkische Blätter")
        #expect(HTMLCharacterEntities.table.count == 2_125)
        #expect(HTMLCharacterEntities.table["AElig"] == Array("Æ".utf8)) // the first entry
        #expect(HTMLCharacterEntities.table["zwnj"] == Array("\u{200C}".utf8)) // the last
        #expect(HTMLCharacterEntities.table["NotEqualTilde"] == Array("\u{2242}\u{338}".utf8)) // two code points
        #expect(HTMLCharacterEntities.table["thetasym"] == Array("ϑ".utf8)) // XHTML 1.0
        #expect(HTMLCharacterEntities.table["NotNestedGreaterGreater"] != nil) // HTML5 only
    }

    @Test("without entities: html, &uuml; fails at its place and says what to add")
    func htmlEntityUndeclared() throws {
        let issue = try failure(Self.dblp, schema: Self.schema(entities: nil))
        #expect(issue.kind == .malformedXML)
        #expect(issue.line == 5)
        #expect(issue.message.contains("uuml") && issue.message.contains("add 'entities: html' to the schema"), "\(issue.message)")
    }

    @Test("a DTD's plain-text internal entities are read, in text and in attributes, first declaration wins")
    func declaredEntities() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE dblp [
              <!ENTITY acm "Association for Computing Machinery">
              <!ENTITY copy "&#169; ACM">
              <!ENTITY acm "ignored">
            ]>
            <dblp><article key="a1"><title>&acm; &copy;</title><journal note="by &acm;">J</journal><author>X</author></article></dblp>
            """
        let db = try build(xml, schema: Self.schema(entities: nil))
        #expect(try db.text("SELECT title FROM article") == "Association for Computing Machinery © ACM")
        #expect(try db.text("SELECT journal_note FROM article") == "by Association for Computing Machinery")
    }

    @Test("declarations holding markup, parameter entities and more than 1 MiB of text are refused")
    func refusedDeclarations() throws {
        let markup = try failure("""
            <!DOCTYPE dblp [ <!ENTITY b "<b>bold</b>"> ]>
            <dblp><article key="a"><title>&b;</title></article></dblp>
            """, schema: Self.schema(entities: nil))
        #expect(markup.message.contains("whose text holds markup"), "\(markup.message)")
        let parameter = try failure("""
            <!DOCTYPE dblp [ <!ENTITY % p "x"> ]>
            <dblp/>
            """, schema: Self.schema(entities: nil))
        #expect(parameter.message.contains("parameter entity '%p'"), "\(parameter.message)")
        let big = String(repeating: "x", count: 600_000)
        let tooMuch = try failure("""
            <!DOCTYPE dblp [ <!ENTITY a "\(big)"> <!ENTITY b "\(big)"> ]>
            <dblp/>
            """, schema: Self.schema(entities: nil))
        #expect(tooMuch.message.contains("more than \(XMLEntityTable.declaredLimit) bytes"), "\(tooMuch.message)")
    }

    @Test("a plain entity referenced without end (quadratic blow-up) is refused in bounded time and memory")
    func quadraticBlowup() throws {
        let entity = String(repeating: "a", count: 500_000)
        let references = String(repeating: "&a;", count: 50_000) // 25 GB if expanded
        let clock = ContinuousClock.now
        let issue = try failure("""
            <!DOCTYPE dblp [ <!ENTITY a "\(entity)"> ]>
            <dblp><www>\(references)</www><article key="k"><title>t</title></article></dblp>
            """, schema: Self.schema(entities: nil))
        #expect(ContinuousClock.now - clock < .seconds(20 * Sanitizer.slowdown))
        #expect(issue.message.contains("entity references expand to more than"), "\(issue.message)")
    }
}
