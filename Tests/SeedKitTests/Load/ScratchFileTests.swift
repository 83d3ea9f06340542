import Foundation
import SeedSystem
import SeedTestSupport
import Testing
@testable import SeedKit

@Suite("A scratch file replaces its destination only when moved into place, and is removed otherwise")
struct ScratchFileTests {
    @Test("it is written beside the destination under a hidden name, and the rename replaces the destination")
    func movedIntoPlace() throws {
        let folder = TemporaryFolder()
        let destination = folder.write("seed.sqlite.gz", "old")
        let scratch = ScratchFile(beside: destination, kind: "pack")
        #expect(scratch.path.hasPrefix(folder.path + "/.seed.sqlite.gz.seedgen-pack-\(getpid())-"))
        folder.write((scratch.path as NSString).lastPathComponent, "new")
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "old", "the destination is untouched until the rename")

        try scratch.moveIntoPlace(at: destination)
        scratch.remove()
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "new")
        #expect(folder.contents == ["seed.sqlite.gz"], "nothing else is left, and remove() after the rename keeps the destination")
    }

    @Test("dropped without the rename, it is removed and the destination keeps its bytes")
    func droppedIsRemoved() {
        let folder = TemporaryFolder()
        let destination = folder.write("seed.sqlite.gz", "old")
        do {
            let scratch = ScratchFile(beside: destination, kind: "pack")
            folder.write((scratch.path as NSString).lastPathComponent, "half-written")
            #expect(folder.contents.count == 2)
        }
        #expect(folder.contents == ["seed.sqlite.gz"])
        #expect((try? String(contentsOfFile: destination, encoding: .utf8)) == "old")
    }

    @Test("a rename that fails says why and leaves both files")
    func failedRename() {
        let folder = TemporaryFolder()
        let scratch = ScratchFile(beside: folder.file("seed.sqlite"), kind: "build")
        folder.write((scratch.path as NSString).lastPathComponent, "rows")
        let error = #expect(throws: SystemCallError.self) { try scratch.moveIntoPlace(at: folder.file("no such folder/seed.sqlite")) }
        #expect(error?.call == "rename" && error?.errno == ENOENT)
        #expect(FileManager.default.fileExists(atPath: scratch.path), "kept until dropped")
    }
}
