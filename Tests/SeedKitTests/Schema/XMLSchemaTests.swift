import Testing
@testable import SeedKit

/// The XML keys of the schema format: defaults by convention, and mistakes caught early.
@Suite("XML schema")
struct XMLSchemaTests {
    private func parse(_ text: String) throws(SchemaError) -> Schema {
        try Schema.parse(Array(text.utf8), file: "test.yaml")
    }

    @Test("conventions: element is the table name, source the column name, parent column <table>_ref")
    func conventions() throws {
        let schema = try parse("""
            name: t
            schemaVersion: 1
            format: xml
            tables:
              - { name: author, columns: [{ name: name }] }
              - { name: book, parent: author, columns: [{ name: title }] }
            """)
        #expect(schema.table(named: "author")?.element == "author")
        #expect(schema.table(named: "book")?.parent == ParentLink(table: "author", column: "author_ref"))
        #expect(schema.table(named: "book")?.columns[0].source == ["title"])
        #expect(schema.table(named: "author")?.createStatement.contains("\"author_ref\"") == false)
        #expect(schema.table(named: "book")?.createStatement.contains("\"author_ref\" INTEGER REFERENCES \"author\"") == true)
    }

    @Test("a find-or-create target has no element of its own")
    func createdTarget() throws {
        let schema = try Schema.load(path: XMLFixtures.schema("topsongs"))
        #expect(schema.table(named: "category")?.element == nil)
        #expect(schema.table(named: "song")?.element == "entry")
    }

    @Test("every example schema loads", arguments: ["topsongs", "library", "osm", "stackexchange"])
    func examples(name: String) throws {
        let schema = try Schema.load(path: XMLFixtures.schema(name))
        #expect(schema.format == .xml)
        #expect(schema.name == name)
    }

    @Test("mistakes are schema errors", arguments: [
        ("element: 'a//b'", "an element path"),
        ("columns: [{ name: x, source: 'a/@b/c' }]", "must be the last step"),
        ("columns: [{ name: x, source: '$rank' }]", "the variables are $position and $name"),
        ("list: { source: '@t', separator: ' ' }", "'list' needs 'parent'"),
    ])
    func mistakes(key: String, message: String) throws {
        let text = """
            name: t
            schemaVersion: 1
            format: xml
            tables:
              - name: item
                \(key.hasPrefix("columns") ? "" : "columns: [{ name: y }]")
                \(key)
            """
        let error = try #require(throws: SchemaError.self) { try parse(text) }
        #expect(error.message.contains(message), "\(error)")
    }

    @Test("list items have only '.' and '$position'")
    func listSources() throws {
        let error = try #require(throws: SchemaError.self) {
            try parse("""
                name: t
                schemaVersion: 1
                format: xml
                tables:
                  - { name: post, columns: [{ name: tags }] }
                  - { name: post_tag, parent: post, list: { source: tags, separator: ',' }, columns: [{ name: x, source: '@y' }] }
                """)
        }
        #expect(error.message.contains("'.' (the item) and '$position'"))
    }
}
