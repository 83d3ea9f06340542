import SeedInstaller

/// Why an update failed: what went wrong (``code``), where (``location``: a URL or a path), the
/// error underneath (``cause``: the installer's, the file system's, the channel index's), and
/// every download the update tried before it gave up (``attempts``). Whatever the failure,
/// the installed seed is unchanged and usable.
public struct SeedUpdaterError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure; new codes may be added, so switch with a default.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. `checksum-mismatch` (what `seedgen update` prints).
        public let name: String
        /// The code's ``name``.
        public var description: String { name }

        /// The channel could not be reached, or the connection failed (refused, reset, cut).
        public static let network = Code(name: "network")
        /// The server sent nothing for longer than ``SeedUpdater/timeout``.
        public static let timeout = Code(name: "timeout")
        /// The update's deadline (``SeedUpdater/deadline``) passed: the update was stopped there.
        public static let deadline = Code(name: "deadline")
        /// A download was slower than ``SeedUpdater/minimumRate`` over a whole window: stalled.
        public static let stalled = Code(name: "stalled")
        /// The server answered with an HTTP status other than the expected one (404, 500, ...).
        public static let httpStatus = Code(name: "http-status")
        /// `index.json` is not a channel index this code reads.
        public static let invalidIndex = Code(name: "invalid-index")
        /// The channel serves no seed for the app's schema version: nothing was downloaded.
        public static let noSeedForSchema = Code(name: "no-seed-for-schema")
        /// A public key is set and the channel has no `index.json.sig`.
        public static let unsigned = Code(name: "unsigned-index")
        /// `index.json.sig` is not the public key's signature of `index.json`.
        public static let badSignature = Code(name: "bad-signature")
        /// The index's sequence is lower than the installed seed's (an older index replayed).
        public static let rollback = Code(name: "rollback")
        /// A downloaded file's size or SHA-256 is not the index's.
        public static let checksumMismatch = Code(name: "checksum-mismatch")
        /// Not enough free space beside the destination for the download and its install:
        /// checked before anything is downloaded.
        public static let diskFull = Code(name: "disk-full")
        /// The installer refused the downloaded seed (``installerError`` says why), including a
        /// seed that is not the one the index names.
        public static let install = Code(name: "install")
        /// A file beside the destination could not be read or written.
        public static let fileSystem = Code(name: "file-system")
        /// The update was cancelled.
        public static let cancelled = Code(name: "cancelled")
        /// The updater's settings cannot work (no schema version to pick, a bad URL, a public key
        /// that is not one).
        public static let configuration = Code(name: "configuration")
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, as a sentence.
    public let message: String
    /// The URL or path the failure is about.
    public let location: String
    /// The HTTP status, for `.httpStatus`.
    public let httpStatus: Int?
    /// The error underneath, when there is one: a `SeedInstallerError`, the channel's error
    /// about `index.json` or a public key, an `Error` of the file system or of URLSession.
    public let cause: (any Error & Sendable)?
    /// The downloads this update tried, in order, each with its bytes and its failure: a delta
    /// that failed, then the full seed that failed too. Empty when it failed before any.
    public var attempts: [SeedUpdateAttempt] = []
    /// Every body byte received before the update failed: the index, its signature, and each
    /// download of ``attempts``, whatever became of it.
    public var bytesDownloaded: Int64 = 0

    /// An error, e.g. for an app's tests or a fake updater.
    /// - Parameters:
    ///   - code: what kind of failure this is.
    ///   - message: what went wrong, as a sentence.
    ///   - location: the URL or path the failure is about.
    ///   - httpStatus: the HTTP status, for `.httpStatus`.
    ///   - cause: the error underneath, if any.
    public init(
        code: Code, message: String, location: String, httpStatus: Int? = nil, cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.httpStatus = httpStatus
        self.cause = cause
    }

    /// The installer's error, for `.install`.
    public var installerError: SeedInstallerError? { cause as? SeedInstallerError }

    /// `<location>: <message>`.
    public var description: String { "\(location): \(message)" }

    /// Equal when code, message, location, HTTP status and attempts are (the cause is not compared).
    public static func == (a: SeedUpdaterError, b: SeedUpdaterError) -> Bool {
        a.code == b.code && a.message == b.message && a.location == b.location && a.httpStatus == b.httpStatus
            && a.attempts == b.attempts
    }
}
