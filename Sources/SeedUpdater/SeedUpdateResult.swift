/// What ``SeedUpdater/update(progress:)`` did.
public struct SeedUpdateResult: Sendable, Equatable, CustomStringConvertible {
    /// What became of the installed seed; its raw value is the word `seedgen update` prints.
    public enum Status: String, Sendable {
        /// The installed seed is the channel's newest for the schema version: nothing downloaded.
        case upToDate = "up-to-date"
        /// The full seed was downloaded and installed.
        case installed
        /// A delta from the installed seed was downloaded and applied.
        case patched
    }

    /// Up to date, installed or patched.
    public var status: Status
    /// The seed version now installed.
    public var seedVersion: String
    /// The seed version installed before, if any (nil when up to date).
    public var previousSeedVersion: String?
    /// The schema version now installed.
    public var schemaVersion: Int
    /// The channel's sequence of the installed seed.
    public var sequence: Int64
    /// The sequence of the seed installed before, when it had one (nil when up to date).
    public var previousSequence: Int64?
    /// Every body byte received in this call: the index and its signature, and every download,
    /// including one that then failed (a resumed download counts the rest only).
    public var bytesDownloaded: Int64
    /// The installed seed's path.
    public var path: String
    /// When the channel had a delta that could not be used (and the full seed was installed
    /// instead): why, with its code (`checksum-mismatch`, `http-status`, `install`, ...).
    public var deltaFailure: SeedUpdaterError?
    /// The downloads of this call, in order: the delta, and the full seed after a failed delta.
    public var attempts: [SeedUpdateAttempt]

    /// A result, e.g. for an app's tests or a fake updater; each parameter sets the property of
    /// the same name.
    /// - Parameters:
    ///   - status: up to date, installed or patched.
    ///   - seedVersion: the seed version now installed.
    ///   - previousSeedVersion: the one installed before, if any.
    ///   - schemaVersion: the schema version now installed.
    ///   - sequence: the channel's sequence of the installed seed.
    ///   - previousSequence: the sequence of the seed installed before, if it had one.
    ///   - bytesDownloaded: every body byte received.
    ///   - path: the installed seed's path.
    ///   - deltaFailure: why the channel's delta could not be used, if it could not.
    ///   - attempts: the downloads, in order.
    public init(
        status: Status, seedVersion: String, previousSeedVersion: String?, schemaVersion: Int, sequence: Int64,
        previousSequence: Int64? = nil, bytesDownloaded: Int64, path: String, deltaFailure: SeedUpdaterError? = nil,
        attempts: [SeedUpdateAttempt] = []
    ) {
        self.status = status
        self.seedVersion = seedVersion
        self.previousSeedVersion = previousSeedVersion
        self.schemaVersion = schemaVersion
        self.sequence = sequence
        self.previousSequence = previousSequence
        self.bytesDownloaded = bytesDownloaded
        self.path = path
        self.deltaFailure = deltaFailure
        self.attempts = attempts
    }

    /// One line: `patched seed-version=B schema-version=2 sequence=7 (was seed-version=A sequence=6) 812 bytes
    /// downloaded at /path`.
    public var description: String {
        var line = "\(status.rawValue) seed-version=\(seedVersion) schema-version=\(schemaVersion) sequence=\(sequence)"
        if let previousSeedVersion, status != .upToDate {
            line +=
                " (was seed-version=\(previousSeedVersion)" + (previousSequence.map { " sequence=\($0)" } ?? "") + ")"
        }
        if status != .upToDate { line += " \(bytesDownloaded) bytes downloaded" }
        if let deltaFailure {
            line += " [the delta failed, full seed installed: \(deltaFailure.code): \(deltaFailure)]"
        }
        return line + " at \(path)"
    }
}

/// One download of an update: a delta or the full seed, what it received and how it ended.
public struct SeedUpdateAttempt: Sendable, Equatable {
    /// `.delta` or `.seed`.
    public var file: SeedUpdateProgress.File
    /// The file's URL.
    public var url: String
    /// Body bytes received for it in this call.
    public var bytesDownloaded: Int64
    /// Why it failed; nil when it was installed.
    public var failure: SeedUpdaterError?

    /// One download, e.g. for an app's tests.
    /// - Parameters:
    ///   - file: `.delta` or `.seed`.
    ///   - url: the file's URL.
    ///   - bytesDownloaded: body bytes received for it.
    ///   - failure: why it failed; nil when it was installed.
    public init(file: SeedUpdateProgress.File, url: String, bytesDownloaded: Int64, failure: SeedUpdaterError?) {
        self.file = file
        self.url = url
        self.bytesDownloaded = bytesDownloaded
        self.failure = failure
    }
}

/// Progress of an update: what it is doing (``phase``) to which file, and for a download the
/// bytes done of its total.
public struct SeedUpdateProgress: Sendable, Equatable {
    /// What is downloaded: `.delta` or `.seed`.
    public enum File: String, Sendable { case delta, seed }
    /// What the update is doing with the file.
    public enum Phase: String, Sendable {
        /// Receiving it (``bytesDone`` of ``bytesTotal``).
        case download
        /// Checking the download's size and SHA-256 against the index; after `apply`, checking
        /// the new seed (versions, stamp) before it is renamed into place.
        case verify
        /// Installing it: decompressing (``bytesDone`` of the seed's size) or patching a copy
        /// of the installed seed beside it.
        case apply
    }
    /// The file: the delta or the full seed.
    public var file: File
    /// What the update is doing with it.
    public var phase: Phase
    /// Bytes of the file on disk so far (a resumed download starts at what was already there).
    public var bytesDone: Int64
    /// The file's size, from the index.
    public var bytesTotal: Int64

    /// A progress report, e.g. for an app's tests.
    /// - Parameters:
    ///   - file: the delta or the full seed.
    ///   - phase: what the update is doing with it (downloading by default).
    ///   - bytesDone: bytes of the file done so far.
    ///   - bytesTotal: the file's size.
    public init(file: File, phase: Phase = .download, bytesDone: Int64, bytesTotal: Int64) {
        self.file = file
        self.phase = phase
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
    }
}
