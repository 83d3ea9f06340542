import Foundation
import SeedKitTestSupport
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
        let script = try ChildProcess.run("/usr/bin/env", ["python3", Repository.path("scripts/generate_topsongs.py"), "--entries", "300", "--out", feed])
        try #require(script.status == 0, "\(script)")
        let text = try checkDraft(of: feed)
        // The feed's entries are a table keyed by nothing the draft can prove unique, with
        // the Atom and iTunes namespaces declared.
        #expect(text.contains("element: \"/feed/entry\""))
        #expect(text.contains("\"http://itunes.apple.com/rss\""))
        #expect(text.contains("type: datetime"))
    }

    @Test("a folder of GPX files (1.0 and 1.1, varied waypoint and track point fields) drafts and builds; tables are named after the element and its nearest distinct parent")
    func gpxFolder() throws {
        let text = try checkDraft(of: Repository.path("Tests/Fixtures/xml/gpx"))
        let names = text.split(separator: "\n").compactMap { line -> String? in
            line.hasPrefix("  - name: ") ? String(line.dropFirst("  - name: ".count)) : nil
        }
        // GPX 1.0 and 1.1 are two namespaces: alike elements, numbered, never `trk_trkseg_trkseg_trkpt`.
        #expect(names == ["gpx", "trk", "trk_trkseg", "trkseg_trkpt", "gpx_2", "wpt", "rtept", "trk_trkseg_2", "trkseg_trkpt_2"], "\(names)")
        // A segment that holds only track points is a table (its rows their parents) that builds.
        #expect(text.contains("  - name: trk_trkseg_2\n    element: \"/ns1:gpx/trk/trkseg\""), "\(text)")
        // An elevation written 'unknown' in one waypoint makes the column text; track points' are real.
        #expect(text.contains("{ name: ele, source: \"ele\" }   # 3 of 4"), "\(text)")
        #expect(text.contains("{ name: ele, type: real, source: \"ele\" }   # 6 of 7"), "\(text)")
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

/// What a draft makes of a small catalogue: nested tables, types, keys, references,
/// namespaces, entities, mixed content, and its limits.
@Suite("Schema draft on fixtures")
struct SchemaDraftFixtureTests {
    static let catalogue = """
        <?xml version="1.0"?>
        <catalogue xmlns="http://example.org/music/v2" xmlns:x="http://example.org/extra" version="2" exported="2024-05-01T10:00:00Z">
          <labels>
            <label labelId="L1"><name>Sm&aacute;ll</name></label>
            <label labelId="L2"><name>Big</name></label>
          </labels>
          <release id="1" label="L1">
            <title>One</title><released>1999-03-00</released><length>4:45</length><price>9.99</price><explicit/>
            <artists><artist><name>A</name></artist><artist><name>B</name></artist></artists>
            <tracklist><track pos="1"><title>T1</title><duration>PT3M5S</duration><artists><artist><name>C</name></artist></artists></track>
              <track pos="2"><title>T2</title><duration>PT2M</duration></track></tracklist>
            <notes>Re-issued <b>twice</b>, see <i>there</i>.</notes>
            <x:added>2024-04-30T12:00:00.25+02:00</x:added>
          </release>
          <release id="2" label="L2">
            <title>Two</title><released>2000</released><length>12:07</length><price>10</price>
            <artists><artist><name>F</name></artist></artists>
            <tracklist><track pos="1"><title>T3</title><duration>PT59S</duration></track></tracklist>
            <x:added>2024-04-30T12:00:01Z</x:added>
          </release>
        </catalogue>
        """

    private func draft(_ xml: String, file: String = "catalogue.xml", hashBudget: Int = 2_000_000) throws -> (SchemaDraft, Schema, TemporaryFolder) {
        let folder = TemporaryFolder()
        folder.write("in/" + file, xml)
        let draft = try SchemaDraft.draft(inputs: [folder.file("in")], hashBudget: hashBudget)
        let schemaPath = folder.write("draft.yaml", draft.text)
        return (draft, try Schema.load(path: schemaPath), folder)
    }

    @Test("repeated elements become tables, nested ones with parent and $position; the draft builds quietly")
    func tables() throws {
        let (_, schema, folder) = try draft(Self.catalogue)
        let names = schema.tables.map(\.name)
        #expect(names.contains("label") && names.contains("release") && names.contains("track"))
        let artists = schema.tables.filter { $0.elementAlternatives.contains { $0.hasSuffix("/artists/artist") } }
        // The release's artists and its tracks' artists are two tables, each reading one path.
        #expect(artists.count == 2)
        #expect(Set(artists.compactMap(\.parent?.table)) == ["release", "track"])
        let track = try #require(schema.table(named: "track"))
        #expect(track.parent?.table == "release")
        #expect(track.columns.contains { $0.source == ["$position"] })
        let summary = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: folder.file("out.sqlite"),
                                                            schemaPath: folder.file("draft.yaml"), strict: true)).build()
        #expect(summary.warnings == 0, "\(summary.warningReport)")
        let db = try Connection(path: folder.file("out.sqlite"))
        #expect(try db.int("SELECT count(*) FROM track") == 3)
        #expect(try db.int("SELECT sum(c) FROM (SELECT count(*) c FROM \(artists[0].name) UNION ALL SELECT count(*) FROM \(artists[1].name))") == 4)
        #expect(try db.text("SELECT name FROM label WHERE label_id = 'L1'") == "Smáll")
    }

    @Test("a table found at more paths than are listed reads only its own elements: values alike elsewhere are another table's")
    func manyPaths() throws {
        // Twenty wrappers hold numeric items; two records hold text items under the same names.
        let xml = "<root>" + (0..<20).map { "<a\($0)><items><item>\($0)</item><item>\($0 + 1)</item></items></a\($0)>" }.joined()
            + (0..<2).map { "<thing><name>T\($0)</name><items><item>text \($0)</item><item>more</item></items></thing>" }.joined() + "</root>"
        let (_, schema, folder) = try draft(xml, file: "many.xml")
        let items = try #require(schema.tables.first { $0.parent == nil && $0.elementAlternatives.allSatisfy { $0.hasSuffix("items/item") } },
                                 "\(schema.tables.map(\.elementAlternatives))")
        #expect(items.columns.contains { $0.type == .integer }, "typed from its own values")
        let summary = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: folder.file("out.sqlite"),
                                                            schemaPath: folder.file("draft.yaml"), strict: true)).build()
        #expect(summary.warnings == 0, "\(summary.warningReport)")
        let db = try Connection(path: folder.file("out.sqlite"))
        #expect(try db.int("SELECT count(*) FROM \"\(items.name)\"") == 40)
    }

    @Test("columns are typed from every value: partial dates, m:ss lengths, durations, date-times with their precision, reals")
    func types() throws {
        let (_, schema, _) = try draft(Self.catalogue)
        let release = try #require(schema.table(named: "release"))
        func column(_ source: String) -> Column? { release.columns.first { $0.source == [source] } }
        #expect(column("released")?.type == .date && column("released")?.partial == true)
        #expect(column("length")?.type == .duration && column("length")?.format == "m:ss")
        #expect(column("price")?.type == .real)
        #expect(column("explicit")?.exists == true)
        #expect(column("@id")?.type == .integer && release.key == [column("@id")!.name])
        let added = try #require(release.columns.first { $0.source.first?.hasSuffix("added") == true })
        #expect(added.type == .datetime && added.precision == 2)
        let track = try #require(schema.table(named: "track"))
        #expect(track.columns.first { $0.source == ["duration"] }?.type == .duration)
    }

    @Test("references by name and value, the namespaces used, entities: html, and mixed content said")
    func referencesAndNotes() throws {
        let (draft, schema, _) = try draft(Self.catalogue)
        let release = try #require(schema.table(named: "release"))
        #expect(release.references.contains { $0.to == "label" && $0.onMissing != .keep })
        #expect(Set(schema.namespaces.values) == ["http://example.org/music/v2", "http://example.org/extra"])
        #expect(schema.entities == .html)
        #expect(draft.text.contains("mixed content"))
        // The root's attributes are kept in a table of their own, one row per file.
        let root = try #require(schema.tables.first { $0.elementAlternatives == ["/catalogue"] })
        #expect(root.columns.contains { $0.source == ["@exported"] && $0.type == .datetime })
    }

    @Test("an id that repeats is no key; a value that disagrees makes the column text")
    func conservative() throws {
        let xml = """
            <items><item id="1" n="1"/><item id="1" n="x"/><item id="2" n="3"/></items>
            """
        let (_, schema, folder) = try draft(xml, file: "items.xml")
        let item = try #require(schema.table(named: "items") ?? schema.table(named: "item"))
        #expect(item.key.isEmpty)
        #expect(item.columns.first { $0.source == ["@n"] }?.type == .text)
        _ = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: folder.file("out.sqlite"), schemaPath: folder.file("draft.yaml"))).build()
    }

    @Test("past the hash budget the draft says what it could not check, and makes no key of values it did not all check")
    func budget() throws {
        var xml = "<items>"
        for n in 1...200 { xml += "<item id=\"\(n)\"/>" }
        xml += "</items>"
        let (draft, schema, _) = try draft(xml, file: "items.xml", hashBudget: 50)
        #expect(draft.text.contains("too many to keep all"))
        // Unique in the first 25 values says nothing of the 175 others (the build would fail on a repeat).
        let keys = schema.tables.flatMap(\.key)
        #expect(keys.isEmpty, "\(draft.text)")
    }

    @Test("inputs with no XML fail with a message")
    func noXML() {
        let folder = TemporaryFolder()
        folder.write("in/stops.txt", "stop_id\nS1\n")
        #expect(throws: SchemaDraftError.self) { try SchemaDraft.draft(inputs: [folder.file("in")]) }
    }
}
