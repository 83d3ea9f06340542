import Foundation
import Testing
@testable import SeedKit

/// Each feature of a collection of `geometries`, read `step` bytes at a time.
private func read(_ geometries: [String], step: Int) throws -> [GeoJSONFeature] {
    let features = geometries.enumerated().map { #"{"id": "g\#($0.offset)", "geometry": \#($0.element)}"# }
    let text = #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",\n") + "]}"
    let reader = GeoJSONFeatureReader(
        source: ArraySource(bytes: Array(text.utf8), step: step), file: "locations.geojson", maximumValueBytes: 1 << 22)
    var result: [GeoJSONFeature] = []
    while let feature = try reader.next() { result.append(feature) }
    return result
}

/// What `PolygonRings` reads in the geometry the writer wrote: what the writer must have found.
private func reference(_ feature: GeoJSONFeature) -> String? {
    feature.geometry?.withUnsafeBufferPointer(PolygonRings.problem(in:))
}

@Suite("invalid_geometry worked out by the canonical JSON writer as it writes a geometry")
struct GeometryRingsTests {
    static let ring = "[[0,0],[1,0],[1,1],[0,0]]"
    /// Geometries in forms other than the writer's, and what is wrong with their rings (nil: nothing).
    static let cases: [(String, String?)] = [
        (#"{"type": "Polygon", "coordinates": [\#(ring)]}"#, nil),
        (#"{ "coordinates" : [ [ [0, 0], [1,0] , [1, 1], [0,0], ], ], "type": "Polygon", }"#, nil),
        (#"{"type": "Polygon", "coordinates": [[[-0, 0.0], [1, 0], [1, 1], [0, 0]]]}"#, nil),
        (#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0.5]]]}"#,
         "has ring 1 that is not closed (its last position is not its first)"),
        (#"{"coordinates": [[[0,0],[1,0],[0,0]]], "type": "Polygon", "coordinates": [\#(ring)]}"#, nil),
        (#"{"coordinates": [\#(ring)], "type": "Polygon", "coordinates": [[[0,0],[1,0],[0,0]]]}"#,
         "has ring 1 of 3 positions, fewer than 4"),
        (#"{"type": "Point", "coordinates": [[[0, 0]]], "type": "Polygon"}"#, "has ring 1 of 1 positions, fewer than 4"),
        (#"{"type": "\u0050olygon", "coordinates": [[]]}"#, "has ring 1 of 0 positions, fewer than 4"),
        (#"{"type": ["Polygon"], "coordinates": [[]]}"#, nil),
        (#"{"type": "Polygon"}"#, nil),
        (#"{"coordinates": [[]]}"#, nil),
        (#"{"type": "Polygon", "coordinates": []}"#, nil),
        (#"{"type": "Polygon", "coordinates": 5}"#, "has coordinates that are not a list of rings"),
        (#"{"type": "Polygon", "coordinates": [\#(ring), 7]}"#, "has ring 2 that is not a list of positions"),
        (#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],"x",[0,0]]]}"#,
         "has ring 1 with position 3 that is not two or three numbers"),
        (#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],{"a":[0,0]}]]}"#,
         "has ring 1 with position 4 that is not two or three numbers"),
        (#"{"type": "Polygon", "coordinates": [[[0,0],[true,0],[1,1],[0,0]]]}"#,
         "has ring 1 with position 2 that is not two or three numbers"),
        (#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[]], [5]]}"#,
         "has ring 1 with position 4 that is not two or three numbers"),
        (#"{"type": "Polygon", "coordinates": [[[[0,0]]]]}"#, "has ring 1 with position 1 that is not two or three numbers"),
        (#"{"bbox": [0, 0, 1, 1], "type": "MultiPolygon", "coordinates": [[\#(ring)], 5]}"#,
         "has of polygon 2 coordinates that are not a list of rings"),
        (#"{"type": "MultiPolygon", "coordinates": {"a": 1}}"#, "has coordinates that are not a list of polygons"),
        (#"{"type": "MultiPolygon", "coordinates": [[], [\#(ring), [[0,0]]]]}"#,
         "has ring 2 of polygon 2 of 1 positions, fewer than 4"),
        (#"{"type": "MultiPolygon", "coordinates": [[\#(ring)], [[[0,0],[1,0],[1,1],[0,1]]]]}"#,
         "has ring 1 of polygon 2 that is not closed (its last position is not its first)"),
        (#"{"type": "MultiPolygon", "coordinates": [\#(ring)]}"#,
         "has ring 1 of polygon 1 with position 1 that is not two or three numbers"),
        (#"{"type": "MultiPolygon", "coordinates": [[[[0,0],[1,0],[1,1],[0,0]], 5]]}"#,
         "has ring 2 of polygon 1 that is not a list of positions"),
        (#"{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}"#, nil),
        (#"{"type": "Polygon", "crs": {"coordinates": 5, "type": "Polygon"}, "coordinates": [\#(ring)]}"#, nil),
        (#"{"type": "Polygon", "coordinates": [[{"coordinates": [\#(ring)]}]]}"#,
         "has ring 1 with position 1 that is not two or three numbers"),
        // The writer's form read in place: a last member whose name ends in "type (a quote) counts as the type.
        (#"{"coordinates": [[]], "type": "Point", "z\"type": "Polygon"}"#, "has ring 1 of 0 positions, fewer than 4"),
        ("[1, 2]", nil), ("null", nil), (#""Polygon""#, nil), ("{}", nil),
    ]

    @Test("the same findings as PolygonRings reading the geometry written, read in small steps", arguments: [1, 7, 4096])
    func sameAsPolygonRings(step: Int) throws {
        let features = try read(Self.cases.map(\.0), step: step)
        #expect(features.count == Self.cases.count)
        for (feature, (geometry, expected)) in zip(features, Self.cases) {
            #expect(feature.geometryProblem == expected, "\(geometry)")
            #expect(feature.geometryProblem == reference(feature), "\(geometry)")
        }
    }

    @Test("a ring longer than the writer's first buffer: its first and last positions are compared after it grew")
    func longRing() throws {
        let middle = (1...2000).map { "[\($0).25, -\($0).5]" }.joined(separator: ", ")
        let closed = #"{"type": "Polygon", "coordinates": [[[0.125, 52], \#(middle), [0.125, 52.0]]]}"#
        let open = #"{"type": "MultiPolygon", "coordinates": [[[[0.125, 52], \#(middle), [0.125, 52.5]]]]}"#
        let features = try read([closed, open], step: 4096)
        #expect(try #require(features.first?.geometry).count > 8 * 4096, "the writer's output began at 4 KB")
        #expect(features.map(\.geometryProblem) == [nil, "has ring 1 of polygon 1 that is not closed (its last position is not its first)"])
        #expect(features.map(\.geometryProblem) == features.map(reference))
    }

    @Test("a geometry nested deeper than JSONSerialization writes has no text, and no problem with its rings")
    func tooDeep() throws {
        // The feature's object, the geometry's, then 510 lists: the number is 512 deep.
        let deep = String(repeating: "[", count: 510) + "0" + String(repeating: "]", count: 510)
        let features = try read([#"{"type": "Polygon", "coordinates": \#(deep)}"#], step: 4096)
        #expect(features.count == 1 && features[0].geometry == nil && features[0].geometryProblem == nil)
    }
}
