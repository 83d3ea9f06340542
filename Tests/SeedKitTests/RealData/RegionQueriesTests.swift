import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// The gtfs-world feeds built once for the suite: all of them as one region seed, and each
/// alone (both with --lenient: udine needs it).
private final class WorldSeeds: Sendable {
    static let built = Result { try WorldSeeds() }

    let folder = TemporaryFolder()
    let feeds = GTFSWorld.feeds

    private init() throws {
        var options = BuildOptions(inputs: [], output: folder.file("region.sqlite"), lenient: true)
        options.feeds = feeds.map { "\($0)=\(GTFSWorld.root)/\($0)/feed" }
        _ = try SeedBuilder(options: options).build()
        for feed in feeds {
            _ = try SeedBuilder(options: BuildOptions(inputs: ["\(GTFSWorld.root)/\(feed)/feed"], output: folder.file("\(feed).sqlite"), lenient: true)).build()
        }
    }

    func region() throws -> Connection { try Connection(path: folder.file("region.sqlite"), mode: .readOnly) }
    func alone(_ feed: String) throws -> Connection { try Connection(path: folder.file("\(feed).sqlite"), mode: .readOnly) }
}

@Suite("Region seeds: the guide's queries across all feeds and, in their one-feed form, for one feed", .realData("gtfs-world/SOURCES.tsv"))
struct RegionQueriesTests {
    let schema: Schema

    init() throws {
        schema = try Schema.load(path: Repository.path("Schema/transit.yaml"))
    }

    /// The one-feed form of the schema's query `name`.
    func oneFeed(_ name: String) throws -> String {
        let query = try #require(schema.queries.first { $0.name == name })
        return try #require(try schema.oneFeedQuery(query)).sql
    }

    @Test("each feed's services (first, middle, last date), departures and arrivals at its busiest stop, a route's trips and a trip's stops: the one-feed answers of the region seed equal the feed's own seed's, row for row",
          arguments: GTFSWorld.feeds)
    func oneFeedEqualsTheFeedAlone(feed: String) throws {
        let seeds = try WorldSeeds.built.get()
        let region = try seeds.region(), alone = try seeds.alone(feed)
        let id = Value.integer(try region.int("SELECT id FROM feeds WHERE name = '\(feed)'"))
        /// The region seed's id of the row of `table` whose `column` is `key` in this feed.
        func regionID(_ table: String, _ column: String, _ key: Value) throws -> Value {
            try #require(try region.scalar("SELECT id FROM \(table) WHERE feed_ref = ? AND \(column) = ?", [id, key]))
        }

        // Services on the first, middle and last date the feed runs, and on its busiest weekday.
        let range = try alone.rows("SELECT min(date), date((julianday(min(date)) + julianday(max(date))) / 2), max(date) FROM (\(ServiceDays.expanded))")[0]
        guard range[0] != .null else {
            #expect(GTFSWorld.withDataErrors.contains(feed), "\(feed) runs on no date")
            return
        }
        let busiest = try alone.scalar("SELECT date FROM (\(ServiceDays.expanded)) GROUP BY date ORDER BY count(*) DESC, date LIMIT 1") ?? .null
        for date in range + [busiest] {
            let own = try QueryingGuide.run("services-on-a-date", on: alone, ["date": date])
            let inRegion = try QueryingGuide.run(QueryingGuide.oneFeed("services-on-a-date"), on: region, ["date": date, "feed": id])
            #expect(inRegion == own, "\(feed) on \(date): \(inRegion.count) services in the region seed, \(own.count) alone")
            #expect(!own.isEmpty || date == range[1], "\(feed) runs on \(date)")
        }

        // Departures at the busiest stop (by the timed stop times where riders board), on the date
        // most of its services run.
        guard let stop = try alone.rows("""
            SELECT st.stop_ref, stops.stop_id FROM stop_times AS st JOIN stops ON stops.id = st.stop_ref
             WHERE st.pickup_type IS NOT 1 AND st.departure_time IS NOT NULL
               AND EXISTS (SELECT 1 FROM stop_times AS later WHERE later.trip_ref = st.trip_ref AND later.stop_sequence > st.stop_sequence)
             GROUP BY st.stop_ref ORDER BY count(*) DESC, st.stop_ref LIMIT 1
            """).first else {
            Issue.record("\(feed) has no stop where riders board")
            return
        }
        let stopInRegion = try regionID("stops", "stop_id", stop[1])
        func departures(_ date: Value, _ from: Int, _ to: Int, _ kind: String = "departures") throws -> (own: [[Value]], inRegion: [[Value]]) {
            let window: [String: Value] = ["date": date, "from": .integer(Int64(from)), "to": .integer(Int64(to))]
            let own = try QueryingGuide.run(kind, on: alone, window.merging(["stop": stop[0]]) { $1 })
            let values = window.merging(["stop": stopInRegion, "feed": id]) { $1 }
            let inRegion = kind == "departures" ? try QueryingGuide.run(QueryingGuide.oneFeed(kind), on: region, values)
                                                : try QueryingGuide.run(sql: try oneFeed(kind), on: region, values)
            return (own, inRegion)
        }
        let date = try alone.scalar("""
            SELECT date FROM (\(ServiceDays.expanded))
             WHERE service_id IN (SELECT trips.service_id FROM stop_times JOIN trips ON trips.id = stop_times.trip_ref WHERE stop_times.stop_ref = ?)
             GROUP BY date ORDER BY count(*) DESC, date LIMIT 1
            """, [stop[0]]) ?? .null
        for (from, to) in [(7 * 3600, 9 * 3600), (22 * 3600, 26 * 3600), (0, 3 * 86400)] {
            for kind in ["departures", "arrivals"] where kind == "departures" || from == 7 * 3600 {
                let answers = try departures(date, from, to, kind)
                #expect(answers.inRegion == answers.own, "\(feed) \(kind) at \(stop[1]) on \(date) \(from)-\(to): \(answers.inRegion.count) in the region seed, \(answers.own.count) alone")
            }
        }
        #expect(!(try departures(date, 0, 3 * 86400).own.isEmpty), "\(feed): departures at \(stop[1]) from \(date) on")

        // The busiest route's trips (their ids left out: each seed has its own), and the first trip's stops.
        let route = try #require(try alone.rows("SELECT routes.id, routes.route_id FROM trips JOIN routes ON routes.id = trips.route_ref GROUP BY routes.id ORDER BY count(*) DESC, routes.id LIMIT 1").first,
                                 "\(feed) has trips")
        let own = try QueryingGuide.run("route-trips", on: alone, ["route": route[0], "date": date])
        let inRegion = try QueryingGuide.run(sql: try oneFeed("route-trips"), on: region, ["route": try regionID("routes", "route_id", route[1]), "date": date, "feed": id])
        #expect(inRegion.map { Array($0.dropFirst()) } == own.map { Array($0.dropFirst()) }, "\(feed) route \(route[1]) on \(date)")
        if let trip = own.first {
            let stops = try QueryingGuide.run("trip-stops", on: alone, ["trip": trip[0]]).map { $0.enumerated().filter { $0.offset != 1 }.map(\.element) }
            let tripInRegion = try regionID("trips", "trip_id", trip[1])
            // By its seed-wide id, the trip's stops need no narrowing: the plain query answers as the one-feed form does.
            for answer in [try QueryingGuide.run("trip-stops", on: region, ["trip": tripInRegion]),
                           try QueryingGuide.run(sql: try oneFeed("trip-stops"), on: region, ["trip": tripInRegion, "feed": id])] {
                #expect(answer.map { $0.enumerated().filter { $0.offset != 1 }.map(\.element) } == stops, "\(feed) trip \(trip[1])")
            }
        }
    }

    @Test("across all feeds, unchanged: stops matching a name and the stops nearest to a point come from several feeds; near a feed's stop, the nearest are the feed's own, as in its seed")
    func acrossAllFeeds() throws {
        let seeds = try WorldSeeds.built.get()
        let region = try seeds.region()
        func feeds(of ids: [Value]) throws -> Set<Int64> {
            Set(try ids.map { try region.int("SELECT feed_ref FROM stops WHERE id = \($0)") })
        }
        for typed in ["terminal", "hotel"] {
            let found = try QueryingGuide.run("stops-matching", on: region, ["typed": .text(typed)])
            #expect(try feeds(of: found.map(\.[0])).count >= 2, "'\(typed)' matches stops of several feeds")
        }
        for feed in seeds.feeds {
            let alone = try seeds.alone(feed)
            guard let stop = try alone.rows("SELECT stop_id, stop_lat, stop_lon FROM stops WHERE stop_lat IS NOT NULL ORDER BY id LIMIT 1").first else { continue }
            let point: [String: Value] = ["lat": stop[1], "lon": stop[2], "lon_scale": .real(cos(stop[1].double * .pi / 180)), "limit": .integer(5)]
            let nearest = try QueryingGuide.run("nearest-stops", on: region, point)
            #expect(nearest.map { [$0[1], $0[3]] } == (try QueryingGuide.run("nearest-stops", on: alone, point)).map { [$0[1], $0[3]] }, "\(feed): near \(stop[0])")
            // More stops than the feed has: the nearest reach into another feed.
            let count = try alone.int("SELECT count(*) FROM stops WHERE stop_lat IS NOT NULL")
            let beyond = try QueryingGuide.run("nearest-stops", on: region, point.merging(["limit": .integer(count + 1)]) { $1 })
            #expect(try feeds(of: beyond.map(\.[0])).count >= 2, "\(feed): the \(count + 1) stops nearest to \(stop[0])")
        }
    }

    @Test("the one-feed form keeps the departures' index, shadows no FTS5 or R*Tree index, and is refused for a query that takes :feed itself")
    func oneFeedForm() throws {
        let seeds = try WorldSeeds.built.get()
        let region = try seeds.region()
        let plan = try region.rows("EXPLAIN QUERY PLAN " + (try oneFeed("departures")), [.integer(1), .text("2021-01-04"), .integer(0), .integer(3600), .integer(1)])
            .map { $0.last?.description ?? "" }
        #expect(plan.contains { $0.contains("USING INDEX stop_times_departures") || $0.contains("USING COVERING INDEX stop_times_departures") }, "\(plan.joined(separator: "\n"))")
        #expect(!plan.contains { $0.hasPrefix("SCAN stop_times") || $0.hasPrefix("SCAN st ") || $0 == "SCAN st" }, "no scan of every stop time: \(plan.joined(separator: "\n"))")

        let matching = try oneFeed("stops-matching")
        #expect(matching.hasPrefix("WITH \"stops\" AS NOT MATERIALIZED (SELECT * FROM main.\"stops\" WHERE \"feed_ref\" = :feed)\nSELECT * FROM (\n"))
        #expect(try oneFeed("shapes-in-box").hasPrefix("WITH \"shapes\" AS NOT MATERIALIZED (SELECT * FROM main.\"shapes\" WHERE \"feed_ref\" = :feed)\nSELECT * FROM (\n"))
        #expect(try schema.oneFeedSQL(of: "SELECT name FROM feeds") == "SELECT name FROM feeds", "reads no table of every feed: unchanged")
        do {
            _ = try schema.oneFeedSQL(of: "SELECT stop_id FROM stops WHERE feed_ref = :feed")
            Issue.record("a query that takes :feed is refused")
        } catch {
            #expect(error.message.contains("takes a parameter :feed itself"), "\(error)")
        }
    }

    @Test("without a clock 'feed', the transit schema's departures and arrivals find their feed from :stop")
    func clockFeedFromParameters() throws {
        let schema = try SchemaLocator.builtIns[0].load()
        for name in ["departures", "arrivals"] {
            let query = try #require(schema.queries.first { $0.name == name })
            #expect(query.clock?.feed == nil)
            #expect(schema.clockFeedQuery(of: query) == #"SELECT "feed_ref" FROM "stops" WHERE "id" = :stop"#)
        }
        #expect(schema.clockFeedQuery(of: try #require(schema.queries.first { $0.name == "services-on-a-date" })) == nil)
    }

    @Test("a clock's 'feed' query is checked against a region seed's tables when the schema is read", arguments: [
        ("SELECT feed_ref, id FROM stops WHERE id = :stop", "must return one column"),
        ("SELECT feed_ref FROM stops WHERE id = :date", "takes :date, which is not a parameter of the query besides the clock's"),
        ("SELECT feed FROM stops WHERE id = :stop", "is not a valid query over the tables of a region seed"),
    ])
    func clockFeedChecked(feed: String, message: String) throws {
        let text = try String(contentsOfFile: Repository.path("Schema/transit.yaml"), encoding: .utf8)
        let changed = text.replacingOccurrences(of: "time: departure, serviceDate: service_date }",
                                                with: "time: departure, serviceDate: service_date, feed: \"\(feed)\" }")
        #expect(changed != text)
        do {
            _ = try Schema.parse(Array(changed.utf8), file: "transit.yaml")
            Issue.record("'\(feed)' is refused")
        } catch {
            #expect(error.message.contains("'clock': 'feed' \(message)"), "\(error)")
        }
    }
}
