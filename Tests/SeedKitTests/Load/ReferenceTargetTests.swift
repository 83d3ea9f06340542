import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// References that match any unique column of their target (`toColumns`), and
/// find-or-create references that fill the created row's other columns (`fill`).
@Suite("Reference targets")
struct ReferenceTargetTests {
    static let xml = """
        <catalogue>
          <users>
            <user id="10" login="ada"/><user id="11" login="alan"/>
          </users>
          <releases>
            <release id="1" owner="alan" artist="Björk" country="IS"/>
            <release id="2" owner="ada" artist="Sigur Rós" country="IS"/>
            <release id="3" owner="ada" artist="Björk" country="GB"/>
          </releases>
        </catalogue>
        """

    static let schema = """
        name: catalogue
        schemaVersion: 1
        format: xml
        tables:
          - name: user
            element: user
            key: user_id
            columns:
              - { name: user_id, type: integer, source: "@id" }
              - { name: login, source: "@login", required: true }
            indexes:
              - { columns: [login], unique: true }
          - name: artist
            key: name
            columns:
              - { name: name, required: true }
              - { name: country }
          - name: release
            element: release
            key: release_id
            columns:
              - { name: release_id, type: integer, source: "@id" }
              - { name: owner_login, source: "@owner", stored: false }
              - { name: artist_name, source: "@artist", stored: false }
              - { name: country, source: "@country" }
            references:
              - { column: owner_ref, from: owner_login, to: user, toColumns: [login] }
              - { column: artist_ref, from: artist_name, to: artist, create: true, fill: { country: country } }
        """

    private func build(_ schema: String) throws -> (BuildSummary, Connection) {
        let folder = TemporaryFolder()
        folder.write("in/catalogue.xml", Self.xml)
        let schemaPath = folder.write("schema.yaml", schema)
        let output = folder.file("out.sqlite")
        let summary = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: output, schemaPath: schemaPath)).build()
        return (summary, try Connection(path: output))
    }

    @Test("a reference matches a unique column that is not the key")
    func uniqueColumn() throws {
        let (summary, db) = try build(Self.schema)
        #expect(summary.warnings == 0, "\(summary.warningReport)")
        let owners = try db.rows("SELECT r.release_id, u.user_id FROM release r JOIN user u ON u.id = r.owner_ref ORDER BY r.release_id")
            .map { "\($0[0].description)-\($0[1].description)" }
        #expect(owners == ["1-11", "2-10", "3-10"])
    }

    @Test("find-or-create fills the created row's other columns; a row found is left as it is")
    func fill() throws {
        let (_, db) = try build(Self.schema)
        let artists = try db.rows("SELECT name, country FROM artist ORDER BY id").map { "\($0[0].description)/\($0[1].description)" }
        // Björk is created by release 1 (IS); release 3's GB does not change her row.
        #expect(artists == ["Björk/IS", "Sigur Rós/IS"])
        #expect(try db.int("SELECT count(*) FROM release WHERE artist_ref IS NULL") == 0)
        #expect(try db.int("SELECT count(DISTINCT artist_ref) FROM release") == 2)
    }

    @Test("a reference to a column that is neither key nor unique, and fill without create, are schema errors")
    func invalid() {
        let notUnique = Self.schema.replacingOccurrences(of: "unique: true", with: "unique: false")
        #expect { try Schema.parse(Array(notUnique.utf8), file: "s.yaml") } throws: { error in
            "\(error)".contains("neither its key, the first columns of its key, nor a unique index")
        }
        let fillWithoutCreate = Self.schema.replacingOccurrences(of: "create: true, ", with: "")
        #expect { try Schema.parse(Array(fillWithoutCreate.utf8), file: "s.yaml") } throws: { error in
            "\(error)".contains("'fill' is for find-or-create references")
        }
    }
}
