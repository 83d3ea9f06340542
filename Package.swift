// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "seedgen",
    // The installer runs on every Apple platform (and on Linux, glibc or musl); the builder and
    // the command-line tool are meant for macOS and Linux.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "seedgen", targets: ["seedgen"]),
        .library(name: "SeedInstaller", targets: ["SeedInstaller"]),
        // Over the network: a separate product, so that SeedInstaller stays free of networking.
        .library(name: "SeedUpdater", targets: ["SeedUpdater"]),
        .library(name: "SeedKit", targets: ["SeedKit"]),
        // Journeys planned offline over a transit seed (RAPTOR); links neither the builder nor networking.
        .library(name: "SeedRouter", targets: ["SeedRouter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // SHA-256 for builder and installer: BoringSSL's (assembly, SHA extensions) on Linux;
        // on Apple platforms `Crypto` re-exports CryptoKit and builds nothing of its own.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // `swift package generate-documentation --target SeedInstaller` (DocC); no target uses it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries. Each module map links one library; shim.h wraps what Swift
        // cannot import directly (macros, global function pointers).
        .systemLibrary(name: "CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

        // Shared by the builder and the installer: the system calls on files (one owner of a
        // file descriptor, one error carrying errno), over Glibc, Musl or Darwin ...
        .target(name: "SeedSystem"),
        // ... a small owner of SQLite's C API ...
        .target(name: "SeedSQLite", dependencies: ["CSQLite3", "SeedSystem"]),
        // ... and the shipped-seed format: gzip streams, SHA-256, the manifest.
        .target(name: "SeedArchive", dependencies: ["CZlib", "SeedSystem", .product(name: "Crypto", package: "swift-crypto")]),

        // A seed's identity and its deltas: the content digest, the delta format, comparing two
        // seeds, applying a delta and re-deriving what it touches. Used by the installer to apply
        // deltas and by the builder to write them.
        .target(name: "SeedDeltas", dependencies: ["SeedSystem", "SeedSQLite", "SeedArchive"]),

        // Run time: what an app links. SQLite, zlib and SHA-256 (CryptoKit on Apple platforms,
        // swift-crypto's BoringSSL elsewhere).
        .target(name: "SeedInstaller", dependencies: ["SeedSystem", "SeedSQLite", "SeedArchive", "SeedDeltas"]),

        // Fetches seeds and deltas from a channel (`seedgen publish`) and installs them with
        // SeedInstaller: URLSession (FoundationNetworking on Linux).
        .target(name: "SeedUpdater", dependencies: ["SeedInstaller", "SeedArchive", "SeedSystem"]),

        // Run time: plans journeys over a transit seed (RAPTOR over patterns and footpaths it
        // derives when it opens the seed). SQLite through SeedSQLite, nothing else.
        .target(name: "SeedRouter", dependencies: ["SeedSQLite"]),

        // Build time: readers, schema, mapping, resolver, writer. It links the installer so that
        // `seedgen delta` proves each delta with the code apps apply it with.
        .target(
            name: "SeedKit",
            dependencies: ["SeedSystem", "SeedSQLite", "SeedArchive", "SeedDeltas", "SeedInstaller", "CLibXML2", "CZlib", .product(name: "Yams", package: "Yams")],
            // No unsafeFlags: SwiftPM refuses them in a package used as a versioned dependency.
            // The hot stored properties opt out of dynamic exclusivity checks in the source
            // (`@exclusivity(unchecked)`) instead.
            resources: [.embedInCode("Resources/Schemas")]
        ),

        // Shipping a built seed: pack, verify, inspect, diff, publish a channel, check a channel,
        // write deltas. Above the builder (it reads seeds as the builder writes them), through
        // SeedKit's package API only, so the compiler keeps the direction.
        .target(
            name: "SeedShip",
            dependencies: ["SeedKit", "SeedSystem", "SeedSQLite", "SeedArchive", "SeedDeltas", "SeedInstaller"]
        ),

        // `seedgen report`: one self-contained HTML page about a seed (summary, map, service
        // calendar, notices, changes). Above SeedShip, whose inspect and diff it reuses.
        .target(name: "SeedHTMLReport", dependencies: ["SeedKit", "SeedShip", "SeedSQLite", "SeedArchive"]),

        .executableTarget(
            name: "seedgen",
            dependencies: ["SeedKit", "SeedShip", "SeedHTMLReport", "SeedSystem", "SeedDeltas", "SeedInstaller", "SeedUpdater", "SeedSQLite", "SeedRouter", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Fuzz targets (`make fuzz`); built normally it replays a corpus (`make test`).
        .executableTarget(name: "seedfuzz", dependencies: ["SeedKit"]),

        // Benchmark probe (`make bench`): times one SeedInstaller.install() in a fresh process.
        .executableTarget(name: "seedprobe", dependencies: ["SeedInstaller"]),

        // Benchmark probe (`make bench`, job journeys): opens a seed with SeedRouter and times journeys.
        .executableTarget(name: "journeyprobe", dependencies: ["SeedRouter"]),

        // What every test target shares: temporary folders, the repository and its real data,
        // a process runner, the built tool (as swift-collections' _CollectionsTestSupport).
        .target(name: "SeedTestSupport", path: "Tests/SeedTestSupport"),
        // What the builder's and the shipping tests share: a minimal feed, the querying guide's SQL.
        .target(name: "SeedKitTestSupport", dependencies: ["SeedKit", "SeedSQLite", "SeedTestSupport"], path: "Tests/SeedKitTestSupport"),
        .testTarget(name: "SeedTestSupportTests", dependencies: ["SeedTestSupport"]),
        .testTarget(name: "SeedArchiveTests", dependencies: ["SeedArchive", "SeedSystem", "SeedTestSupport"]),
        .testTarget(name: "SeedDeltasTests", dependencies: ["SeedDeltas", "SeedSQLite", "SeedArchive", "SeedTestSupport"]),
        .testTarget(name: "SeedKitTests", dependencies: ["SeedKit", "SeedShip", "SeedSQLite", "SeedSystem", "SeedArchive", "SeedDeltas", "SeedInstaller", "SeedTestSupport", "SeedKitTestSupport"]),
        .testTarget(name: "SeedShipTests", dependencies: ["SeedShip", "SeedKit", "SeedSQLite", "SeedSystem", "SeedArchive", "SeedDeltas", "SeedInstaller", "SeedTestSupport", "SeedKitTestSupport"]),
        .testTarget(name: "SeedRouterTests", dependencies: ["SeedRouter", "SeedKit", "SeedSQLite", "SeedTestSupport"]),
        .testTarget(name: "SeedInstallerTests", dependencies: ["SeedInstaller", "SeedSQLite", "SeedArchive", "SeedDeltas", "SeedTestSupport"]),
        .testTarget(name: "SeedGenTests", dependencies: ["SeedSQLite", "SeedArchive", "SeedTestSupport", "ChannelTestSupport"]),
        .testTarget(name: "SeedUpdaterTests", dependencies: ["SeedUpdater", "SeedArchive", "SeedDeltas", "SeedTestSupport", "ChannelTestSupport"]),
        // A loopback HTTP server that misbehaves on request (cuts, stalls, wrong bytes), and
        // seeds of consecutive days to publish, for the channel's and the updater's fault tests.
        .target(name: "ChannelTestSupport", dependencies: ["SeedArchive", "SeedTestSupport"], path: "Tests/ChannelTestSupport"),
    ]
)
