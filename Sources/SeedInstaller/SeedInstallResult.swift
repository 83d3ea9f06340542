/// What ``SeedInstaller/install()`` did: whether it wrote a seed, which versions are now
/// installed (and which were before), where, and why.
///
/// Log it as it is (``description`` is one line), or read ``status`` and ``reason`` to warn the
/// user when the installed seed had been modified (``Status/replacedModified``).
public struct SeedInstallResult: Equatable, Sendable, CustomStringConvertible {
    /// Whether the seed was (re)installed or already in place.
    public enum Status: String, Sendable {
        /// The shipped seed was copied into place.
        case installed
        /// The shipped seed was copied into place over an installed seed that had been modified
        /// since it was installed (the app wrote to it, or something replaced it): whatever was
        /// written to it is gone. Log or warn; keep user data in a database of its own.
        case replacedModified = "replaced-modified"
        /// A seed delta was applied to the installed seed: the new seed is in place, byte for
        /// byte the one the delta was made for (see ``SeedDelta``).
        case patched
        /// The installed seed is the shipped one; nothing was written.
        case upToDate = "up-to-date"
    }

    /// Installed, replaced after a modification, or up to date.
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
    /// Why it was installed (`nothing installed`, `seed version changed`, ...; for
    /// `.replacedModified` it starts with what was lost); nil when up to date.
    public var reason: String?

    /// Creates a result, e.g. for an app's tests or a fake installer.
    /// - Parameters:
    ///   - status: what happened.
    ///   - seedVersion: the seed version now installed.
    ///   - schemaVersion: the schema version now installed.
    ///   - previousSeedVersion: the seed version replaced, if any.
    ///   - previousSchemaVersion: the schema version replaced, if any.
    ///   - path: the installed seed's path.
    ///   - reason: why it was installed; nil when up to date.
    public init(
        status: Status, seedVersion: String, schemaVersion: Int, previousSeedVersion: String? = nil,
        previousSchemaVersion: Int? = nil, path: String, reason: String? = nil
    ) {
        self.status = status
        self.seedVersion = seedVersion
        self.schemaVersion = schemaVersion
        self.previousSeedVersion = previousSeedVersion
        self.previousSchemaVersion = previousSchemaVersion
        self.path = path
        self.reason = reason
    }

    /// True when a seed was written (`.installed`, `.replacedModified` or `.patched`).
    public var didInstall: Bool { status != .upToDate }

    /// One line: `installed seed-version=2 schema-version=3 (was seed-version=1) at /path`
    /// or `up-to-date seed-version=2 schema-version=3 at /path`. Versions longer than 200
    /// characters are cut.
    public var description: String {
        var line = "\(status.rawValue) seed-version=\(MessageText.value(seedVersion)) schema-version=\(schemaVersion)"
        if status != .upToDate {
            if let previousSeedVersion {
                line +=
                    " (was seed-version=\(MessageText.value(previousSeedVersion))"
                    + (previousSchemaVersion.map { " schema-version=\($0)" } ?? "") + ")"
            }
            if let reason { line += " [\(reason)]" }
        }
        return line + " at \(path)"
    }
}
