import SeedTestSupport
import Testing
@testable import SeedKit

func parse(_ yaml: String) throws(SchemaError) -> Schema {
    try Schema.parse(Array(yaml.utf8), file: "test.yaml")
}

@Suite("Schema")
struct SchemaTests {
    @Test("the transit schema loads and orders tables after the tables they reference")
    func transit() throws {
        let schema = try Schema.load(path: Repository.path("Schema/transit.yaml"))
        #expect(schema.name == "transit")
        #expect(schema.schemaVersion == 4)
        let order = schema.loadOrder.map(\.name)
        for table in ["agency", "stops", "routes", "trips", "stop_times", "calendar", "calendar_dates", "shapes",
                      "frequencies", "transfers", "feed_info"] {
            #expect(order.contains(table), "transit schema lacks \(table)")
        }
        #expect(order.firstIndex(of: "trips")! < order.firstIndex(of: "stop_times")!)
        #expect(order.firstIndex(of: "routes")! < order.firstIndex(of: "trips")!)
        #expect(schema.table(named: "stop_times")!.createStatement.contains("\"trip_ref\" INTEGER NOT NULL REFERENCES \"trips\""))
    }

    @Test("the embedded transit schema is the one in Schema/")
    func embeddedCopy() throws {
        let embedded = try SchemaLocator.builtIns.first { $0.name == "transit" }!.load()
        let file = try Schema.load(path: Repository.path("Schema/transit.yaml"))
        #expect(embedded.sha256 == file.sha256)
    }

    @Test("an unknown key is an error naming its line")
    func unknownKey() {
        let yaml = "name: x\nschemaVersion: 1\ntables:\n  - name: t\n    colums: []\n"
        #expect { try parse(yaml) } throws: { error in
            let error = error as! SchemaError
            return error.line == 5 && error.message.contains("unknown key 'colums'")
        }
    }

    @Test("booleans are YAML 1.1's, unquoted or tagged !!bool; quoted text or another word is an error naming its line")
    func booleans() throws {
        func optional(_ value: String) throws(SchemaError) -> Bool {
            try parse("name: x\nschemaVersion: 1\ntables:\n  - name: t\n    optional: \(value)\n    columns: [{ name: a }]\n")
                .tables[0].optional
        }
        for word in ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "!!bool true", "!!bool yes"] {
            #expect(try optional(word), "\(word)")
        }
        for word in ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "!!bool false"] {
            #expect(try !optional(word), "\(word)")
        }
        for word in ["\"true\"", "'yes'", "tRUE", "1", "y", "~"] {
            #expect(throws: SchemaError.self, "\(word)") { try optional(word) }
            do { _ = try optional(word) } catch {
                #expect(error.line == 5 && error.message.contains("'optional' must be true or false"), "\(error.message)")
            }
        }
    }

    @Test("a reference to an undeclared table is an error")
    func badReference() {
        let yaml = """
            name: x
            schemaVersion: 1
            tables:
              - name: t
                columns: [{ name: a }]
                references: [{ column: a_ref, from: a, to: nowhere }]
            """
        #expect { try parse(yaml) } throws: { ($0 as! SchemaError).message.contains("'nowhere', which is not declared") }
    }

    @Test("an unknown type names the known ones")
    func badType() {
        let yaml = "name: x\nschemaVersion: 1\ntables:\n  - name: t\n    columns: [{ name: a, type: number }]\n"
        #expect { try parse(yaml) } throws: { ($0 as! SchemaError).message.contains("unknown type 'number'") }
    }

    @Test("tables that reference each other in a cycle are refused")
    func cycle() {
        let yaml = """
            name: x
            schemaVersion: 1
            tables:
              - { name: a, key: k, columns: [{ name: k }, { name: b }], references: [{ column: b_ref, from: b, to: b }] }
              - { name: b, key: k, columns: [{ name: k }, { name: a }], references: [{ column: a_ref, from: a, to: a }] }
            """
        #expect { try parse(yaml) } throws: { ($0 as! SchemaError).message.contains("cycle") }
    }
}
