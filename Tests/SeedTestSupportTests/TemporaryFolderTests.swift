import Foundation
import SeedTestSupport
import Testing

@Suite struct TemporaryFolderTests {
    @Test("each folder is new and empty, and goes with everything in it")
    func lifetime() {
        var path = ""
        do {
            let folder = TemporaryFolder(), other = TemporaryFolder()
            path = folder.path
            #expect(folder.path != other.path && folder.contents.isEmpty)
            folder.write("a/b/c.txt", "text")
            folder.write("d.bin", bytes: [0, 1, 2])
            #expect(folder.contents == ["a", "d.bin"] && folder.contents(of: folder.file("a/b")) == ["c.txt"])
            #expect(FileManager.default.contents(atPath: folder.file("a/b/c.txt")) == Data("text".utf8))
        }
        #expect(!path.isEmpty && !FileManager.default.fileExists(atPath: path))
    }

    @Test("the repository root holds Package.swift; the real data lies beside it")
    func paths() {
        #expect(FileManager.default.fileExists(atPath: Repository.path("Package.swift")))
        #expect(RealData.root == URL(fileURLWithPath: Repository.root).deletingLastPathComponent().path + "/shared/data")
        #expect(RealData.missing(["no-such-data-set"]) == ["no-such-data-set"])
    }

    @Test("a ../shared that is a link to the data is found through the link")
    func linkedData() throws {
        let scratch = TemporaryFolder()
        scratch.write("elsewhere/data/gtfs-world/README.md", "data")
        scratch.write("checkout/Package.swift", "")
        try FileManager.default.createSymbolicLink(atPath: scratch.file("shared"), withDestinationPath: scratch.file("elsewhere"))
        let root = RealData.root(besideRepository: scratch.file("checkout"))
        #expect(root == scratch.file("shared/data"))
        #expect(FileManager.default.fileExists(atPath: root + "/gtfs-world/README.md"))
    }
}
