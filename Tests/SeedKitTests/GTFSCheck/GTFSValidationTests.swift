import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// A build of the minimal feed with `changes`, its notices report read back as JSON.
private struct CheckedBuild {
    var built: Bool
    var report: [String: Any]
    var notices: [[String: Any]] { report["notices"] as? [[String: Any]] ?? [] }
    var folder: TemporaryFolder

    /// The notices of `code`.
    func notices(_ code: String) -> [[String: Any]] { notices.filter { $0["code"] as? String == code } }

    var seed: Connection { get throws { try Connection(path: folder.file("seed.sqlite"), mode: .readOnly) } }

    init(_ changes: [String: String?] = [:], bytes: [String: [UInt8]] = [:], feed: String? = nil,
         lenient: Bool = false, strict: Bool = false, allowDangling: Bool = false) throws {
        folder = TemporaryFolder()
        let input: String
        if let feed {
            input = feed
        } else {
            MinimalFeed.write(into: folder, changes)
            for (name, data) in bytes {
                #expect(FileManager.default.createFile(atPath: folder.file("feed/" + name), contents: Data(data)))
            }
            input = folder.file("feed")
        }
        var options = BuildOptions(inputs: [input], output: folder.file("seed.sqlite"), allowDangling: allowDangling,
                                   lenient: lenient, strict: strict)
        options.notices = folder.file("notices.json")
        options.today = "2026-06-01" // the date-relative rules see the same day every year
        do { _ = try SeedBuilder(options: options).build(); built = true } catch { built = false }
        let data = try #require(FileManager.default.contents(atPath: folder.file("notices.json")))
        report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// Python's csv module reading `path` (the reference for what a CSV reader must read):
/// every record, short ones padded with empty fields to the header's length, as a
/// `csv.DictReader` gives them.
private func pythonRecords(_ path: String, encoding: String = "utf-8-sig") throws -> [[String: String]] {
    let script = """
        import csv, json, sys
        with open(sys.argv[1], newline='', encoding=sys.argv[2], errors='replace') as f:
            rows = [{k.strip(): (v or '').strip() for k, v in row.items() if k is not None} for row in csv.DictReader(f)]
        print(json.dumps(rows))
        """
    let python = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, path, encoding])
    #expect(python.status == 0, "\(python.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [[String: String]])
}

@Suite("GTFS as the validator sees it: short rows, invalid text, the validator's checks, --notices")
struct GTFSValidationTests {
    static let sampleFeed = Repository.path("Tests/Fixtures/gtfs/sample-feed")

    @Test("the GTFS reference's sample feed builds with no flags and keeps all 28 stop times, as Python's csv reads them")
    func sampleFeed() throws {
        let build = try CheckedBuild(feed: Self.sampleFeed)
        #expect(build.built)
        let shortRows = build.notices(NoticeCode.invalidRowLength)
        #expect(shortRows.count == 13, "\(build.notices)")
        #expect(shortRows.first?["line"] as? Int == 17 && shortRows.first?["column"] as? Int == 40)
        #expect(shortRows.allSatisfy { $0["severity"] as? String == "WARNING" })
        // Nothing else to say about the sample feed but what gtfs-guru says too: its calendars
        // ended in 2010, it has no feed_info.txt, its fares name no agency.
        #expect(build.report["counts"] as? [String: Int] == [NoticeCode.invalidRowLength: 13, NoticeCode.expiredCalendar: 2, NoticeCode.missingRecommendedFile: 1,
                                                            NoticeCode.missingRecommendedField: 2, NoticeCode.tripCoverageNotActiveForNext7Days: 1])
        let python = try pythonRecords(Self.sampleFeed + "/stop_times.txt")
        #expect(python.count == 28)
        let db = try build.seed
        let stored = try db.rows("""
            SELECT trip_id, stop_sequence, arrival_time, departure_time, stop_id FROM stop_times
            JOIN trips ON trips.id = trip_ref JOIN stops ON stops.id = stop_ref ORDER BY trip_id, stop_sequence
            """).map { $0.map(\.description) }
        func seconds(_ time: String) -> String {
            let parts = time.split(separator: ":").map { Int($0)! }
            return String(parts[0] * 3600 + parts[1] * 60 + parts[2])
        }
        let expected = python.map { [$0["trip_id"]!, $0["stop_sequence"]!, seconds($0["arrival_time"]!), seconds($0["departure_time"]!), $0["stop_id"]!] }
            .sorted { ($0[0], Int($0[1])!) < ($1[0], Int($1[1])!) }
        #expect(stored == expected)
        #expect(try db.int("SELECT rejected FROM seedgen_inputs WHERE name = 'stop_times.txt'") == 0)
    }

    @Test("short rows in any file: missing trailing fields are empty; a required one then missing is a data error; --strict fails")
    func shortRows() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,One,52.5\nS2,Two,52.6,13.5,\n"
        let repaired = try CheckedBuild(["stops.txt": stops])
        #expect(repaired.built)
        #expect(try repaired.seed.rows("SELECT stop_id, stop_name, stop_lat, stop_lon FROM stops ORDER BY id").map { $0.map(\.description) }
                == [["S1", "One", "52.5", "NULL"], ["S2", "Two", "52.6", "13.5"]])
        let notice = try #require(repaired.notices(NoticeCode.invalidRowLength).first)
        #expect(notice["line"] as? Int == 2 && notice["value"] as? String == "S1,One,52.5")
        #expect((notice["message"] as? String)?.contains("stop_lon, parent_station") == true)

        let routes = "route_id,agency_id,route_short_name,route_type\nR1,A,1\n"
        let missing = try CheckedBuild(["routes.txt": routes])
        #expect(!missing.built)
        #expect(missing.notices(NoticeCode.missingRequiredField).first?["field"] as? String == "route_type")

        let strict = try CheckedBuild(["stops.txt": stops], strict: true)
        #expect(!strict.built)
        #expect(strict.notices(NoticeCode.invalidRowLength).first?["severity"] as? String == "ERROR")
    }

    /// Each case of what corrupts meaning: its code, a warning by default, an error under --strict.
    static let misleading: [(name: String, code: String, changes: [String: String?], bytes: [String: [UInt8]])] = [
        ("invalid UTF-8", NoticeCode.invalidCharacter, [:],
         ["agency.txt": Array("agency_id,agency_name,agency_url,agency_timezone\nA,Agency".utf8) + [0xEC, 0xA0] + Array(",http://a.example,Europe/Berlin\n".utf8)]),
        ("a NUL byte", NoticeCode.invalidCharacter, [:],
         ["stops.txt": Array("stop_id,stop_name,stop_lat,stop_lon\nS1,On".utf8) + [0] + Array("e,52.5,13.4\nS2,Two,52.6,13.5\n".utf8)]),
        ("no calendar", NoticeCode.missingCalendarFiles, ["calendar.txt": nil], [:]),
        ("the last stop without times", NoticeCode.missingTripEdge,
         ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,,,S2,2\n"], [:]),
        ("an arrival without a departure", NoticeCode.onlyArrivalOrDeparture,
         ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:05:00,,S2,2\nT1,08:10:00,08:10:00,S1,3\n"], [:]),
        ("a negative stop_sequence", NoticeCode.numberOutOfRange,
         ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,-1\nT1,08:10:00,08:10:00,S2,2\n"], [:]),
        ("times running backwards", NoticeCode.arrivalBeforePreviousDeparture,
         ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:10:00,S1,1\nT1,8:05:00,08:06:00,S2,2\n"], [:]),
        ("a time zone that does not exist", NoticeCode.invalidTimezone,
         ["agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,http://a.example,Nowhere/Nowhere\n"], [:]),
    ]

    @Test("what an app would show wrongly: its notice code, a warning by default, an error under --strict", arguments: misleading.indices)
    func misleadingData(case index: Int) throws {
        let (name, code, changes, bytes) = Self.misleading[index]
        let build = try CheckedBuild(changes, bytes: bytes)
        #expect(build.built, "\(name)")
        let notices = build.notices(code)
        #expect(notices.count == 1, "\(name): \(build.notices)")
        #expect(notices.first?["severity"] as? String == "WARNING", "\(name)")
        if code != NoticeCode.missingCalendarFiles {
            #expect(notices.first?["line"] is Int && notices.first?["column"] is Int && notices.first?["field"] is String, "\(name): placed")
        }
        let strict = try CheckedBuild(changes, bytes: bytes, strict: true)
        #expect(!strict.built, "\(name) fails under --strict")
        #expect(strict.notices(code).first?["severity"] as? String == "ERROR", "\(name)")
    }

    @Test("the places and values of the stop_times checks are the file's")
    func stopTimePlaces() throws {
        let build = try CheckedBuild(["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:10:00,S1,1\nT1, 8:05:00 ,08:06:00,S2,2\n"])
        let notice = try #require(build.notices(NoticeCode.arrivalBeforePreviousDeparture).first)
        #expect(notice["line"] as? Int == 3 && notice["column"] as? Int == 4 && notice["field"] as? String == "arrival_time")
        #expect(notice["value"] as? String == "8:05:00", "as written, without the spaces")
        #expect((notice["message"] as? String)?.contains("departure_time '08:10:00' of the previous stop (stop_sequence 1 on line 2)") == true, "\(notice)")
    }

    @Test("invalid text is stored as U+FFFD, as Python's errors='replace' reads it")
    func invalidText() throws {
        let agency = Array("agency_id,agency_name,agency_url,agency_timezone\nA,Caf\u{E9} ".utf8) + [0xC3] + Array("x\u{0}y".utf8) + [0xF0, 0x9F, 0x9A]
            + Array(",http://a.example,Europe/Berlin\n".utf8)
        let build = try CheckedBuild(bytes: ["agency.txt": agency], lenient: true)
        #expect(build.built)
        let python = try pythonRecords(build.folder.file("feed/agency.txt"))
        // Python keeps NUL as a character; the seed never stores it raw.
        #expect(try build.seed.text("SELECT agency_name FROM agency") == python[0]["agency_name"]!.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}"))
        let notice = try #require(build.notices(NoticeCode.invalidCharacter).first)
        #expect(notice["line"] as? Int == 2 && notice["column"] as? Int == 8, "the first bad byte's place: \(notice)")
        #expect((notice["message"] as? String)?.contains("(C3)") == true && (notice["message"] as? String)?.contains("2 more places") == true)
    }

    @Test("GTFS ids that name nothing fail the build (foreign_key_violation); --lenient keeps the rows as written")
    func foreignKeys() throws {
        let cases: [(String, [String: String?], String)] = [
            ("trips.shape_id", ["trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH9\nR1,WD,T2,\n"], "shape_id"),
            ("trips.service_id", ["trips.txt": "route_id,service_id,trip_id\nR1,XX,T1\nR1,WD,T2\n"], "service_id"),
            ("fare_rules.route_id", ["fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nF,1,EUR,0,\n",
                                     "fare_rules.txt": "fare_id,route_id\nF,R9\n"], "route_id"),
            ("fare_rules.origin_id", ["fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nF,1,EUR,0,\n",
                                      "fare_rules.txt": "fare_id,origin_id\nF,Z9\n"], "origin_id"),
            ("fare_leg_rules.fare_product_id", ["fare_leg_rules.txt": "leg_group_id,fare_product_id\nL1,P9\n"], "fare_product_id"),
        ]
        for (name, changes, field) in cases {
            let failed = try CheckedBuild(changes)
            #expect(!failed.built, "\(name)")
            let notice = failed.notices(NoticeCode.foreignKeyViolation).first
            #expect(notice?["severity"] as? String == "ERROR" && notice?["field"] as? String == field && notice?["line"] as? Int == 2, "\(name): \(failed.notices)")
            #expect(!(try CheckedBuild(changes, strict: true).built), "\(name) fails under --strict")
            let lenient = try CheckedBuild(changes, lenient: true)
            #expect(lenient.built, "\(name)")
            #expect(lenient.notices(NoticeCode.foreignKeyViolation).first?["severity"] as? String == "WARNING", "\(name)")
        }
        let kept = try CheckedBuild(["trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WD,T1,SH9\nR1,WD,T2,\n"], lenient: true)
        #expect(try kept.seed.text("SELECT shape_id FROM trips WHERE trip_id = 'T1'") == "SH9", "kept as written")
    }

    @Test("a build the checks fail (they run beside the digest) keeps the previous output and leaves no scratch file")
    func failedChecksKeepOutput() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, [:])
        let output = folder.file("seed.sqlite")
        _ = try SeedBuilder(options: BuildOptions(inputs: [folder.file("feed")], output: output)).build()
        let before = try #require(FileManager.default.contents(atPath: output))
        MinimalFeed.write(into: folder, ["trips.txt": "route_id,service_id,trip_id\nR1,XX,T1\nR1,WD,T2\n"])
        var options = BuildOptions(inputs: [folder.file("feed")], output: output)
        options.notices = folder.file("notices.json")
        #expect(throws: BuildError.self) { try SeedBuilder(options: options).build() }
        #expect(FileManager.default.contents(atPath: output) == before, "the previous seed is intact")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("seedgen-") }
        #expect(left.isEmpty, "\(left)")
        let notices = try #require(FileManager.default.contents(atPath: folder.file("notices.json")))
        #expect(String(decoding: notices, as: UTF8.self).contains(NoticeCode.foreignKeyViolation))
    }

    @Test("the same fare rule twice is a duplicate key (repeated whole, a warning: see RepeatedRowTests); the same zones under another fare is not")
    func repeatedFareRule() throws {
        let fares = "fare_id,price,currency_type,payment_method,transfers\nF,1,EUR,0,\nG,2,EUR,0,\n"
        let twice = try CheckedBuild(["fare_attributes.txt": fares, "fare_rules.txt": "fare_id,route_id\nF,R1\nG,R1\nF,R1\n"])
        #expect(twice.built)
        let notice = try #require(twice.notices(NoticeCode.duplicateKey).first)
        #expect(notice["line"] as? Int == 4 && (notice["message"] as? String)?.contains("line 2") == true, "\(notice)")
        #expect(twice.notices(NoticeCode.duplicateKey).count == 1)
        #expect(try twice.seed.int("SELECT count(*) FROM fare_rules") == 2)
        #expect(!(try CheckedBuild(["fare_attributes.txt": fares, "fare_rules.txt": "fare_id,route_id\nF,R1\nF,R1\n"], strict: true).built))
    }

    @Test("stops.txt may be absent beside locations.geojson or location_groups.txt, not otherwise")
    func flexWithoutStops() throws {
        let geojson = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "zone", "properties": {}, "geometry": {"type": "Point", "coordinates": [13.2, 52.2]}}]}"#
        let flex = try CheckedBuild(["stops.txt": nil, "locations.geojson": geojson,
                                     "stop_times.txt": "trip_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window\nT1,zone,1,08:00:00,20:00:00\nT1,zone,2,08:00:00,20:00:00\n"])
        #expect(flex.built, "\(flex.notices)")
        #expect(try flex.seed.int("SELECT count(*) FROM stop_times WHERE location_ref IS NOT NULL") == 2)
        let plain = try CheckedBuild(["stops.txt": nil])
        #expect(!plain.built)
        #expect(plain.notices(NoticeCode.missingRequiredFile).first?["file"] as? String == "stops.txt")
    }

    @Test("a bad header: a duplicated column is named as such; --lenient leaves an optional file out, not a required one")
    func badHeaders() throws {
        let agency = "agency_id,agency_name,agency_url,agency_timezone,agency_name\nA,Agency,http://a.example,Europe/Berlin,Other\n"
        let duplicated = try CheckedBuild(["agency.txt": agency])
        #expect(!duplicated.built)
        let notice = try #require(duplicated.notices(NoticeCode.duplicatedColumn).first)
        #expect(notice["field"] as? String == "agency_name" && notice["column"] as? Int == 50 && notice["severity"] as? String == "ERROR")

        let lenient = try CheckedBuild(["agency.txt": agency, "shapes.txt": "shape_id,shape_pt_lat\nSH,52\n"], lenient: true)
        #expect(lenient.built)
        #expect(lenient.notices(NoticeCode.duplicatedColumn).first?["severity"] as? String == "WARNING")
        #expect(lenient.notices(NoticeCode.missingRequiredColumn).count == 2, "shape_pt_lon and shape_pt_sequence")
        let db = try lenient.seed
        #expect(try db.int("SELECT count(*) FROM agency") == 0)
        #expect(try db.rows("SELECT rows, rejected FROM seedgen_inputs WHERE name = 'shapes.txt'").map { $0.map(\.description) } == [["0", "1"]])
        #expect(try db.int("SELECT count(*) FROM stops") == 2, "everything else is kept")

        let required = try CheckedBuild(["stops.txt": "stop_name\nOne\n"], lenient: true)
        #expect(!required.built, "a required file cannot be left out")
    }

    @Test("a UTF-16 file with a byte-order mark is read as Python reads it")
    func utf16() throws {
        let text = "stop_id,stop_name,stop_lat,stop_lon\nS1,Žirmūnai 🚌,52.5,13.4\nS2,Two,52.6,13.5\n"
        let units = Array(text.utf16)
        var little: [UInt8] = [0xFF, 0xFE], big: [UInt8] = [0xFE, 0xFF]
        for unit in units {
            little += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            big += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        for (name, bytes) in [("LE", little), ("BE", big)] {
            let build = try CheckedBuild(bytes: ["stops.txt": bytes])
            #expect(build.built, "\(name): \(build.notices)")
            let python = try pythonRecords(build.folder.file("feed/stops.txt"), encoding: "utf-16")
            let stored: [[String]] = try build.seed.rows("SELECT stop_id, stop_name FROM stops ORDER BY id").map { row in row.map(\Value.description) }
            let read: [[String]] = python.map { row in [row["stop_id"] ?? "", row["stop_name"] ?? ""] }
            #expect(stored == read, "\(name)")
            #expect(build.notices(NoticeCode.utf16Encoding).count == 1)
        }
    }

    @Test("messages name GTFS fields and show values as written")
    func gtfsTerms() throws {
        let frequencies = try CheckedBuild(["frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,07:00:00,08:00:00,600\nT1,7:00:00,09:00:00,600\n"])
        let notice = try #require(frequencies.notices(NoticeCode.duplicateKey).first)
        #expect(notice["field"] as? String == "trip_id+start_time" && notice["value"] as? String == "trip_id=T1, start_time=07:00:00", "\(notice)")
        let dangling = try CheckedBuild(["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT9,08:00:00,08:00:00,S1,1\n"])
        #expect((dangling.notices(NoticeCode.foreignKeyViolation).first?["message"] as? String) == "names no trip_id in trips.txt")
    }

    @Test("the notices report: every notice with its keys, counts per code, written when the build fails too")
    func reportShape() throws {
        let build = try CheckedBuild(["routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,x\nR2,A,2\n"])
        #expect(!build.built && build.report["built"] as? Bool == false)
        #expect(build.report["errors"] as? Int == 2 && build.report["warnings"] as? Int == 2)
        // trips.txt and stop_times.txt refer to the routes left out: not loaded, not checked (no
        // dangling references to the rows left out); the rest is checked.
        #expect(build.report["counts"] as? [String: Int] == [NoticeCode.invalidInteger: 1, NoticeCode.invalidRowLength: 1, NoticeCode.missingRequiredField: 1,
                                                            NoticeCode.missingRecommendedFile: 1], "\(build.report)")
        for notice in build.notices {
            #expect(Set(notice.keys) == ["code", "severity", "file", "line", "column", "field", "value", "message"])
            #expect(build.report["today"] as? String == "2026-06-01")
        }
    }
}
