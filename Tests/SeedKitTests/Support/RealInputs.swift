import Foundation
import SeedTestSupport
@testable import SeedKit

/// One real input of the golden record (`Tests/RealData/outcomes.json`): a data set of
/// `../shared/data` or a fixture of the repository, built as a user would build it.
struct RealInput: Sendable, CustomStringConvertible {
    /// Where an input's schema comes from.
    enum SchemaSource: Sendable {
        /// Recognised from the input, as with no `--schema`.
        case recognised
        /// A schema file of the repository (`--schema`).
        case file(String)
        /// Drafted from the input itself (`seedgen schema draft`), then built with it.
        case drafted
    }

    /// The record's key: the data set's path, and how it is built where there are several ways.
    let name: String
    /// The inputs, as `data:PATH` (in `../shared/data`) or `repo:PATH` (in the repository).
    var paths: [String] = []
    /// Named feeds of a region seed (`--feed NAME=PATH`, paths as in ``paths``).
    var feeds: [(name: String, path: String)] = []
    var schema = SchemaSource.recognised
    var lenient = false
    /// Each earlier input of a chain, built in order, each the `--previous` of the next; the
    /// outcome is the last one's, built from ``paths`` with the chain's last seed as `--previous`.
    var previousChain: [String] = []
    /// Large or repeated: built by `make regress`, not by `make test`.
    var regress = false

    var description: String { name }

    /// The day GTFS inputs are built as of (`--today`), so that the date-relative rules
    /// (`expired_calendar`, ...) give the same outcome whatever day the record is compared.
    static let today = "2026-03-20"
    /// Whether the input is a GTFS feed (its command shows `--today`).
    var isGTFS: Bool { name.contains("gtfs") || name.contains("cairns") }

    /// The command a user would type, for the record's reader.
    var command: String {
        var words = ["seedgen"]
        if case .drafted = schema { words += ["schema", "draft"] + paths.map(Self.shown) + ["--out", "draft.yaml", "&&", "seedgen"] }
        words.append("build")
        words += paths.map(Self.shown)
        words += feeds.flatMap { ["--feed", "\($0.name)=\(Self.shown($0.path))"] }
        switch schema {
        case .recognised: break
        case .file(let file): words += ["--schema", file]
        case .drafted: words += ["--schema", "draft.yaml"]
        }
        if lenient { words.append("--lenient") }
        if isGTFS { words += ["--today", Self.today] }
        if !previousChain.isEmpty { words += ["--previous", "<the seed of the input before, built the same way>"] }
        return words.joined(separator: " ")
    }

    /// `path` on this machine.
    static func resolved(_ path: String) -> String {
        if path.hasPrefix("data:") { return RealData.path(String(path.dropFirst(5))) }
        if path.hasPrefix("repo:") { return Repository.path(String(path.dropFirst(5))) }
        return path
    }

    /// `path` as the record shows it: `../shared/data/...` or relative to the repository.
    static func shown(_ path: String) -> String {
        if path.hasPrefix("data:") { return "../shared/data/" + path.dropFirst(5) }
        if path.hasPrefix("repo:") { return String(path.dropFirst(5)) }
        return path
    }

    /// The data sets of `../shared/data` these inputs read (for the coverage check).
    var dataPaths: [String] { (paths + feeds.map(\.path) + previousChain).filter { $0.hasPrefix("data:") || $0.hasPrefix("repo:") } }
}

/// Every real input of the golden record: every data set in `../shared/data` and every fixture
/// feed or dump of the repository, each built as its README says users build it; a feed with
/// data errors also with `--lenient`; XML without a schema of its own with a drafted schema.
enum RealInputs {
    static let all: [RealInput] = gtfs + renfe + xml + drafted + fixtures

    /// The inputs `make test` builds: all but the ``RealInput/regress`` ones, which `make regress`
    /// (`SEEDGEN_REGRESS=1`) adds.
    static var selected: [RealInput] {
        ProcessInfo.processInfo.environment["SEEDGEN_REGRESS"] == "1" ? all : all.filter { !$0.regress }
    }

    static let worldFeeds = ["abidjan", "aguascalientes", "chisinau", "detroit-people-mover", "donanbus", "joao-pessoa",
                             "lagos-rail", "rideconnection-flex", "udine", "zakroczym"]
    /// The published zips beside gtfs-world's unpacked feeds.
    static let worldZips = ["abidjan/output_gtfs.zip", "aguascalientes/mx-aguascalientes-CMOV.zip",
                            "rideconnection-flex/rideconnection-flex-or-us.zip", "zakroczym/gtfs.zip"]
    static let renfeDays = (16...23).map { "data:gtfs-daily-renfe-ld/renfe-ld-2026-03-\($0).zip" }

    static let gtfs: [RealInput] = [
        RealInput(name: "examples/cairns", paths: ["repo:examples/cairns"]),
        RealInput(name: "examples/cairns_gtfs.zip", paths: ["repo:examples/cairns_gtfs.zip"]),
        RealInput(name: "gtfs-cairns-2014/feed", paths: ["data:gtfs-cairns-2014/feed"]),
        RealInput(name: "gtfs-cairns-2014/cairns_gtfs.zip", paths: ["data:gtfs-cairns-2014/cairns_gtfs.zip"], regress: true),
    ] + worldFeeds.map { RealInput(name: "gtfs-world/\($0)", paths: ["data:gtfs-world/\($0)/feed"]) }
      + [RealInput(name: "gtfs-world/udine --lenient", paths: ["data:gtfs-world/udine/feed"], lenient: true)]
      + worldZips.map { RealInput(name: "gtfs-world/\($0)", paths: ["data:gtfs-world/\($0)"], regress: true) }
      + [RealInput(name: "gtfs-world (one region seed) --lenient",
                   feeds: worldFeeds.map { ($0, "data:gtfs-world/\($0)/feed") }, lenient: true, regress: true)]

    static let renfe: [RealInput] = renfeDays.enumerated().map { day, path in
        RealInput(name: String(path.dropFirst(5)), paths: [path], regress: day > 0)
    } + [RealInput(name: "gtfs-daily-renfe-ld (each day --previous the day before)", paths: [renfeDays.last!],
                   previousChain: Array(renfeDays.dropLast()), regress: true)]

    static let xml: [RealInput] = [
        RealInput(name: "osm-liechtenstein-2013", paths: ["data:osm-liechtenstein-2013"]),
        RealInput(name: "stackexchange-ai-2017", paths: ["data:stackexchange-ai-2017"], schema: .file("Schema/stackexchange.yaml")),
        RealInput(name: "xml-transit/netex-nordic-flb", paths: ["data:xml-transit/netex-nordic-flb"]),
        RealInput(name: "xml-transit/netex-nordic-flb/rb_flb-aggregated-netex.zip",
                  paths: ["data:xml-transit/netex-nordic-flb/rb_flb-aggregated-netex.zip"]),
        RealInput(name: "xml-transit/netex-swiss", paths: ["data:xml-transit/netex-swiss"]),
        RealInput(name: "xml-transit/netex-swiss (each file a feed)", feeds: swissFeeds),
        RealInput(name: "xml-transit/txc-somerset-2014", paths: ["data:xml-transit/txc-somerset-2014"]),
        RealInput(name: "xml-transit-2/netex-de-nap-epip", paths: ["data:xml-transit-2/netex-de-nap-epip"]),
        RealInput(name: "xml-transit-2/netex-fr-hove", paths: ["data:xml-transit-2/netex-fr-hove"]),
        RealInput(name: "xml-transit-2/netex-nl-qbuzz-flex", paths: ["data:xml-transit-2/netex-nl-qbuzz-flex"]),
        RealInput(name: "xml-transit-2/txc-stagecoach-registration", paths: ["data:xml-transit-2/txc-stagecoach-registration"]),
    ]

    /// The Swiss guide's examples, each a feed of one region seed (as `Documentation/regions.md` shows).
    static var swissFeeds: [(name: String, path: String)] {
        let folder = RealData.path("xml-transit/netex-swiss")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".xml") }.sorted()
        return files.map { (String($0.prefix(2)), "data:xml-transit/netex-swiss/\($0)") }
    }

    /// XML with no schema of its own, drafted and built as `seedgen schema draft` tells users to.
    static let drafted: [RealInput] = [
        RealInput(name: "stackexchange-ai-2017 (drafted schema)", paths: ["data:stackexchange-ai-2017"], schema: .drafted),
        RealInput(name: "osm-liechtenstein-2013 (drafted schema)", paths: ["data:osm-liechtenstein-2013"], schema: .drafted, regress: true),
        RealInput(name: "Tests/Fixtures/xml/gpx (drafted schema)", paths: ["repo:Tests/Fixtures/xml/gpx"], schema: .drafted),
        RealInput(name: "Tests/Fixtures/xml/gpx-mixed (drafted schema)", paths: ["repo:Tests/Fixtures/xml/gpx-mixed"], schema: .drafted),
        RealInput(name: "Tests/Fixtures/xml/topsongs (drafted schema)", paths: ["repo:Tests/Fixtures/xml/topsongs"], schema: .drafted),
        RealInput(name: "Tests/Fixtures/xml/library (drafted schema)", paths: ["repo:Tests/Fixtures/xml/library"], schema: .drafted),
    ]

    static let fixtures: [RealInput] = [
        RealInput(name: "Tests/Fixtures/gtfs/dst-berlin", paths: ["repo:Tests/Fixtures/gtfs/dst-berlin"]),
        RealInput(name: "Tests/Fixtures/gtfs/sample-feed", paths: ["repo:Tests/Fixtures/gtfs/sample-feed"]),
        // Two operators whose riders change from one to the other: a region seed, as the journeys tests build it.
        RealInput(name: "Tests/Fixtures/gtfs/two-operators",
                  feeds: ["north", "south"].map { ($0, "repo:Tests/Fixtures/gtfs/two-operators/\($0)") }),
        RealInput(name: "Tests/Fixtures/xml/library", paths: ["repo:Tests/Fixtures/xml/library"], schema: .file("Schema/library.yaml")),
        RealInput(name: "Tests/Fixtures/xml/netex-ordered-siblings", paths: ["repo:Tests/Fixtures/xml/netex-ordered-siblings"]),
        RealInput(name: "Tests/Fixtures/xml/netex-two-versions", paths: ["repo:Tests/Fixtures/xml/netex-two-versions"]),
        RealInput(name: "Tests/Fixtures/xml/osm", paths: ["repo:Tests/Fixtures/xml/osm"]),
        RealInput(name: "Tests/Fixtures/xml/topsongs", paths: ["repo:Tests/Fixtures/xml/topsongs"], schema: .file("Schema/topsongs.yaml")),
        RealInput(name: "Tests/Fixtures/xml/txc-journey-refs", paths: ["repo:Tests/Fixtures/xml/txc-journey-refs"]),
    ]

    /// The folders of `../shared/data` that hold several data sets (a feed or an export each, or
    /// a day each); every other folder there is one data set.
    static let collections: Set<String> = ["gtfs-world", "gtfs-daily-renfe-ld", "xml-transit", "xml-transit-2"]

    /// The data sets the record must cover: each data set of `../shared/data` and each fixture
    /// folder, as `data:` and `repo:` paths.
    static func dataSets() -> [String] {
        func entries(_ folder: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { !$0.hasPrefix(".") && !["README.md", "SOURCES.tsv"].contains($0) }.sorted()
        }
        var sets: [String] = []
        for top in entries(RealData.root) where isFolder(RealData.path(top)) {
            sets += collections.contains(top) ? entries(RealData.path(top)).map { "data:\(top)/\($0)" } : ["data:\(top)"]
        }
        for kind in ["gtfs", "xml"] {
            sets += entries(Repository.path("Tests/Fixtures/\(kind)")).filter { isFolder(Repository.path("Tests/Fixtures/\(kind)/\($0)")) }
                .map { "repo:Tests/Fixtures/\(kind)/\($0)" }
        }
        return sets + ["repo:examples/cairns", "repo:examples/cairns_gtfs.zip"]
    }

    private static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }
}
