import Foundation
import GRDB
import SeedUpdater   // the installer and the channel's key type come with it

/// Installs the shipped seed, updates it from a channel when one is configured, reads it with
/// GRDB through the generated `TransitSchema`, and keeps the user's favourites in a database of
/// its own that reads the seed through `ATTACH ... AS seed`.
@main
struct SampleApp {
    static func main() async throws {
        let path = try await installAndUpdate()
        try read(seedAt: path)
    }

    /// Puts the seed in place: the bundled one, then a newer one from the channel, if any.
    /// - Returns: the installed seed's path.
    static func installAndUpdate() async throws -> String {
        // 1. One call at startup, before the seed is opened. The seed is a SwiftPM resource.
        let result = try SeedInstaller.installIfNeeded(bundle: .module, resource: "seed",
                                                       schemaVersion: TransitSchema.schemaVersion)
        print(result)
        if result.status == .replacedModified { print("warning: \(result.reason ?? "")") }

        // 1b. Then a newer seed from the channel, when there is one (`seedgen publish` wrote it);
        //     a failure keeps the seed installed above.
        let environment = ProcessInfo.processInfo.environment
        if let channel = environment["SAMPLE_CHANNEL"].flatMap(URL.init(string:)) {
            let updater = SeedUpdater(channel: channel, destination: URL(fileURLWithPath: result.path),
                                      schemaVersion: TransitSchema.schemaVersion,
                                      publicKey: try environment["SAMPLE_CHANNEL_PUBLIC_KEY"].map { try ChannelPublicKey(base64: $0) })
            do {
                print("update: \(try await updater.update())")
            } catch {
                print("update failed, the installed seed stays: \(error.code): \(error)")
            }
        }
        return result.path
    }

    /// Reads the installed seed with GRDB, and the user's own database beside it.
    static func read(seedAt path: String) throws {
        // 2. Open the installed seed read-only: a seed the app writes to is replaced at the next start.
        var configuration = Configuration()
        configuration.readonly = true
        let seed = try DatabaseQueue(path: path, configuration: configuration)

        // 3. Query through the generated code: records, columns and associations.
        typealias Stops = TransitSchema.Stops
        typealias StopTimes = TransitSchema.StopTimes
        typealias Trips = TransitSchema.Trips
        let (stop, departures, routes) = try seed.read { db in
            let stop = try Stops.Record.filter(Stops.Columns.stopName != nil)
                .order(Stops.Columns.stopName).fetchOne(db)
            guard let stop else { throw ValidationFailure("the seed has no named stop") }
            let departures = try StopTimes.Record
                .filter(StopTimes.Columns.stopRef == stop.id)
                .including(required: StopTimes.Record.trip)
                .order(StopTimes.Columns.departureTime)
                .asRequest(of: Departure.self)
                .fetchAll(db)
            let routes = try Trips.Record.including(required: Trips.Record.route).fetchCount(db)
            return (stop, departures, routes)
        }
        // The search and spatial indexes: a name typed so far, the stops nearest to a point.
        let (matching, nearest) = try seed.read { db in
            let prefix = String((stop.stopName ?? "").prefix(4))
            return (try Stops.Record.matching(prefix).fetchAll(db),
                    try Stops.Record.near(lat: stop.stopLat ?? 0, lon: stop.stopLon ?? 0, limit: 3).fetchAll(db))
        }
        print("\(matching.count) stops match '\(String((stop.stopName ?? "").prefix(4)))'; nearest to \(stop.stopID): \(nearest.map(\.stopID).joined(separator: ", "))")
        print("stop \(stop.stopID) \(stop.stopName ?? ""): \(departures.count) departures, first at \(departures.first.map { clock($0.stopTime.departureTime) } ?? "-") on trip \(departures.first?.trip.tripID ?? "-")")
        print("\(routes) trips with their route")

        // 4. User data lives in its own database and survives seed updates; it reads the seed
        //    through ATTACH, read-only.
        let userPath = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("user.sqlite").path
        let user = try DatabaseQueue(path: userPath)
        try user.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS favourite_stops(stop_id TEXT PRIMARY KEY)")
            try db.execute(sql: "INSERT OR IGNORE INTO favourite_stops VALUES (?)", arguments: [stop.stopID])
            try db.execute(sql: "ATTACH DATABASE ? AS seed", arguments: ["file:" + path + "?mode=ro"])
            defer { try? db.execute(sql: "DETACH DATABASE seed") }
            let names = try String.fetchAll(db, sql: """
                SELECT s.\(Stops.Columns.stopName) FROM favourite_stops f
                JOIN seed.\(Stops.table) s ON s.\(Stops.Columns.stopID) = f.stop_id
                """)
            print("favourites: \(names.joined(separator: ", "))")
            do {
                try db.execute(sql: "DELETE FROM seed.\(Stops.table)")
                print("error: the attached seed accepted a write")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
                print("the attached seed is read-only")
            }
        }
    }

    /// `90600` -> `25:10:00`.
    static func clock(_ seconds: Int64?) -> String {
        guard let seconds else { return "-" }
        return String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }
}

/// A stop time with its trip, decoded from one joined row.
struct Departure: Decodable, FetchableRecord {
    var stopTime: TransitSchema.StopTimes.Record
    var trip: TransitSchema.Trips.Record

    init(row: Row) throws {
        stopTime = try TransitSchema.StopTimes.Record(row: row)
        trip = row["trip"]
    }
}

struct ValidationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
