import Foundation
import GRDB
import SeedRouter
import SeedUpdater   // the installer and the channel's key type come with it

/// Installs the shipped seed, updates it from a channel when one is configured, reads it with
/// GRDB through the generated `TransitSchema`, and keeps the user's favourites in a database of
/// its own that reads the seed through `ATTACH ... AS seed`.
@main
struct SampleApp {
    static func main() async throws {
        if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--board" {
            try board(CommandLine.arguments)
            return
        }
        let path = try await installAndUpdate()
        try read(seedAt: path)
    }

    /// `App --board SEED STOP_ID UNIX_TIME LIMIT`: the board of any seed, one line per
    /// departure (`unix-time trip_id stop_sequence service_date`), for scripts/sample-app.sh.
    /// `App --board SEED STOP_ID 0 LIMIT --time-on DATE`: times the board from each quarter
    /// hour of DATE, five times each, and prints the median (`make bench`, job queries).
    static func board(_ arguments: [String]) throws {
        guard arguments.count >= 6, let time = Double(arguments[4]), let limit = Int(arguments[5]) else {
            throw ValidationFailure("usage: App --board SEED STOP_ID UNIX_TIME LIMIT [--time-on DATE]")
        }
        var configuration = Configuration()
        configuration.readonly = true
        let seed = try DatabaseQueue(path: arguments[2], configuration: configuration)
        if arguments.count == 8, arguments[6] == "--time-on" {
            print(try timeBoards(seed, stopID: arguments[3], date: arguments[7], limit: limit))
            return
        }
        let board = try seed.read { db in try departureBoard(db, stopID: arguments[3], at: Date(timeIntervalSince1970: time), limit: limit) }
        for departure in board { print("\(Int(departure.at.timeIntervalSince1970)) \(departure.row.tripID) \(departure.row.stopSequence) \(departure.row.serviceDate)") }
    }

    /// Puts the seed in place: the bundled one, then a newer one from the channel, if any.
    /// - Returns: the installed seed's path.
    static func installAndUpdate() async throws -> String {
        // 1. One call at startup, before the seed is opened. The seed is a SwiftPM resource.
        let result = try SeedInstaller.installIfNeeded(bundle: .module, resource: "seed",
                                                       schemaVersion: TransitSchema.schemaVersion)
        print(status(result))
        if result.status == .replacedModified { print("warning: \(result.reason ?? "")") }

        // 1b. Then a newer seed from the channel, when there is one (`seedgen publish` wrote it);
        //     a failure keeps the seed installed above.
        let environment = ProcessInfo.processInfo.environment
        if let channel = environment["SAMPLE_CHANNEL"].flatMap(URL.init(string:)) {
            let updater = SeedUpdater(channel: channel, destination: URL(fileURLWithPath: result.path),
                                      schemaVersion: TransitSchema.schemaVersion,
                                      publicKey: try environment["SAMPLE_CHANNEL_PUBLIC_KEY"].map { try SeedUpdater.PublicKey(base64: $0) })
            do {
                print("update: \(try await updater.update())")
            } catch {
                print("update failed, the installed seed stays: \(error.code): \(error)")
            }
        }
        return result.path
    }

    /// What the installer did, as a sentence for the log (`result.description` is the
    /// installer's own one-line record: `installed seed-version=... [why] at ...`).
    static func status(_ result: SeedInstallResult) -> String {
        let seed = "seed version \(result.seedVersion) (schema version \(result.schemaVersion))"
        let before = result.previousSeedVersion.map { " over seed version \($0)" } ?? ""
        let why = result.reason.map { ": \($0)" } ?? ""
        switch result.status {
        case .upToDate: return "The installed \(seed) at \(result.path) is up to date."
        case .patched: return "Patched the installed seed at \(result.path) to \(seed)\(before)."
        case .replacedModified: return "Installed \(seed) at \(result.path) over a modified seed\(why)."
        case .installed where result.reason == "nothing installed":
            return "Installed \(seed) at \(result.path), where there was none."
        case .installed: return "Installed \(seed) at \(result.path)\(before)\(why)."
        }
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

        // A departure board: the next departures after an instant, in absolute time (the feed's
        // time zone and GTFS's service-day clock), one call of the generated API.
        let now = Date(timeIntervalSince1970: 1_401_659_400) // Monday 2014-06-02 07:50 in Cairns
        let board = try seed.read { db in try departureBoard(db, stopID: stop.stopID, at: now, limit: 5) }
        var brisbane = Calendar(identifier: .gregorian)
        brisbane.timeZone = TimeZone(identifier: "Australia/Brisbane")!
        print("departure board at \(stop.stopID) \(stop.stopName ?? "") from 07:50:")
        for departure in board {
            let time = brisbane.dateComponents([.hour, .minute], from: departure.at)
            print(String(format: "  %02d:%02d  %@  %@", time.hour ?? 0, time.minute ?? 0,
                         departure.row.routeShortName ?? "", departure.row.tripHeadsign ?? departure.row.tripID))
        }

        // 4. A journey planned offline (SeedRouter): to Smithfield Shopping Centre from 07:50,
        //    the earliest arrival for each number of transfers.
        let planner = try JourneyPlanner(path: path)
        let journeys = try planner.journeys(from: .stop(stop.stopID), to: .stop("750053"), departingAt: now)
        for journey in journeys {
            let (leaves, arrives) = (brisbane.dateComponents([.hour, .minute], from: journey.departure),
                                     brisbane.dateComponents([.hour, .minute], from: journey.arrival))
            print(String(format: "journey from %@ to 750053: %02d:%02d -> %02d:%02d, %d transfers", stop.stopID,
                         leaves.hour ?? 0, leaves.minute ?? 0, arrives.hour ?? 0, arrives.minute ?? 0, journey.transfers))
            for leg in journey.legs {
                print("  \(leg.mode.rawValue) \(leg.from) -> \(leg.to)\(leg.tripID.map { " on trip " + $0 } ?? "")")
            }
        }

        // 5. User data lives in its own database and survives seed updates; it reads the seed
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

    /// The next `limit` departures at the stop `stopID` (a station: at its platforms) from `instant` on.
    static func departureBoard(_ db: Database, stopID: String, at instant: Date, limit: Int) throws -> [TransitSchema.Queries.Timed<TransitSchema.Queries.Departures.Row>] {
        guard let stop = try TransitSchema.Stops.Record.filter(TransitSchema.Stops.Columns.stopID == stopID).fetchOne(db) else {
            throw ValidationFailure("no stop \(stopID)")
        }
        return try TransitSchema.Queries.departures(db, stop: stop.id, after: instant, limit: limit)
    }

    /// The median time of a board of `limit` departures from each quarter hour of `date`.
    static func timeBoards(_ seed: DatabaseQueue, stopID: String, date: String, limit: Int) throws -> String {
        try seed.read { db in
            let zone = try String.fetchOne(db, sql: "SELECT agency_timezone FROM agency ORDER BY id LIMIT 1").flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
            guard let origin = TransitSchema.Queries.ServiceDayClock(timeZone: zone).origin(of: date) else { throw ValidationFailure("not a date: \(date)") }
            var times: [Double] = []
            var found = 0
            for quarter in 0..<96 {
                for _ in 0..<5 {
                    let started = DispatchTime.now().uptimeNanoseconds
                    found += try departureBoard(db, stopID: stopID, at: origin.addingTimeInterval(Double(quarter * 900)), limit: limit).count
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
                }
            }
            times.sort()
            return String(format: "%d boards of %d from each quarter hour of %@ (%d departures): p95 %.3f ms, median %.3f ms",
                          times.count, limit, date, found, times[times.count * 95 / 100], times[times.count / 2])
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
