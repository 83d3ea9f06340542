/// What ``SeedInstaller/install()`` did.
public struct SeedInstallResult: Equatable, Sendable, CustomStringConvertible {
    /// Whether the seed was (re)installed or already in place.
    public enum Status: String, Sendable {
        /// The shipped seed was copied into place.
        case installed
        /// The installed seed is the shipped one; nothing was written.
        case upToDate = "up-to-date"
    }

    /// Installed, or up to date.
    public var status: Status
    /// The seed version now installed.
    public var seedVersion: String
    /// The schema version now installed.
    public var schemaVersion: Int
    /// The seed version installed before, when this call replaced a recorded seed.
    public var previousSeedVersion: String?
    /// The schema version installed before, when this call replaced a recorded seed.
    public var previousSchemaVersion: Int?
    /// The installed seed's path.
    public var path: String
    /// Why it was installed (`nothing installed`, `seed version changed`, ...); nil when up to date.
    public var reason: String?

    /// One line: `installed seed-version=2 schema-version=3 (was seed-version=1) at /path`
    /// or `up-to-date seed-version=2 schema-version=3 at /path`.
    public var description: String {
        var line = "\(status.rawValue) seed-version=\(seedVersion) schema-version=\(schemaVersion)"
        if status == .installed {
            if let previousSeedVersion { line += " (was seed-version=\(previousSeedVersion)" + (previousSchemaVersion.map { " schema-version=\($0)" } ?? "") + ")" }
            if let reason { line += " [\(reason)]" }
        }
        return line + " at \(path)"
    }
}
