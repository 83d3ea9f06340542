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

        for delay in [0.05, 0.3, 0.8] {
            let build = try SeedgenTool.start(["build", scratch.file("feed"), "--out", output, "-q"])
            Thread.sleep(forTimeInterval: delay)
            build.send(SIGKILL)
            _ = build.wait()
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == previous, "killed after \(delay) s")
        }
        #expect(scratch.contents.contains { $0.contains("seedgen-build") }, "the killed builds left scratch files")

        let finished = try SeedgenTool.run(["build", scratch.file("feed"), "--out", output, "-q"])
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(scratch.contents == ["feed", "seed.sqlite"], "scratch files of the killed builds are gone")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) != previous)
    }
}
