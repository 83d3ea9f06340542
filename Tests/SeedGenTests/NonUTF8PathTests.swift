import Foundation
import SeedTestSupport
import Testing

/// Paths whose names are not UTF-8 are refused by their real bytes: never reported as
/// missing, never written under another name (U+FFFD).
@Suite("File names that are not UTF-8")
struct NonUTF8PathTests {
    /// Runs `script` with `sh -c`, `$SEEDGEN` set: only the shell can pass raw bytes.
    func shell(_ script: String, in scratch: TemporaryFolder) throws -> ChildProcess.Output {
        try ChildProcess.run("/bin/sh", ["-c", "SEEDGEN='\(SeedgenTool.path)'; " + script], in: scratch.path)
    }

    @Test("an input folder named with byte 0xFF: the error shows \\xFF, not 'no such file'")
    func inputFolder() throws {
        let scratch = TemporaryFolder()
        let result = try shell(#"mkdir "feed$(printf '\377')" && cp "$0"/examples/cairns/* "feed$(printf '\377')"/ && "$SEEDGEN" build "feed$(printf '\377')" --out seed.sqlite"#
                               .replacingOccurrences(of: "$0", with: Repository.root), in: scratch)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"feed\xFF: the name is not valid UTF-8"#), "\(result.stderr)")
        #expect(!result.stderr.contains("no such file"))
    }

    @Test("--out named with byte 0xFF: refused, and no file of another name is written")
    func output() throws {
        let scratch = TemporaryFolder()
        let result = try shell(#""$SEEDGEN" build "\#(Repository.root)/examples/cairns" --out "seed$(printf '\377').sqlite""#, in: scratch)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"seed\xFF.sqlite: the name is not valid UTF-8"#), "\(result.stderr)")
        #expect(scratch.contents.isEmpty, "nothing written, not even seed\u{FFFD}.sqlite")
    }

    @Test("a file inside an input folder named with byte 0xFE: named by its real bytes")
    func fileInFolder() throws {
        let scratch = TemporaryFolder()
        let result = try shell(#"mkdir feed && cp "\#(Repository.root)"/examples/cairns/* feed/ && cp feed/stops.txt "feed/extra$(printf '\376').txt" && "$SEEDGEN" build feed --out seed.sqlite"#, in: scratch)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"feed/extra\xFE.txt: the name is not valid UTF-8"#), "\(result.stderr)")
    }
}
