/// One feature of a GeoJSON file, as the seed stores it: its `id` as text, its `properties`
/// and `geometry` as JSON text in the writer's one form (`CanonicalJSONWriter`), and, when
/// asked for, each property's text. Anything that is not an object is a feature without them.
struct GeoJSONFeature {
    /// A property's text (a string's characters, a number's text) or, for a list or an
    /// object, its JSON; nil for null.
    typealias Property = (scalar: String?, json: [UInt8]?)

    var id: String?
    /// Its member `type` as text (`Feature` in a valid file); nil when it has none.
    var type: String?
    var properties: [UInt8]?
    var geometry: [UInt8]?
    /// What is wrong with the rings of `geometry`, a Polygon or MultiPolygon (`PolygonRings`).
    var geometryProblem: String?
    /// Every property by name, when the reader was asked for them (`namedProperties`).
    var named: [String: Property] = [:]

    /// The text a column whose source is `source` gets: the feature's `id`, its `properties`
    /// or `geometry` as JSON, or the property of that name; nil when there is none.
    func value(of source: String) -> [UInt8]? {
        switch source {
        case "id": return id.map { Array($0.utf8) }
        case "properties": return properties
        case "geometry": return geometry
        default:
            guard let property = named[source] else { return nil }
            return property.scalar.map { Array($0.utf8) } ?? property.json
        }
    }

    /// Reads the feature in `text` (one JSON value, nothing around it) with `writer`.
    init(text: UnsafeBufferPointer<UInt8>, writer: CanonicalJSONWriter, namedProperties: Bool) throws(JSONTextError) {
        writer.begin(text)
        guard writer.nextNonSpace() == UInt8(ascii: "{") else {
            try writer.writeValue(depth: 0)
            return
        }
        writer.consume()
        if writer.nextNonSpace() == UInt8(ascii: "}") {
            writer.consume()
            return
        }
        while true {
            let key = try writer.writeMemberName().key
            writer.truncate()
            writer.enter(key)
            switch key {
            case "id": id = try writer.writeScalar(depth: 1)
            case "type": type = try writer.writeScalar(depth: 1)
            case "properties":
                let start = writer.position
                properties = try Self.json(writer).text
                if namedProperties { named = Self.properties(at: start, writer) }
            case "geometry":
                (geometry, geometryProblem) = try Self.json(writer, geometry: true)
            default: try writer.writeValue(depth: 1)
            }
            writer.leave()
            writer.truncate()
            switch writer.nextNonSpace() {
            case UInt8(ascii: ","):
                writer.consume()
                if writer.nextNonSpace() == UInt8(ascii: "}") { writer.consume(); return } // a trailing comma
            case UInt8(ascii: "}"):
                writer.consume()
                return
            default:
                throw writer.failure("expected ',' or '}' after a member, found \(writer.token(at: writer.position))")
            }
        }
    }

    /// The next value's JSON text; nil for null, and for a value nested so deep that
    /// `JSONSerialization` did not write it (the seed's NULL for it then). For a `geometry`,
    /// what is wrong with its rings too (`CanonicalJSONWriter.writeGeometry`), when it has text.
    private static func json(
        _ writer: CanonicalJSONWriter, geometry: Bool = false
    ) throws(JSONTextError) -> (text: [UInt8]?, rings: String?) {
        let isNull = writer.nextNonSpace() == UInt8(ascii: "n")
        writer.reachedDepthLimit = false
        var rings: String? = nil
        if geometry { rings = try writer.writeGeometry(depth: 1) } else { try writer.writeValue(depth: 1) }
        guard !isNull && !writer.reachedDepthLimit else { return (nil, nil) }
        return (writer.output.array(0..<writer.output.count), rings)
    }

    /// Each member of the object at `start` (read and checked already), then the writer back
    /// where it was; none when it is not an object. A repeated name keeps its last value.
    private static func properties(at start: Int, _ writer: CanonicalJSONWriter) -> [String: Property] {
        let after = writer.position
        defer { writer.position = after }
        writer.position = start
        guard writer.nextNonSpace() == UInt8(ascii: "{") else { return [:] }
        writer.consume()
        var named: [String: Property] = [:]
        do {
            while writer.nextNonSpace() == UInt8(ascii: "\"") {
                let key = try writer.writeMemberName().key
                writer.truncate()
                let isNull = writer.nextNonSpace() == UInt8(ascii: "n")
                let scalar = try writer.writeScalar(depth: 2)
                named[key] = (scalar, isNull ? nil : writer.output.array(0..<writer.output.count))
                writer.truncate()
                guard writer.nextNonSpace() == UInt8(ascii: ",") else { break }
                writer.consume()
            }
        } catch {
            preconditionFailure("the properties were read without an error before: \(error)")
        }
        return named
    }
}
