#!/usr/bin/env bash
# Checks what an app developer does first: depend on a tagged release of this repository with
# `.package(url:, from:)` and build with the SeedInstaller, SeedUpdater and SeedKit products.
# SwiftPM refuses a versioned dependency whose targets use unsafeFlags, so this fails if one
# comes back. It clones the committed HEAD into a temporary folder, tags it 1.0.0, creates a
# fresh package depending on it by file:// URL, and builds it (debug, a few minutes: the whole
# builder and its dependencies are compiled again).
#
# The package also builds the sample app's sources (examples/App, with GRDB) against the tag, and
# runs it as scripts/sample-app.sh does: `make test` builds swift-crypto, GRDB and the runtime
# once for both checks (`make app` still builds examples/App as its own package).
#   scripts/check-versioned-dependency.sh   (needs .build/debug/seedgen: `swift build`)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git clone -q . "$work/seedgen"
git -C "$work/seedgen" tag -l | xargs -r git -C "$work/seedgen" tag -d >/dev/null
git -C "$work/seedgen" tag 1.0.0

mkdir -p "$work/Consumer/Sources/InstallerApp" "$work/Consumer/Sources/UpdaterApp" "$work/Consumer/Sources/BuilderTool"
scripts/sample-app.sh --prepare
cp -R examples/App/Sources/App "$work/Consumer/Sources/App"
cat > "$work/Consumer/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "file://$work/seedgen", from: "1.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(name: "InstallerApp", dependencies: [.product(name: "SeedInstaller", package: "seedgen")]),
        .executableTarget(name: "UpdaterApp", dependencies: [.product(name: "SeedUpdater", package: "seedgen")]),
        .executableTarget(name: "BuilderTool", dependencies: [.product(name: "SeedKit", package: "seedgen")]),
        // The sample app's sources and resources, as examples/App/Package.swift declares them.
        .executableTarget(name: "App",
                          dependencies: [.product(name: "SeedUpdater", package: "seedgen"), .product(name: "SeedRouter", package: "seedgen"),
                                         .product(name: "GRDB", package: "GRDB.swift")],
                          resources: [.copy("Resources/seed.sqlite.gz"), .copy("Resources/seed.sqlite.manifest.json")]),
    ]
)
SWIFT
cat > "$work/Consumer/Sources/InstallerApp/main.swift" <<'SWIFT'
import SeedInstaller
let installer = SeedInstaller(source: "seed.sqlite.gz", destination: "/tmp/seed.sqlite", expectedSchemaVersion: 1)
print(installer.destination)
SWIFT
cat > "$work/Consumer/Sources/UpdaterApp/main.swift" <<'SWIFT'
import Foundation
import SeedUpdater
let updater = SeedUpdater(channel: URL(string: "https://example.com/seeds/")!, destination: URL(fileURLWithPath: "/tmp/seed.sqlite"))
print(updater.indexURL)
SWIFT
cat > "$work/Consumer/Sources/BuilderTool/main.swift" <<'SWIFT'
import SeedKit
print(SchemaLocator.builtIns.count)
SWIFT

repository=$PWD
cd "$work/Consumer"
"$SWIFT" package resolve
grep -q '"version" : "1.0.0"' Package.resolved || { echo "seedgen did not resolve to the 1.0.0 tag" >&2; cat Package.resolved >&2; exit 1; }
"$SWIFT" build
bin=$("$SWIFT" build --show-bin-path)
"$bin/InstallerApp" >/dev/null
"$bin/UpdaterApp" >/dev/null
"$bin/BuilderTool" >/dev/null
echo "ok   a clone tagged 1.0.0 resolves with from: and builds with SeedInstaller, SeedUpdater and SeedKit"
cd "$repository"
scripts/sample-app.sh --run "$bin/App"
