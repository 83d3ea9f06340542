import Foundation
import SeedSystem

/// `URL` and `Bundle` forms of the installer's API (the `String` forms stay the primitives).
extension SeedInstaller {
    /// Creates an installer for one shipped seed and one destination, given as file URLs.
    /// Nothing is read or written until ``install()`` or ``installInBackground(qos:)``.
    ///
    /// - Parameters:
    ///   - source: the shipped seed (a file URL), gzip or plain SQLite.
    ///   - destination: where to install it (a file URL). Its folder is created when missing.
    ///   - expectedSchemaVersion: the schema version the app was built for; nil to accept any.
    ///   - manifest: the seed's manifest; nil to use the one beside `source` when it exists.
    public init(source: URL, destination: URL, expectedSchemaVersion: Int? = nil, manifest: URL? = nil) {
        self.init(
            source: source.path, destination: destination.path, expectedSchemaVersion: expectedSchemaVersion,
            manifest: manifest?.path)
    }

    /// The shipped seed as a file URL.
    public var sourceURL: URL { URL(fileURLWithPath: source) }
    /// The destination as a file URL.
    public var destinationURL: URL { URL(fileURLWithPath: destination) }

    /// Installs the seed an app ships as a resource of `bundle` if needed. Call it once at
    /// startup, before opening the seed:
    ///
    /// ```swift
    /// // Package.swift: resources: [.copy("Resources/seed.sqlite.gz")]
    /// let result = try SeedInstaller.installIfNeeded(bundle: .module, resource: "seed", schemaVersion: 3)
    /// let db = try DatabaseQueue(path: result.path, configuration: readOnly)
    /// ```
    ///
    /// - Parameters:
    ///   - bundle: the bundle holding the seed: `.module` for a SwiftPM resource, `.main` for an
    ///     app's own resources.
    ///   - resource: the seed's name without extension: `<resource>.sqlite.gz` (preferred) or
    ///     `<resource>.sqlite`; its manifest `<resource>.sqlite.manifest.json` is used when present.
    ///   - schemaVersion: the schema version the app was built for (recommended).
    ///   - environment: the variables to read; defaults to the process environment.
    ///     `SEEDGEN_SEED_DEST` sets the destination, `SEEDGEN_APP_NAME` the app's folder name.
    /// - Returns: what happened; `path` is the installed seed, e.g.
    ///   `~/Library/Application Support/<app>/<resource>.sqlite`.
    /// - Throws: ``SeedInstallerError``; `.configuration` when the bundle holds no such seed.
    @discardableResult
    public static func installIfNeeded(
        bundle: Bundle, resource: String = "seed", schemaVersion: Int? = nil,
        environment: [String: String]? = nil
    ) throws(SeedInstallerError) -> SeedInstallResult {
        try conventional(bundle: bundle, resource: resource, schemaVersion: schemaVersion, environment: environment)
            .install()
    }

    /// The installer ``installIfNeeded(bundle:resource:schemaVersion:environment:)`` uses: the
    /// seed in `bundle`, its manifest beside it, and the conventional destination (useful to log
    /// them).
    ///
    /// - Parameters:
    ///   - bundle: the bundle holding the seed: `.module` for a SwiftPM resource, `.main` for an
    ///     app's own resources.
    ///   - resource: the seed's name without extension: `<resource>.sqlite.gz` (preferred) or
    ///     `<resource>.sqlite`.
    ///   - schemaVersion: the schema version the app was built for; nil to check none.
    ///   - environment: the variables to read; defaults to the process environment.
    ///     `SEEDGEN_SEED_DEST` sets the destination, `SEEDGEN_APP_NAME` the app's folder name.
    /// - Returns: an installer whose ``install()`` does what
    ///   ``installIfNeeded(bundle:resource:schemaVersion:environment:)`` does.
    /// - Throws: ``SeedInstallerError`` with code `.configuration` when the bundle holds no such
    ///   seed or no destination can be found.
    public static func conventional(
        bundle: Bundle, resource: String = "seed", schemaVersion: Int? = nil,
        environment: [String: String]? = nil
    ) throws(SeedInstallerError) -> SeedInstaller {
        func variable(_ name: String) -> String? {
            let value = environment.map { $0[name] } ?? CurrentProcess.environment(name)
            return value?.isEmpty == false ? value : nil
        }
        let folders = [bundle.resourcePath, bundle.bundlePath].compactMap { $0 }
        let candidates = seedFiles(in: folders, resource: resource)
        guard let source = candidates.first(where: { (try? FileSystem.status($0)) != nil }) else {
            throw SeedInstallerError(
                code: .configuration,
                message:
                    """
                    the bundle has no \(resource).sqlite.gz or \(resource).sqlite (looked at \
                    \(candidates.joined(separator: ", "))); list it in the target's resources
                    """,
                path: bundle.bundlePath)
        }
        let executable = CurrentProcess.executablePath()
        let appName =
            variable("SEEDGEN_APP_NAME") ?? executable.map { String($0.split(separator: "/").last ?? "app") } ?? "app"
        let destination = try conventionalDestination(
            appName: appName, fileName: resource + ".sqlite", variable: variable, source: source)
        return SeedInstaller(source: source, destination: destination, expectedSchemaVersion: schemaVersion)
    }
}

extension SeedInstallResult {
    /// The installed seed as a file URL.
    public var url: URL { URL(fileURLWithPath: path) }
}
