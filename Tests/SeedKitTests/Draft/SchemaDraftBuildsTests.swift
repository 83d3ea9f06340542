import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// A drafted schema builds on the input it was drafted from, whatever the input: every
/// decision the draft takes (types, keys, references, which elements and files a table
/// reads) holds for every value the build meets, not only for those the draft kept.
@Suite("Schema draft builds on its input")
struct SchemaDraftBuildsTests {
    /// Drafts `input` (with `hashBudget`), builds the draft on it, and returns the draft's
    /// text, the build's summary and the seed.
    private func draftAndBuild(_ input: String, hashBudget: Int = 2_000_000) throws -> (text: String, summary: BuildSummary, db: Connection) {
        let folder = TemporaryFolder()
        let draft = try SchemaDraft.draft(inputs: [input], hashBudget: hashBudget)
        let schemaPath = folder.write("draft.yaml", draft.text)
        let output = folder.file("draft.sqlite")
        let summary: BuildSummary
        do {
            summary = try SeedBuilder(options: BuildOptions(inputs: [input], output: output, schemaPath: schemaPath)).build()
        } catch {
            Issue.record("the draft does not build: \(error)\n\(draft.text)")
            throw error
        }
        return (draft.text, summary, try Connection(path: output, mode: .readOnly))
    }

    /// `draftAndBuild` on a folder holding `files` (name and content).
    private func draftAndBuild(files: [String: String], hashBudget: Int = 2_000_000) throws -> (text: String, summary: BuildSummary, db: Connection) {
        let folder = TemporaryFolder()
        for (name, text) in files { folder.write("in/" + name, text) }
        return try withExtendedLifetime(folder) { try draftAndBuild(folder.file("in"), hashBudget: hashBudget) }
    }

    @Test("GPX files in no namespace and in GPX 1.1, with a Garmin date '05-AUG-10 16:58:37' in a 1.1 waypoint's <cmt> and an empty Current.gpx: each table reads its own files' elements")
    func gpxMixed() throws {
        let (text, _, db) = try draftAndBuild(Repository.path("Tests/Fixtures/xml/gpx-mixed"))
        // The GPX 1.0 files declare no namespace: their root is written in none, so their
        // tables do not read the 1.1 file's waypoints, whose comments were not typed with theirs.
        #expect(text.contains("  none: \"\""), "\(text)")
        #expect(text.contains("element: \"/none:gpx/wpt\""), "\(text)")
        #expect(text.contains("{ name: cmt, type: date, source: \"cmt\" }   # 6 of 6"), "\(text)")
        #expect(text.contains("{ name: cmt, source: \"cmt\" }   # 2 of 2"), "\(text)")
        // The empty Current.gpx is not XML: no table's files name it.
        #expect(text.contains("file: \"track-2010-08-0*.gpx\""), "\(text)")
        #expect(!text.contains("file: \"*.gpx\""), "\(text)")
        #expect(try db.int("SELECT count(*) FROM gpx_wpt_2") == 6)
        #expect(try db.int("SELECT count(*) FROM gpx_wpt") == 2)
        #expect(try db.text("SELECT cmt FROM gpx_wpt WHERE name = '002'") == "05-AUG-10 16:58:37")
    }

    @Test("the draft of a real dump builds when its keys and references are judged on a part of the values (a small hash budget): no key is guessed, and references keep what names no row",
          .realData("stackexchange-ai-2017"))
    func realDumpSmallBudget() throws {
        let (text, summary, db) = try draftAndBuild(RealData.path("stackexchange-ai-2017"), hashBudget: 20_000)
        #expect(text.contains("too many to keep all"), "\(text)")
        #expect(text.contains("has more values than the draft keeps to check"), "\(text)")
        #expect(summary.tables.count == 8)
        #expect(try db.int("SELECT count(*) FROM votes") > 0)
    }

    @Test("an id unique in the values hashed but repeated past the budget is no key")
    func keyPastBudget() throws {
        // 40 hashes keep the first 20 ids (an id and an id in its file each): 90 repeats past them.
        let items = (1...100).map { "<item id=\"\($0)\"/>" }.joined() + "<item id=\"90\"/>"
        let (text, _, db) = try draftAndBuild(files: ["items.xml": "<items>\(items)</items>"], hashBudget: 40)
        #expect(!text.contains("\n    key: xml_id"), "\(text)")
        #expect(text.contains("has more values than the draft keeps to check"), "\(text)")
        #expect(try db.int("SELECT count(*) FROM item") == 101)
    }

    @Test("an element's text is typed with its children's text, as the build reads it")
    func textWithChildren() throws {
        let (text, _, db) = try draftAndBuild(files: ["log.xml": "<log><entry><n>12</n></entry><entry><n><b>twelve</b></n></entry><entry><n>3</n></entry></log>"])
        #expect(text.contains("{ name: n, source: \"n\" }"), "\(text)")
        #expect(try db.text("SELECT n FROM entry WHERE id = 2") == "twelve")
    }

    @Test("a child's text beside a record's attribute of the same name reads the child alone")
    func childBesideAttribute() throws {
        let (text, _, db) = try draftAndBuild(files: ["a.xml": "<gpx><wpt><cmt>2010-08-05</cmt></wpt><wpt><cmt>2010-08-06</cmt></wpt><wpt cmt=\"05-AUG-10 16:58:37\"/></gpx>"])
        #expect(text.contains("type: date, source: \"cmt/.\""), "\(text)")
        #expect(try db.int("SELECT count(*) FROM wpt WHERE cmt_2 IS NULL") == 1)
    }

    @Test("clock values are a time of day only when the time conversion reads each one; else h:mm:ss durations")
    func timeOfDay() throws {
        let (text, _, db) = try draftAndBuild(files: ["t.xml": "<t><stop><time>1:02:03</time></stop><stop><time>-0:05:00</time></stop><stop><at_time>25:10:00</at_time></stop><stop><at_time>7:00:00</at_time></stop></t>"])
        #expect(text.contains("{ name: time, type: duration, format: \"h:mm:ss\", source: \"time\" }"), "\(text)")
        #expect(text.contains("{ name: at_time, type: time, source: \"at_time\" }"), "\(text)")
        #expect(try db.int("SELECT time FROM stop WHERE id = 2") == -300)
    }

    @Test("a table at more paths than are listed, with items alike in another namespace outside it, lists every path")
    func shortPathOnlyWhenExact() throws {
        let xml = "<root xmlns:x=\"urn:x\">" + (0..<20).map { "<a\($0)><items><item>\($0)</item><item>\($0 + 1)</item></items></a\($0)>" }.joined()
            + (0..<2).map { "<thing><x:items><x:item>text \($0)</x:item></x:items></thing>" }.joined() + "</root>"
        let (text, _, _) = try draftAndBuild(files: ["many.xml": xml])
        #expect(!text.contains("# at 20 paths"), "\(text)")
    }

    @Test("files that are not XML are left out of every table's files: a README beside XML files of two extensions, named alike or not")
    func unreadFilesLeftOut() throws {
        let files = ["<t><r id=\"1\"/><r id=\"2\"/></t>", "<t><r id=\"3\"/><r id=\"4\"/></t>"]
        for (names, pattern) in [(["stops-a.xml", "stops-b.rdf"], "stops-*"), (["a.xml", "b.rdf"], "*.[rx][dm][fl]")] {
            let (text, _, db) = try draftAndBuild(files: [names[0]: files[0], names[1]: files[1], "README.md": "# notes\n"])
            #expect(text.contains("file: \"\(pattern)\""), "\(text)")
            #expect(try db.int("SELECT count(*) FROM r") == 4)
        }
    }

    @Test("a file whose name holds a pattern's characters is named by a pattern that matches it")
    func fileNameWithBrackets() throws {
        let (text, _, db) = try draftAndBuild(files: ["data[1].xml": "<t><r id=\"1\"/><r id=\"2\"/></t>"])
        #expect(text.contains("file: \"data\\\\[1].xml\""), "\(text)")
        #expect(try db.int("SELECT count(*) FROM r") == 2)
    }
}
