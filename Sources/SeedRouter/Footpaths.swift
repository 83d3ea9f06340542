import Foundation

/// The footpath rule (Documentation/querying.md, "Journeys"): how far a rider walks between
/// stops, and how fast.
public enum Footpaths {
    /// Stops at most this far apart (metres, along a great circle) are joined by a footpath.
    public static let walkingDistance = 400.0
    /// Walking speed, metres per second.
    public static let walkingSpeed = 1.2

    static let radian = Double.pi / 180

    /// Metres between two points on a sphere of radius 6,371 km (haversine).
    static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let (p1, p2, l1, l2) = (lat1 * radian, lat2 * radian, lon1 * radian, lon2 * radian)
        let (dp, dl) = (p2 - p1, l2 - l1)
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * 6_371_000.0 * asin(min(1, h.squareRoot()))
    }

    /// Seconds to walk `metres`, rounded up.
    static func seconds(_ metres: Double) -> Int32 { Int32((metres / walkingSpeed).rounded(.up)) }
}

extension TransitNetwork {
    /// The walking time between two stops along a great circle; nil when one has no position.
    func walk(_ a: Int32, _ b: Int32) -> Int32? {
        let (i, j) = (Int(a), Int(b))
        guard !stopLat[i].isNaN, !stopLon[i].isNaN, !stopLat[j].isNaN, !stopLon[j].isNaN else { return nil }
        return Footpaths.seconds(Footpaths.metres(stopLat[i], stopLon[i], stopLat[j], stopLon[j]))
    }

    static func key(_ a: Int32, _ b: Int32) -> Int64 { Int64(a) << 32 | Int64(b) }

    /// Joins stops by footpaths: within the walking distance (any feeds), within one station
    /// (at any distance), and as `transfers` says (types 0, 1, 2 add one; 2 with a time sets its
    /// time; 3 removes it; from a stop to itself, type 2 is the time to change trips there).
    mutating func buildFootpaths(transfers: [(Int32, Int32, Int64, Int64?)]) {
        var paths: [Int64: Int32] = [:]
        for (a, b) in nearbyPairs(among: nil, accept: { _, _ in true }) { paths[Self.key(a, b)] = walk(a, b) }
        var members: [Int32: [Int32]] = [:]
        for stop in 0..<stopCount where stopParent[stop] >= 0 {
            members[stopParent[stop], default: []].append(Int32(stop))
        }
        for (parent, children) in members {
            let group = [parent] + children
            for a in group { for b in group where a != b { if let time = walk(a, b) { paths[Self.key(a, b)] = time } } }
        }
        var rules: [Int64: (Int64, Int64?)] = [:]
        for (a, b, kind, time) in transfers { rules[Self.key(a, b)] = (kind, time) }
        apply(rules, to: &paths)
    }

    /// The same footpaths from the seed's `footpaths` (kinds 0 and 1 both ways, kind 0 checked
    /// along a great circle), with the walks the table leaves out measured here: between two
    /// stops no pattern serves, and in a region seed between stops of different feeds (a
    /// derived table is derived per feed).
    mutating func buildFootpaths(derived rows: [FootpathRow]) {
        var paths: [Int64: Int32] = [:]
        var rules: [Int64: (Int64, Int64?)] = [:]
        for row in rows {
            switch row.kind {
            case 0, 1:
                guard let time = walk(row.from, row.to) else { continue }
                if row.kind == 0 {
                    let (a, b) = (Int(row.from), Int(row.to))
                    let metres = Footpaths.metres(stopLat[a], stopLon[a], stopLat[b], stopLon[b])
                    guard metres <= Footpaths.walkingDistance else { continue }
                }
                paths[Self.key(row.from, row.to)] = time
                paths[Self.key(row.to, row.from)] = time
            default:
                rules[Self.key(row.from, row.to)] = (row.kind == 3 ? 3 : row.time == nil ? 0 : 2, row.time)
            }
        }
        var served = [Bool](repeating: false, count: stopCount)
        for stop in patternStops { served[Int(stop)] = true }
        let unserved = served.map { !$0 }
        for (a, b) in nearbyPairs(among: unserved, accept: { _, _ in true }) { paths[Self.key(a, b)] = walk(a, b) }
        if feedNames.count > 1 {
            let feed = stopFeed
            for (a, b) in nearbyPairs(among: nil, accept: { feed[Int($0)] != feed[Int($1)] }) {
                paths[Self.key(a, b)] = walk(a, b)
            }
        }
        apply(rules, to: &paths)
    }

    /// Applies `transfers`' rules (by pair: type and time) in pair order, then indexes the
    /// footpaths by their first stop.
    private mutating func apply(_ rules: [Int64: (Int64, Int64?)], to paths: inout [Int64: Int32]) {
        changeTime = Array(repeating: 0, count: stopCount)
        for (pair, (kind, time)) in rules.sorted(by: { $0.key < $1.key }) {
            let (a, b) = (Int32(pair >> 32), Int32(truncatingIfNeeded: pair & 0xFFFF_FFFF))
            if a == b {
                if kind == 2, let time { changeTime[Int(a)] = Int32(time) }
            } else if kind == 3 {
                paths[pair] = nil
            } else if kind == 2, let time {
                paths[pair] = Int32(time)
            } else if paths[pair] == nil, let time = walk(a, b) {
                paths[pair] = time
            }
        }
        var counts = [Int32](repeating: 0, count: stopCount + 1)
        for pair in paths.keys { counts[Int(pair >> 32) + 1] += 1 }
        for i in 0..<stopCount { counts[i + 1] += counts[i] }
        footStart = counts
        footTo = Array(repeating: 0, count: paths.count)
        footTime = Array(repeating: 0, count: paths.count)
        var next = counts
        for (pair, time) in paths.sorted(by: { $0.key < $1.key }) {
            let from = Int(pair >> 32)
            footTo[Int(next[from])] = Int32(truncatingIfNeeded: pair & 0xFFFF_FFFF)
            footTime[Int(next[from])] = time
            next[from] += 1
        }
    }

    /// Every ordered pair of different stops at most the walking distance apart, of the stops
    /// `among` marks (nil: all) and that `accept` takes (a grid of cells the walking distance
    /// high; each stop looks in the cells its distance reaches).
    private func nearbyPairs(among: [Bool]?, accept: (Int32, Int32) -> Bool) -> [(Int32, Int32)] {
        let size = Footpaths.walkingDistance / 111_195.0
        var cells: [Int64: [Int32]] = [:]
        func cell(_ x: Int64, _ y: Int64) -> Int64 { x << 32 ^ (y & 0xFFFF_FFFF) }
        func placed(_ stop: Int) -> Bool { !stopLat[stop].isNaN && !stopLon[stop].isNaN && among?[stop] ?? true }
        for stop in 0..<stopCount where placed(stop) {
            let (x, y) = (Int64((stopLat[stop] / size).rounded(.down)), Int64((stopLon[stop] / size).rounded(.down)))
            cells[cell(x, y), default: []].append(Int32(stop))
        }
        var pairs: [(Int32, Int32)] = []
        for stop in 0..<stopCount where placed(stop) {
            let (lat, lon) = (stopLat[stop], stopLon[stop])
            let (x, y) = (Int64((lat / size).rounded(.down)), Int64((lon / size).rounded(.down)))
            let reach = Int64((1 / max(cos(lat * Footpaths.radian), 0.01)).rounded(.up)) + 1
            for dx in -1...Int64(1) {
                for dy in -reach...reach {
                    for other in cells[cell(x + dx, y + dy)] ?? []
                    where other != Int32(stop) && accept(Int32(stop), other) {
                        let metres = Footpaths.metres(lat, lon, stopLat[Int(other)], stopLon[Int(other)])
                        if metres <= Footpaths.walkingDistance { pairs.append((Int32(stop), other)) }
                    }
                }
            }
        }
        return pairs
    }
}
