import Foundation
import Testing
@testable import SeedKit

/// What the importer stored for a feature before issue 46: the feature parsed by
/// `JSONSerialization`, its `properties` and `geometry` written back by it (keys sorted, no
/// escaped slashes), its id and a property as `NSNumber.stringValue` or the string.
enum FoundationGeoJSON {
    static let sources = ["id", "properties", "geometry", "name"]

    /// The columns of `feature` (as `JSONSerialization` read it), for `sources`.
    static func columns(of feature: Any) -> [String?] {
        let object = feature as? [String: Any] ?? [:]
        let properties = object["properties"] as? [String: Any] ?? [:]
        return sources.map { source in
            switch source {
            case "id": return object["id"].flatMap(scalarText)
            case "properties", "geometry": return object[source].flatMap(json)
            default: return properties[source].flatMap { scalarText($0) ?? json($0) }
            }
        }
    }

    /// The columns of the feature in `text`, or nil when `JSONSerialization` does not read it.
    static func columns(of text: String) -> [String?]? {
        guard let feature = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) else { return nil }
        return columns(of: feature)
    }

    private static func scalarText(_ value: Any) -> String? {
        switch value {
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    private static func json(_ value: Any) -> String? {
        guard !(value is NSNull), JSONSerialization.isValidJSONObject([value]),
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

private struct Rejected: Error { var message: String }

/// The columns of the feature in `text` as the reader gives them, or why it rejects it (the
/// text must be one feature).
private func read(_ text: String) -> Result<[String?], Rejected> {
    let bytes = Array("{\"features\": [".utf8) + Array(text.utf8) + Array("]}".utf8)
    let reader = GeoJSONFeatureReader(source: ArraySource(bytes: bytes, step: 5), file: "f.geojson", maximumValueBytes: 1 << 22,
                                      namedProperties: true)
    var read: [[String?]] = []
    do {
        while let feature = try reader.next() {
            read.append(FoundationGeoJSON.sources.map { feature.value(of: $0).map { String(decoding: $0, as: UTF8.self) } })
        }
    } catch let error as GeoJSONSyntaxError {
        return .failure(Rejected(message: error.issue.message))
    } catch {
        return .failure(Rejected(message: "unexpected \(error)"))
    }
    return read.count == 1 ? .success(read[0]) : .failure(Rejected(message: "\(read.count) features"))
}

/// Expects the reader to give what `JSONSerialization` gave for the feature in `text`, or
/// to reject it when that did.
private func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let expected = FoundationGeoJSON.columns(of: text)
    switch read(text) {
    case .success(let columns):
        #expect(expected != nil, "read, but JSONSerialization rejects \(text)", sourceLocation: sourceLocation)
        if let expected { #expect(columns == expected, "\(text)", sourceLocation: sourceLocation) }
    case .failure(let error):
        #expect(expected == nil, "rejected (\(error.message)), but JSONSerialization reads \(text)",
                sourceLocation: sourceLocation)
    }
}

@Suite("Canonical JSON text of GeoJSON features: the seed's bytes as JSONSerialization wrote them")
struct CanonicalJSONWriterTests {
    static let numbers = [
        "0", "-0", "1", "-1", "13.0", "13.50", "-0.0", "0.0", "1.5e3", "1e-7", "1E2", "1E-5", "1.5E+3", "0.0001", "0.00001",
        "0.0001234", "1e15", "1e16", "1e17", "1e22", "145.712345", "-16.923456", "145.77123456789012345", "0.1",
        "0.30000000000000004", "123456789012345678", "12345678901234567890", "123456789012345678901234",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "9007199254740993", "9007199254740993.0", "100000000000000000000.5",
        "5e-324", "1e308", "1e-400", "1e400", "-1.5e300", "123456789012345.6", "12345678901234.5", "999999999999999.9",
        "0.1234567890123456", "1.000000000000000000E5", "1.50000000000000000000", "-0.000000000000000000001",
        "0.00000000000000000000000000000000000000000000001", "1234567890123456789012345678901234567890123", "2.5e-05",
        "01", "-01", "1.", ".5", "-", "1e", "+1", "1e+", "0x10", "1.5.2", "NaN", "Infinity", "-Infinity",
    ]

    @Test("numbers: each as JSONSerialization read and wrote it, as a coordinate and as a property")
    func numberForms() {
        for number in Self.numbers {
            expectSame(#"{"id": \#(number), "properties": {"name": \#(number)}, "geometry": {"coordinates": [\#(number)]}}"#)
        }
    }

    static let strings = [
        #""""#, #""plain""#, #""a/b\/c""#, #""\"\\\b\f\n\r\t""#, #""\u0000\u0001\u001f\u007f\u0080""#, #""é""#, #""\u00e9""#,
        #""e\u0301""#, #""\ud83d\ude00""#, #""😀 東京 Zürich""#, #""\ud800""#, #""\udc00x""#, #""\ud800\u0041""#, #""\x""#,
        #""\u00""#, #""\u12G4""#, "\"a\tb\"", "\"a\nb\"", #""\uDBFF\uDFFF""#, #""\u2028\u2029""#,
    ]

    @Test("strings: escapes, UTF-16 pairs, control characters and non-ASCII text as JSONSerialization wrote them")
    func stringForms() {
        for string in Self.strings {
            expectSame(#"{"id": \#(string), "properties": {"name": \#(string), \#(string): 1}, "geometry": [\#(string)]}"#)
        }
    }

    @Test("bytes that are not UTF-8 in a string: an error at their place, as JSONSerialization refused them")
    func brokenUTF8() throws {
        for broken: [UInt8] in [[0xFF], [0x61, 0xC3], [0xED, 0xA0, 0x80, 0x78], [0xC3, 0x5C, 0x75, 0x30, 0x30, 0x65, 0x39]] {
            let feature = Array(#"{"id": "é"#.utf8) + broken + Array(#"", "geometry": 1}"#.utf8)
            let bytes = Array(#"{"features": ["#.utf8) + feature + Array("]}".utf8)
            let reader = GeoJSONFeatureReader(source: ArraySource(bytes: bytes, step: 2), file: "f.geojson", maximumValueBytes: 1024)
            let error = try #require(throws: GeoJSONSyntaxError.self) { _ = try reader.next() }.issue
            #expect(error.message.hasSuffix("the string holds bytes that are not UTF-8 (at id)") && error.column == 24 + (broken[0] == 0x61 ? 1 : 0),
                    "\(error)")
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(feature)) }
        }
    }

    @Test("object keys: sorted as JSONSerialization's .sortedKeys sorts them; a repeated key keeps its last value")
    func keyOrder() {
        let keys = ["b", "a", "B", "a10", "a2", "é", "e", "_x", "Z", "type", "coordinates", "1", "10", "9", "A", "aa", "ä", "Ä",
                    "-", " ", "e\u{301}", "ß", "ss", "東京", "😀", "a b", "a_b", "aB", "Ab"]
        for (index, key) in keys.enumerated() {
            let others = keys[index...].enumerated().map { #""\#($0.element)": \#($0.offset)"# }.joined(separator: ", ")
            expectSame(#"{"geometry": {\#(others)}, "properties": {\#(others), "\#(key)": "last"}}"#)
        }
        expectSame(#"{"geometry": {"é": 1, "e\u0301": 2}, "properties": {"a": 1, "a": {"b": 2, "b": 3}}}"#)
        expectSame(#"{"id": 1, "id": "two", "geometry": null, "geometry": {"type": "Point"}, "properties": {"name": 5}}"#)
    }

    @Test("structure: white space, trailing commas, empty containers, nesting up to 512 deep and no deeper")
    func structure() {
        for text in [
            #" { "id" : "a" , "geometry" : { "type" : "Point" , "coordinates" : [ 1 , 2 , ] , } , } "#,
            #"{"geometry": [], "properties": {}}"#, #"{"geometry": [[]], "properties": {"name": [{}]}}"#,
            #"{"geometry": [,]}"#, #"{"geometry": [1,,2]}"#, #"{,}"#, #"{"a" 1}"#, #"{"a": 1 "b": 2}"#, #"{"a": tru}"#,
            #"{"a": nul}"#, #"{"a": falsey}"#, #"{"a": 1}x"#, #"[1, 2]"#, #""a feature""#, "7", "null", "true",
            #"{"properties": "text", "geometry": 1.5}"#, #"{"properties": [1, "x"], "id": {"a": 1}}"#,
            #"{"properties": {"name": true}, "id": false}"#, #"{"properties": {"name": null}, "id": null}"#,
        ] {
            expectSame(text)
        }
        for depth in [1, 2, 510, 511, 512, 513] {
            expectSame(#"{"geometry": \#(String(repeating: "[", count: depth))\#(String(repeating: "]", count: depth))}"#)
            expectSame(#"{"geometry": \#(String(repeating: #"{"a":"#, count: depth))1\#(String(repeating: "}", count: depth))}"#)
        }
    }

    @Test("random features, and the same text with a byte changed: read as JSONSerialization reads them, or rejected as it does")
    func randomFeatures() {
        var random = FeatureGenerator(seed: 46)
        for _ in 0..<400 {
            let text = random.feature()
            expectSame(text)
            var bytes = Array(text.utf8)
            let at = random.next(bytes.count)
            let pieces: [[UInt8]] = [[], Array(",".utf8), Array("]".utf8), Array("\"".utf8), Array("e".utf8), Array("0".utf8),
                                     Array("\\".utf8), Array(" ".utf8), Array("-".utf8), Array(".".utf8)]
            bytes.replaceSubrange(at..<min(bytes.count, at + random.next(2)), with: pieces[random.next(pieces.count)])
            expectSame(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("a malformed geometry fails at its own line and column, naming the field and the value")
    func malformedGeometry() throws {
        let text = "{\"type\": \"FeatureCollection\", \"features\": [\n  {\"id\": \"a\", \"geometry\": {\"type\": \"Polygon\",\n"
            + "   \"coordinates\": [[[13.0, 52.0], [13.1, 5é2.0]]]}}]}"
        let reader = GeoJSONFeatureReader(source: ArraySource(bytes: Array(text.utf8), step: 3), file: "f.geojson", maximumValueBytes: 1024)
        let error = try #require(throws: GeoJSONSyntaxError.self) { _ = try reader.next() }.issue
        #expect(error.line == 3 && error.column == 43, "\(error)")
        #expect(error.message == "is not valid GeoJSON: the feature starting at line 2, column 3 is not valid JSON: "
                + "expected ',' or ']' after a list item, found 'é2.0' (at geometry.coordinates[0][1][1])")
        let deep = #"{"features": [{"geometry": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}]}"
        let nested = GeoJSONFeatureReader(source: ArraySource(bytes: Array(deep.utf8), step: 64), file: "f.geojson", maximumValueBytes: 4096)
        let tooDeep = try #require(throws: GeoJSONSyntaxError.self) { _ = try nested.next() }.issue
        #expect(tooDeep.column == 28 + 511 && tooDeep.message.contains("lists and objects nested deeper than 512 (at geometry"),
                "\(tooDeep)")
        let huge = #"{"features": [{"geometry": [1e400]}]}"#
        let large = GeoJSONFeatureReader(source: ArraySource(bytes: Array(huge.utf8), step: 4), file: "f.geojson", maximumValueBytes: 1024)
        let tooLarge = try #require(throws: GeoJSONSyntaxError.self) { _ = try large.next() }.issue
        #expect(tooLarge.column == 29 && tooLarge.message.hasSuffix("'1e400' is too large for a number (at geometry[0])"), "\(tooLarge)")
    }
}

/// A small deterministic generator of random GeoJSON-like features.
private struct FeatureGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(1, bound)))
    }

    mutating func number() -> String {
        let digits = (0..<(1 + next(20))).map { _ in String(next(10)) }.joined()
        var text = (next(4) == 0 ? "-" : "") + (digits.count > 1 && digits.first == "0" ? "1" + digits.dropFirst() : digits)
        if next(2) == 0 { text += "." + (0..<(1 + next(12))).map { _ in String(next(10)) }.joined() }
        if next(6) == 0 { text += ["e", "E", "e-", "e+"][next(4)] + String(next(330)) }
        return text
    }

    mutating func string() -> String {
        let pieces = ["a", "Z", "type", "é", "\\u00e9", "\\n", "\\\"", "\\/", "/", "\\u0001", "東", "\\ud83d\\ude00", " ", "10", "2"]
        return "\"" + (0..<next(5)).map { _ in pieces[next(pieces.count)] }.joined() + "\""
    }

    mutating func value(depth: Int) -> String {
        switch next(depth > 3 ? 5 : 7) {
        case 0, 1: return number()
        case 2: return string()
        case 3: return ["true", "false", "null"][next(3)]
        case 4: return number()
        case 5: return "[" + (0..<next(5)).map { _ in value(depth: depth + 1) }.joined(separator: ", ") + "]"
        default: return "{" + (0..<next(5)).map { _ in string() + ": " + value(depth: depth + 1) }.joined(separator: ", ") + "}"
        }
    }

    mutating func feature() -> String {
        let members = [("\"id\"", value(depth: 2)), ("\"properties\"", value(depth: 1)), ("\"geometry\"", value(depth: 1)),
                       ("\"type\"", "\"Feature\""), (string(), value(depth: 2))]
        return "{" + members.filter { _ in next(5) > 0 }.map { $0.0 + ": " + $0.1 }.joined(separator: ", ") + "}"
    }
}
