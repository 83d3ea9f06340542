import Foundation
import SeedTestSupport
import Testing

/// Issue 28: the content digest is specified precisely enough that an independent
/// implementation (`scripts/content_digest.py`, from `Documentation/content-digest.md`) gives
/// the builder's digest, on a seed of every shared data set: GTFS (folder and zip), several
/// GTFS feeds in one folder each, OSM, Stack Exchange, NeTEx (with derived rows) and TXC.
@Suite("Content digest on real data", .realData("gtfs-world/SOURCES.tsv", "xml-transit/netex-swiss", "stackexchange-ai-2017"))
struct ContentDigestRealDataTests {
    let folder = TemporaryFolder()

    /// Every shared data set, as `seedgen build` arguments.
    static var builds: [(name: String, arguments: [String])] {
        var builds: [(String, [String])] = [
            ("cairns-folder", [RealData.path("gtfs-cairns-2014/feed")]),
            ("cairns-zip", [RealData.path("gtfs-cairns-2014/cairns_gtfs.zip")]),
            ("renfe", [RealData.path("gtfs-daily-renfe-ld/renfe-ld-2026-03-16.zip")]),
            ("osm", [RealData.path("osm-liechtenstein-2013/liechtenstein-2013-08-03.osm")]),
            ("stackexchange", [RealData.path("stackexchange-ai-2017"), "--schema", Repository.path("Schema/stackexchange.yaml")]),
            ("netex-nordic", [RealData.path("xml-transit/netex-nordic-flb/rb_flb-aggregated-netex.zip")]),
            ("txc-somerset", [RealData.path("xml-transit/txc-somerset-2014")]),
        ]
        let world = RealData.path("gtfs-world")
        for feed in ((try? FileManager.default.contentsOfDirectory(atPath: world)) ?? []).sorted()
        where FileManager.default.fileExists(atPath: "\(world)/\(feed)/feed") {
            // udine has a real data error (an impossible date): it builds with --lenient.
            builds.append(("gtfs-" + feed, ["\(world)/\(feed)/feed"] + (feed == "udine" ? ["--lenient"] : [])))
        }
        let swiss = (try? FileManager.default.contentsOfDirectory(atPath: RealData.path("xml-transit/netex-swiss"))) ?? []
        for file in swiss.filter({ $0.hasSuffix(".xml") }).sorted() {
            builds.append(("swiss-" + file, [RealData.path("xml-transit/netex-swiss/" + file)]))
        }
        for export in ["netex-de-nap-epip", "netex-fr-hove", "netex-nl-qbuzz-flex", "txc-stagecoach-registration"] {
            builds.append((export, [RealData.path("xml-transit-2/" + export)]))
        }
        return builds
    }

    @Test("the Python implementation of the spec gives the digest (and the chunks) the builder recorded, on every shared data set")
    func pythonAgrees() throws {
        var seeds: [(name: String, path: String, recorded: String)] = []
        for build in Self.builds {
            let seed = folder.file(build.name + ".sqlite")
            let run = try SeedgenTool.run(["build"] + build.arguments + ["--out", seed, "--quiet"])
            guard run.status == 0 else {
                // Some Swiss examples are one file of a larger export: nothing to digest.
                #expect(build.name.hasPrefix("swiss-"), "\(build.name): \(run.stderr)")
                continue
            }
            let inspect = try SeedgenTool.run(["inspect", seed, "--json"])
            let report = try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
            seeds.append((build.name, seed, try #require(report?["contentSha256"] as? String, "\(build.name) records its digest")))
        }
        #expect(seeds.count >= 25, "built \(seeds.count) seeds")
        let python = try OtherSQLiteTests.pythonDigests(seeds.map(\.path))
        #expect(python.count == seeds.count)
        for (seed, digest) in zip(seeds, python) {
            #expect(digest == seed.recorded, "\(seed.name): Python \(digest), builder \(seed.recorded)")
        }
    }
}
