/// Why a seed was not installed: what is wrong, with which file, the error underneath
/// (``cause``) and the operating system's own words when a system call failed. The installed
/// seed is left as it was.
///
/// Every throwing method of ``SeedInstaller`` throws this type (typed throws), so a `catch`
/// needs no cast. Compare ``code`` to react to a kind of failure, and log ``description``:
///
/// ```swift
/// do {
///     try SeedInstaller.installIfNeeded(schemaVersion: 3)
/// } catch where error.code == .schemaMismatch {
///     // The app was built for another schema than the seed it ships: a packaging mistake.
/// } catch {
///     print(error)   // "<path>: <message>: <the system's text>"
/// }
/// ```
public struct SeedInstallerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    ///
    /// Compare with the static members (`error.code == .diskFull`); ``name`` is the same code
    /// as text, for logs and scripts.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. `schema-mismatch` (used in `seedgen install --json`).
        public let name: String
        /// The code's ``name``, e.g. `schema-mismatch`.
        public var description: String { name }

        /// The shipped seed (or its manifest) does not exist.
        public static let sourceMissing = Code(name: "source-missing")
        /// The shipped seed's schema version is not the one the app expects.
        public static let schemaMismatch = Code(name: "schema-mismatch")
        /// The shipped seed is in WAL mode (seeds must be in rollback-journal mode).
        public static let walMode = Code(name: "wal-mode")
        /// The shipped seed is not a SQLite database.
        public static let notSQLite = Code(name: "not-sqlite")
        /// The shipped seed is a SQLite database but not a seedgen seed (no application id or
        /// `seedgen_metadata`). The message says how to make one (`seedgen pack`).
        public static let notASeed = Code(name: "not-a-seed")
        /// The gzip stream is cut off.
        public static let truncated = Code(name: "truncated")
        /// The gzip stream is damaged (invalid data, CRC-32 or size mismatch, trailing bytes).
        public static let corrupt = Code(name: "corrupt")
        /// The seed's size or SHA-256 differs from its manifest.
        public static let checksumMismatch = Code(name: "checksum-mismatch")
        /// The versions inside the seed differ from its gzip stamp or manifest.
        public static let versionMismatch = Code(name: "version-mismatch")
        /// SQLite's `quick_check` found the seed damaged.
        public static let integrityCheckFailed = Code(name: "integrity-check-failed")
        /// The manifest cannot be read or parsed.
        public static let invalidManifest = Code(name: "invalid-manifest")
        /// Not enough free space (or the file-size limit was reached) to write the new seed.
        public static let diskFull = Code(name: "disk-full")
        /// A file-system operation failed (see `systemError`).
        public static let fileSystem = Code(name: "file-system")
        /// ``SeedInstaller/installIfNeeded(schemaVersion:environment:)`` cannot find the shipped
        /// seed or a destination from its convention.
        public static let configuration = Code(name: "configuration")
        /// The seed delta is malformed (a damaged or hostile file), or does not fit the seed it
        /// names as its `from` seed. Install the full seed instead.
        public static let invalidDelta = Code(name: "invalid-delta")
        /// The seed installed at the destination is not the one the delta applies to (another
        /// version, a modified file, or nothing installed). Install the full seed instead.
        public static let deltaBaseMismatch = Code(name: "delta-base-mismatch")
        /// Applying the delta gave another file than the seed it promises (usually another
        /// SQLite version, which lays pages out differently). Install the full seed instead.
        public static let deltaResultMismatch = Code(name: "delta-result-mismatch")
    }

    /// What kind of failure this is.
    public let code: Code
    /// A sentence saying what is wrong.
    public let message: String
    /// The file concerned: the shipped seed or its manifest, the destination, or the folder or
    /// installer file (lock, record) a system call failed on.
    public let path: String
    /// The operating system's text for the underlying error (`strerror(errno)`), if any.
    public let systemError: String?
    /// The underlying `errno`, if any.
    public let errno: Int32?
    /// The error underneath, when there is one: a failed system call, SQLite's error, the gzip
    /// reader's, the manifest's or the delta's. Not compared by `==`.
    public let cause: (any Error & Sendable)?

    /// Creates an error, e.g. for an app's tests or a fake installer.
    /// - Parameters:
    ///   - code: what kind of failure this is.
    ///   - message: a sentence saying what is wrong.
    ///   - path: the file concerned.
    ///   - systemError: the operating system's text for the underlying error, if any.
    ///   - errno: the underlying `errno`, if any.
    ///   - cause: the error underneath, if any.
    public init(
        code: Code, message: String, path: String, systemError: String? = nil, errno: Int32? = nil,
        cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.systemError = systemError
        self.errno = errno
        self.cause = cause
    }

    /// The same error, its message followed by how a seed is made (for files that are no seed).
    func withPackHint() -> SeedInstallerError {
        SeedInstallerError(
            code: code, message: message + " " + MessageText.packHint, path: path, systemError: systemError,
            errno: errno, cause: cause)
    }

    /// The same error and cause, `prefix` before its message and `path` as its file.
    func reported(at path: String, prefix: String = "") -> SeedInstallerError {
        SeedInstallerError(
            code: code, message: prefix + message, path: path, systemError: systemError, errno: errno, cause: cause)
    }

    /// Equal when code, message, path, system text and `errno` are (the cause is not compared).
    public static func == (a: SeedInstallerError, b: SeedInstallerError) -> Bool {
        a.code == b.code && a.message == b.message && a.path == b.path && a.systemError == b.systemError
            && a.errno == b.errno
    }

    /// One line for a log: `<path>: <message>`, followed by `: <systemError>` when a system
    /// call failed.
    public var description: String {
        var text = "\(path): \(message)"
        if let systemError { text += ": \(systemError)" }
        return text
    }
}
