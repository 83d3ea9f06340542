import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// The real dumps (`RealData`) build with `Schema/osm.yaml` and
/// `Schema/stackexchange.yaml`; counts are taken from the XML text, not from seedgen.
@Suite("XML real data", .realData(XMLFixtures.osmData, XMLFixtures.stackExchangeData + "/Posts.xml"))
struct XMLRealDataTests {
    @Test("OSM Liechtenstein: nodes, ways, relations, tags; way node lists in order")
    func openStreetMap() throws {
        let folder = TemporaryFolder()
        let output = folder.file("osm.sqlite")
        _ = try SeedBuilder.build([XMLFixtures.osm], to: output, schema: XMLFixtures.schema("osm"))
        let db = try Connection(path: output, mode: .readOnly)
        let file = XMLFixtures.osm
        #expect(try db.int("SELECT count(*) FROM node") == Int64(XMLFixtures.occurrences(of: "<node ", in: file)))
        #expect(try db.int("SELECT count(*) FROM way") == Int64(XMLFixtures.occurrences(of: "<way ", in: file)))
        #expect(try db.int("SELECT count(*) FROM relation") == Int64(XMLFixtures.occurrences(of: "<relation ", in: file)))
        #expect(try db.int("SELECT count(*) FROM way_node") == Int64(XMLFixtures.occurrences(of: "<nd ", in: file)))
        #expect(try db.int("SELECT count(*) FROM relation_member") == Int64(XMLFixtures.occurrences(of: "<member ", in: file)))
        #expect(try db.int("SELECT (SELECT count(*) FROM node_tag) + (SELECT count(*) FROM way_tag) + (SELECT count(*) FROM relation_tag)")
                == Int64(XMLFixtures.occurrences(of: "<tag ", in: file)))
        #expect(try db.int("SELECT count(*) FROM way_node WHERE node_ref IS NULL") == 0)

        // The node list of every way, in order, equals the <nd ref> list in the file.
        let data = FileManager.default.contents(atPath: file)!
        let ways = data[data.range(of: Data("<way ".utf8))!.lowerBound..<(data.range(of: Data("<relation ".utf8))?.lowerBound ?? data.endIndex)]
        let expected = XMLFixtures.attributeValues("ref", of: "<nd ", in: Data(ways))
        let stored = try db.rows("SELECT n.osm_id FROM way_node wn JOIN node n ON n.id = wn.node_ref ORDER BY wn.way_ref, wn.position")
            .map { $0[0].description }
        #expect(stored == expected)
        #expect(try db.int("SELECT count(*) FROM (SELECT way_ref, max(position) m, count(*) c FROM way_node GROUP BY way_ref) WHERE m != c") == 0)
        let firstWay = try db.int("SELECT w.osm_id FROM way w JOIN way_node wn ON wn.way_ref = w.id WHERE wn.position = 1 ORDER BY w.id LIMIT 1")
        #expect(String(firstWay) == XMLFixtures.attributeValues("id", of: "<way ", in: Data(ways)).first)
    }

    @Test("Stack Exchange: posts -> users, answers -> questions, ordered post tags")
    func stackExchange() throws {
        let folder = TemporaryFolder()
        let output = folder.file("se.sqlite")
        let summary = try SeedBuilder.build([XMLFixtures.stackExchange], to: output, schema: XMLFixtures.schema("stackexchange"))
        let db = try Connection(path: output, mode: .readOnly)
        for (table, file) in [("users", "Users.xml"), ("tags", "Tags.xml"), ("posts", "Posts.xml"), ("comments", "Comments.xml")] {
            #expect(try db.int("SELECT count(*) FROM \(table)") == Int64(XMLFixtures.occurrences(of: "<row ", in: XMLFixtures.stackExchange + "/" + file)), "\(table)")
        }
        // Tags="&lt;a&gt;&lt;b&gt;": one post_tag per &lt;, in order.
        let posts = XMLFixtures.stackExchange + "/Posts.xml"
        let tagLists = XMLFixtures.attributeValues("Tags", of: "<row ", in: FileManager.default.contents(atPath: posts)!)
        let tagCount = tagLists.reduce(0) { $0 + $1.components(separatedBy: "&lt;").count - 1 }
        #expect(try db.int("SELECT count(*) FROM post_tag") == Int64(tagCount))
        #expect(try db.int("SELECT count(*) FROM post_tag WHERE tag_ref IS NULL") == 0)
        #expect(try db.text("SELECT group_concat(t.name, ' ') FROM (SELECT * FROM post_tag ORDER BY position) p JOIN tags t ON t.id = p.tag_ref JOIN posts q ON q.id = p.posts_ref WHERE q.post_id = 1")
                == "neural-networks definitions")
        // Every answer points at its question; owners resolve unless the user was deleted.
        #expect(try db.int("SELECT count(*) FROM posts WHERE parent_id IS NOT NULL AND parent_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(*) FROM posts a JOIN posts q ON q.id = a.parent_ref WHERE q.post_type != 1") == 0)
        #expect(try db.int("SELECT count(*) FROM posts p JOIN users u ON u.id = p.owner_ref WHERE u.user_id != p.owner_user_id") == 0)
        #expect(try db.text("SELECT u.display_name FROM posts p JOIN users u ON u.id = p.owner_ref WHERE p.post_id = 1") != nil)
        #expect(try db.text("SELECT creation_date FROM posts WHERE post_id = 1") == "2016-08-02T15:39:14.947Z")
        #expect(try db.text("SELECT title FROM posts WHERE post_id = 1") == "What is \"backprop\"?")
        #expect(summary.warningReport.contains("Votes.xml"))
    }
}
