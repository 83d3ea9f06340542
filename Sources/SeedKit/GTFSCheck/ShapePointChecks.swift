import Foundation
import SeedSQLite

/// The canonical validator's rules along each shape of shapes.txt, in shape_pt_sequence order:
/// one pass over the table by its key, what it finds placed in the file in batches (memory
/// bounded however broken the feed).
///
/// - ERRORs, warnings here (errors under `--strict`: the seed keeps the points, only distances
///   along the shape are off): `decreasing_shape_distance` (a shape_dist_traveled below the
///   previous point's), `equal_shape_distance_diff_coordinates` (the previous point's distance,
///   more than 1.11 m away), `point_near_origin`, `point_near_pole` (as for stops).
/// - WARNINGs, warnings whatever the flags: `equal_shape_distance_same_coordinates` (a point
///   repeated, distance and all), `equal_shape_distance_diff_coordinates_distance_below_threshold`
///   (the previous point's distance, less than 1.11 m away), `single_shape_point` (a shape of
///   one point).
struct ShapePointChecks {
    let checks: GTFSChecks

    /// Findings placed per pass over the file.
    static let batchSize = 20_000
    /// The validator's distance under which two points with one distance are one point, in metres.
    static let samePointDistance = 1.11

    private struct Finding {
        var shape: String
        var sequence: Int64
        var field: String
        var code: String
        var message: String
        var advice: Bool
    }

    private struct Point {
        var sequence: Int64
        var latitude: Double
        var longitude: Double
        var distance: Double?
    }

    func run() throws {
        guard checks.has(table: "shapes", column: "shape_pt_lat"), checks.has(table: "shapes", column: "shape_pt_lon"),
            checks.file(of: "shapes") != nil
        else { return }
        let distance = checks.has(table: "shapes", column: "shape_dist_traveled") ? "shape_dist_traveled" : "NULL"
        let statement = try checks.connection.prepare(
            """
            SELECT shape_id, shape_pt_sequence, shape_pt_lat, shape_pt_lon, \(distance) FROM shapes \
            WHERE shape_pt_lat IS NOT NULL AND shape_pt_lon IS NOT NULL ORDER BY shape_id, shape_pt_sequence
            """)
        var findings: [Finding] = []
        var shape = ""
        var previous: Point? = nil
        var points = 0
        while try statement.step() {
            let id = CSVRowLocator.key(statement.value(at: 0))
            let point = Point(
                sequence: statement.int64(at: 1), latitude: statement.double(at: 2), longitude: statement.double(at: 3),
                distance: statement.storageClass(at: 4) == .null ? nil : statement.double(at: 4))
            if id != shape {
                if let previous, points == 1 { findings.append(Self.single(shape, previous.sequence)) }
                (shape, previous, points) = (id, nil, 0)
            }
            points += 1
            func add(_ field: String, _ code: String, _ message: String, advice: Bool = false) {
                findings.append(
                    Finding(
                        shape: id, sequence: point.sequence, field: field, code: code, message: message, advice: advice)
                )
            }
            if abs(point.latitude) <= 1 && abs(point.longitude) <= 1 {
                add(
                    "shape_pt_lat", NoticeCode.pointNearOrigin,
                    "and shape_pt_lon are within a degree of 0, 0: coordinates left at zero")
            }
            if abs(point.latitude) >= 89 {
                add("shape_pt_lat", NoticeCode.pointNearPole, "is 89 degrees or more from the equator")
            }
            if let before = previous, let value = point.distance, let last = before.distance {
                let problem = Self.compare(before, point, value: value, last: last)
                if let problem { add("shape_dist_traveled", problem.code, problem.message, advice: problem.advice) }
            }
            previous = point
            if findings.count >= Self.batchSize {
                try report(findings)
                findings.removeAll()
            }
        }
        if let previous, points == 1 { findings.append(Self.single(shape, previous.sequence)) }
        try report(findings)
    }

    /// `single_shape_point` at shape `shape`'s one point.
    private static func single(_ shape: String, _ sequence: Int64) -> Finding {
        Finding(
            shape: shape, sequence: sequence, field: "shape_id", code: NoticeCode.singleShapePoint,
            message: "has one point: a shape is a line, of two points or more", advice: true)
    }

    /// What is wrong between consecutive points `before` and `point` of a shape, whose
    /// distances are `last` and `value`.
    private static func compare(
        _ before: Point, _ point: Point, value: Double, last: Double
    ) -> (code: String, message: String, advice: Bool)? {
        let previous = "the previous point's (shape_pt_sequence \(before.sequence))"
        if value < last {
            return (
                NoticeCode.decreasingShapeDistance,
                "is below \(last), \(previous): distances along a shape must not decrease", false
            )
        }
        guard value == last else { return nil }
        if point.latitude == before.latitude && point.longitude == before.longitude {
            return (
                NoticeCode.equalShapeDistanceSameCoordinates,
                "is \(previous), at the same place: the point is repeated", true
            )
        }
        let metres = metresBetween(before, point)
        let apart = "\(Int(metres.rounded())) m away"
        return metres > samePointDistance
            ? (
                NoticeCode.equalShapeDistanceDiffCoordinates,
                "is \(previous), \(apart): distances along a shape must increase", false
            )
            : (
                NoticeCode.equalShapeDistanceDiffCoordinatesBelowThreshold,
                "is \(previous), less than \(samePointDistance) m away", true
            )
    }

    /// The distance between two points, on an equirectangular projection (exact enough at a metre).
    private static func metresBetween(_ a: Point, _ b: Point) -> Double {
        let perDegree = ShapeDistanceCheck.metresPerDegree
        let north = (b.latitude - a.latitude) * perDegree
        let east = (b.longitude - a.longitude) * perDegree * cos((a.latitude + b.latitude) / 2 * .pi / 180)
        return (north * north + east * east).squareRoot()
    }

    private func report(_ findings: [Finding]) throws {
        guard !findings.isEmpty, let file = checks.file(of: "shapes") else { return }
        var byKey: [[String]: [Finding]] = [:]
        for finding in findings { byKey[[finding.shape, String(finding.sequence)], default: []].append(finding) }
        let shown = ["shape_id", "shape_pt_lat", "shape_dist_traveled"]
        try checks.places.locate(
            "shapes", matching: ["shape_id", "shape_pt_sequence"], keys: Set(byKey.keys), showing: shown
        ) { key, row in
            for finding in byKey.removeValue(forKey: key) ?? [] {
                checks.issues.record(
                    row.issue(
                        finding.advice ? .bestPractice : .misleading(strict: checks.options.strict), file: file,
                        field: finding.field, value: row.fields[finding.field]?.text,
                        message: finding.message + " (shape_id '\(finding.shape)')", code: finding.code))
            }
        }
    }
}
