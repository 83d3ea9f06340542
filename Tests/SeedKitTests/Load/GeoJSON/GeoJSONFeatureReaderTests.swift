import Foundation
import Testing
@testable import SeedKit

/// Reads every feature of `text`, `step` bytes per read, with the place each one begins.
private func features(_ text: String, step: Int = 3, limit: Int = 1 << 20) throws -> [(feature: GeoJSONFeature, line: Int, column: Int)] {
    try features(bytes: Array(text.utf8), step: step, limit: limit)
}

private func features(bytes: [UInt8], step: Int = 3, limit: Int = 1 << 20) throws
    -> [(feature: GeoJSONFeature, line: Int, column: Int)] {
    let reader = GeoJSONFeatureReader(source: ArraySource(bytes: bytes, step: step), file: "locations.geojson", maximumValueBytes: limit,
                                      namedProperties: true)
    var result: [(GeoJSONFeature, Int, Int)] = []
    while let feature = try reader.next() { result.append((feature, reader.featurePlace.line, reader.featurePlace.column)) }
    return result
}

/// The error reading `text` ends in.
private func syntaxError(_ text: String, limit: Int = 1 << 20) throws -> BuildIssue {
    try #require(throws: GeoJSONSyntaxError.self) { _ = try features(text, limit: limit) }.issue
}

/// A feature's columns as the importer writes them (JSON text, keys sorted).
private func columns(_ feature: GeoJSONFeature) -> [String?] {
    ["id", "properties", "geometry", "name"].map { feature.value(of: $0).map { String(decoding: $0, as: UTF8.self) } }
}

@Suite("GeoJSON feature reader")
struct GeoJSONFeatureReaderTests {
    static let collection = """
        {"type": "FeatureCollection", "name": "zones", "bbox": [13.0, 52.0, 13.5, 52.5],
         "features": [
          {"type": "Feature", "id": "zone-1", "properties": {"name": "Zürich \\"Süd\\"", "url": "http://a.example/x", "n": 1.5e3},
           "geometry": {"type": "Polygon", "coordinates": [[[13.0, 52.0], [13.1, 52.0], [13.1, 52.1], [13.0, 52.0]]]}},
          {"type": "Feature", "id": 2, "properties": {"name": "東京 [x] {y}", "z": null, "big": 12345678901234567890, "t": true},
           "geometry": {"type": "Point", "coordinates": [-0.000001, 1e-7]}},
          "not a feature", 7, {"id": "\\u00e9\\ud83d\\ude00", "properties": {"name": {"nested": ["a", {"b": false}]}}, "geometry": null}
         ],
         "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}}}
        """

    @Test("features are read one at a time, each as JSONSerialization once read the whole file", arguments: [1, 2, 7, 4096])
    func sameAsWholeFile(step: Int) throws {
        let streamed = try features(Self.collection, step: step)
        let whole = try #require(JSONSerialization.jsonObject(with: Data(Self.collection.utf8)) as? [String: Any])
        let list = try #require(whole["features"] as? [Any])
        #expect(streamed.count == list.count)
        for (read, expected) in zip(streamed, list) {
            #expect(columns(read.feature) == FoundationGeoJSON.columns(of: expected))
        }
        #expect(columns(streamed[0].feature)[2] == #"{"coordinates":[[[13,52],[13.1,52],[13.1,52.1],[13,52]]],"type":"Polygon"}"#)
    }

    @Test("each feature's place: its line and character column (UTF-8 counted as characters, a byte-order mark not)")
    func places() throws {
        let text = "{\"features\": [{\"id\": \"é\"}, {\"id\": 2},\n  \"x\"]}"
        #expect(try features(text).map { [$0.line, $0.column] } == [[1, 15], [1, 28], [2, 3]])
        #expect(try features(bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8)).map { [$0.line, $0.column] } == [[1, 15], [1, 28], [2, 3]])
    }

    @Test("an empty list, and a collection with no other member")
    func emptyList() throws {
        #expect(try features(#" { "features" : [ ] } "#).isEmpty)
        #expect(try features(#"{"features":[{}]}"#).count == 1)
    }

    @Test("a feature of exactly the limit is read; one byte more is an error at the feature's place, naming the limit and the option")
    func featureLimit() throws {
        let feature = #"{"id": "a", "properties": {"note": "xxxxxxxxxx"}}"#
        let text = "{\"type\": \"FeatureCollection\",\n \"features\": [\(feature)]}"
        #expect(try features(text, limit: feature.utf8.count).count == 1)
        let error = try syntaxError(text, limit: feature.utf8.count - 1)
        #expect(error.line == 2 && error.column == 15)
        #expect(error.message == "the feature starting here is longer than \(feature.utf8.count - 1) bytes (the limit; raise it with --max-record-size)")
    }

    @Test("another member of the collection is held to the same limit")
    func memberLimit() throws {
        let error = try syntaxError(#"{"name": "a long name", "features": []}"#, limit: 8)
        #expect(error.line == 1 && error.column == 10)
        #expect(error.message.hasPrefix("the value of 'name' starting here is longer than 8 bytes"))
    }

    @Test("not a FeatureCollection", arguments: [
        (#"[{"id": 1}]"#, 1, 1), (#"{"type": "Feature", "id": 1}"#, 1, nil), (#"{"features": {"id": 1}}"#, 1, 14), ("", 1, 1),
    ] as [(String, Int, Int?)])
    func notACollection(text: String, line: Int, column: Int?) throws {
        let error = try syntaxError(text)
        #expect(error.message == "is not valid GeoJSON: not a GeoJSON FeatureCollection (no 'features' list)")
        #expect(error.kind == .malformedRow, "an error: the build fails")
        #expect(error.line == line && error.column == column)
    }

    @Test("text that is not JSON is an error at its place", arguments: [
        (#"{"features": [{"id": 1 2}]}"#, 1, 24,
         "the feature starting at line 1, column 15 is not valid JSON: expected ',' or '}' after a member, found '2'"),
        (#"{"features": [{"id": 1}] "x": 2}"#, 1, 26, "expected ',' or '}' after a member of the FeatureCollection"),
        ("{\"features\": [{\"id\": 1}\n {\"id\": 2}]}", 2, 2, "expected ',' or ']' after a feature"),
        (#"{"features": [{"id": 1},"#, 1, 25, "expected a feature or ']' (the file ends here)"),
        (#"{"features": [,]}"#, 1, 15,
         "the feature starting at line 1, column 15 is not valid JSON: the text ends where a value should be"),
        (#"{, "features": []}"#, 1, 2, "expected a member name or '}'"),
        (#"{"features": []} x"#, 1, 18, "text after the end of the FeatureCollection"),
        (#"{"name": tru, "features": []}"#, 1, 10,
         "the value of 'name' starting at line 1, column 10 is not valid JSON: 'tru' is not a JSON value"),
        (#"{"features": [{"id": "open}]}"#, 1, 15, "the file ends inside the feature starting here"),
        (#"{"features": [{"id": 1}"#, 1, 24, "expected ',' or ']' after a feature (the file ends here)"),
        (#"{"features": [], "features": []}"#, 1, 18, "a second 'features' list"),
        (#"{features: []}"#, 1, 2, "expected a member name or '}'"),
        (#"{"features" []}"#, 1, 13, "expected ':' after the member name 'features'"),
    ] as [(String, Int, Int, String)])
    func notJSON(text: String, line: Int, column: Int, message: String) throws {
        let error = try syntaxError(text)
        #expect(error.message.hasPrefix("is not valid GeoJSON: " + message), "\(error.message)")
        #expect(error.line == line && error.column == column, "\(error)")
    }

    @Test("a trailing comma after the last feature or member is accepted, as JSONSerialization accepts it")
    func trailingCommas() throws {
        #expect(try features(#"{"features": [{"id": 1}, {"id": 2}, ], "name": "x", }"#).count == 2)
        #expect(try JSONSerialization.jsonObject(with: Data(#"{"features": [{"id": 1}, {"id": 2}, ], "name": "x", }"#.utf8)) is [String: Any])
    }

    @Test("member names are JSON strings: an escaped 'features' is the list")
    func escapedName() throws {
        #expect(try features(#"{"feat\u0075res": [{"id": 1}, {"id": 2}]}"#).count == 2)
    }
}
