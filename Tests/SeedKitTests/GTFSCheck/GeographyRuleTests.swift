import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

@Suite("the canonical validator's rules on GTFS-Flex places, continuous stopping, pathways' ends, translations' fields")
struct GeographyRuleTests {
    static let zones = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "Z", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[13.2, 52.2], [13.3, 52.2], [13.3, 52.3], [13.2, 52.2]]]}}]}"#

    @Test("forbidden_geography_id: a stop time at a stop and a location group or location; one place is not")
    func forbiddenGeographyID() throws {
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,location_group_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window,pickup_type,drop_off_type
            T1,08:00:00,08:00:00,S1,,Z,1,,,,
            T1,08:10:00,08:10:00,S2,G,,2,,,,
            T2,,,,,Z,1,08:00:00,20:00:00,2,2
            T2,,,,G,Z,2,08:00:00,20:00:00,2,2
            T2,,,,G,,3,08:00:00,20:00:00,2,2

            """
        let changes: [String: String?] = [
            "locations.geojson": Self.zones, "location_groups.txt": "location_group_id\nG\n",
            "location_group_stops.txt": "location_group_id,stop_id\nG,S1\n", "stop_times.txt": stopTimes
        ]
        let build = try Checked(changes)
        #expect(build.built, "a warning: the stop time is kept")
        let found = build.found(NoticeCode.forbiddenGeographyID)
        #expect(found.compactMap(\.line).sorted() == [2, 3, 5], "\(found)")
        #expect(found.allSatisfy { $0.severity == "WARNING" })
        #expect(found.first { $0.line == 3 }?.field == "location_group_id" && found.first { $0.line == 3 }?.value == "G")
        let strict = try Checked(changes, strict: true)
        #expect(!strict.built && strict.found(NoticeCode.forbiddenGeographyID).first?.severity == "ERROR")
        #expect(try Checked([:]).found(NoticeCode.forbiddenGeographyID).isEmpty)
    }

    @Test("duplicate_geography_id: an id of stops.txt, location_groups.txt and locations.geojson given twice")
    func duplicateGeographyID() throws {
        let zones = Self.zones.replacingOccurrences(of: #""id": "Z""#, with: #""id": "S2""#)
        let groups = "location_group_id\nS1\nG\n"
        let build = try Checked(["locations.geojson": zones, "location_groups.txt": groups])
        #expect(build.built)
        let found = build.found(NoticeCode.duplicateGeographyID)
        #expect(found.map(\.value) == ["S1", "S2"] && found.map(\.line) == [2, 3], "\(found)")
        #expect(found.allSatisfy { $0.field == "stop_id" && $0.severity == "WARNING" })
        let both = try Checked(["locations.geojson": Self.zones, "location_groups.txt": "location_group_id\nZ\n"])
        #expect(both.found(NoticeCode.duplicateGeographyID).map(\.field) == ["location_group_id"])
        let apart = try Checked(["locations.geojson": Self.zones, "location_groups.txt": groups.replacingOccurrences(of: "S1", with: "G1")])
        #expect(apart.found(NoticeCode.duplicateGeographyID).isEmpty)
    }

    @Test("forbidden_continuous_pickup_drop_off and missing_stop_times_record beside pickup windows")
    func continuousAndLoneWindows() throws {
        let routes = "route_id,agency_id,route_short_name,route_type,continuous_pickup,continuous_drop_off\nR1,A,1,3,0,\nR2,A,2,3,,1\n"
        let trips = "route_id,service_id,trip_id\nR1,WD,T1\nR2,WD,T2\nR2,WD,T3\nR2,WD,T4\n"
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window,pickup_type,drop_off_type
            T1,,,,Z,1,08:00:00,20:00:00,2,2
            T1,,,,Z,2,08:00:00,20:00:00,2,2
            T2,,,,Z,1,08:00:00,20:00:00,2,2
            T3,,,,Z,1,08:00:00,20:00:00,2,2
            T3,,,,Z,2,08:00:00,20:00:00,2,2
            T4,,,,Z,1,08:00:00,20:00:00,2,1

            """
        let changes: [String: String?] = [
            "locations.geojson": Self.zones, "routes.txt": routes, "trips.txt": trips, "stop_times.txt": stopTimes
        ]
        let build = try Checked(changes)
        #expect(build.built)
        let continuous = build.found(NoticeCode.forbiddenContinuousPickupDropOff)
        #expect(continuous.compactMap(\.line).sorted() == [2, 3], "T1 is on R1, whose continuous_pickup is 0")
        #expect(continuous.allSatisfy { $0.field == "start_pickup_drop_off_window" && $0.severity == "WARNING" })
        let lone = build.found(NoticeCode.missingStopTimesRecord)
        #expect(lone.map(\.line) == [4] && lone.first?.value == "T2", "T4's drop_off_type is 1: not a phoned window")
        let strict = try Checked(changes, strict: true)
        #expect(!strict.built && strict.found(NoticeCode.missingStopTimesRecord).first?.severity == "ERROR")
        #expect(strict.found(NoticeCode.forbiddenContinuousPickupDropOff).first?.severity == "ERROR")
    }

    @Test("pathway_to_stop_with_access_outside_of_station_pathways: a pathway to a stop with stop_access 1")
    func pathwayToStreetStop() throws {
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,stop_access
            ST,Station,52.5,13.4,1,,
            S1,One,52.5,13.4,0,ST,1
            S2,Two,52.6,13.5,0,ST,0
            E1,Entrance,52.5,13.4,2,ST,

            """
        let pathways = "pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional\nPW1,E1,S1,1,1\nPW2,E1,S2,1,1\n"
        let changes: [String: String?] = ["stops.txt": stops, "pathways.txt": pathways]
        let build = try Checked(changes)
        #expect(build.built)
        let found = build.found(NoticeCode.pathwayToStopWithAccessOutsideOfStationPathways)
        #expect(found.map(\.line) == [2] && found.first?.field == "to_stop_id" && found.first?.value == "S1", "\(found)")
        #expect(found.first?.severity == "WARNING")
        let strict = try Checked(changes, strict: true)
        #expect(!strict.built && strict.found(NoticeCode.pathwayToStopWithAccessOutsideOfStationPathways).count == 1)
    }

    @Test("translation_unexpected_value: record fields beside field_value, record_id for feed_info, record_sub_id for one-key tables")
    func translationUnexpectedValue() throws {
        let translations = """
            table_name,field_name,language,translation,record_id,record_sub_id,field_value
            stops,stop_name,de,Eins,S1,,
            stops,stop_name,de,Eins,S1,X,
            stops,stop_name,de,Eins,S1,,One
            feed_info,feed_publisher_name,de,Name,F,,
            stop_times,stop_headsign,de,Hin,T1,1,
            routes,route_long_name,de,Lang,,,Long

            """
        let feedInfo = "feed_publisher_name,feed_publisher_url,feed_lang\nP,http://p.example,en\n"
        let changes: [String: String?] = ["translations.txt": translations, "feed_info.txt": feedInfo]
        let build = try Checked(changes)
        #expect(build.built)
        let found = build.found(NoticeCode.translationUnexpectedValue)
        #expect(found.map(\.line) == [3, 4, 5], "\(found)")
        #expect(found.map(\.field) == ["record_sub_id", "record_id", "record_id"])
        #expect(found.map(\.value) == ["X", "S1", "F"] && found.allSatisfy { $0.severity == "WARNING" })
        let strict = try Checked(changes, strict: true)
        #expect(!strict.built && strict.found(NoticeCode.translationUnexpectedValue).count == 3)
        let withoutFeedInfo = try Checked(["translations.txt": translations])
        #expect(withoutFeedInfo.found(NoticeCode.translationUnexpectedValue).map(\.line) == [3, 4], "feed_info.txt absent: its table is unknown")
    }

    @Test("invalid_input_files_in_subfolder: a zip of the feed's folder is read as if at its root, each GTFS file named")
    func subfolder() throws {
        let folder = TemporaryFolder()
        func archive(_ prefix: String) -> String {
            let entries = MinimalFeed.files.sorted { $0.key < $1.key }.map {
                ZipBytes.Entry(name: prefix + $0.key, data: Array($0.value.utf8))
            }
            let path = folder.file(prefix.isEmpty ? "root.zip" : "folder.zip")
            let extra = ZipBytes.Entry(name: "docs/readme.md", data: Array("notes".utf8))
            #expect(FileManager.default.createFile(atPath: path, contents: Data(ZipBytes(entries + [extra]).bytes())))
            return path
        }
        let build = try Checked(input: archive("GTFS 2020/"), in: folder)
        #expect(build.built, "a warning: the files are read")
        let found = build.found(NoticeCode.invalidInputFilesInSubfolder)
        #expect(found.count == 1 && found.first?.severity == "WARNING", "once for the folder: \(found)")
        let message = build.notices.first { $0["code"] as? String == NoticeCode.invalidInputFilesInSubfolder }?["message"] as? String
        #expect(message?.contains("'GTFS 2020'") == true && message?.contains("stops.txt") == true, "\(message ?? "")")
        let strict = try Checked(input: archive("GTFS 2020/"), in: folder, strict: true)
        #expect(!strict.built && strict.found(NoticeCode.invalidInputFilesInSubfolder).first?.severity == "ERROR")
        let root = try Checked(input: archive(""), in: folder)
        #expect(root.built && root.found(NoticeCode.invalidInputFilesInSubfolder).isEmpty, "docs/readme.md is no GTFS file")
    }

    @Test("locations.geojson: unsupported_geometry_type (a warning), malformed_json and unsupported_geo_json_type (errors)")
    func geoJSON() throws {
        let point = Self.zones.replacingOccurrences(of: #""type": "Polygon", "coordinates": [[[13.2, 52.2], [13.3, 52.2], [13.3, 52.3], [13.2, 52.2]]]"#, with: #""type": "Point", "coordinates": [13.2, 52.2]"#)
        #expect(point != Self.zones)
        let build = try Checked(["locations.geojson": point])
        #expect(build.built)
        let found = build.found(NoticeCode.unsupportedGeometryType)
        #expect(found.map(\.value) == ["Point"] && found.first?.field == "geometry" && found.first?.severity == "WARNING")
        #expect(try Checked(["locations.geojson": Self.zones]).found(NoticeCode.unsupportedGeometryType).isEmpty)
        let strict = try Checked(["locations.geojson": point], strict: true)
        #expect(!strict.built && strict.found(NoticeCode.unsupportedGeometryType).first?.severity == "ERROR")
        let broken = try Checked(["locations.geojson": #"{"type": "FeatureCollection", "features": [{"id": "Z",}"#])
        #expect(!broken.built && broken.found(NoticeCode.malformedJSON).count == 1, "\(broken.notices)")
        let feature = try Checked(["locations.geojson": #"{"type": "Feature", "id": "Z", "properties": {}}"#])
        #expect(!feature.built && feature.found(NoticeCode.unsupportedGeoJSONType).count == 1, "\(feature.notices)")
        #expect(build.found(NoticeCode.unsupportedFeatureType).isEmpty)
        let typed = try Checked(["locations.geojson": Self.zones.replacingOccurrences(of: #""type": "Feature""#, with: #""type": "Zone""#)])
        let types = typed.found(NoticeCode.unsupportedFeatureType)
        #expect(typed.built && types.map(\.value) == ["Zone"] && types.first?.line == 1 && types.first?.severity == "WARNING")
        let untyped = try Checked(["locations.geojson": Self.zones.replacingOccurrences(of: #""type": "Feature", "#, with: "")], strict: true)
        #expect(!untyped.built && untyped.found(NoticeCode.unsupportedFeatureType).first?.severity == "ERROR")
    }

    @Test("new_line_in_value: a line break inside a quoted value is kept, with a warning (an error under --strict)")
    func newLineInValue() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,stop_desc\nS1,One,52.5,13.4,\"two\nlines\"\nS2,Two,52.6,13.5,\"one\"\n"
        let build = try Checked(["stops.txt": stops])
        #expect(build.built)
        let found = build.found(NoticeCode.newLineInValue)
        #expect(found.map(\.line) == [2] && found.first?.severity == "WARNING", "\(found)")
        #expect(build.found(NoticeCode.repairedCSVSyntax).isEmpty)
        let strict = try Checked(["stops.txt": stops], strict: true)
        #expect(!strict.built && strict.found(NoticeCode.newLineInValue).first?.severity == "ERROR")
        let crlf = try Checked(["stops.txt": stops.replacingOccurrences(of: "\n", with: "\r\n").replacingOccurrences(of: "two\r\nlines", with: "two lines")])
        #expect(crlf.built && crlf.found(NoticeCode.newLineInValue).isEmpty, "CRLF line ends outside quotes are no line break in a value")
    }
}
