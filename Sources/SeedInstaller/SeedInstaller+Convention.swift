extension SeedInstaller {
    /// Installs the app's shipped seed if needed, with paths found by convention. Call it once
    /// at startup, before opening the seed:
    ///
    /// ```swift
    /// try SeedInstaller.installIfNeeded(schemaVersion: 3)
    /// ```
    ///
    /// The convention (each environment variable overrides the default):
    /// - shipped seed: `SEEDGEN_SEED`, else the first that exists of `seed.sqlite.gz` and
    ///   `seed.sqlite` beside the executable, then in `../Resources` and `../share/<app>` from it;
    /// - destination: `SEEDGEN_SEED_DEST`, else `<data>/<app>/seed.sqlite` where `<data>` is
    ///   `$XDG_DATA_HOME` or `~/.local/share` on Linux, `~/Library/Application Support` on macOS,
    ///   and `<app>` is `SEEDGEN_APP_NAME` or the executable's name;
    /// - expected schema version: `schemaVersion`, else `SEEDGEN_SCHEMA_VERSION`, else not checked;
    /// - manifest: `SEEDGEN_SEED_MANIFEST`, else `seed.sqlite.manifest.json` beside the seed if present.
    ///
    /// - Parameters:
    ///   - schemaVersion: the schema version the app was built for (recommended).
    ///   - environment: the variables to read; defaults to the process environment.
    /// - Returns: what happened (see ``install()``).
    /// - Throws: ``SeedInstallerError``; `.configuration` when no shipped seed or destination
    ///   can be found.
    @discardableResult
    public static func installIfNeeded(schemaVersion: Int? = nil, environment: [String: String]? = nil) throws(SeedInstallerError) -> SeedInstallResult {
        try conventional(schemaVersion: schemaVersion, environment: environment).install()
    }

    /// The installer ``installIfNeeded(schemaVersion:environment:)`` uses: the shipped seed,
    /// destination, schema version and manifest found by convention (useful to log them).
    public static func conventional(schemaVersion: Int? = nil, environment: [String: String]? = nil) throws(SeedInstallerError) -> SeedInstaller {
        func variable(_ name: String) -> String? {
            let value = environment.map { $0[name] } ?? FileSystem.environment(name)
            return value?.isEmpty == false ? value : nil
        }
        let executable = FileSystem.executablePath().map(FileSystem.absolute)
        let executableDirectory = executable.map(FileSystem.parentDirectory(of:))
        let appName = variable("SEEDGEN_APP_NAME") ?? executable.map { String($0.split(separator: "/").last ?? "app") } ?? "app"

        let source: String
        if let explicit = variable("SEEDGEN_SEED") {
            source = explicit
        } else {
            let folders = executableDirectory.map { [$0, $0 + "/../Resources", $0 + "/../share/" + appName] } ?? []
            let candidates = folders.flatMap { [$0 + "/seed.sqlite.gz", $0 + "/seed.sqlite"] }
            guard let found = candidates.first(where: { (try? FileSystem.status($0)) != nil }) else {
                throw SeedInstallerError(code: .configuration, message: "no shipped seed: set SEEDGEN_SEED or put seed.sqlite.gz beside the executable (looked at \(candidates.joined(separator: ", ")))", path: executableDirectory ?? ".")
            }
            source = found
        }

        let destination: String
        if let explicit = variable("SEEDGEN_SEED_DEST") {
            destination = explicit
        } else {
            #if canImport(Darwin)
            let data = variable("HOME").map { $0 + "/Library/Application Support" }
            #else
            let data = variable("XDG_DATA_HOME") ?? variable("HOME").map { $0 + "/.local/share" }
            #endif
            guard let data else {
                throw SeedInstallerError(code: .configuration, message: "no destination: set SEEDGEN_SEED_DEST (HOME is not set)", path: source)
            }
            destination = data + "/" + appName + "/seed.sqlite"
        }

        var expected = schemaVersion
        if expected == nil, let text = variable("SEEDGEN_SCHEMA_VERSION") {
            guard let number = Int(text) else {
                throw SeedInstallerError(code: .configuration, message: "SEEDGEN_SCHEMA_VERSION is not an integer: \(text)", path: source)
            }
            expected = number
        }
        return SeedInstaller(source: source, destination: destination, expectedSchemaVersion: expected,
                             manifest: variable("SEEDGEN_SEED_MANIFEST"))
    }
}
