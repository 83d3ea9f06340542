import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Issue 19, part 1: `seedgen build --previous OLD.sqlite` keeps OLD's ids.
@Suite("Stable ids (--previous)")
struct StableIDTests {
    let folder = TemporaryFolder()

    /// Version 1: stops S1, S2, S3 (S3 a child of S1); trips T1, T2; two identical transfers.
    static let version1: [String: String?] = [
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,One,52.5,13.4,\nS2,Two,52.6,13.5,\nS3,Three,52.7,13.6,S1\n",
        "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,T2\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT2,09:00:00,09:00:00,S3,1\nT2,09:10:00,09:10:00,S2,2\n",
        "transfers.txt": "from_stop_id,to_stop_id,transfer_type\nS1,S2,2\nS1,S2,2\n",
    ]

    /// Version 2: S2 removed; S4 added first in the file (so input order shifts every row);
    /// trip T0 added first, T1 now stops at S4; one transfer left.
    static let version2: [String: String?] = [
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS4,Four,52.8,13.7,\nS1,One,52.5,13.4,\nS3,Three,52.7,13.6,S1\n",
        "trips.txt": "route_id,service_id,trip_id\nR1,WD,T0\nR1,WD,T1\nR1,WD,T2\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT0,07:00:00,07:00:00,S4,1\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S4,2\nT2,09:00:00,09:00:00,S3,1\nT2,09:10:00,09:10:00,S1,2\n",
        "transfers.txt": "from_stop_id,to_stop_id,transfer_type\nS1,S3,2\n",
    ]

    /// Version 3: S2 back (a new row with the key of one removed a version ago).
    static let version3: [String: String?] = [
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS4,Four,52.8,13.7,\nS1,One,52.5,13.4,\nS3,Three,52.7,13.6,S1\nS2,Two again,52.6,13.5,\n",
    ]

    /// Builds the feed `changes` make of `MinimalFeed` into `name`, with `previous` if given.
    @discardableResult
    func build(_ name: String, _ changes: [String: String?], previous: String? = nil, seedVersion: String? = nil) throws -> String {
        let feed = TemporaryFolder()
        MinimalFeed.write(into: feed, changes)
        var options = BuildOptions(inputs: [feed.file("feed")], output: folder.file(name), seedVersion: seedVersion)
        options.previous = previous.map(folder.file)
        _ = try SeedBuilder(options: options).build()
        return folder.file(name)
    }

    func ids(_ path: String, _ sql: String) throws -> [String: Int64] {
        let db = try Connection(path: path, mode: .readOnly)
        return Dictionary(uniqueKeysWithValues: try db.rows(sql).map { ($0[0].description, $0[1].integer ?? -1) })
    }

    @Test("a kept row keeps its id, a removed id is not given again, references follow")
    func idsAreStable() throws {
        let v1 = try build("v1.sqlite", Self.version1)
        let v2 = try build("v2.sqlite", Self.version1.merging(Self.version2) { $1 }, previous: "v1.sqlite")
        let v3 = try build("v3.sqlite", Self.version1.merging(Self.version2) { $1 }.merging(Self.version3) { $1 }, previous: "v2.sqlite")

        let stops1 = try ids(v1, "SELECT stop_id, id FROM stops"), stops2 = try ids(v2, "SELECT stop_id, id FROM stops")
        let stops3 = try ids(v3, "SELECT stop_id, id FROM stops")
        #expect(stops1 == ["S1": 1, "S2": 2, "S3": 3], "without --previous: input order")
        #expect(stops2["S1"] == 1 && stops2["S3"] == 3, "kept rows keep their ids although S4 comes first now")
        #expect(stops2["S4"] == 4 && stops2["S2"] == nil, "a new row gets an id above the previous seed's")
        #expect(stops3["S2"] == 5, "S2's old id 2 is not given again two versions later: \(stops3)")
        #expect(stops3["S1"] == 1 && stops3["S3"] == 3 && stops3["S4"] == 4)

        let trips2 = try ids(v2, "SELECT trip_id, id FROM trips")
        #expect(trips2 == ["T1": 1, "T2": 2, "T0": 3])
        let db = try Connection(path: v2, mode: .readOnly)
        // References follow: the parent link, and stop_times (WITHOUT ROWID, keyed on trip_ref).
        #expect(try db.int("SELECT parent_station_ref FROM stops WHERE stop_id = 'S3'") == 1)
        let stopTimes = try db.rows("""
            SELECT t.trip_id, s.stop_id, st.stop_sequence FROM stop_times st
            JOIN trips t ON t.id = st.trip_ref JOIN stops s ON s.id = st.stop_ref ORDER BY st.trip_ref, st.stop_sequence
            """).map { $0.map(\.description).joined(separator: " ") }
        #expect(stopTimes == ["T1 S1 1", "T1 S4 2", "T2 S3 1", "T2 S1 2", "T0 S4 1"])
        #expect(try db.text("PRAGMA integrity_check") == "ok")
        #expect(try db.int("SELECT count(*) FROM pragma_foreign_key_check") == 0)

        // The high-water marks and the previous version are recorded; v1, built without
        // --previous, has none.
        let metadata = try ids(v3, "SELECT key, CAST(value AS INTEGER) FROM seedgen_metadata WHERE key LIKE 'max_id.%'")
        #expect(metadata["max_id.stops"] == 5 && metadata["max_id.trips"] == 3, "\(metadata)")
        #expect(try Connection(path: v3, mode: .readOnly).text("SELECT value FROM seedgen_metadata WHERE key = 'previous_seed_version'")
                == (try Connection(path: v2, mode: .readOnly).text("SELECT value FROM seedgen_metadata WHERE key = 'seed_version'")))
        #expect(try Connection(path: v1, mode: .readOnly).int("SELECT count(*) FROM seedgen_metadata WHERE key LIKE 'max_id.%' OR key = 'previous_seed_version'") == 0)
    }

    /// Trips T1, T2, T3 with two stop_times each; version B adds N1 and N2 between them, in
    /// trips.txt and in stop_times.txt (`repeated`: N2's first stop_times row twice).
    static func interleaved(new: Bool, repeated: Bool = false) -> [String: String?] {
        let trips = new ? ["T1", "N1", "T2", "N2", "T3"] : ["T1", "T2", "T3"]
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for (hour, trip) in trips.enumerated() {
            stopTimes += "\(trip),0\(hour):00:00,0\(hour):00:00,S1,1\n"
            if repeated && trip == "N2" { stopTimes += "N2,0\(hour):05:00,0\(hour):05:00,S2,1\n" }
            stopTimes += "\(trip),0\(hour):10:00,0\(hour):10:00,S2,2\n"
        }
        return [
            "trips.txt": "route_id,service_id,trip_id\n" + trips.map { "R1,WD,\($0)\n" }.joined(),
            "stop_times.txt": stopTimes,
        ]
    }

    @Test("stop_times of new trips between the kept trips' are all stored, each under its trip; a key they repeat fails the build as without --previous")
    func newTripsBetweenKeptOnes() throws {
        try build("v1.sqlite", Self.interleaved(new: false))
        let v2 = try build("v2.sqlite", Self.interleaved(new: true), previous: "v1.sqlite")
        let db = try Connection(path: v2, mode: .readOnly)
        let stored = try db.rows(
            """
            SELECT t.trip_id, st.stop_sequence, s.stop_id, st.trip_ref FROM stop_times AS st
            JOIN trips AS t ON t.rowid = st.trip_ref JOIN stops AS s ON s.rowid = st.stop_ref ORDER BY st.arrival_time
            """
        ).map { "\($0[0].description) \($0[1].description) \($0[2].description)" }
        #expect(stored == ["T1", "N1", "T2", "N2", "T3"].flatMap { ["\($0) 1 S1", "\($0) 2 S2"] })
        let trips = try ids(v2, "SELECT trip_id, rowid FROM trips")
        #expect(trips == ["T1": 1, "T2": 2, "T3": 3, "N1": 4, "N2": 5], "kept trips keep their ids, new ones come after")

        // A repeated key among the new trips' rows: the same error, at the same line, as without --previous.
        let errors = try [nil, "v1.sqlite"].map { previous in
            let refused = #expect(throws: BuildError.self) {
                try build("v3.sqlite", Self.interleaved(new: true, repeated: true), previous: previous)
            }
            // Each build reads a feed folder of its own.
            return (refused?.description ?? "").replacingOccurrences(
                of: #"[^ ']*/feed/"#, with: "feed/", options: .regularExpression)
        }
        #expect(errors[0].contains("stop_times.txt:9") && errors[0] == errors[1], "\(errors)")
    }

    @Test("a row whose key has an empty part keeps its id: the load cannot look it up, the stage pairs it")
    func keyWithEmptyPart() throws {
        let header = "fare_product_id,fare_product_name,rider_category_id,fare_media_id,amount,currency\n"
        try build("v1.sqlite", ["fare_products.txt": header + "F1,Single,,,2.5,EUR\nF2,Day,,,7,EUR\n"])
        let v2 = try build(
            "v2.sqlite", ["fare_products.txt": header + "F0,Night,,,3,EUR\nF1,Single,,,2.5,EUR\nF2,Day,,,7,EUR\n"],
            previous: "v1.sqlite")
        let products = try ids(v2, "SELECT fare_product_id, rowid FROM fare_products")
        #expect(products == ["F1": 1, "F2": 2, "F0": 3], "kept rows keep their ids, the new one comes after")
    }

    @Test("rows without a key are matched by their whole row, duplicates in order")
    func wholeRowMatching() throws {
        let v1 = try build("v1.sqlite", Self.version1)
        // Two identical transfers, then a third; the new feed lists the new one first.
        let v2 = try build("v2.sqlite", Self.version1.merging(["transfers.txt": "from_stop_id,to_stop_id,transfer_type\nS3,S1,1\nS1,S2,2\nS1,S2,2\n"]) { $1 },
                           previous: "v1.sqlite")
        #expect(try ids(v1, "SELECT id, id FROM transfers") == ["1": 1, "2": 2])
        let transfers = try Connection(path: v2, mode: .readOnly).rows("SELECT id, from_stop_ref, to_stop_ref FROM transfers ORDER BY id")
        #expect(transfers.map { $0.map(\.description).joined(separator: ",") } == ["1,1,2", "2,1,2", "3,3,1"])
    }

    @Test("the same inputs and previous seed give the same bytes; another previous seed, another seed version")
    func deterministic() throws {
        try build("v1.sqlite", Self.version1)
        let feed = Self.version1.merging(Self.version2) { $1 }
        let a = try build("a.sqlite", feed, previous: "v1.sqlite"), b = try build("b.sqlite", feed, previous: "v1.sqlite")
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        let plain = try build("plain.sqlite", feed)
        let version = { (path: String) in try Connection(path: path, mode: .readOnly).text("SELECT value FROM seedgen_metadata WHERE key = 'seed_version'") }
        #expect(try version(a) != version(plain), "the ids depend on the previous seed, so the default seed version does")
    }

    @Test("a previous seed of another schema, or no seed at all, is refused before any work")
    func refusals() throws {
        try build("v1.sqlite", Self.version1)
        // The same feed under a schema of another version.
        let schemaText = try String(contentsOfFile: Repository.path("Schema/transit.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "schemaVersion: 4", with: "schemaVersion: 5")
        let schema = folder.write("transit-3.yaml", schemaText)
        let feed = TemporaryFolder()
        MinimalFeed.write(into: feed, Self.version1)
        var options = BuildOptions(inputs: [feed.file("feed")], output: folder.file("v2.sqlite"), schemaPath: schema)
        options.previous = folder.file("v1.sqlite")
        let error = #expect(throws: BuildError.self) { try SeedBuilder(options: options).build() }
        #expect(error?.description.contains("--previous") == true && error?.description.contains("version 4") == true
                && error?.description.contains("version 5") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: folder.file("v2.sqlite")))

        let notASeed = folder.file("plain.sqlite")
        try Connection(path: notASeed).execute("CREATE TABLE t (x)")
        for previous in [notASeed, folder.file("missing.sqlite")] {
            options.schemaPath = nil
            options.previous = previous
            let refused = #expect(throws: BuildError.self) { try SeedBuilder(options: options).build() }
            #expect(refused?.description.contains(previous) == true && refused?.description.contains("--previous") == true, "\(String(describing: refused))")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("missing.sqlite")), "a missing previous seed is not created")
    }
}
