import Foundation
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Where two efforts meet: trailing columns and `$file`, `--lenient` and the key length
/// limit, the mapping check and GeoJSON or `extras`, repairs and the character column.
@Suite("Features that meet")
struct MergedFeaturesTests {
    @Test("CSV: a $file column stores the file name even as the table's last column (created before loading)")
    func fileColumnLast() throws {
        let folder = TemporaryFolder()
        let schema = folder.write("notes.yaml", """
            name: notes
            schemaVersion: 1
            tables:
              - name: notes
                columns:
                  - { name: text }
                  - { name: file, source: $file }
            """)
        folder.write("in/notes.txt", "text\na\nb\n")
        _ = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: folder.file("s.sqlite"), schemaPath: schema)).build()
        let db = try Connection(path: folder.file("s.sqlite"), mode: .readOnly)
        #expect(try db.text("SELECT group_concat(text || '@' || file, ' ') FROM notes") == "a@notes.txt b@notes.txt")
    }

    @Test("--lenient: a key longer than --max-key-size leaves its row out (counted), without --lenient it fails")
    func lenientKeyLimit() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, ["stops.txt": "stop_id,stop_name\nS1,One\nS2,Two\nSTOP-WITH-A-LONG-ID,Three\n"])
        var options = BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite"))
        options.limits.keyBytes = 8
        #expect(throws: BuildError.self) { try SeedBuilder(options: options).build() }
        options.lenient = true
        let summary = try SeedBuilder(options: options).build()
        #expect(summary.rejected["stops"] == 1)
        #expect(summary.warningReport.contains("feed/stops.txt:4:1: stop_id: 'STOP-WITH-A-LONG-ID' is 19 bytes long; a key is at most 8"), "\(summary.warningReport)")
        let db = try Connection(path: folder.file("seed.sqlite"), mode: .readOnly)
        #expect(try db.rows("SELECT rows, rejected FROM seedgen_inputs WHERE name = 'stops.txt'").map { $0.map(\.description) } == [["2", "1"]])
    }

    @Test("mapping check with the transit schema given as a file: locations.geojson and extras are no mapping mistakes")
    func mappingCheckGeoJSONAndExtras() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, [
            "locations.geojson": #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "z", "properties": {}, "geometry": {"type": "Point", "coordinates": [13.2, 52.2]}}]}"#,
            "stop_times.txt": "trip_id,location_id,stop_sequence,track\nT1,z,1,4\n",
        ])
        let options = BuildOptions(inputs: [folder.file("feed")], output: folder.file("seed.sqlite"),
                                   schemaPath: Repository.path("Schema/transit.yaml"), strict: true)
        let summary = try SeedBuilder(options: options).build()
        #expect(!summary.warningReport.contains("mapping matched nothing"), "\(summary.warningReport)")
        let db = try Connection(path: folder.file("seed.sqlite"), mode: .readOnly)
        #expect(try db.text("SELECT extras FROM stop_times") == #"{"track":"4"}"#)
        #expect(try db.int("SELECT location_ref FROM stop_times") == 1)
    }

    @Test("repairs and unknown header fields give the character column, not the byte or field number")
    func characterColumns() throws {
        let folder = TemporaryFolder()
        let schema = folder.write("notes.yaml", """
            name: notes
            schemaVersion: 1
            tables:
              - name: notes
                columns:
                  - { name: name, source: näme }
                  - { name: text }
            """)
        folder.write("in/notes.txt", "näme,zzz,text\nÜü,x,\"quoted\" tail\n")
        let summary = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: folder.file("s.sqlite"), schemaPath: schema)).build()
        #expect(summary.warningReport.contains("notes.txt:1:6: zzz: is not in the schema"), "\(summary.warningReport)")
        #expect(summary.warningReport.contains("notes.txt:2:6: '\"quoted\" tail' text after a closing quote is kept in the value"), "\(summary.warningReport)")
        var strict = BuildOptions(inputs: [folder.file("in")], output: folder.file("s.sqlite"), schemaPath: schema)
        strict.strict = true
        do {
            _ = try SeedBuilder(options: strict).build()
            Issue.record("--strict fails on a repair")
        } catch {
            let places = error.issues.filter { $0.message.hasPrefix("unexpected character after a closing quote") }.map { "\($0.line ?? 0):\($0.column ?? 0)" }
            #expect(places == ["2:6"])
        }
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
