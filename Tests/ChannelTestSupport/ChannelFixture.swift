import Foundation
import SeedTestSupport

/// Seeds of consecutive days of a small generated feed (built once per test process with
/// `seedgen build --previous`, so their deltas are small), and a fresh channel folder per test
/// to publish them into with the real `seedgen`.
public final class ChannelFixture {
    /// The test's own folder (removed with the fixture).
    private let temporary = TemporaryFolder()
    /// The channel folder inside it.
    public var channel: String { temporary.file("channel") }

    /// The seeds of days 1...days (`.sqlite`), shared by the tests of a process.
    public static let seeds: [String] = {
        let folder = NSTemporaryDirectory() + "seedgen-channel-seeds-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "seedgen-channel-seeds-\(getpid())") }
        var seeds: [String] = []
        for day in 1...4 {
            let feed = folder + "/feed\(day)"
            writeFeed(feed, day: day)
            let seed = folder + "/day\(day).sqlite"
            var arguments = ["build", feed, "--out", seed, "-q"]
            if let previous = seeds.last { arguments += ["--previous", previous] }
            let result = try! SeedgenTool.run(arguments)
            precondition(result.status == 0, "seedgen build failed: \(result.stderr)")
            seeds.append(seed)
        }
        return seeds
    }()

    public init() {}

    /// The path of `name` in the test's folder.
    public func file(_ name: String) -> String { temporary.file(name) }

    /// The seed of `day` (1-based).
    public func seed(_ day: Int) -> String { Self.seeds[day - 1] }

    /// `seedgen publish` of `day`'s seed to the channel; fails the process on error.
    @discardableResult
    public func publish(_ day: Int, _ extra: [String] = []) throws -> ChildProcess.Output {
        let result = try SeedgenTool.run(["publish", seed(day), "--channel", channel] + extra)
        guard result.status == 0 else { throw FixtureError(message: "seedgen publish failed: \(result.stderr)") }
        return result
    }

    /// The content digest of the seed at `path` as `seedgen verify` computes it, when it is the
    /// one the seed records (nil otherwise, or when verify cannot read the seed): which seed a
    /// file holds, whatever SQLite wrote it (a patched seed is not the built file's bytes).
    public static func contentDigest(of path: String) throws -> String? {
        let result = try SeedgenTool.run(["verify", path, "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let check = (report?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "content_digest" }
        guard check?["passed"] as? Bool == true else { return nil }
        return check?["detail"] as? String
    }

    /// The channel's `index.json`, parsed as JSON.
    public func index() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: channel + "/index.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The entry of the index for schema version 4 (the built-in transit schema's).
    public func entry() throws -> [String: Any] {
        ((try index()["seeds"] as? [[String: Any]]) ?? []).first ?? [:]
    }

    /// A feed of 400 stops and 300 trips of 12 stop times; each day replaces a tenth of the
    /// trips and renames a few stops (deterministic).
    static func writeFeed(_ folder: String, day: Int) {
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ lines: [String]) {
            try! (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
        }
        write("agency.txt", ["agency_id,agency_name,agency_url,agency_timezone", "A,Agency,http://a.example,Europe/Berlin"])
        write("routes.txt", ["route_id,agency_id,route_short_name,route_type"] + (1...20).map { "R\($0),A,\($0),3" })
        write("calendar.txt", ["service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
                               "WD,1,1,1,1,1,0,0,20260101,20261231"])
        write("stops.txt", ["stop_id,stop_name,stop_lat,stop_lon"] + (1...400).map { stop in
            let renamed = stop % 97 == day ? " (day \(day))" : ""
            return "S\(stop),Stop \(stop) \(["Hauptstraße", "Bahnhof", "Markt", "Kirche", "Schule"][stop % 5])\(renamed),\(52 + Double(stop) / 1000),\(13 + Double(stop * 7 % 400) / 1000)"
        })
        var trips = ["route_id,service_id,trip_id"], times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
        for trip in 1...300 {
            let id = trip % 10 == day % 10 ? "T\(trip)-d\(day)" : "T\(trip)"
            trips.append("R\(trip % 20 + 1),WD,\(id)")
            for sequence in 1...12 {
                let minutes = 300 + trip * 3 + sequence * 4 + (trip % 10 == day % 10 ? day : 0)
                let time = String(format: "%02d:%02d:00", minutes / 60, minutes % 60)
                times.append("\(id),\(time),\(time),S\((trip * 13 + sequence * 31) % 400 + 1),\(sequence)")
            }
        }
        write("trips.txt", trips)
        write("stop_times.txt", times)
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
