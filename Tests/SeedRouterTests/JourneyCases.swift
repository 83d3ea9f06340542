import Foundation
import SeedKit
import SeedRouter
import SeedSQLite
import SeedTestSupport

/// A seed built for the journey tests, the feeds it was built from (as the reference reads
/// them), and the cases drawn on it.
struct JourneySeed {
    let seed: String
    /// `--feed` arguments of scripts/journey_reference.py: NAME=DIR, or DIR alone for one feed.
    let feeds: [String]
    let dates: [String]

    /// Builds `feeds` (NAME=DIR each, or one DIR) into `folder`.
    static func build(_ name: String, _ feeds: [String], dates: [String], in folder: TemporaryFolder) throws -> JourneySeed {
        let output = folder.file("\(name).sqlite")
        var options = BuildOptions(inputs: [], output: output, lenient: true)
        if feeds.count == 1 && !feeds[0].contains("=") {
            options.inputs = feeds
        } else {
            options.feeds = feeds
        }
        _ = try SeedBuilder(options: options).build()
        return JourneySeed(seed: output, feeds: feeds, dates: dates)
    }

    /// `count` random (origin, destination, local time) triples, the same each run: stops
    /// served by some trip, one place in five a point up to about 150 m from a stop.
    func cases(_ count: Int, seed state: UInt64) throws -> [(from: String, to: String, at: String)] {
        let db = try Connection(path: seed, mode: .readOnly)
        let region = try db.scalar("SELECT count(*) FROM pragma_table_info('stops') WHERE name = 'feed_ref'") != .integer(0)
        let name = region ? "(SELECT name FROM feeds WHERE id = s.feed_ref) || ':' || s.stop_id" : "s.stop_id"
        let feed = region ? "s.feed_ref" : "0"
        let stops = try db.rows("""
            SELECT \(name), s.stop_lat, s.stop_lon, \(feed) FROM stops AS s
             WHERE s.id IN (SELECT stop_ref FROM stop_times) ORDER BY s.id
            """)
        let busiest = dates.isEmpty ? try busiestDates(db, region: region) : [:]
        var random = state
        func next(_ n: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((random >> 33) % UInt64(n))
        }
        func place() -> String {
            let stop = stops[next(stops.count)]
            guard next(5) == 0, case .real(let lat) = stop[1], case .real(let lon) = stop[2] else { return stop[0].text ?? "" }
            return "\(lat + Double(next(200) - 100) / 100_000),\(lon + Double(next(200) - 100) / 100_000)"
        }
        return (0..<count).map { _ in
            let hour = next(24), minute = next(60)
            let origin = stops[next(stops.count)]
            let days = dates.isEmpty ? busiest[origin[3].integer ?? 0] ?? ["2000-01-01"] : dates
            let at = "\(days[next(days.count)])T\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
            // In a region, four destinations in five are of the origin's feed.
            var destination = place()
            if region && next(5) > 0 {
                let same = stops.filter { $0[3] == origin[3] }
                destination = same[next(same.count)][0].text ?? destination
            }
            return (next(5) == 0 ? place() : origin[0].text ?? "", destination, at)
        }
    }

    /// Each feed's three dates with the most services running (a seed of one feed: feed 0).
    func busiestDates(_ db: Connection, region: Bool) throws -> [Int64: [String]] {
        let days = """
            WITH RECURSIVE bit(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM bit WHERE i < 255)
            SELECT \(region ? "feed_ref" : "0") AS feed, date(block * 256 + i - 0.5) AS date FROM service_days, bit
             WHERE (CASE i / 64 WHEN 0 THEN days0 WHEN 1 THEN days1 WHEN 2 THEN days2 ELSE days3 END >> (i % 64)) & 1
            """
        var out: [Int64: [String]] = [:]
        for row in try db.rows("SELECT feed, date, count(*) AS n FROM (\(days)) GROUP BY feed, date ORDER BY feed, n DESC, date") {
            let feed = row[0].integer ?? 0
            if out[feed, default: []].count < 3 { out[feed, default: []].append(row[1].text ?? "") }
        }
        return out
    }

    /// The reference's earliest arrival (seconds since 1970) for each case, or nil.
    func reference(_ cases: [(from: String, to: String, at: String)], in folder: TemporaryFolder) throws -> [Int?] {
        let lines = try cases.map { c in
            String(decoding: try JSONSerialization.data(withJSONObject: ["from": c.from, "to": c.to, "at": c.at]), as: UTF8.self)
        }
        let input = folder.write("cases-\(UUID().uuidString).jsonl", lines.joined(separator: "\n") + "\n")
        let output = try run("batch", input)
        return output.split(separator: "\n").map { Int($0) }
    }

    /// Runs scripts/journey_reference.py `command` over the feeds with `input` as its standard input.
    func run(_ command: String, _ input: String) throws -> String {
        let feedArguments = feeds.map { "--feed '\($0)'" }.joined(separator: " ")
        let script = Repository.path("scripts/journey_reference.py")
        let result = try ChildProcess.shell("python3 '\(script)' \(command) \(feedArguments) < '\(input)'",
                                            timeout: .seconds(3600))
        guard result.status == 0 else { throw ReferenceFailure(text: result.description) }
        return result.stdout
    }

    struct ReferenceFailure: Error { let text: String }
}

/// `instant` as the reference reads it (ISO 8601 with the offset, UTC here).
func isoUTC(_ instant: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: instant).replacingOccurrences(of: "Z", with: "+00:00")
}

/// A journey as a line of `seedgen journeys --json`'s array, for the reference's check.
func referenceJSON(_ journey: Journey) -> [String: Any] {
    [
        "departure": isoUTC(journey.departure), "arrival": isoUTC(journey.arrival), "transfers": journey.transfers,
        "legs": journey.legs.map { leg -> [String: Any] in
            var out: [String: Any] = ["mode": leg.mode.rawValue, "from": leg.from, "to": leg.to,
                                      "departure": isoUTC(leg.departure), "arrival": isoUTC(leg.arrival)]
            if let route = leg.routeID { out["route_id"] = route }
            if let trip = leg.tripID { out["trip_id"] = trip }
            return out
        },
    ]
}
