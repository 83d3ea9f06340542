import Foundation
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// `seedgen schema draft` on every XML data set of `RealData` writes a schema that builds as
/// it is, with no error, and each table holds as many rows as an independent count
/// (Foundation's `XMLParser`, `ElementPathCounter`) finds elements at the paths it names.
@Suite("Schema draft")
struct SchemaDraftTests {
    static let dataSets = [
        "stackexchange-ai-2017", "osm-liechtenstein-2013/liechtenstein-2013-08-03.osm",
        "xml-transit/netex-nordic-flb", "xml-transit/netex-swiss", "xml-transit/txc-somerset-2014",
        "xml-transit-2/netex-de-nap-epip", "xml-transit-2/netex-fr-hove", "xml-transit-2/netex-nl-qbuzz-flex",
        "xml-transit-2/txc-stagecoach-registration",
    ]

    @Test("a drafted schema builds as it is, and its tables' row counts equal the elements they read",
          .realData("stackexchange-ai-2017", "osm-liechtenstein-2013", "xml-transit", "xml-transit-2"), arguments: dataSets)
    func draftBuilds(_ dataSet: String) throws {
        try checkDraft(of: RealData.path(dataSet))
    }

    @Test("the TopSongs feed written by scripts/generate_topsongs.py drafts and builds")
    func topSongs() throws {
        let folder = TemporaryFolder()
        let feed = folder.file("topsongs.xml")
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        script.arguments = ["python3", Repository.path("scripts/generate_topsongs.py"), "--entries", "300", "--out", feed]
        script.standardOutput = FileHandle.nullDevice
        try script.run()
        script.waitUntilExit()
        try #require(script.terminationStatus == 0)
        let text = try checkDraft(of: feed)
        // The feed's entries are a table keyed by nothing the draft can prove unique, with
        // the Atom and iTunes namespaces declared.
        #expect(text.contains("element: \"/feed/entry\""))
        #expect(text.contains("\"http://itunes.apple.com/rss\""))
        #expect(text.contains("type: datetime"))
    }

    /// Drafts a schema for `input`, builds it, and checks every table's rows against the
    /// elements; returns the draft's text.
    @discardableResult
    private func checkDraft(of input: String) throws -> String {
        let folder = TemporaryFolder()
        let draft = try SchemaDraft.draft(inputs: [input])
        let schemaPath = folder.file("draft.yaml")
        try draft.text.write(toFile: schemaPath, atomically: true, encoding: .utf8)
        let output = folder.file("draft.sqlite")
        let summary = try SeedBuilder(options: BuildOptions(inputs: [input], output: output, schemaPath: schemaPath)).build()
        let schema = try Schema.load(path: schemaPath)
        let files = try InputSet(paths: [input]).files.filter { draft.files.contains($0.name) }.map(\.displayPath)
        let counts = ElementPathCounter.count(files: files)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(schema.tables.count == draft.tableCount)
        for table in schema.tables {
            let expected = ElementPathCounter.matching(table.elementAlternatives, namespaces: schema.namespaces, in: counts)
            #expect(expected > 0, "\(table.name): \(table.elementAlternatives)")
            #expect(try db.int("SELECT count(*) FROM \"\(table.name)\"") == Int64(expected), "\(table.name): \(table.elementAlternatives)")
        }
        #expect(summary.tables.count == schema.tables.count)
        return draft.text
    }
}
