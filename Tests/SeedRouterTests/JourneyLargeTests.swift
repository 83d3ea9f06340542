import Foundation
import SeedTestSupport
import Testing

/// The large comparison of the issue, run by hand (the ten feeds one by one: a minute in debug; the
/// region: the reference rebuilds every feed's connections per date and feed, over ten minutes):
/// `SEEDGEN_JOURNEYS_LARGE=1 swift test --filter JourneyLargeTests`. Every shared GTFS feed,
/// and the ten gtfs-world feeds as one region seed.
@Suite("Journeys on every shared feed and a region of the ten gtfs-world feeds, against the reference",
       .enabled(if: ProcessInfo.processInfo.environment["SEEDGEN_JOURNEYS_LARGE"] == "1"),
       .realData("gtfs-world/SOURCES.tsv"))
struct JourneyLargeTests {
    static let world = RealData.path("gtfs-world")
    static let feeds = ((try? FileManager.default.contentsOfDirectory(atPath: world)) ?? [])
        .filter { FileManager.default.fileExists(atPath: "\(world)/\($0)/feed") }.sorted()

    @Test("each gtfs-world feed: 200 random cases", arguments: feeds)
    func worldFeed(_ feed: String) throws {
        let folder = TemporaryFolder()
        let seed = try JourneySeed.build(feed, ["\(Self.world)/\(feed)/feed"], dates: [], in: folder)
        try JourneyReferenceTests().compare(seed, cases: 200, seed: 11, folder: folder)
    }

    @Test("the Cairns feed as shared: 300 random cases")
    func cairns() throws {
        let folder = TemporaryFolder()
        let seed = try JourneySeed.build("cairns", [RealData.path("gtfs-cairns-2014/feed")], dates: [], in: folder)
        try JourneyReferenceTests().compare(seed, cases: 300, seed: 12, folder: folder)
    }

    @Test("Renfe long-distance rail (2026-03-16): 200 random cases")
    func renfe() throws {
        let folder = TemporaryFolder()
        let zip = RealData.path("gtfs-daily-renfe-ld/renfe-ld-2026-03-16.zip")
        let unzipped = try ChildProcess.shell("unzip -q -o '\(zip)' -d '\(folder.file("renfe"))'")
        try #require(unzipped.status == 0, "\(unzipped)")
        let seed = try JourneySeed.build("renfe", [folder.file("renfe")], dates: [], in: folder)
        try JourneyReferenceTests().compare(seed, cases: 200, seed: 14, folder: folder)
    }

    @Test("a region seed of the ten gtfs-world feeds: 500 random cases")
    func region() throws {
        let folder = TemporaryFolder()
        let feeds = Self.feeds.map { "\($0)=\(Self.world)/\($0)/feed" }
        let seed = try JourneySeed.build("region", feeds, dates: [], in: folder)
        try JourneyReferenceTests().compare(seed, cases: 500, seed: 13, folder: folder)
    }
}
