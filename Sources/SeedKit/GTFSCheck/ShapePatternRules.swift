import Foundation

/// The canonical validator's WARNINGs on how a trip's stops match its shape (warnings here
/// whatever the flags), beside `stop_too_far_from_shape` in `ShapeDistanceCheck`'s pass, once
/// per pattern of a shape's stops (`ShapeStops.Pattern`: the first trip of each sequence of stops):
///
/// - `stops_match_shape_out_of_order`: a pattern whose stops cannot be matched to parts of the
///   shape within the distance allowed (100 m; 400 m at a rail trip's ends) in the order the trip
///   serves them. Each stop, in stop_sequence order, takes the first segment within the distance
///   that is not before the previous stop's (the earliest, which leaves the most room to those
///   after); the first stop with none is reported, naming the previous one, once per pattern.
///   Stops far from the whole shape (`stop_too_far_from_shape`) and without a place are left
///   out. Cheap: the segments the far-stop search found are tried first; only a pattern they do
///   not give in order (a loop, say) is searched segment by segment.
/// - `stop_too_far_from_shape_using_user_distance`: a stop time whose shape_dist_traveled places
///   it on its shape (between the shape's points by their shape_dist_traveled) farther from its
///   stop than that distance, on a shape whose greatest distance is above 0; a distance at or
///   beyond the shape's first or last point's is not checked (as gtfs-guru reads it: 0 often
///   means "not measured", a distance past the end is `trip_distance_exceeds_shape_distance`);
///   each stop once per shape, as the validator reports it.
/// - `stop_has_too_many_matches_for_shape`: a stop near its shape (within the distance) at more
///   than 20 places, as the validator counts them (`Polyline.localMatches`), once per shape and
///   stop, at the first stop time that served it. Cheap: a box test per 8 segments of the shape.
struct ShapePatternRules {
    let line: Polyline
    /// The shape_dist_traveled of `line`'s points, in order (nil where empty).
    let distances: [Double?]
    let stops: [Int64: (latitude: Double, longitude: Double)]
    let shapeID: String

    /// Checks `patterns`, whose stops are `entries` of the shape, `segments` the segment the
    /// far-stop search found each entry near (nil: far, or without a place).
    func check(
        _ patterns: [ShapeStops.Pattern], entries: [ShapeStops.Entry], segments: [Int?],
        into found: inout [ShapeDistanceCheck.Finding]
    ) {
        for pattern in patterns { checkOrder(pattern, entries: entries, segments: segments, into: &found) }
        checkUserDistances(patterns, entries: entries, into: &found)
        checkMatchCounts(entries: entries, segments: segments, into: &found)
    }

    /// The validator's threshold of potential matches.
    static let tooManyMatches = 20

    private func checkMatchCounts(
        entries: [ShapeStops.Entry], segments: [Int?], into found: inout [ShapeDistanceCheck.Finding]
    ) {
        for (index, entry) in entries.enumerated() where segments[index] != nil {
            guard let location = stops[entry.stop] else { continue }
            let limit = Self.limit(entry.largeStation)
            let count = line.localMatches(
                latitude: location.latitude, longitude: location.longitude, within: limit, atLeast: Self.tooManyMatches)
            guard count > Self.tooManyMatches else { continue }
            let (shape, sequence) = (shapeID, entry.sequence)
            found.append(
                ShapeDistanceCheck.Finding(
                    trip: entry.trip, sequence: sequence, stop: entry.stop,
                    code: NoticeCode.stopHasTooManyMatchesForShape
                ) { tripID, _ in
                    """
                    is within \(Int(limit)) m of shape_id '\(shape)' of trip_id '\(tripID)' (stop_sequence \
                    \(sequence)) \
                    at \(count) places, more than \(Self.tooManyMatches): the stop or the shape's path may be wrong
                    """
                })
        }
    }

    private static func limit(_ largeStation: Bool) -> Double {
        ShapeDistanceCheck.maximumDistance * (largeStation ? ShapeDistanceCheck.largeStationMultiplier : 1)
    }

    private func checkOrder(
        _ pattern: ShapeStops.Pattern, entries: [ShapeStops.Entry], segments: [Int?],
        into found: inout [ShapeDistanceCheck.Finding]
    ) {
        var previous = -1
        let inOrder = pattern.stops.allSatisfy { served in
            guard let segment = segments[served.entry] else { return true }
            defer { previous = max(previous, segment) }
            return segment >= previous
        }
        guard !inOrder else { return }
        previous = -1
        var before: (stop: Int64, sequence: Int64)? = nil
        for served in pattern.stops {
            let stop = entries[served.entry].stop
            guard segments[served.entry] != nil, let location = stops[stop] else { continue }
            let within = line.segments(
                latitude: location.latitude, longitude: location.longitude, within: Self.limit(served.largeStation))
            guard !within.isEmpty else { continue }
            guard let next = within.first(where: { $0 >= previous }) else {
                let (shape, sequence, earlier) = (self.shapeID, served.sequence, before)
                found.append(
                    ShapeDistanceCheck.Finding(
                        trip: pattern.trip, sequence: sequence, stop: stop, other: earlier?.stop,
                        code: NoticeCode.stopsMatchShapeOutOfOrder
                    ) { tripID, stopIDs in
                        """
                        matches shape_id '\(shape)' of trip_id '\(tripID)' (stop_sequence \(sequence)) only \
                        before stop_id '\(earlier.flatMap { stopIDs[$0.stop] } ?? "")' (stop_sequence \
                        \(earlier?.sequence ?? 0)), which the trip serves first: its stops are out of order along \
                        the shape
                        """
                    })
                return
            }
            previous = next
            before = (stop, served.sequence)
        }
    }

    private func checkUserDistances(
        _ patterns: [ShapeStops.Pattern], entries: [ShapeStops.Entry], into found: inout [ShapeDistanceCheck.Finding]
    ) {
        let measured = distances.indices.compactMap { index in distances[index].map { (index, $0) } }
        guard let greatest = measured.map({ $0.1 }).max(), greatest > 0, let first = measured.first?.1,
            let last = measured.last?.1
        else { return }
        var seen = Set<[Int64]>()
        var reported = Set<Int>()
        for pattern in patterns {
            for served in pattern.stops {
                let stop = entries[served.entry].stop
                guard let distance = served.distance, distance > first, distance < last,
                    !reported.contains(served.entry), let location = stops[stop],
                    seen.insert([Int64(served.entry), Int64(bitPattern: distance.bitPattern)]).inserted
                else { continue }
                let at = point(at: distance, measured)
                let place = line.project(latitude: location.latitude, longitude: location.longitude)
                let metres = ((place.x - at.x) * (place.x - at.x) + (place.y - at.y) * (place.y - at.y)).squareRoot()
                let limit = Self.limit(served.largeStation)
                guard metres > limit else { continue }
                reported.insert(served.entry)
                let (shape, sequence) = (self.shapeID, served.sequence)
                found.append(
                    ShapeDistanceCheck.Finding(
                        trip: pattern.trip, sequence: sequence, stop: stop, field: "shape_dist_traveled",
                        code: NoticeCode.stopTooFarFromShapeUsingUserDistance
                    ) { tripID, stopIDs in
                        """
                        places stop_id '\(stopIDs[stop] ?? "")' of trip_id '\(tripID)' (stop_sequence \(sequence)) \
                        \(Int(metres.rounded())) m from the stop along shape_id '\(shape)', more than \
                        \(Int(limit)) m: the vehicle is drawn away from the stop
                        """
                    })
            }
        }
    }

    /// The point of the shape at `distance` along it: between the measured points (index, distance,
    /// in order) that bracket it, the first or the last beyond them.
    private func point(at distance: Double, _ measured: [(Int, Double)]) -> (x: Double, y: Double) {
        var low = 0
        var high = measured.count
        while low < high {
            let middle = (low + high) / 2
            if measured[middle].1 < distance { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return line.point(measured[0].0) }
        guard low < measured.count else { return line.point(measured[measured.count - 1].0) }
        let (a, b) = (measured[low - 1], measured[low])
        let (pa, pb) = (line.point(a.0), line.point(b.0))
        let t = b.1 > a.1 ? (distance - a.1) / (b.1 - a.1) : 1
        return (pa.x + t * (pb.x - pa.x), pa.y + t * (pb.y - pa.y))
    }
}
