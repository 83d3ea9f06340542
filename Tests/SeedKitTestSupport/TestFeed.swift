import Foundation
import SeedSQLite
import SeedTestSupport
import SeedKit

/// A minimal valid GTFS feed; tests change one file to make one point.
public enum MinimalFeed {
    public static let files: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,http://a.example,Europe/Berlin\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,One,52.5,13.4,\nS2,Two,52.6,13.5,\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,T2\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT2,25:10:00,25:10:00,S1,1\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20260101,20261231\n",
    ]

    /// Writes the feed into `folder`, with `changes` replacing (or, with nil, removing) files.
    public static func write(into folder: TemporaryFolder, _ changes: [String: String?] = [:]) {
        var all = files.mapValues { Optional($0) }
        for (name, text) in changes { all[name] = text }
        for (name, text) in all { if let text { folder.write("feed/" + name, text) } }
    }
}

extension SeedBuilder {
    /// Builds `inputs` into `output` with default options.
    public static func build(_ inputs: [String], to output: String, schema: String? = nil, allowDangling: Bool = false) throws(BuildError) -> BuildSummary {
        try SeedBuilder(options: BuildOptions(inputs: inputs, output: output, schemaPath: schema, allowDangling: allowDangling)).build()
    }
}

extension Connection {
    public func int(_ sql: String) throws -> Int64 { try scalar(sql)?.integer ?? -1 }
    public func text(_ sql: String) throws -> String? { try scalar(sql)?.text }
}

extension BuildError {
    /// The grouped issues of an invalid-input failure.
    public var issues: [BuildIssue] {
        code == .invalidInput ? issueLog?.groups.flatMap(\.examples) ?? [] : []
    }
}
