import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// References resolve against the whole input, in any order within a file and across files;
/// `$file` scopes keys to their file; duplicate keys name both copies.
@Suite("Forward references and file scope")
struct XMLForwardReferenceTests {
    /// Routes (referencing lines) come before the lines, as NeTEx orders its frames.
    static let schema = """
        name: netex-like
        schemaVersion: 1
        format: xml
        tables:
          - name: line
            element: Line
            key: [code]
            columns:
              - { name: code, source: "@id", required: true }
              - { name: name, source: Name }
          - name: route
            element: Route
            key: [code]
            columns:
              - { name: code, source: "@id", required: true }
              - { name: line_id, source: LineRef/@ref, stored: false }
            references:
              - { column: line_ref, from: [line_id], to: line }
        """

    static func document(routes: [(String, String)], lines: [String]) -> String {
        var text = "<PublicationDelivery><routes>\n"
        for (id, line) in routes { text += "<Route id=\"\(id)\"><LineRef ref=\"\(line)\"/></Route>\n" }
        text += "</routes><lines>\n"
        for id in lines { text += "<Line id=\"\(id)\"><Name>Line \(id)</Name></Line>\n" }
        return text + "</lines></PublicationDelivery>\n"
    }

    /// The folder outlives the tests' reads of the seed.
    private let folder = TemporaryFolder()

    private func build(_ files: [String: String], schema: String = XMLForwardReferenceTests.schema,
                       allowDangling: Bool = false) throws -> (TemporaryFolder, String, Result<BuildSummary, BuildError>) {
        for (name, text) in files { folder.write("in/" + name, text) }
        let schemaPath = folder.write("schema.yaml", schema)
        let output = folder.file("seed.sqlite")
        let result = Result { () throws(BuildError) in
            try SeedBuilder.build([folder.file("in")], to: output, schema: schemaPath, allowDangling: allowDangling)
        }
        return (folder, output, result)
    }

    @Test("thousands of references to rows further down the file resolve (routes before lines)")
    func forwardInFileLarge() throws {
        // More routes than a batch: the first batches are written before any line is read.
        let routes = (1...10_000).map { ("R\($0)", "L\($0 % 7 + 1)") }
        let text = Self.document(routes: routes, lines: (1...7).map { "L\($0)" })
        let (_, output, result) = try build(["a.xml": text])
        let summary = try result.get()
        #expect(summary.warnings == 0)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM route WHERE line_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM route r JOIN line l ON l.id = r.line_ref WHERE l.code != 'L' || (CAST(substr(r.code, 2) AS INTEGER) % 7 + 1)") == 0)
        #expect(try db.int("SELECT count(*) FROM pragma_foreign_key_check") == 0)
    }

    @Test("a reference to a row further down the file resolves (routes before lines)")
    func forwardInFile() throws {
        let text = Self.document(routes: [("R1", "L2"), ("R2", "L1"), ("R3", "L2")], lines: ["L1", "L2"])
        let (_, output, result) = try build(["a.xml": text])
        let summary = try result.get()
        #expect(summary.warnings == 0)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("SELECT group_concat(pair, ' ') FROM (SELECT r.code || '>' || l.code AS pair FROM route r JOIN line l ON l.id = r.line_ref ORDER BY r.code)") == "R1>L2 R2>L1 R3>L2")
        #expect(try db.int("SELECT count(*) FROM pragma_foreign_key_check") == 0)
        #expect(summary.references["route.line_ref"]?.unresolved == 0)
    }

    @Test("a reference to a row in a later file resolves")
    func forwardAcrossFiles() throws {
        let first = Self.document(routes: [("R1", "L9")], lines: ["L1"])
        let second = Self.document(routes: [("R2", "L1")], lines: ["L9"])
        let (_, output, result) = try build(["a.xml": first, "b.xml": second])
        _ = try result.get()
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("SELECT l.code FROM route r JOIN line l ON l.id = r.line_ref WHERE r.code = 'R1'") == "L9")
        #expect(try db.text("SELECT l.code FROM route r JOIN line l ON l.id = r.line_ref WHERE r.code = 'R2'") == "L1")
    }

    @Test("a key absent from the whole input fails, naming its place and 'not found in any input'")
    func dangling() throws {
        let text = Self.document(routes: [("R1", "L1"), ("R2", "NOPE")], lines: ["L1"])
        let (_, _, result) = try build(["a.xml": text])
        guard case .failure(let error) = result else { Issue.record("the build should fail"); return }
        let issue = try #require(error.issues.first { $0.kind == .danglingReference })
        #expect(issue.value == "NOPE")
        #expect(issue.line == 3)
        #expect(issue.column != nil)
        #expect(issue.file.hasSuffix("in/a.xml"))
        #expect(issue.description.contains("names no row of 'line' (key code): not found in any input"))
    }

    @Test("a key made of a forward reference that turns out duplicated fails as a duplicate key")
    func duplicateAfterResolution() throws {
        let schema = Self.schema.replacingOccurrences(of: "  - name: route\n    element: Route\n    key: [code]", with: "  - name: route\n    element: Route\n    key: [line_ref, code]")
        #expect(schema != Self.schema)
        // The lines are in a later file: the routes' references are resolved after loading.
        let routes = Self.document(routes: [("R1", "L1"), ("R1", "L2"), ("R1", "L1")], lines: [])
        let lines = Self.document(routes: [], lines: ["L1", "L2"])
        let (_, _, result) = try build(["a.xml": routes, "b.xml": lines], schema: schema)
        guard case .failure(let error) = result else { Issue.record("the build should fail"); return }
        let issue = try #require(error.issues.first { $0.kind == .duplicateKey })
        #expect(issue.message.contains("have the same key once line_ref is resolved after loading"))
    }

    @Test("--allow-dangling keeps a deferred key that names no row as NULL, with a warning")
    func danglingAllowed() throws {
        let text = Self.document(routes: [("R1", "NOPE"), ("R2", "L1")], lines: ["L1"])
        let (_, output, result) = try build(["a.xml": text], allowDangling: true)
        let summary = try result.get()
        #expect(summary.warnings == 1)
        #expect(summary.warningReport.contains("'NOPE' names no row of 'line' in any input; kept with line_ref = NULL"))
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM route WHERE line_ref IS NULL") == 1)
    }

    @Test("onMissing: keep stores the id of an object outside the input, NULL reference, one warning")
    func keepOutside() throws {
        let schema = Self.schema
            .replacingOccurrences(of: "{ name: line_id, source: LineRef/@ref, stored: false }", with: "{ name: line_id, source: LineRef/@ref }")
            .replacingOccurrences(of: "to: line }", with: "to: line, onMissing: keep }")
        let text = Self.document(routes: [("R1", "X1"), ("R2", "L1"), ("R3", "X2"), ("R4", "X3")], lines: ["L1"])
        let (_, output, result) = try build(["a.xml": text], schema: schema)
        let summary = try result.get()
        #expect(summary.warnings == 1)
        #expect(summary.warningReport.contains("'X1' names no row of 'line' in any input (an object outside the input); kept as its id with line_ref = NULL, as are 2 more keys of route.line_ref"))
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("SELECT group_concat(line_id, ' ') FROM route WHERE line_ref IS NULL ORDER BY id") == "X1 X2 X3")
        #expect(try db.int("SELECT line_ref FROM route WHERE code = 'R2'") == 1)
    }

    @Test("onMissing: keep needs the key columns stored")
    func keepNeedsStored() throws {
        let schema = Self.schema.replacingOccurrences(of: "to: line }", with: "to: line, onMissing: keep }")
        #expect(throws: SchemaError.self) { try Schema.parse(Array(schema.utf8), file: "s.yaml") }
    }

    /// TransXChange-like: ids repeat in every file; keys and references include `$file`.
    static let scopedSchema = """
        name: scoped
        schemaVersion: 1
        format: xml
        tables:
          - name: section
            element: JourneyPatternSection
            key: [file, code]
            columns:
              - { name: file, source: $file }
              - { name: code, source: "@id" }
          - name: pattern
            element: JourneyPattern
            key: [file, code]
            columns:
              - { name: file, source: $file }
              - { name: code, source: "@id" }
              - { name: section_id, source: JourneyPatternSectionRefs, stored: false }
            references:
              - { column: section_ref, from: [file, section_id], to: section }
        """

    static func txc(_ sections: [String], patterns: [(String, String)]) -> String {
        var text = "<TransXChange><JourneyPatternSections>"
        for id in sections { text += "<JourneyPatternSection id=\"\(id)\"/>" }
        text += "</JourneyPatternSections><Services>"
        for (id, section) in patterns { text += "<JourneyPattern id=\"\(id)\"><JourneyPatternSectionRefs>\(section)</JourneyPatternSectionRefs></JourneyPattern>" }
        return text + "</Services></TransXChange>"
    }

    @Test("$file scopes keys and references: a folder of files reusing ids builds")
    func fileScope() throws {
        let files = ["one.xml": Self.txc(["JPS1", "JPS2"], patterns: [("JP1", "JPS2"), ("JP2", "JPS1")]),
                     "two.xml": Self.txc(["JPS1"], patterns: [("JP1", "JPS1")])]
        let (_, output, result) = try build(files, schema: Self.scopedSchema)
        _ = try result.get()
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM section") == 3)
        #expect(try db.text("SELECT group_concat(file, ' ') FROM (SELECT DISTINCT file FROM section ORDER BY file)") == "one.xml two.xml")
        // The file names are those of seedgen_inputs.
        #expect(try db.int("SELECT count(*) FROM section WHERE file NOT IN (SELECT name FROM seedgen_inputs)") == 0)
        let pairs = try db.text("""
            SELECT group_concat(pair, ' ') FROM (SELECT p.file || ':' || p.code || '>' || s.file || ':' || s.code AS pair
            FROM pattern p JOIN section s ON s.id = p.section_ref ORDER BY p.file, p.code)
            """)
        #expect(pairs == "one.xml:JP1>one.xml:JPS2 one.xml:JP2>one.xml:JPS1 two.xml:JP1>two.xml:JPS1")
    }

    @Test("an XML duplicate key names the first copy's file and line")
    func duplicateXML() throws {
        let schema = """
            name: unscoped
            schemaVersion: 1
            format: xml
            tables:
              - name: section
                element: JourneyPatternSection
                key: [code]
                columns:
                  - { name: code, source: "@id" }
            """
        let files = ["one.xml": Self.txc(["JPS1"], patterns: []),
                     "two.xml": "<TransXChange>\n<JourneyPatternSections>\n<JourneyPatternSection id=\"JPS1\"/></JourneyPatternSections></TransXChange>"]
        let (_, _, result) = try build(files, schema: schema)
        guard case .failure(let error) = result else { Issue.record("the build should fail"); return }
        let issue = try #require(error.issues.first { $0.kind == .duplicateKey })
        #expect(issue.file.hasSuffix("in/two.xml"))
        #expect(issue.line == 3)
        #expect(issue.message.hasSuffix("first copy at \(issue.file.replacingOccurrences(of: "two.xml", with: "one.xml")):1"))
    }

    @Test("a CSV duplicate key names the first copy's line")
    func duplicateCSV() throws {
        let issues = try failingBuild(["stops.txt": "stop_id,stop_name\nS1,One\nS2,Two\nS1,Again\n"])
        let issue = try #require(issues.first { $0.kind == .duplicateKey })
        #expect(issue.line == 4)
        #expect(issue.message.hasSuffix("first copy at \(issue.file):2"))
    }

    @Test("the first copy is found among many rows (its place is read back from disk)")
    func duplicateAfterManyRows() throws {
        var stops = "stop_id,stop_name\n"
        for i in 1...20_000 { stops += "S\(i),Stop \(i)\n" }
        stops += "S7,Again\n"
        let issues = try failingBuild(["stops.txt": stops])
        let issue = try #require(issues.first { $0.kind == .duplicateKey })
        #expect(issue.line == 20_002)
        #expect(issue.message.hasSuffix("first copy at \(issue.file):8"))
    }

    @Test("onMissing: keep in a CSV schema: one warning, ids kept, references NULL")
    func keepInCSV() throws {
        let folder = TemporaryFolder()
        folder.write("feed/lines.txt", "line_id\nL1\n")
        folder.write("feed/routes.txt", "route_id,line_id\nR1,L1\nR2,X1\nR3,X2\n")
        let schemaPath = folder.write("schema.yaml", """
            name: kept
            schemaVersion: 1
            tables:
              - name: lines
                key: line_id
                columns: [{ name: line_id }]
              - name: routes
                columns: [{ name: route_id }, { name: line_id }]
                references:
                  - { column: line_ref, from: line_id, to: lines, onMissing: keep }
            """)
        let output = folder.file("seed.sqlite")
        let summary = try SeedBuilder.build([folder.file("feed")], to: output, schema: schemaPath)
        #expect(summary.warnings == 1)
        #expect(summary.warningReport.contains("routes.txt:3:4: line_id: 'X1' names no row of 'lines' in any input (an object outside the input); kept as its id with line_ref = NULL, as is 1 more key of routes.line_ref"))
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("SELECT group_concat(route_id || ':' || line_id || ':' || ifnull(line_ref, 'NULL'), ' ') FROM routes") == "R1:L1:1 R2:X1:NULL R3:X2:NULL")
    }

    @Test("$file in a CSV schema stores the file's name")
    func fileInCSV() throws {
        let folder = TemporaryFolder()
        folder.write("feed/things.txt", "code\nA\nB\n")
        let schemaPath = folder.write("schema.yaml", """
            name: things
            schemaVersion: 1
            tables:
              - name: things
                key: [file, code]
                columns:
                  - { name: file, source: $file }
                  - { name: code }
            """)
        let output = folder.file("seed.sqlite")
        _ = try SeedBuilder.build([folder.file("feed")], to: output, schema: schemaPath)
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("SELECT group_concat(file || '/' || code, ' ') FROM things") == "things.txt/A things.txt/B")
    }

    @Test("--lenient keeps an XML forward reference that names no row, as NULL with a warning")
    func lenientXMLForwardReference() throws {
        let folder = TemporaryFolder()
        let schema = folder.write("lines.yaml", """
            name: lines
            schemaVersion: 1
            format: xml
            tables:
              - name: route
                element: Route
                key: code
                columns:
                  - { name: code, source: "@code" }
                  - { name: line_code, source: "@line", stored: false }
                references:
                  - { column: line_ref, from: line_code, to: line }
              - name: line
                element: Line
                key: code
                columns:
                  - { name: code, source: "@code" }
            """)
        folder.write("in/a.xml", #"<root><Route code="R1" line="L1"/><Route code="R2" line="L9"/><Line code="L1"/></root>"#)
        var options = BuildOptions(inputs: [folder.file("in")], output: folder.file("s.sqlite"), schemaPath: schema)
        #expect(throws: BuildError.self) { try SeedBuilder(options: options).build() }
        options.lenient = true
        let summary = try SeedBuilder(options: options).build()
        #expect(summary.warningReport.contains("'L9' names no row of 'line' in any input; kept with line_ref = NULL"), "\(summary.warningReport)")
        let db = try Connection(path: folder.file("s.sqlite"), mode: .readOnly)
        #expect(try db.text("SELECT group_concat(code || '>' || ifnull(line_ref, 'NULL'), ' ') FROM (SELECT * FROM route ORDER BY code)") == "R1>1 R2>NULL")
    }
}
