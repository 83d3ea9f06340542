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
        let stops = try db.rows("""
            SELECT \(name), s.stop_lat, s.stop_lon FROM stops AS s
             WHERE s.id IN (SELECT stop_ref FROM stop_times) ORDER BY s.id
            """)
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
            let at = "\(dates[next(dates.count)])T\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
            return (place(), place(), at)
        }
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
                                            timeout: .seconds(600))
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
