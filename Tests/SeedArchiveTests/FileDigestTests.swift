import Foundation
import SeedArchive
import SeedSystem
import SeedTestSupport
import Testing

/// A file's SHA-256 has one owner: `FileDigest` streams it through a bounded buffer and gives
/// what `sha256sum` (and Python's hashlib) give, whatever the buffer size.
@Suite("File digest")
struct FileDigestTests {
    let folder = TemporaryFolder()

    /// 3 MiB and 17 bytes: more than the default 1 MiB buffer, not a multiple of it or of 64.
    func sample() -> (path: String, bytes: [UInt8]) {
        let bytes = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        return (folder.write("sample.bin", bytes: bytes), bytes)
    }

    static func reference(_ path: String) throws -> String {
        let result = try ChildProcess.run("/usr/bin/env", ["sha256sum", path])
        #expect(result.status == 0, "\(result.stderr)")
        return String(result.stdout.prefix(64))
    }

    @Test("the digest of a file larger than the buffer is sha256sum's, for any buffer size", arguments: [1 << 20, 65_537, 4096, 1000])
    func matchesSha256sum(bufferSize: Int) throws {
        let (path, bytes) = sample()
        let digest = try FileDigest(path: path, bufferSize: bufferSize)
        #expect(digest.size == Int64(bytes.count))
        #expect(digest.sha256 == (try Self.reference(path)))
        #expect(digest.sha256 == SHA256.hex(of: bytes))
    }

    @Test("an empty file; a missing file throws the failed open")
    func edges() throws {
        let empty = folder.write("empty.bin", bytes: [])
        #expect(try FileDigest(path: empty) == FileDigest(size: 0, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
        let error = #expect(throws: SystemCallError.self) { try FileDigest(path: folder.file("missing")) }
        #expect(error?.call == "open" && error?.path == folder.file("missing"))
    }
}
