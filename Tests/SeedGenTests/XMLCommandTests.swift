import Foundation
import SeedTestSupport
import Testing

/// `seedgen build` on XML inputs, run as a user runs it.
@Suite("seedgen build (XML)")
struct XMLCommandTests {
    private static let topSongsSchema = Repository.root + "/Schema/topsongs.yaml"
    private static let topSongs = Repository.root + "/Tests/Fixtures/xml/topsongs/topsongs.xml"

    @Test("builds the TopSongs sample and prints rows and cache hits and misses")
    func topSongs() throws {
        let scratch = TemporaryFolder()
        let result = try SeedgenTool.run(["build", Self.topSongs, "--schema", Self.topSongsSchema, "--out", scratch.file("songs.sqlite")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("schema topsongs v1"))
        #expect(result.stdout.range(of: #"song\s+5\n"#, options: .regularExpression) != nil)
        #expect(result.stdout.range(of: #"category\s+4\n"#, options: .regularExpression) != nil)
        #expect(result.stdout.contains("reference song.category_ref: 1 cache hits, 4 misses, 4 created"))
        #expect(scratch.contents == ["songs.sqlite"])
    }

    @Test("the same feed gives the same bytes")
    func deterministic() throws {
        let scratch = TemporaryFolder()
        for name in ["a.sqlite", "b.sqlite"] {
            let result = try SeedgenTool.run(["build", Self.topSongs, "--schema", Self.topSongsSchema, "--out", scratch.file(name), "--quiet"])
            #expect(result.status == 0)
        }
        #expect(FileManager.default.contents(atPath: scratch.file("a.sqlite")) == FileManager.default.contents(atPath: scratch.file("b.sqlite")))
    }

    @Test("malformed XML: exit 1, file:line:column and libxml2's message, no output")
    func malformed() throws {
        let scratch = TemporaryFolder()
        let input = scratch.write("in/feed.xml", "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<entry>\n</feed>\n")
        let result = try SeedgenTool.run(["build", input, "--schema", Self.topSongsSchema, "--out", scratch.file("out.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: \(input):3:"))
        #expect(result.stderr.contains("Opening and ending tag mismatch: entry line 2 and feed"))
        #expect(result.stderr.contains("no seed was written"))
        #expect(scratch.contents == ["in"])
    }

    @Test("a billion-laughs file is refused: exit 1, no output")
    func hostile() throws {
        let scratch = TemporaryFolder()
        var entities = "<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">"
        for (previous, name) in zip("abcdefghi", "bcdefghij") {
            entities += "<!ENTITY \(name) \"\(String(repeating: "&\(previous);", count: 10))\">"
        }
        let input = scratch.write("in/feed.xml", "<!DOCTYPE feed [\(entities)]><feed><entry>&j;</entry></feed>")
        let result = try SeedgenTool.run(["build", input, "--schema", Self.topSongsSchema, "--out", scratch.file("out.sqlite")])
        #expect(result.status == 1)
        // 'a' is plain text, which is read; 'b' refers to it, which is refused.
        #expect(result.stderr.contains("declares the entity 'b', whose text refers to another entity"))
        #expect(scratch.contents == ["in"])
    }

    @Test("peak memory stays flat while the input grows tenfold (~12 MB to ~120 MB)",
          .enabled(if: PeakMemory.available, "needs /usr/bin/time (Debian package 'time', see make deps)"),
          .disabled(if: Sanitizer.address, "AddressSanitizer's quarantine grows with what a run allocates"))
    func flatMemory() throws {
        let scratch = TemporaryFolder()
        let small = scratch.file("small.xml"), large = scratch.file("large.xml")
        LargeFeed.write(entries: 1_500, padding: 8_000, to: small)
        LargeFeed.write(entries: 15_000, padding: 8_000, to: large)
        let sizes = [small, large].map { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? 0 }
        #expect(sizes[1] > 100_000_000)
        let runs = try [small, large].map { input in
            try PeakMemory.run(SeedgenTool.path, ["build", input, "--schema", Self.topSongsSchema, "--out", input + ".sqlite", "--quiet"])
        }
        #expect(runs.allSatisfy { $0.status == 0 && $0.kilobytes > 0 })
        let (smallPeak, largePeak) = (runs[0].kilobytes, runs[1].kilobytes)
        // 15 % plus 4 MB of slack for SQLite's page cache, which grows with the seed (15,000 rows).
        #expect(largePeak <= smallPeak + smallPeak * 15 / 100 + 4_096, "peak RSS \(smallPeak) KB for \(sizes[0]) bytes, \(largePeak) KB for \(sizes[1]) bytes")
        print("XML memory: \(sizes[0]) bytes -> \(smallPeak) KB peak; \(sizes[1]) bytes -> \(largePeak) KB peak")
    }
}
