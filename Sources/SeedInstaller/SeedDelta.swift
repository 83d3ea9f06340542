import SeedArchive
import SeedDeltas
import SeedSystem

/// A seed delta: the rows that changed between two seeds, which turns exactly one seed into
/// exactly another, written by `seedgen delta OLD.sqlite NEW.sqlite --out FILE`.
///
/// Install it like a seed: ``SeedInstaller`` recognises a delta by its first bytes and applies
/// it, with this device's SQLite, to the seed installed at the destination, which must have the
/// content of the delta's ``from`` seed. The result has the content of its ``to`` seed (its
/// content digest is checked; the file's bytes may differ from the builder's, as each SQLite
/// version lays pages out its own way), with every guarantee of an install: lock, temporary
/// files, verification, sidecars removed, atomic rename, install record. The result's status is
/// ``SeedInstallResult/Status/patched``.
///
/// ```swift
/// let delta = try SeedDelta.read(path: downloads + "/seed.delta")
/// if delta.from.seedVersion == installedVersion {
///     let result = try SeedInstaller(source: downloads + "/seed.delta",
///                                    destination: appData + "/seed.sqlite").install()
///     print(result)   // patched seed-version=... (was seed-version=...) ...
/// }
/// ```
///
/// When applying fails (another seed installed, a damaged delta, a result that is not the
/// promised content, a delta of format 1 from a seedgen before content digests), the installed seed
/// is unchanged and the error's code says so (``SeedInstallerError/Code/deltaBaseMismatch``,
/// ``SeedInstallerError/Code/invalidDelta``, ``SeedInstallerError/Code/deltaResultMismatch``):
/// install the full seed instead.
///
/// Reading a delta's header costs one small read; nothing else of the file is read.
public struct SeedDelta: Sendable, Equatable {
    /// One side of a delta: the seed it applies to, or the seed it produces.
    public struct Seed: Sendable, Equatable {
        /// The seed version (`seed_version` in the seed's `seedgen_metadata`).
        public let seedVersion: String
        /// The seed's content digest (`content_sha256` in its `seedgen_metadata`), 64
        /// lower-case hexadecimal digits: what proves which seed a file holds.
        public let contentSHA256: String
        /// The size in bytes of the seed file as built.
        public let size: Int64
    }

    /// The delta file.
    public let path: String
    /// The schema version of both seeds (a delta never changes it: a new schema ships as a
    /// full seed).
    public let schemaVersion: Int
    /// The schema's name, when the delta records it.
    public let schemaName: String?
    /// The seed the delta applies to, exactly.
    public let from: Seed
    /// The seed it produces (the same content).
    public let to: Seed
    let header: DeltaHeader

    init(path: String, header: DeltaHeader) {
        self.path = path
        self.header = header
        schemaVersion = header.schemaVersion
        schemaName = header.schemaName
        from = Seed(header.from)
        to = Seed(header.to)
    }

    /// Reads the header of the delta at `path` (its first few hundred bytes).
    /// - Parameter path: the delta file.
    /// - Throws: ``SeedInstallerError`` `.sourceMissing` when there is no such file,
    ///   `.invalidDelta` when it is not a delta or its header is malformed, `.truncated` when
    ///   the file ends inside its header.
    public static func read(path: String) throws(SeedInstallerError) -> SeedDelta {
        let file: FileDescriptor?, prefix: [UInt8]
        do { file = try FileSystem.openIfExists(path) } catch { throw error.installerError("cannot read the delta") }
        guard let file else {
            throw SeedInstallerError(code: .sourceMissing, message: "the delta does not exist", path: path)
        }
        do { prefix = try file.readBytes(DeltaHeader.maximumLength, at: 0) } catch {
            throw error.installerError("cannot read the delta")
        }
        return try parse(prefix, path: path)
    }

    /// True when `bytes`, the first bytes of a file, are those of a seed delta.
    /// - Parameter bytes: the file's first bytes (a few are enough).
    public static func isDelta(prefix bytes: [UInt8]) -> Bool {
        DeltaHeader.hasMagic(bytes)
    }

    /// The delta whose file starts with `prefix` (at least its header).
    static func parse(_ prefix: [UInt8], path: String) throws(SeedInstallerError) -> SeedDelta {
        do { return SeedDelta(path: path, header: try DeltaHeader.parse(prefix, path: path).header) } catch {
            throw installerError(error)
        }
    }

    /// Maps a delta format failure to the installer's codes.
    static func installerError(_ error: DeltaError) -> SeedInstallerError {
        let code: SeedInstallerError.Code
        switch error.code {
        case .truncated: code = .truncated
        case .corrupt: code = .corrupt
        case .io: code = error.cause?.isOutOfSpace == true ? .diskFull : .fileSystem
        default: code = .invalidDelta
        }
        return SeedInstallerError(
            code: code, message: error.message, path: error.path, systemError: error.cause?.text,
            errno: error.cause?.errno, cause: error)
    }
}

extension SeedDelta.Seed {
    init(_ seed: DeltaHeader.Seed) {
        self.init(seedVersion: seed.seedVersion, contentSHA256: seed.contentSHA256, size: seed.size)
    }
}
