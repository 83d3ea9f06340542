import SeedSystem

/// The seed installed at a destination, as the seed file itself says, for code that decides
/// what to fetch next (`SeedUpdater`): which versions, which content, which publication sequence.
///
/// It is read from the seed (`seedgen_metadata` and `PRAGMA user_version`), never from a record
/// keyed by the file's inode or modification time, so a seed that was touched, copied with
/// `cp -a` or restored from a backup is still recognised: it keeps its sequence (the rollback
/// guard holds) and gets deltas.
public struct InstalledSeed: Sendable, Equatable {
    /// The installed seed version.
    public var seedVersion: String
    /// The installed schema version.
    public var schemaVersion: Int
    /// The installed file's size.
    public var size: Int64
    /// The SHA-256 of the seed file as shipped, when the install record still names this file
    /// and a full install computed it (a patched seed is proven by its content digest instead).
    public var sha256: String?
    /// The content digest the seed records (`content_sha256`; for a seed that records none, the
    /// install record's while it names this file): which seed it is, whatever SQLite wrote it.
    public var contentSHA256: String?
    /// The publication sequence stamped into the seed when it was installed
    /// (`publication_sequence`), if it came with one.
    public var sequence: Int64?
    /// True when the install record names this very file (same device, inode, size and
    /// modification time) and the same seed: its content is then the installed one without
    /// reading it. False after a `touch`, a copy or a restore: ``hasRecordedContent()`` tells.
    public var isRecordedFile: Bool
    /// The installed seed's path.
    public var path: String

    /// The seed at `destination`, read from the seed file itself; nil when there is none or it
    /// is not a readable seedgen seed. Takes no lock; reads a few rows.
    /// - Parameter destination: the installed seed's path (the installer's destination).
    public static func read(destination: String) -> InstalledSeed? {
        let files = SeedFiles(destination: destination)
        guard let status = (try? FileSystem.status(files.destination)) ?? nil, status.isRegularFile,
            let own = try? SeedOwnStamp.read(files.destination)
        else { return nil }
        let record = InstallRecord.read(path: files.recordPath)
        let isRecorded =
            record.map {
                $0.file == status && $0.seedVersion == own.stamp.seedVersion
                    && $0.schemaVersion == own.stamp.schemaVersion
            } ?? false
        var sequence = own.sequence
        // A seed installed before seeds carried their sequence: the record kept it, and speaks
        // for the file while it names this file or this content.
        if sequence == nil, let record, record.seedVersion == own.stamp.seedVersion,
            isRecorded || (record.contentSHA256 != nil && record.contentSHA256 == own.contentSHA256)
        {
            sequence = record.sequence
        }
        return InstalledSeed(
            seedVersion: own.stamp.seedVersion, schemaVersion: own.stamp.schemaVersion, size: status.size,
            sha256: isRecorded ? record?.sha256 : nil,
            contentSHA256: own.contentSHA256 ?? (isRecorded ? record?.contentSHA256 : nil), sequence: sequence,
            isRecordedFile: isRecorded, path: files.destination)
    }

    /// True when the seed's content is the one it records: at once when the install record
    /// names this file, otherwise by computing its content digest (every row read once: about
    /// a second for a 170 MB seed). A seed the app wrote to, or one without a recorded digest,
    /// is not.
    public func hasRecordedContent() -> Bool {
        isRecordedFile || SeedOwnStamp.hasRecordedContent(path, recorded: contentSHA256)
    }
}
