/// What ``SeedUpdater/update(progress:)`` did.
public struct SeedUpdateResult: Sendable, Equatable, CustomStringConvertible {
    public enum Status: String, Sendable {
        /// The installed seed is the channel's newest for the schema version: nothing downloaded.
        case upToDate = "up-to-date"
        /// The full seed was downloaded and installed.
        case installed
        /// A delta from the installed seed was downloaded and applied.
        case patched
    }

    public var status: Status
    /// The seed version now installed.
    public var seedVersion: String
    /// The seed version installed before, if any (nil when up to date).
    public var previousSeedVersion: String?
    /// The schema version now installed.
    public var schemaVersion: Int
    /// The channel's sequence of the installed seed.
    public var sequence: Int64
    /// Bytes received for seeds and deltas in this call (a resumed download counts the rest only).
    public var bytesDownloaded: Int64
    /// The installed seed's path.
    public var path: String
    /// When the channel had a delta that could not be used (and the full seed was installed
    /// instead): why.
    public var deltaFailure: String?

    public init(status: Status, seedVersion: String, previousSeedVersion: String?, schemaVersion: Int, sequence: Int64,
                bytesDownloaded: Int64, path: String, deltaFailure: String? = nil) {
        self.status = status
        self.seedVersion = seedVersion
        self.previousSeedVersion = previousSeedVersion
        self.schemaVersion = schemaVersion
        self.sequence = sequence
        self.bytesDownloaded = bytesDownloaded
        self.path = path
        self.deltaFailure = deltaFailure
    }

    /// One line: `patched seed-version=B schema-version=2 sequence=7 (was seed-version=A) 812 bytes downloaded at /path`.
    public var description: String {
        var line = "\(status.rawValue) seed-version=\(seedVersion) schema-version=\(schemaVersion) sequence=\(sequence)"
        if let previousSeedVersion, status != .upToDate { line += " (was seed-version=\(previousSeedVersion))" }
        if status != .upToDate { line += " \(bytesDownloaded) bytes downloaded" }
        if let deltaFailure { line += " [the delta failed, full seed installed: \(deltaFailure)]" }
        return line + " at \(path)"
    }
}

/// Progress of a download: bytes of the current file done out of its total.
public struct SeedUpdateProgress: Sendable, Equatable {
    /// What is downloaded: `.delta` or `.seed`.
    public enum File: String, Sendable { case delta, seed }
    public var file: File
    /// Bytes of the file on disk so far (a resumed download starts at what was already there).
    public var bytesDone: Int64
    /// The file's size, from the index.
    public var bytesTotal: Int64

    public init(file: File, bytesDone: Int64, bytesTotal: Int64) {
        self.file = file
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
    }
}
