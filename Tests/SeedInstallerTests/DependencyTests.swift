import Foundation
import Testing

/// Issue 4: the run-time library links SQLite and zlib only: no libxml2, no builder code.
///
/// SwiftPM builds no shared object for SeedInstaller alone, so this reads what its object files
/// (and those of SeedArchive and SeedSQLite) ask the linker for: the libraries each module
/// autolinks (`.swift1_autolink_entries`, read with `readelf`) and the symbols they leave
/// undefined (`nm -u`). Adding CLibXML2 or SeedKit to these targets makes it fail.
@Suite struct DependencyTests {
    static let buildFolder = URL(fileURLWithPath: SeedgenTool.path).deletingLastPathComponent().path

    func objectFiles(_ module: String) -> [String] {
        let folder = Self.buildFolder + "/\(module).build"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".o") }.map { folder + "/" + $0 }
    }

    @Test func theInstallerLinksSQLiteAndZlibOnly() throws {
        let objects = ["SeedInstaller", "SeedArchive", "SeedSQLite"].flatMap(objectFiles)
        try #require(objects.count >= 10, "no object files under \(Self.buildFolder); build first")
        let quoted = objects.map { "'\($0)'" }.joined(separator: " ")
        let autolinked = try SeedgenTool.shell("readelf -p .swift1_autolink_entries \(quoted) 2>/dev/null").stdout
        #expect(autolinked.contains("-lsqlite3") && autolinked.contains("-lz"), "the check sees the autolinked libraries")
        #expect(!autolinked.contains("xml2"), "libxml2 is autolinked by the installer's modules")
        #expect(!autolinked.contains("FoundationXML"))
        let undefined = try SeedgenTool.shell("nm -u \(quoted)").stdout.split(separator: "\n")
        let offending = undefined.filter { $0.contains(" xml") || $0.contains("7SeedKit") || $0.contains("4Yams") }
        #expect(offending.isEmpty, "\(offending.prefix(5))")
    }
}
