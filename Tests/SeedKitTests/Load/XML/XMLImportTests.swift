import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// XML inputs build seeds from a schema alone: records by element, values by path, nested
/// records, positions, find-or-create relationships, lists and filters.
@Suite("XML import")
struct XMLImportTests {
    @Test("TopSongs: every entry is a song with its rank, price, date and album")
    func topSongs() throws {
        let folder = TemporaryFolder()
        let output = folder.file("songs.sqlite")
        let summary = try SeedBuilder.build([XMLFixtures.topSongs], to: output, schema: XMLFixtures.schema("topsongs"))
        let db = try Connection(path: output, mode: .readOnly)

        let entries = XMLFixtures.occurrences(of: "<entry>", in: XMLFixtures.topSongs)
        #expect(try db.int("SELECT count(*) FROM song") == Int64(entries))
        #expect(summary.tables.first { $0.name == "song" }?.rows == entries)
        // Rank is the entry's position in the feed.
        #expect(try db.int("SELECT count(*) FROM song WHERE rank = id") == Int64(entries))
        #expect(try db.text("SELECT title FROM song WHERE rank = 1") == "Thrift Shop (feat. Wanz)")
        #expect(try db.text("SELECT artist FROM song WHERE rank = 1") == "Macklemore & Ryan Lewis")
        #expect(try db.text("SELECT album FROM song WHERE rank = 1") == "The Heist (Deluxe Edition)")
        #expect(try db.scalar("SELECT price FROM song WHERE rank = 2") == .real(0.99))
        // ISO 8601 with a zone, stored in UTC.
        #expect(try db.text("SELECT release_date FROM song WHERE rank = 1") == "2012-10-09T07:00:00Z")
        #expect(try db.text("SELECT release_date FROM song WHERE rank = 4") == "2012-11-19T08:00:00Z")
        // The non-stored category name is not a column.
        #expect(try db.int("SELECT count(*) FROM pragma_table_info('song') WHERE name = 'category_name'") == 0)
    }

    @Test("TopSongs: each song has its category; categories are created once and are unique")
    func topSongsCategories() throws {
        let folder = TemporaryFolder()
        let output = folder.file("songs.sqlite")
        let summary = try SeedBuilder.build([XMLFixtures.topSongs], to: output, schema: XMLFixtures.schema("topsongs"))
        let db = try Connection(path: output, mode: .readOnly)

        #expect(try db.int("SELECT count(*) FROM song WHERE category_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM song LEFT JOIN category c ON c.id = category_ref WHERE c.id IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM category") == 4)
        #expect(try db.int("SELECT count(DISTINCT name) FROM category") == 4)
        #expect(try db.text("SELECT c.name FROM song s JOIN category c ON c.id = s.category_ref WHERE s.rank = 3") == "Pop")
        #expect(try db.text("SELECT c.name FROM song s JOIN category c ON c.id = s.category_ref WHERE s.rank = 4") == "Pop")
        // The last entry has no `term`: the fall-back source `@label` names its category.
        #expect(try db.text("SELECT c.name FROM song s JOIN category c ON c.id = s.category_ref WHERE s.rank = 5") == "Country")
        let statistics = try #require(summary.references["song.category_ref"])
        #expect(statistics.created == 4)
        #expect(statistics.hits + statistics.misses == 5)
    }

    @Test("find-or-create with a tiny cache still creates each category once")
    func smallCache() throws {
        let folder = TemporaryFolder()
        let feed = folder.file("feed.xml")
        GeneratedFeed.write(entries: 500, categories: 30, to: feed)
        let output = folder.file("songs.sqlite")
        let summary = try SeedBuilder(options: BuildOptions(inputs: [feed], output: output, schemaPath: XMLFixtures.schema("topsongs"), cacheSize: 4)).build()
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM song") == 500)
        #expect(try db.int("SELECT count(*) FROM category") == 30)
        #expect(try db.int("SELECT count(*) FROM song s JOIN category c ON c.id = s.category_ref WHERE c.name = 'Genre ' || (s.rank % 30)") == 500)
        #expect(summary.references["song.category_ref"]?.created == 30)
    }

    @Test("a mirrored model needs no mapping: five levels of nesting become rows with parent links")
    func mirroredModel() throws {
        let folder = TemporaryFolder()
        let output = folder.file("library.sqlite")
        _ = try SeedBuilder.build([XMLFixtures.library], to: output, schema: XMLFixtures.schema("library"))
        let db = try Connection(path: output, mode: .readOnly)
        for (table, element) in [("library", "<library "), ("author", "<author "), ("book", "<book "), ("chapter", "<chapter "), ("section", "<section>")] {
            #expect(try db.int("SELECT count(*) FROM \(table)") == Int64(XMLFixtures.occurrences(of: element, in: XMLFixtures.library)), "\(table)")
        }
        #expect(try db.text("SELECT name || '|' || city FROM library") == "Cairns City Library|Cairns")
        #expect(try db.text("SELECT born FROM author WHERE name = 'Jane Austen'") == "1775-12-16")
        // A book's title is its own child, not a chapter's.
        #expect(try db.text("SELECT group_concat(title, '|') FROM book") == "Pride and Prejudice|Emma|Great Expectations")
        #expect(try db.int("SELECT available FROM book WHERE title = 'Emma'") == 0)
        // The whole chain, section -> chapter -> book -> author -> library.
        let chain = try db.text("""
            SELECT l.name || '/' || a.name || '/' || b.title || '/' || c.title || '/' || s.heading
            FROM section s JOIN chapter c ON c.id = s.chapter_ref JOIN book b ON b.id = c.book_ref
            JOIN author a ON a.id = b.author_ref JOIN library l ON l.id = a.library_ref WHERE s.heading = 'The convict'
            """)
        #expect(chain == "Cairns City Library/Charles Dickens/Great Expectations/Pip/The convict")
        #expect(try db.int("SELECT count(*) FROM section WHERE chapter_ref IS NULL") == 0)
    }

    @Test("positions count within the parent; filters skip records and their nested rows")
    func positionsAndFilters() throws {
        let folder = TemporaryFolder()
        folder.write("schema.yaml", """
            name: shelf
            schemaVersion: 1
            format: xml
            tables:
              - name: shelf
                element: shelf
                columns: [{ name: label, source: "@label" }]
              - name: book
                parent: shelf
                filter: [{ source: status, notEquals: withdrawn }]
                columns:
                  - { name: title, source: [title, name] }
                  - { name: place, type: integer, source: $position }
              - name: note
                parent: book
                columns: [{ name: text, source: . }]
            """)
        folder.write("data/shelves.xml", """
            <shelves>
              <shelf label="A">
                <book><title>One</title><note>first</note></book>
                <book><note>gone</note><title>Two</title><status>withdrawn</status></book>
                <book><name>Three</name></book>
              </shelf>
              <shelf label="B"><book><title>Four</title><note> kept </note></book></shelf>
            </shelves>
            """)
        let output = folder.file("out.sqlite")
        let summary = try SeedBuilder.build([folder.file("data")], to: output, schema: folder.file("schema.yaml"))
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("SELECT group_concat(title || ':' || place, ' ') FROM book") == "One:1 Three:3 Four:1")
        #expect(summary.filtered["book"] == 1)
        // The note of the withdrawn book went with it; text is trimmed.
        #expect(try db.text("SELECT group_concat(text, ',') FROM note") == "first,kept")
        #expect(try db.int("SELECT count(*) FROM note n LEFT JOIN book b ON b.id = n.book_ref WHERE b.id IS NULL") == 0)
    }

    @Test("namespaces are honoured: a name in another namespace is not a match")
    func namespaces() throws {
        let folder = TemporaryFolder()
        folder.write("schema.yaml", """
            name: ns
            schemaVersion: 1
            format: xml
            namespaces: { a: "urn:a" }
            tables:
              - name: item
                element: a:item
                columns: [{ name: name, source: "a:name" }, { name: code, source: "@a:code" }]
            """)
        folder.write("data/items.xml", """
            <root xmlns:x="urn:a" xmlns:b="urn:b">
              <x:item x:code="1"><b:name>wrong</b:name><x:name>right</x:name></x:item>
              <b:item><x:name>not an item</x:name></b:item>
            </root>
            """)
        let output = folder.file("out.sqlite")
        _ = try SeedBuilder.build([folder.file("data")], to: output, schema: folder.file("schema.yaml"))
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.int("SELECT count(*) FROM item") == 1)
        #expect(try db.text("SELECT name || ' ' || code FROM item") == "right 1")
    }

    @Test("list values become ordered rows; &amp; in attributes is decoded")
    func lists() throws {
        let folder = TemporaryFolder()
        folder.write("schema.yaml", """
            name: lists
            schemaVersion: 1
            format: xml
            tables:
              - name: tag
                element: tag
                key: name
                columns: [{ name: name, source: "@name" }]
              - name: post
                element: post
                columns: [{ name: title, source: "@title" }]
              - name: post_tag
                parent: post
                list: { source: "@tags", open: "<", close: ">" }
                columns: [{ name: tag_name, source: . }, { name: position, type: integer, source: $position }]
                references: [{ column: tag_ref, from: tag_name, to: tag }]
            """)
        folder.write("data/a.xml", """
            <site><tag name="ai"/><tag name="ml"/><tag name="r&amp;d"/>
            <post title="Q &amp; A" tags="&lt;ml&gt;&lt;r&amp;d&gt;&lt;ai&gt;"/><post title="none"/></site>
            """)
        let output = folder.file("out.sqlite")
        _ = try SeedBuilder.build([folder.file("data")], to: output, schema: folder.file("schema.yaml"))
        let db = try Connection(path: output, mode: .readOnly)
        #expect(try db.text("SELECT title FROM post WHERE id = 1") == "Q & A")
        #expect(try db.text("SELECT group_concat(t.name, ',') FROM (SELECT * FROM post_tag ORDER BY position) p JOIN tag t ON t.id = p.tag_ref") == "ml,r&d,ai")
        #expect(try db.int("SELECT count(*) FROM post_tag WHERE post_ref = 1") == 3)
    }

    @Test("an .osm file needs no --schema: the built-in osm schema reads it, node lists in order")
    func builtInOSM() throws {
        let folder = TemporaryFolder()
        let output = folder.file("osm.sqlite")
        let summary = try SeedBuilder.build([XMLFixtures.osmExcerpt], to: output)
        #expect(summary.schemaName == "osm")
        let db = try Connection(path: output, mode: .readOnly)
        let file = XMLFixtures.osmExcerpt
        #expect(try db.int("SELECT count(*) FROM node") == Int64(XMLFixtures.occurrences(of: "<node ", in: file)))
        #expect(try db.int("SELECT count(*) FROM way") == 3)
        #expect(try db.int("SELECT count(*) FROM way_node") == Int64(XMLFixtures.occurrences(of: "<nd ", in: file)))
        #expect(try db.int("SELECT (SELECT count(*) FROM node_tag) + (SELECT count(*) FROM way_tag) + (SELECT count(*) FROM relation_tag)")
                == Int64(XMLFixtures.occurrences(of: "<tag ", in: file)))
        let data = FileManager.default.contents(atPath: file)!
        let expected = XMLFixtures.attributeValues("ref", of: "<nd ", in: data)
        let stored = try db.rows("SELECT n.osm_id FROM way_node wn JOIN node n ON n.id = wn.node_ref ORDER BY wn.way_ref, wn.position")
            .map { $0[0].description }
        #expect(stored == expected)
        #expect(try db.text("SELECT type || ' ' || ref || ' ' || role FROM relation_member WHERE position = 1") != nil)
    }
}
