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
        metres(lat1, lon1, cos(lat1 * radian), lat2, lon2, cos(lat2 * radian))
    }

    /// The same, given the cosines of both latitudes (`cos(lat * radian)`: the same bits).
    static func metres(
        _ lat1: Double, _ lon1: Double, _ cos1: Double, _ lat2: Double, _ lon2: Double, _ cos2: Double
    ) -> Double {
        let (p1, p2, l1, l2) = (lat1 * radian, lat2 * radian, lon1 * radian, lon2 * radian)
        let (dp, dl) = (p2 - p1, l2 - l1)
        let (sp, sl) = (sin(dp / 2), sin(dl / 2))
        let h = sp * sp + cos1 * cos2 * sl * sl
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
        let near = FootpathGrid(self)
        var paths: [(pair: Int64, time: Int32)] = []
        near.pairs(among: nil, accept: { _, _ in true }) { paths.append((Self.key($0, $1), $2)) }
        var members: [Int32: [Int32]] = [:]
        for stop in 0..<stopCount where stopParent[stop] >= 0 {
            members[stopParent[stop], default: []].append(Int32(stop))
        }
        for (parent, children) in members {
            let group = [parent] + children
            for a in group {
                for b in group where a != b {
                    if let time = walk(a, b) { paths.append((Self.key(a, b), time)) }
                }
            }
        }
        var rules: [Int64: (Int64, Int64?)] = [:]
        for (a, b, kind, time) in transfers { rules[Self.key(a, b)] = (kind, time) }
        apply(rules, to: consume paths)
    }

    /// The same footpaths from the seed's `footpaths` (kinds 0 and 1 both ways, kind 0 checked
    /// along a great circle), with the walks the table leaves out measured here: between two
    /// stops no pattern serves, and in a region seed built before the table held the walks
    /// between stops of different feeds (`acrossFeeds` false), those.
    mutating func buildFootpaths(derived rows: [FootpathRow], acrossFeeds: Bool) {
        let near = FootpathGrid(self)
        var paths: [(pair: Int64, time: Int32)] = []
        paths.reserveCapacity(2 * rows.count)
        var rules: [Int64: (Int64, Int64?)] = [:]
        for row in rows {
            switch row.kind {
            case 0, 1:
                guard let metres = near.metres(row.from, row.to) else { continue }
                if row.kind == 0 && metres > Footpaths.walkingDistance { continue }
                let time = Footpaths.seconds(metres)
                paths.append((Self.key(row.from, row.to), time))
                paths.append((Self.key(row.to, row.from), time))
            default:
                rules[Self.key(row.from, row.to)] = (row.kind == 3 ? 3 : row.time == nil ? 0 : 2, row.time)
            }
        }
        var unserved = [Bool](repeating: true, count: stopCount)
        for stop in patternStops { unserved[Int(stop)] = false }
        near.pairs(among: unserved, accept: { _, _ in true }) { paths.append((Self.key($0, $1), $2)) }
        if feedNames.count > 1 && !acrossFeeds {
            let feed = stopFeed
            near.pairs(among: nil, accept: { feed[Int($0)] != feed[Int($1)] }) { paths.append((Self.key($0, $1), $2)) }
        }
        apply(rules, to: consume paths)
    }

    /// Applies `transfers`' rules (by pair: type and time) to `paths` (pairs in any order, a pair
    /// more than once with the same time), then indexes the footpaths by their first stop.
    private mutating func apply(_ rules: [Int64: (Int64, Int64?)], to unsorted: consuming [(pair: Int64, time: Int32)])
    {
        var paths = unsorted
        paths.sort { $0.pair < $1.pair }
        var kept = 0
        for i in paths.indices where kept == 0 || paths[kept - 1].pair != paths[i].pair {
            paths[kept] = paths[i]
            kept += 1
        }
        paths.removeLast(paths.count - kept)
        changeTime = Array(repeating: 0, count: stopCount)
        if !rules.isEmpty { applyRules(rules, to: &paths) }
        var counts = [Int32](repeating: 0, count: stopCount + 1)
        for path in paths { counts[Int(path.pair >> 32) + 1] += 1 }
        for i in 0..<stopCount { counts[i + 1] += counts[i] }
        footStart = counts
        footTo = paths.map { Int32(truncatingIfNeeded: $0.pair & 0xFFFF_FFFF) }
        footTime = paths.map(\.time)
    }

    /// Each rule changes its own pair only: from a stop to itself, type 2 with a time sets the
    /// change time; 3 removes the footpath; 2 with a time sets its time; else one is walked
    /// where there was none. `paths` is sorted by pair, without repeats, and stays so.
    private mutating func applyRules(_ rules: [Int64: (Int64, Int64?)], to paths: inout [(pair: Int64, time: Int32)]) {
        func find(_ pair: Int64) -> Int? {
            var (low, high) = (0, paths.count)
            while low < high {
                let mid = (low + high) / 2
                if paths[mid].pair < pair { low = mid + 1 } else { high = mid }
            }
            return low < paths.count && paths[low].pair == pair ? low : nil
        }
        var removed = Set<Int>()
        var added: [(pair: Int64, time: Int32)] = []
        for (pair, (kind, time)) in rules {
            let (a, b) = (Int32(pair >> 32), Int32(truncatingIfNeeded: pair & 0xFFFF_FFFF))
            if a == b {
                if kind == 2, let time { changeTime[Int(a)] = Int32(time) }
            } else if kind == 3 {
                if let i = find(pair) { removed.insert(i) }
            } else if kind == 2, let time {
                if let i = find(pair) { paths[i].time = Int32(time) } else { added.append((pair, Int32(time))) }
            } else if find(pair) == nil, let time = walk(a, b) {
                added.append((pair, time))
            }
        }
        guard !removed.isEmpty || !added.isEmpty else { return }
        paths = (paths.indices.filter { !removed.contains($0) }.map { paths[$0] } + added).sorted { $0.pair < $1.pair }
    }
}

/// Stops in cells of the walking distance, to find the pairs within it, and each stop's
/// latitude's cosine, computed once.
struct FootpathGrid {
    private let lat: [Double]
    private let lon: [Double]
    private let cosines: [Double]

    init(_ network: TransitNetwork) {
        lat = network.stopLat
        lon = network.stopLon
        cosines = network.stopLat.map { cos($0 * Footpaths.radian) }
    }

    /// Metres between two stops along a great circle (as `Footpaths.metres`); nil when one has
    /// no position.
    func metres(_ a: Int32, _ b: Int32) -> Double? {
        let (i, j) = (Int(a), Int(b))
        guard !lat[i].isNaN, !lon[i].isNaN, !lat[j].isNaN, !lon[j].isNaN else { return nil }
        return Footpaths.metres(lat[i], lon[i], cosines[i], lat[j], lon[j], cosines[j])
    }

    /// Calls `found` with every ordered pair of different stops at most the walking distance
    /// apart and the time to walk it, of the stops `among` marks (nil: all) and that `accept`
    /// takes (a grid of cells the walking distance high; each stop looks in the cells its
    /// distance reaches).
    func pairs(among: [Bool]?, accept: (Int32, Int32) -> Bool, _ found: (Int32, Int32, Int32) -> Void) {
        let size = Footpaths.walkingDistance / 111_195.0
        var cells: [Int64: [Int32]] = [:]
        func cell(_ x: Int64, _ y: Int64) -> Int64 { x << 32 ^ (y & 0xFFFF_FFFF) }
        func placed(_ stop: Int) -> Bool { !lat[stop].isNaN && !lon[stop].isNaN && among?[stop] ?? true }
        for stop in lat.indices where placed(stop) {
            let (x, y) = (Int64((lat[stop] / size).rounded(.down)), Int64((lon[stop] / size).rounded(.down)))
            cells[cell(x, y), default: []].append(Int32(stop))
        }
        for stop in lat.indices where placed(stop) {
            let (x, y) = (Int64((lat[stop] / size).rounded(.down)), Int64((lon[stop] / size).rounded(.down)))
            let reach = Int64((1 / max(cosines[stop], 0.01)).rounded(.up)) + 1
            for dx in -1...Int64(1) {
                for dy in -reach...reach {
                    for other in cells[cell(x + dx, y + dy)] ?? [] where other != Int32(stop) {
                        guard accept(Int32(stop), other) else { continue }
                        let j = Int(other)
                        let metres = Footpaths.metres(lat[stop], lon[stop], cosines[stop], lat[j], lon[j], cosines[j])
                        if metres <= Footpaths.walkingDistance { found(Int32(stop), other, Footpaths.seconds(metres)) }
                    }
                }
            }
        }
    }
}
