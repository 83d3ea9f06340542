import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// The mappings that used to read silently wrong (issue 22), rebuilt as small fixtures: each
/// now prints its warning (an error under `--strict`), and the corrected schema builds with
/// no warning at all.
@Suite("XML mapping warnings")
struct XMLMappingWarningTests {
    /// A music catalogue: each release has artists, and each of its tracks has artists too.
    static let releases = """
        <releases>
          <release id="1"><title>One</title>
            <artists><artist><name>A</name></artist><artist><name>B</name></artist></artists>
            <genres><genre>Rock</genre><genre>Pop</genre></genres>
            <tracklist>
              <track><title>T1</title><artists><artist><name>C</name></artist></artists></track>
              <track><title>T2</title><artists><artist><name>D</name></artist><artist><name>E</name></artist></artists></track>
            </tracklist>
          </release>
          <release id="2"><title>Two</title>
            <artists><artist><name>F</name></artist></artists>
            <genres><genre>Jazz</genre></genres>
            <tracklist><track><title>T3</title></track></tracklist>
          </release>
        </releases>
        """

    private func schema(_ tables: String, extra: String = "") -> String {
        """
        name: catalogue
        schemaVersion: 1
        format: xml
        \(extra)tables:
        \(tables)
        """
    }

    static let releaseTable = """
          - name: release
            element: release
            key: release_id
            columns:
              - { name: release_id, type: integer, source: "@id" }
              - { name: title, source: title }

        """

    private func build(_ schemaText: String, xml: String = releases, file: String = "releases.xml", strict: Bool = false) throws -> (BuildSummary, Connection) {
        let folder = TemporaryFolder()
        folder.write("in/\(file)", xml)
        let schemaPath = folder.write("schema.yaml", schemaText)
        let output = folder.file("out.sqlite")
        let summary = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: output, schemaPath: schemaPath, strict: strict)).build()
        return (summary, try Connection(path: output))
    }

    private func buildError(_ schemaText: String, xml: String = releases, file: String = "releases.xml") throws -> BuildError {
        let folder = TemporaryFolder()
        folder.write("in/\(file)", xml)
        let schemaPath = folder.write("schema.yaml", schemaText)
        return try #require(throws: BuildError.self) {
            try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: folder.file("out.sqlite"), schemaPath: schemaPath, strict: true)).build()
        }
    }

    @Test("an element matched at several paths names each path with its count; the exact path is quiet")
    func severalPaths() throws {
        let loose = schema(Self.releaseTable + """
              - name: release_artist
                element: artists/artist
                parent: release
                columns:
                  - { name: position, type: integer, source: $position }
                  - { name: name, source: name }
            """)
        let (summary, db) = try build(loose)
        #expect(try db.int("SELECT count(*) FROM release_artist") == 6) // 3 release artists, 3 track artists
        #expect(summary.warnings == 1)
        #expect(summary.warningReport.contains("release_artist.element"))
        #expect(summary.warningReport.contains("matches elements at 2 paths inside 'release': release/artists/artist 3"), "\(summary.warningReport)")
        #expect(summary.warningReport.contains("release/tracklist/track/artists/artist 3"), "\(summary.warningReport)")
        let strict = try buildError(loose)
        #expect(strict.issues.contains { $0.kind == .ambiguousMappingError })

        let exact = loose.replacingOccurrences(of: "element: artists/artist", with: "element: release/artists/artist")
        let (fixed, fixedDB) = try build(exact)
        #expect(try fixedDB.int("SELECT count(*) FROM release_artist") == 3)
        #expect(fixed.warnings == 0, "\(fixed.warningReport)")
    }

    @Test("a source that repeats inside a record names the table, column, path and records; a child table is quiet")
    func repeatedSource() throws {
        let cut = schema("""
              - name: release
                element: release
                key: release_id
                columns:
                  - { name: release_id, type: integer, source: "@id" }
                  - { name: title, source: title }
                  - { name: genre, source: genres/genre }
            """)
        let (summary, db) = try build(cut)
        #expect(try db.text("SELECT genre FROM release WHERE release_id = 1") == "Rock")
        #expect(summary.warnings == 1)
        let report = summary.warningReport
        #expect(report.contains("release.genre") && report.contains("genres/genre"), "\(report)")
        #expect(report.contains("more than once in 1 of 2 records of 'release'"), "\(report)")
        #expect(report.contains("element: genres/genre, parent: release"), "\(report)")

        let (fixed, fixedDB) = try build(schema(Self.releaseTable + """
              - name: release_genre
                element: genres/genre
                parent: release
                columns:
                  - { name: position, type: integer, source: $position }
                  - { name: genre, source: . }
            """))
        #expect(try fixedDB.int("SELECT count(*) FROM release_genre") == 3)
        #expect(fixed.warnings == 0, "\(fixed.warningReport)")
    }

    /// A MediaWiki export: the schema names the 0.10 namespace, a file is 0.11.
    static func export(_ version: String) -> String {
        """
        <mediawiki xmlns="http://www.mediawiki.org/xml/export-\(version)/" version="\(version)">
          <page><title>A</title><id>1</id></page>
          <page><title>B</title><id>2</id></page>
        </mediawiki>
        """
    }

    static let pages = """
          - name: page
            element: page
            columns:
              - { name: title, source: title }
              - { name: page_id, type: integer, source: id }

        """

    @Test("a file that gives no rows is named with the namespaces it declares; unprefixed names read every version")
    func fileWithoutRows() throws {
        let pinned = schema(Self.pages, extra: "namespaces: { \"\": \"http://www.mediawiki.org/xml/export-0.10/\" }\n")
        let (summary, db) = try build(pinned, xml: Self.export("0.11"), file: "wiki.xml")
        #expect(try db.int("SELECT count(*) FROM page") == 0)
        let report = summary.warningReport
        #expect(report.contains("wiki.xml") && report.contains("gave no rows to any table"), "\(report)")
        #expect(report.contains("http://www.mediawiki.org/xml/export-0.11/"), "\(report)")
        let strict = try buildError(pinned, xml: Self.export("0.11"), file: "wiki.xml")
        #expect(strict.issues.contains { $0.kind == .unmatchedMappingError && $0.message.contains("export-0.11") })

        let (fixed, fixedDB) = try build(schema(Self.pages), xml: Self.export("0.11"), file: "wiki.xml")
        #expect(try fixedDB.int("SELECT count(*) FROM page") == 2)
        #expect(fixed.warnings == 0, "\(fixed.warningReport)")
    }

    @Test("an unquoted @id in the schema names the fix")
    func unquotedAttribute() {
        let text = schema(Self.releaseTable.replacingOccurrences(of: "source: \"@id\"", with: "source: @id"))
        #expect { try Schema.parse(Array(text.utf8), file: "s.yaml") } throws: { error in
            "\(error)".contains("must be quoted in YAML: source: \"@id\"")
        }
    }

    @Test("a record element that matches nothing warns, and fails under --strict")
    func misspeltElement() throws {
        let misspelt = schema(Self.releaseTable.replacingOccurrences(of: "element: release", with: "element: relase"))
        let (summary, db) = try build(misspelt)
        #expect(try db.int("SELECT count(*) FROM release") == 0)
        #expect(summary.warnings >= 1)
        #expect(summary.warningReport.contains("relase"), "\(summary.warningReport)")
        let strict = try buildError(misspelt)
        #expect(strict.issues.contains { $0.kind == .unmatchedMappingError })
        let (fixed, _) = try build(schema(Self.releaseTable))
        #expect(fixed.warnings == 0, "\(fixed.warningReport)")
    }
}
