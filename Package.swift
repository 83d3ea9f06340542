// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "seedgen",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "seedgen", targets: ["seedgen"]),
        .library(name: "SeedInstaller", targets: ["SeedInstaller"]),
        .library(name: "SeedKit", targets: ["SeedKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // System libraries. Each module map links one library; shim.h wraps what Swift
        // cannot import directly (macros, global function pointers).
        .systemLibrary(name: "CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

        // Shared by the builder and the installer: a small owner of SQLite's C API ...
        .target(name: "SeedSQLite", dependencies: ["CSQLite3"]),
        // ... and the shipped-seed format: gzip streams, SHA-256, the manifest.
        .target(name: "SeedArchive", dependencies: ["CZlib"]),

        // Run time: what an app links. SQLite and zlib only.
        .target(name: "SeedInstaller", dependencies: ["SeedSQLite", "SeedArchive"]),

        // Build time: readers, schema, mapping, resolver, writer.
        .target(
            name: "SeedKit",
            dependencies: ["SeedSQLite", "SeedArchive", "CLibXML2", "CZlib", .product(name: "Yams", package: "Yams")],
            resources: [.embedInCode("Resources/Schemas")],
            // The loader's hot loops touch class state per field; the dynamic exclusivity
            // checks cost about 6% of a build (measured with perf). Release builds only.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),

        .executableTarget(
            name: "seedgen",
            dependencies: ["SeedKit", "SeedInstaller", "SeedSQLite", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Fuzz targets (`make fuzz`); built normally it replays a corpus (`make test`).
        .executableTarget(name: "seedfuzz", dependencies: ["SeedKit"]),

        .testTarget(name: "SeedKitTests", dependencies: ["SeedKit", "SeedSQLite", "SeedArchive"]),
        .testTarget(name: "SeedInstallerTests", dependencies: ["SeedInstaller", "SeedSQLite", "SeedArchive"]),
        .testTarget(name: "SeedGenTests", dependencies: ["SeedSQLite", "SeedArchive"]),
    ]
)
