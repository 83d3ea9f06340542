import Foundation
import SeedTestSupport
import Testing

@Suite("A build killed partway")
struct KilledBuildTests {
    @Test("SIGKILL mid-build leaves the previous seed byte for byte; the next build cleans up and finishes")
    func killedBuild() throws {
        let scratch = TemporaryFolder()
        // A feed big enough that the build runs for a while: 300,000 stop_times.
        let generated = try ChildProcess.run("/usr/bin/env", ["python3", "scripts/generate_gtfs.py",
                                                              "--stop-times", "300000", "--out", scratch.file("feed")])
        try #require(generated.status == 0, "\(generated.stderr)")

        let output = scratch.file("seed.sqlite")
        #expect(try SeedgenTool.run(["build", "examples/cairns", "--out", output, "-q"]).status == 0)
        let previous = try Data(contentsOf: URL(fileURLWithPath: output))

        // Killed early, then once it has a scratch file (however slow the machine or build).
        for moment in ["0.05 s", "0.3 s", "scratch file"] {
            let build = try SeedgenTool.start(["build", scratch.file("feed"), "--out", output, "-q"])
            if let seconds = Double(moment.dropLast(2)) {
                Thread.sleep(forTimeInterval: seconds)
            } else {
                let ownScratch = "seedgen-build-\(build.processIdentifier)-"
                while build.isRunning && !scratch.contents.contains(where: { $0.contains(ownScratch) }) {
                    Thread.sleep(forTimeInterval: 0.01)
                }
            }
            build.send(SIGKILL)
            _ = build.wait()
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == previous, "killed at \(moment)")
        }
        #expect(scratch.contents.contains { $0.contains("seedgen-build") }, "the killed builds left scratch files")

        let finished = try SeedgenTool.run(["build", scratch.file("feed"), "--out", output, "-q"])
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(scratch.contents == ["feed", "seed.sqlite"], "scratch files of the killed builds are gone")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) != previous)
    }
}
