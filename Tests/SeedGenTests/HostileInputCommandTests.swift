import Foundation
import SeedTestSupport
import Testing

/// `seedgen build` on each class of hostile input that mutating real feeds turned up:
/// exit status 1 (never a signal), a message naming the file and what is wrong, bounded
/// time and peak memory (`/usr/bin/time`), and no scratch file left.
@Suite("Hostile input, end to end", .serialized)
struct HostileInputCommandTests {
    static let feed: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,http://a.example,Europe/Berlin\n",
        "stops.txt": "stop_id,stop_name\nS1,One\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20260101,20261231\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\n",
    ]

    struct Outcome {
        var status: Int32
        var stderr: String
        var kilobytes: Int
        var seconds: Double
    }

    /// Runs `seedgen build ARGS --out scratch/seed.sqlite` twice: once for its message, once
    /// under `/usr/bin/time` for its peak memory; checks nothing is left beside `keep`.
    func build(_ scratch: TemporaryFolder, _ arguments: [String], keep: [String]) throws -> Outcome {
        let out = scratch.file("seed.sqlite")
        let clock = ContinuousClock()
        var result: ChildProcess.Output!
        let elapsed = try clock.measure { result = try SeedgenTool.run(["build"] + arguments + ["--out", out, "--quiet"]) }
        var kilobytes = 0
        if PeakMemory.available {
            kilobytes = try PeakMemory.run(SeedgenTool.path, ["build"] + arguments + ["--out", out, "--quiet"]).kilobytes
        }
        #expect(scratch.contents == keep.sorted(), "no output or scratch file is left")
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Outcome(status: result.status, stderr: result.stderr, kilobytes: kilobytes, seconds: seconds)
    }

    func writeFeed(_ scratch: TemporaryFolder, except: String? = nil) {
        for (name, text) in Self.feed where name != except { scratch.write("feed/" + name, text) }
    }

    func truncate(_ path: String, to size: String) throws {
        let result = try ChildProcess.run("/usr/bin/truncate", ["-s", size, path])
        try #require(result.status == 0, "truncate: \(result.stderr)")
    }

    @Test("a 2 GiB stop_times.txt of NUL bytes: the record limit, in bounded time and memory")
    func nulFile() throws {
        let scratch = TemporaryFolder()
        writeFeed(scratch, except: "stop_times.txt")
        let file = scratch.write("feed/stop_times.txt", "")
        try truncate(file, to: "2G")
        let outcome = try build(scratch, [scratch.file("feed")], keep: ["feed"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("stop_times.txt:1:1:") && outcome.stderr.contains("longer than 16777216 bytes"), "\(outcome.stderr)")
        #expect(outcome.seconds < 60, "was 45 s and 6.3 GB before the limit")
        #expect(outcome.kilobytes < 300_000, "peak \(outcome.kilobytes) KB")
    }

    @Test("a field of 3 GiB (past Int32): a clear error, not a trap")
    func hugeField() throws {
        let scratch = TemporaryFolder()
        writeFeed(scratch, except: "stops.txt")
        let file = scratch.write("feed/stops.txt", "stop_id,stop_name\nS1,")
        try truncate(file, to: "3G")
        let outcome = try build(scratch, [scratch.file("feed")], keep: ["feed"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("stops.txt:2:1:") && outcome.stderr.contains("--max-record-size"), "\(outcome.stderr)")
        #expect(outcome.kilobytes < 300_000, "peak \(outcome.kilobytes) KB")
    }

    @Test("a 64 MB stop_id: refused at once with the limit to raise")
    func hugeKey() throws {
        let scratch = TemporaryFolder()
        writeFeed(scratch, except: "stops.txt")
        let handle = try #require(FileHandle(forWritingAtPath: scratch.write("feed/stops.txt", "stop_id,stop_name\n")))
        handle.seekToEndOfFile()
        let chunk = Data(repeating: UInt8(ascii: "k"), count: 1 << 20)
        for _ in 0..<64 { handle.write(chunk) }
        handle.write(Data(",One\n".utf8))
        try handle.close()
        let outcome = try build(scratch, [scratch.file("feed")], keep: ["feed"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("stops.txt:2:1:") && outcome.stderr.contains("--max-record-size"), "\(outcome.stderr)")
        #expect(outcome.seconds < 60, "was over 30 s")
    }

    @Test("100,000 nested record elements: the depth limit, in bounded time and memory")
    func deepXML() throws {
        let scratch = TemporaryFolder()
        let levels = 100_000
        let text = "<osm>" + String(repeating: #"<node id="1" lat="1" lon="2">"#, count: levels)
            + String(repeating: "</node>", count: levels) + "</osm>"
        let file = scratch.write("deep.osm", text)
        let outcome = try build(scratch, [file], keep: ["deep.osm"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("deep.osm:1:") && outcome.stderr.contains("nested more than 10000 deep"), "\(outcome.stderr)")
        #expect(outcome.seconds < 30, "100,000 levels exhausted memory before")
        #expect(outcome.kilobytes < 300_000, "peak \(outcome.kilobytes) KB")
    }

    @Test("a 130-byte zip whose ZIP64 locator points past 2^63: exit 1 naming the archive, not a trap")
    func zip64Locator() throws {
        let scratch = TemporaryFolder()
        // An empty archive with a ZIP64 locator whose record offset is 2^63 + 5.
        var bytes: [UInt8] = [0x50, 0x4b, 0x06, 0x07, 0, 0, 0, 0]
        bytes += [5, 0, 0, 0, 0, 0, 0, 0x80] + [1, 0, 0, 0]
        bytes += [0x50, 0x4b, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)
        let path = scratch.file("feed.zip")
        try #require(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let outcome = try build(scratch, [path], keep: ["feed.zip"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("feed.zip: broken ZIP64 directory"), "\(outcome.stderr)")
    }
}
