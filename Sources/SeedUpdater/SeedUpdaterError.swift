import SeedInstaller

/// Why an update failed: what went wrong (``code``), where (``url`` or a path), and what the
/// server, the file system or the installer said. Whatever the failure, the installed seed is
/// unchanged and usable.
public struct SeedUpdaterError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure; new codes may be added, so switch with a default.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String { name }

        /// The channel could not be reached, or the connection failed (refused, reset, cut).
        public static let network = Code(name: "network")
        /// The server did not answer in time.
        public static let timeout = Code(name: "timeout")
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
        /// The installer refused the downloaded seed (``installerError`` says why).
        public static let install = Code(name: "install")
        /// A file beside the destination could not be read or written.
        public static let fileSystem = Code(name: "file-system")
        /// The update was cancelled.
        public static let cancelled = Code(name: "cancelled")
        /// The updater's settings cannot work (no schema version to pick, a bad URL).
        public static let configuration = Code(name: "configuration")
    }

    public let code: Code
    /// What went wrong, as a sentence.
    public let message: String
    /// The URL or path the failure is about.
    public let location: String
    /// The HTTP status, for `.httpStatus`.
    public let httpStatus: Int?
    /// The installer's error, for `.install`.
    public let installerError: SeedInstallerError?

    public init(code: Code, message: String, location: String, httpStatus: Int? = nil, installerError: SeedInstallerError? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.httpStatus = httpStatus
        self.installerError = installerError
    }

    /// `<location>: <message>`.
    public var description: String { "\(location): \(message)" }
}
