// swift-tools-version:6.0
// A sample app that ships a seed and reads it with GRDB: the proof that seedgen's public API and
// its generated schema code work in a real package. `make app` (at the repository's root)
// builds the seed into Sources/App/Resources, then builds and runs this app twice; `make test`
// does the same with these sources against a tagged clone (scripts/check-versioned-dependency.sh).
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        // In your app: .package(url: "https://github.com/<owner>/seedgen", from: "1.0.0")
        .package(name: "seedgen", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "App",
            dependencies: [
                // SeedUpdater brings SeedInstaller with it: one import for installing and updating.
                .product(name: "SeedUpdater", package: "seedgen"),
                // Journeys planned on the device, over the same seed.
                .product(name: "SeedRouter", package: "seedgen"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // The seed and its manifest, as `seedgen build ... --gzip` writes them.
            resources: [.copy("Resources/seed.sqlite.gz"), .copy("Resources/seed.sqlite.manifest.json")]
        ),
    ]
)
