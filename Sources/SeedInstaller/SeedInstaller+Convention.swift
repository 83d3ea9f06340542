import SeedSystem

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
    ///   `seed.sqlite` beside the executable, then in `../Resources` and `../share/<app>` from it,
    ///   then in the SwiftPM resource bundles beside it (`*.resources` on Linux, `*.bundle` on
    ///   Apple platforms, in name order; to name the bundle, use
    ///   ``installIfNeeded(bundle:resource:schemaVersion:environment:)``);
    /// - destination: `SEEDGEN_SEED_DEST`, else `<data>/<app>/seed.sqlite` where `<data>` is
    ///   `$XDG_DATA_HOME` (if absolute) or `~/.local/share` on Linux, `~/Library/Application Support`
    ///   on Apple platforms (`~` is `HOME`, else the user's home from `getpwuid`), and `<app>` is
    ///   `SEEDGEN_APP_NAME` or the executable's name;
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
    public static func installIfNeeded(
        schemaVersion: Int? = nil, environment: [String: String]? = nil
    ) throws(SeedInstallerError) -> SeedInstallResult {
        try conventional(schemaVersion: schemaVersion, environment: environment).install()
    }

    /// The installer ``installIfNeeded(schemaVersion:environment:)`` uses: the shipped seed,
    /// destination, schema version and manifest found by convention (useful to log them).
    ///
    /// Finding them reads no seed: it checks which candidate files exist.
    /// - Parameters:
    ///   - schemaVersion: the schema version the app was built for; nil to read
    ///     `SEEDGEN_SCHEMA_VERSION`, and to check none when that is not set either.
    ///   - environment: the variables to read; defaults to the process environment.
    /// - Returns: an installer whose ``install()`` does what
    ///   ``installIfNeeded(schemaVersion:environment:)`` does.
    /// - Throws: ``SeedInstallerError`` with code `.configuration` when no shipped seed or
    ///   destination can be found, or `SEEDGEN_SCHEMA_VERSION` is not an integer.
    public static func conventional(
        schemaVersion: Int? = nil, environment: [String: String]? = nil
    ) throws(SeedInstallerError) -> SeedInstaller {
        func variable(_ name: String) -> String? {
            let value = environment.map { $0[name] } ?? CurrentProcess.environment(name)
            return value?.isEmpty == false ? value : nil
        }
        let executable = CurrentProcess.executablePath().map(FileSystem.absolute)
        let executableDirectory = executable.map(FileSystem.parentDirectory(of:))
        let appName =
            variable("SEEDGEN_APP_NAME") ?? executable.map { String($0.split(separator: "/").last ?? "app") } ?? "app"

        let source: String
        if let explicit = variable("SEEDGEN_SEED") {
            source = explicit
        } else {
            let candidates = shippedSeedCandidates(
                executableDirectory: executableDirectory, appName: appName, resource: "seed")
            guard let found = candidates.first(where: { (try? FileSystem.status($0)) != nil }) else {
                throw SeedInstallerError(
                    code: .configuration,
                    message:
                        """
                        no shipped seed: set SEEDGEN_SEED or put seed.sqlite.gz beside the executable (looked at \
                        \(candidates.joined(separator: ", ")))
                        """,
                    path: executableDirectory ?? ".")
            }
            source = found
        }
        let destination = try conventionalDestination(
            appName: appName, fileName: "seed.sqlite", variable: variable, source: source)

        var expected = schemaVersion
        if expected == nil, let text = variable("SEEDGEN_SCHEMA_VERSION") {
            guard let number = Int(text) else {
                throw SeedInstallerError(
                    code: .configuration, message: "SEEDGEN_SCHEMA_VERSION is not an integer: \(text)", path: source)
            }
            expected = number
        }
        return SeedInstaller(
            source: source, destination: destination, expectedSchemaVersion: expected,
            manifest: variable("SEEDGEN_SEED_MANIFEST"))
    }

    /// Where the convention looks for a shipped seed named `<resource>.sqlite.gz` or
    /// `<resource>.sqlite`, in order: beside the executable, in `../Resources` and
    /// `../share/<app>` from it, then in the SwiftPM resource bundles beside it
    /// (`*.resources` on Linux, `*.bundle` on Apple platforms, in name order).
    static func shippedSeedCandidates(executableDirectory: String?, appName: String, resource: String) -> [String] {
        guard let directory = executableDirectory else { return [] }
        var folders = [directory, directory + "/../Resources", directory + "/../share/" + appName]
        let bundles = ((try? FileSystem.directoryEntries(directory)) ?? [])
            .filter { $0.hasSuffix(".resources") || $0.hasSuffix(".bundle") }.sorted()
        for bundle in bundles {
            folders += [directory + "/" + bundle, directory + "/" + bundle + "/Contents/Resources"]
        }
        return seedFiles(in: folders, resource: resource)
    }

    /// `<folder>/<resource>.sqlite.gz` and `<folder>/<resource>.sqlite` for each folder.
    static func seedFiles(in folders: [String], resource: String) -> [String] {
        var files: [String] = []
        for folder in folders {
            let base: String = folder + "/" + resource
            files.append(base + ".sqlite.gz")
            files.append(base + ".sqlite")
        }
        return files
    }

    /// `SEEDGEN_SEED_DEST`, else `<data>/<app>/<fileName>`.
    static func conventionalDestination(
        appName: String, fileName: String, variable: (String) -> String?, source: String
    ) throws(SeedInstallerError) -> String {
        if let explicit = variable("SEEDGEN_SEED_DEST") { return explicit }
        guard let data = dataDirectory(variable: variable) else {
            throw SeedInstallerError(
                code: .configuration,
                message: "no destination: set SEEDGEN_SEED_DEST (HOME is not set and the user has no home directory)",
                path: source)
        }
        return data + "/" + appName + "/" + fileName
    }

    /// The per-user data folder: `~/Library/Application Support` on Apple platforms;
    /// `$XDG_DATA_HOME` (when absolute: the XDG spec says to ignore a relative one) or
    /// `~/.local/share` elsewhere. The home folder is `HOME`, else the user database's.
    static func dataDirectory(variable: (String) -> String?) -> String? {
        #if canImport(Darwin)
        return CurrentProcess.homeDirectory(environmentHome: variable("HOME")).map {
            $0 + "/Library/Application Support"
        }
        #else
        if let xdg = variable("XDG_DATA_HOME"), xdg.hasPrefix("/") { return xdg }
        return CurrentProcess.homeDirectory(environmentHome: variable("HOME")).map { $0 + "/.local/share" }
        #endif
    }
}
