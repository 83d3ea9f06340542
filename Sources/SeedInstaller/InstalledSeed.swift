import SeedSystem

/// The seed installed at a destination, as its install record says, for code that decides what
/// to fetch next (`SeedUpdater`): which versions, which file, which publication sequence.
public struct InstalledSeed: Sendable, Equatable {
    /// The installed seed version.
    public var seedVersion: String
    /// The installed schema version.
    public var schemaVersion: Int
    /// The installed file's size, as installed.
    public var size: Int64
    /// The installed file's SHA-256 (lower-case hex), when the installer computed it (a full
    /// install; a patched seed is proven by its content digest instead).
    public var sha256: String?
    /// The installed seed's content digest (`content_sha256`), when known: which seed it is,
    /// whatever SQLite version wrote the file.
    public var contentSHA256: String?
    /// The publication sequence recorded at install, if the seed had one.
    public var sequence: Int64?

    /// The seed installed at `destination`, or nil when nothing is recorded there or the file is
    /// no longer the one recorded (missing, modified or replaced: the next install replaces it).
    /// Reads the install record and the file's status; takes no lock.
    public static func read(destination: String) -> InstalledSeed? {
        let files = SeedFiles(destination: destination)
        guard let record = InstallRecord.read(path: files.recordPath),
              let installed = try? FileSystem.openForReading(files.destination).status(), installed == record.file
        else { return nil }
        return InstalledSeed(seedVersion: record.seedVersion, schemaVersion: record.schemaVersion, size: record.size,
                             sha256: record.sha256, contentSHA256: record.contentSHA256, sequence: record.sequence)
    }
}
