import Foundation
import SeedTestSupport
import Testing

/// The run-time library links SQLite, zlib and SHA-256 from swift-crypto (its BoringSSL,
/// compiled into the app, on Linux; on Apple platforms swift-crypto is CryptoKit, part of the
/// system), besides Swift's Foundation: no libxml2, no builder code.
///
/// SwiftPM builds no shared object for SeedInstaller alone, so this reads what its object files
/// (and those of SeedArchive and SeedSQLite) ask the linker for: the libraries each module
/// autolinks (`.swift1_autolink_entries`, read with `readelf`) and the symbols they leave
/// undefined (`nm -u`), and the compile commands SwiftPM wrote for them (`.build/debug.yaml`),
/// which name every module map in a target's dependency closure. Adding CLibXML2, SeedKit or
/// Yams to these targets, even without using them, makes it fail.
@Suite struct DependencyTests {
    static let buildFolder = URL(fileURLWithPath: SeedgenTool.path).deletingLastPathComponent().path

    func objectFiles(_ module: String) -> [String] {
        let folder = Self.buildFolder + "/\(module).build"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".o") }.map { folder + "/" + $0 }
    }

    @Test func theInstallerLinksSQLiteZlibAndSwiftCryptoOnly() throws {
        let objects = ["SeedInstaller", "SeedArchive", "SeedSQLite", "SeedSystem"].flatMap(objectFiles)
        try #require(objects.count >= 10, "no object files under \(Self.buildFolder); build first")
        let quoted = objects.map { "'\($0)'" }.joined(separator: " ")
        let autolinked = try ChildProcess.shell("readelf -p .swift1_autolink_entries \(quoted) 2>/dev/null").stdout
        #expect(autolinked.contains("-lsqlite3") && autolinked.contains("-lz"), "the check sees the autolinked libraries")
        #expect(!autolinked.contains("xml2"), "libxml2 is autolinked by the installer's modules")
        #expect(!autolinked.contains("FoundationXML"))
        let undefined = try ChildProcess.shell("nm -u \(quoted)").stdout.split(separator: "\n")
        let offending = undefined.filter { $0.contains(" xml") || $0.contains("7SeedKit") || $0.contains("4Yams") }
        #expect(offending.isEmpty, "\(offending.prefix(5))")
        #expect(undefined.contains { $0.contains("6Crypto6SHA256V") }, "SHA-256 comes from swift-crypto")
    }

    @Test func theInstallersDependencyClosureHasNoLibXML2() throws {
        let manifest = URL(fileURLWithPath: Self.buildFolder).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("debug.yaml").path
        let fallback = URL(fileURLWithPath: Self.buildFolder).deletingLastPathComponent().appendingPathComponent("debug.yaml").path
        let text = try String(contentsOfFile: FileManager.default.fileExists(atPath: manifest) ? manifest : fallback, encoding: .utf8)
        // Each build command is a block starting with `  "<key>":` at two spaces of indentation.
        let blocks = text.components(separatedBy: "\n  \"")
        for module in ["SeedInstaller", "SeedArchive", "SeedSQLite", "SeedSystem"] {
            let compile = try #require(blocks.first { $0.hasPrefix("C.\(module)-") && $0.contains("swiftc") }, "no compile command for \(module)")
            #expect(!compile.contains("CLibXML2") && !compile.contains("libxml2"), "\(module) compiles against libxml2")
            #expect(!compile.contains("SeedKit") && !compile.contains("Yams"), "\(module) depends on the builder")
            if module == "SeedInstaller" || module == "SeedSQLite" { #expect(compile.contains("CSQLite3/module.modulemap")) }
        }
    }
}
