import Foundation
import SeedTestSupport
import Testing

/// Whatever the input, a user never reads the name of a table seedgen uses inside (the scratch
/// tables of references resolved after loading, `seedgen_pending_*`, and the seed's own
/// `seedgen_*` tables): every build of every shared sample, as a folder, file by file and with
/// `--lenient`, is run as a user runs it and its output searched.
@Suite("No internal table names in build output", .realData("xml-transit", "xml-transit-2", "gtfs-world", "gtfs-cairns-2014/feed"))
struct InternalNamesTests {
    /// Every build a user may try on the shared samples: each data set as a folder and each of
    /// its files on its own.
    static var builds: [[String]] {
        var inputs: [String] = [RealData.path("gtfs-cairns-2014/feed"), RealData.path("osm-liechtenstein-2013/liechtenstein-2013-08-03.osm"),
                                Repository.path("Tests/Fixtures/xml/netex-two-versions")]
        let files = FileManager.default
        for group in ["xml-transit", "xml-transit-2", "gtfs-world"] {
            let root = RealData.path(group)
            for set in ((try? files.contentsOfDirectory(atPath: root)) ?? []).sorted() {
                var folder = root + "/" + set
                var isFolder: ObjCBool = false
                guard files.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { continue }
                if group == "gtfs-world" {
                    folder += "/feed"
                    inputs.append(folder)
                    continue
                }
                inputs.append(folder)
                let members = ((try? files.contentsOfDirectory(atPath: folder)) ?? []).sorted().filter { $0.hasSuffix(".xml") || $0.hasSuffix(".zip") }
                if members.count > 1 { inputs += members.map { folder + "/" + $0 } }
            }
        }
        return inputs.flatMap { [[$0], [$0, "--lenient"]] }
    }

    @Test("every shared sample's build names no internal table, whether it succeeds or fails")
    func noInternalNames() throws {
        let scratch = TemporaryFolder()
        var failures: [String] = []
        for (index, arguments) in Self.builds.enumerated() {
            let output = scratch.file("\(index).sqlite")
            let result = try SeedgenTool.run(["build", arguments[0], "--out", output] + arguments.dropFirst(), timeout: .seconds(600))
            if result.stderr.contains("seedgen_") || result.stdout.contains("seedgen_") {
                failures.append("\(arguments.joined(separator: " ")): \(result.stderr)\(result.stdout)")
            }
            try? FileManager.default.removeItem(atPath: output)
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(Self.builds.count > 40, "the samples were found: \(Self.builds.count) builds")
    }
}
