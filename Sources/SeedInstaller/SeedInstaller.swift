import SeedArchive
import SeedSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Installs the shipped seed database at startup: the first time, again whenever the shipped
/// seed version changes (newer or older), and never otherwise; never leaving a damaged or
/// mixed database behind.
///
/// ```swift
/// // At startup, before opening the database (the convention is in installIfNeeded's docs):
/// let result = try SeedInstaller.installIfNeeded(schemaVersion: 3)
/// // Or explicitly:
/// let installer = SeedInstaller(source: bundle + "/seed.sqlite.gz",
///                               destination: dataDir + "/seed.sqlite",
///                               expectedSchemaVersion: 3)
/// print(try installer.install())   // "installed seed-version=... " or "up-to-date ..."
/// ```
///
/// ## Deciding (cheap, no writes, no lock)
/// The shipped seed's versions come from its gzip header stamp (written by `seedgen pack`) or
/// manifest, or, for a plain `.sqlite`, from a few pages of it. The installed seed is up to date when the
/// install record (`<dest>.seedgen-install`) has the same seed and schema versions (and SHA-256,
/// when there is a manifest) and the file at the destination is still the one recorded (same
/// device, inode, size and modification time) and readable. Then nothing is written.
/// A plain `gzip` of a seed (no stamp, no manifest) is compared by its gzip trailer (CRC-32 and
/// size of the content) and file size instead, recorded at install; its versions are read from
/// the seed once decompressed.
/// When the record no longer names the file in place (touched, copied, restored), the seed's
/// own stamp decides instead, under the lock (``InstalledSeed``): its content digest is computed
/// once; an intact seed that is the shipped one, or of a later sequence, is kept and recorded
/// again; only a seed whose content changed is `.replacedModified`.
/// Deciding opens the shipped seed, its manifest, the record and the installed seed once each,
/// takes no lock and does not list the folder, so it costs the same however many files the
/// folder holds. It needs no lock: the record is replaced atomically and names the new seed's
/// inode only once that seed has been renamed into place.
///
/// ## Installing, in this order
/// 1. Take an exclusive `flock` on `<dest>.seedgen-lock` (waiting for any other installer;
///    the kernel releases it if the holder dies). Remove temporary files an earlier crash left
///    (`.<name>.seedgen-tmp-<pid>-<hex>` only; they stay until an install runs), then decide
///    again: a process that waited finds the seed another one just installed and reports up
///    to date.
/// 2. If the size is known (manifest, or a plain `.sqlite`), check the free space first.
/// 3. Decompress into a new temporary file in the destination's folder, hashing it on the way,
///    and `fsync` it (`F_FULLFSYNC` on Apple platforms). Decompression stops as soon as the
///    output passes the manifest's size, or without a manifest the free space. A full disk
///    fails here: the temporary file is removed, nothing else changed.
/// 4. Verify the temporary file: SQLite header, not WAL, schema version (expected and stamped),
///    seed version, and size and SHA-256 against the manifest. With a manifest that matches,
///    that is all: the file is byte for byte the one `seedgen pack` checked with
///    `PRAGMA quick_check` before writing the manifest, so it is not read a second time.
///    Without a manifest, `PRAGMA quick_check` runs on it. It is opened with `immutable=1`,
///    so verifying creates no sidecar files. On Apple platforms, mark it excluded from backups
///    (an extended attribute, kept by the rename). Stamp the sequence, when known, into the
///    seed (`publication_sequence` in `seedgen_metadata`; not part of the content digest) and
///    read the seed's own stamp back: it must be ``expectedSeedVersion``,
///    ``expectedContentSHA256`` and the sequence, else the install is refused.
/// 5. Write the new install record (temporary file + `rename`). It names the temporary file's
///    inode, which is not the destination's until step 7, so until then it matches nothing.
/// 6. Remove `<dest>-wal`, `<dest>-shm` and `<dest>-journal` (exactly these), `fsync` the folder.
/// 7. `rename` the temporary file onto the destination, `fsync` the folder.
///
/// A crash (or `kill -9`, or power loss) at any instant leaves one of:
/// - before 6: the old seed with its sidecars, untouched; the record is old or matches nothing;
///   the next start installs.
/// - between 6 and 7: the old seed without its sidecars (its un-checkpointed WAL frames are
///   lost; acceptable, it is about to be replaced); the record does not match it; the next start
///   installs.
/// - after 7: the complete new seed (it was flushed before the rename) with no sidecars (their
///   removal was flushed before the rename) and a record that matches it.
/// Never a partial file at the destination and never a new seed beside an old WAL.
///
/// ## What this cannot make safe
/// Another process that has the old seed open while it is replaced keeps reading the old file
/// (its inode) and, if it writes in WAL mode, may create a `-wal` for it that SQLite would then
/// apply to the new file. Install before opening the seed, and open the seed read-only.
/// A seed the app writes to has another content than it records, so the next start replaces it.
///
/// Files in the folder other than the seed's own (`seed.sqlite` and its `-wal`, `-shm` and
/// `-journal`, `seed.sqlite.seedgen-install`, `seed.sqlite.seedgen-lock` and
/// `.seed.sqlite.seedgen-tmp-*`) are never touched.
public struct SeedInstaller: Sendable {
    /// The shipped seed: `seed.sqlite.gz` (gzip) or `seed.sqlite`.
    public var source: String
    /// Where the seed is installed, e.g. `<app data>/seed.sqlite`.
    public var destination: String
    /// The schema version the app expects; a shipped seed with another one is refused.
    /// nil accepts any schema version.
    public var expectedSchemaVersion: Int?
    /// The manifest (`seed.sqlite.manifest.json`); nil uses the one beside `source`, if any.
    public var manifest: String?
    /// The publication sequence of the seed being installed, recorded with it, for a source
    /// that does not carry one (a delta, or a seed whose sequence a channel's index gives);
    /// nil: the source's own (`seedgen pack --sequence`), if any.
    ///
    /// Sequences order seeds across the app bundle and a channel: a shipped seed whose
    /// sequence is lower than the installed seed's (of the same schema version) does not
    /// replace it, so a seed downloaded later is not put back by the older bundled one.
    public var sequence: Int64? = nil
    /// The seed version the caller was promised (a channel's index names it), or nil. The new
    /// seed's own stamp is read once it is written beside the destination: another seed version
    /// is refused (``SeedInstallerError/Code/versionMismatch``) and the installed seed kept.
    public var expectedSeedVersion: String? = nil
    /// The content digest the caller was promised, or nil: the new seed must record it (a full
    /// seed) or have it (a patched one), else it is refused and the installed seed kept.
    public var expectedContentSHA256: String? = nil
    /// Called while a seed is written (not when up to date): the phase (apply, verify) and,
    /// for a full seed, the bytes decompressed so far; on the installing thread. For a progress
    /// display (`seedgen install` on a terminal).
    public var progress: (@Sendable (SeedInstallProgress) -> Void)? = nil

    /// Creates an installer for one shipped seed and one destination. Nothing is read or
    /// written until ``install()`` or ``installInBackground(qos:)``.
    ///
    /// ```swift
    /// let installer = SeedInstaller(source: resources + "/seed.sqlite.gz",
    ///                               destination: appData + "/seed.sqlite",
    ///                               expectedSchemaVersion: 3)
    /// ```
    ///
    /// - Parameters:
    ///   - source: the shipped seed, gzip or plain SQLite (detected from its first bytes).
    ///   - destination: where to install it. Its folder is created when missing.
    ///   - expectedSchemaVersion: the schema version the app was built for; nil to accept any.
    ///   - manifest: the seed's manifest; nil to use the one beside `source` when that file
    ///     exists (`seed.sqlite.manifest.json` for `seed.sqlite.gz` or `seed.sqlite`). With a
    ///     manifest, the seed's size and SHA-256 are checked against it.
    public init(source: String, destination: String, expectedSchemaVersion: Int? = nil, manifest: String? = nil) {
        self.source = source
        self.destination = destination
        self.expectedSchemaVersion = expectedSchemaVersion
        self.manifest = manifest
    }

    /// Installs the shipped seed if the installed one is missing, different or not the recorded
    /// file; otherwise does nothing (no write at all).
    ///
    /// Call it at startup, before the seed is opened, and open the seed read-only afterwards.
    /// It blocks while it installs (a second or more for a 100 MB seed); on the main actor or
    /// in a task, use ``installInBackground(qos:)``.
    ///
    /// Safe to call from several processes and threads at once: one installs, the others wait
    /// and report up to date.
    /// - Returns: `.installed` (with the previous versions when known), `.replacedModified` (the
    ///   installed seed had been modified since it was installed and is replaced: what was written
    ///   to it is gone; `reason` says so) or `.upToDate`.
    /// - Throws: ``SeedInstallerError`` saying what is wrong; the installed seed is unchanged.
    @discardableResult
    public func install() throws(SeedInstallerError) -> SeedInstallResult {
        let files = SeedFiles(destination: destination)
        let shipped = try ShippedSeed.inspect(
            path: FileSystem.absolute(source), manifestPath: manifest.map(FileSystem.absolute))
        if let stamp = shipped.stamp { try checkSchemaVersion(stamp.schemaVersion, path: shipped.path) }
        if let delta = shipped.delta { return try installDelta(delta, files: files) }

        // Up to date: decided without the lock and without listing the folder. Safe: the record
        // is replaced atomically and names the new seed's inode only once that seed, complete
        // and flushed, has been renamed into place; a match is therefore a finished install.
        if let record = InstallRecord.read(path: files.recordPath), isUpToDate(record, shipped: shipped, files: files) {
            return try upToDate(record, shipped: shipped, files: files)
        }

        let lock = try Self.lockForInstalling(files)
        defer { withExtendedLifetime(lock) {} }

        // Decide again under the lock: a process that waited finds the seed another one just
        // installed and reports up to date.
        let record = InstallRecord.read(path: files.recordPath)
        if let record, isUpToDate(record, shipped: shipped, files: files) {
            return try upToDate(record, shipped: shipped, files: files)
        }
        // The record no longer names the file in place (touched, copied, restored, or written
        // to): the seed says itself which seed it is, and its content digest whether it is intact.
        var isModified = false
        if let installedFile = (try? FileSystem.status(files.destination)) ?? nil, installedFile != record?.file {
            if let installed = InstalledSeed.read(destination: files.destination), installed.contentSHA256 != nil {
                if installed.hasRecordedContent() {
                    if keeps(installed, over: shipped) {
                        return try recognised(installed, shipped: shipped, files: files)
                    }
                } else {
                    isModified = true
                }
            } else {
                // No seed here, or one that records no content digest (built before them): what
                // the record says is all there is.
                isModified = record != nil
            }
        }
        try checkFreeSpace(for: shipped, files: files)

        let temporary = TemporaryFile(path: files.newTemporaryPath())
        let total = shipped.manifest?.size ?? shipped.expectedSize
        progress?(SeedInstallProgress(phase: .apply, bytesDone: 0, bytesTotal: total))
        let copy = try SeedCopy.write(
            shipped, to: temporary, limit: try copyLimit(for: shipped, files: files),
            progress: progress.map { report in
                { report(SeedInstallProgress(phase: .apply, bytesDone: $0, bytesTotal: total)) }
            })
        progress?(SeedInstallProgress(phase: .verify, bytesDone: copy.size, bytesTotal: total))
        let stamp = try verify(temporary.path, copy: copy, shipped: shipped)
        let sequence = self.sequence ?? shipped.sequence
        if sequence != nil { try SeedOwnStamp.writeSequence(sequence, to: temporary.path) }
        let own = try checkOwnStamp(temporary.path, sequence: sequence, source: shipped.path)
        let content = shipped.manifest?.contentSHA256 ?? own.contentSHA256
        try moveIntoPlace(
            temporary, stamp: stamp,
            digest: InstalledDigest(size: copy.size, sha256: copy.sha256, contentSHA256: content),
            gzip: shipped.trailer, files: files, sequence: sequence)
        var why = reason(record: record, stamp: stamp, shipped: shipped)
        if isModified {
            let lost = "the installed seed's content was modified after it was installed; its changes are lost"
            why = why == "installed file missing or changed" ? lost : lost + "; " + why
        }
        return SeedInstallResult(
            status: isModified ? .replacedModified : .installed, seedVersion: stamp.seedVersion,
            schemaVersion: stamp.schemaVersion, previousSeedVersion: record?.seedVersion,
            previousSchemaVersion: record?.schemaVersion, path: files.destination, reason: why)
    }

    /// Refuses a destination that is a folder, creates the destination's folder, takes the
    /// installers' exclusive lock (waiting for any other installer) and removes temporary files
    /// an earlier crash left (steps 1 of ``install()``). Hold the returned file while installing.
    static func lockForInstalling(_ files: SeedFiles) throws(SeedInstallerError) -> FileDescriptor {
        // Refused before anything (folder, lock, record) is written.
        if FileSystem.isDirectory(files.destination) {
            throw SystemCallError(call: "open", path: files.destination, errno: EISDIR)
                .installerError(
                    "the destination is a directory; it must be the path of the seed file, e.g. <folder>/seed.sqlite")
        }

        do { try FileSystem.createDirectories(files.directory) } catch {
            throw error.installerError("cannot create the destination folder")
        }
        let lock: FileDescriptor
        do {
            lock = try FileSystem.openLockFile(files.lockPath)
            try lock.lockExclusively()
        } catch {
            throw error.installerError("cannot create or lock the installer's lock file in the destination folder")
        }
        // Only now, installing: the folder is listed for leftovers under the lock (no other
        // installer writes a temporary file meanwhile). Leftovers stay until the next install.
        do { try files.removeLeftoverTemporaryFiles() } catch {
            throw error.installerError("cannot remove a temporary file left by an earlier install")
        }
        return lock
    }

    /// Steps 4 (backup exclusion) to 7 of ``install()`` for a verified temporary file: the new
    /// install record, the old seed's sidecars removed, the rename, each flushed.
    /// `sequence` defaults to ``sequence``.
    func moveIntoPlace(
        _ temporary: TemporaryFile, stamp: SeedStamp, digest: InstalledDigest, gzip: GzipTrailer?, files: SeedFiles,
        sequence: Int64? = nil
    ) throws(SeedInstallerError) {
        BackupExclusion.exclude(temporary.path)
        do {
            let newRecord = InstallRecord(
                seedVersion: stamp.seedVersion, schemaVersion: stamp.schemaVersion,
                sha256: digest.sha256, contentSHA256: digest.contentSHA256, size: digest.size,
                file: try FileSystem.openForReading(temporary.path).status(), gzip: gzip,
                sequence: sequence ?? self.sequence)
            try Self.writeRecord(newRecord, files: files)
        } catch {
            throw error.installerError("cannot write the install record")
        }
        do {
            for sidecar in files.sidecarPaths { try FileSystem.remove(sidecar) }
            try FileSystem.syncDirectory(files.directory)
        } catch {
            throw error.installerError("cannot remove the old seed's SQLite sidecar file")
        }
        do {
            try temporary.rename(to: files.destination)
            try FileSystem.syncDirectory(files.directory)
        } catch {
            throw error.installerError("cannot move the new seed into place")
        }
    }

    func upToDate(
        _ record: InstallRecord, shipped: ShippedSeed, files: SeedFiles
    ) throws(SeedInstallerError) -> SeedInstallResult {
        // An unstamped gzip's schema version is known only from the record.
        try checkSchemaVersion(record.schemaVersion, path: shipped.path)
        return SeedInstallResult(
            status: .upToDate, seedVersion: record.seedVersion, schemaVersion: record.schemaVersion,
            path: files.destination)
    }

    func checkSchemaVersion(_ schemaVersion: Int, path: String) throws(SeedInstallerError) {
        if let expectedSchemaVersion, schemaVersion != expectedSchemaVersion {
            throw SeedInstallerError(
                code: .schemaMismatch,
                message:
                    "the shipped seed has schema version \(schemaVersion) but the app expects \(expectedSchemaVersion)",
                path: path)
        }
    }

    private func isUpToDate(_ record: InstallRecord, shipped: ShippedSeed, files: SeedFiles) -> Bool {
        if isOlder(shipped, than: record) {
            // Kept: a seed of a later sequence (downloaded from a channel) is installed.
        } else if let stamp = shipped.stamp {
            guard record.seedVersion == stamp.seedVersion, record.schemaVersion == stamp.schemaVersion else {
                return false
            }
            if let manifest = shipped.manifest, !isSameSeed(manifest, record) { return false }
        } else {
            // An unstamped gzip: the same trailer (CRC-32 and size of the content) and file size.
            guard let trailer = shipped.trailer, record.gzip == trailer else { return false }
        }
        // The installed file must still be the one recorded, and readable.
        guard let installed = try? FileSystem.openForReading(files.destination).status() else { return false }
        return installed == record.file
    }

    /// True when the shipped seed and the installed one both have sequences, of the same schema
    /// version, and the installed one's is higher. A seed of another schema version is never
    /// older: it is replaced regardless.
    private func isOlder(_ shipped: ShippedSeed, than record: InstallRecord) -> Bool {
        isOlder(shipped, thanSequence: record.sequence, schemaVersion: record.schemaVersion)
    }

    private func isOlder(_ shipped: ShippedSeed, thanSequence installedSequence: Int64?, schemaVersion: Int) -> Bool {
        guard let shippedSequence = sequence ?? shipped.sequence, let installedSequence, let stamp = shipped.stamp
        else { return false }
        return stamp.schemaVersion == schemaVersion && installedSequence > shippedSequence
    }

    /// True when an intact installed seed the record no longer names stays: it is the shipped
    /// seed (same versions and content), or of a later sequence than it.
    private func keeps(_ installed: InstalledSeed, over shipped: ShippedSeed) -> Bool {
        if isOlder(shipped, thanSequence: installed.sequence, schemaVersion: installed.schemaVersion) { return true }
        guard let stamp = shipped.stamp,
            stamp == SeedStamp(schemaVersion: installed.schemaVersion, seedVersion: installed.seedVersion)
        else { return false }
        if let content = shipped.manifest?.contentSHA256 { return content == installed.contentSHA256 }
        return true
    }

    /// Records a recognised seed as the installed one (the record then names the file as it is
    /// now, so the next start decides without reading it) and reports it up to date.
    private func recognised(
        _ installed: InstalledSeed, shipped: ShippedSeed, files: SeedFiles
    ) throws(SeedInstallerError) -> SeedInstallResult {
        try checkSchemaVersion(installed.schemaVersion, path: shipped.path)
        let isShipped =
            shipped.stamp == SeedStamp(schemaVersion: installed.schemaVersion, seedVersion: installed.seedVersion)
        try Self.record(
            installed, files: files, sha256: isShipped ? shipped.manifest?.sha256 : nil,
            gzip: isShipped ? shipped.trailer : nil)
        return SeedInstallResult(
            status: .upToDate, seedVersion: installed.seedVersion, schemaVersion: installed.schemaVersion,
            path: files.destination)
    }

    /// Records the intact seed at `destination` as installed, when the install record no longer
    /// names it (after a `touch`, a copy or a restore from a backup): its content digest is
    /// computed once (every row read), and if it is the one the seed records, the record is
    /// written for the file as it is now, under the installers' lock. The next check then
    /// decides without reading the seed. `SeedUpdater` calls it when it finds such a seed up to
    /// date.
    /// - Parameter destination: the installed seed's path (the installer's destination).
    /// - Returns: the seed as now recorded, or nil when there is no seed, or its content is not
    ///   the one it records (it was modified: the next install replaces it).
    /// - Throws: when the lock or the record cannot be written.
    @discardableResult
    public static func recordIntactSeed(destination: String) throws(SeedInstallerError) -> InstalledSeed? {
        let files = SeedFiles(destination: destination)
        let lock = try lockForInstalling(files)
        defer { withExtendedLifetime(lock) {} }
        guard var installed = InstalledSeed.read(destination: files.destination) else { return nil }
        if installed.isRecordedFile { return installed }
        guard installed.contentSHA256 != nil, installed.hasRecordedContent() else { return nil }
        try record(installed, files: files, sha256: nil, gzip: nil)
        installed.isRecordedFile = true
        return installed
    }

    /// Writes the install record of `installed`, naming the file as it is now.
    private static func record(
        _ installed: InstalledSeed, files: SeedFiles, sha256: String?, gzip: GzipTrailer?
    ) throws(SeedInstallerError) {
        do throws(SystemCallError) {
            guard let status = try FileSystem.status(files.destination) else {
                throw SystemCallError(call: "stat", path: files.destination, errno: ENOENT)
            }
            try writeRecord(
                InstallRecord(
                    seedVersion: installed.seedVersion, schemaVersion: installed.schemaVersion, sha256: sha256,
                    contentSHA256: installed.contentSHA256, size: status.size, file: status, gzip: gzip,
                    sequence: installed.sequence), files: files)
        } catch {
            throw error.installerError("cannot write the install record")
        }
    }

    /// Reads the new seed's own stamp (beside the destination, before its rename) and refuses
    /// it unless it is what was promised: ``expectedSeedVersion``, ``expectedContentSHA256``
    /// and the `sequence` just stamped.
    func checkOwnStamp(_ path: String, sequence: Int64?, source: String) throws(SeedInstallerError) -> SeedOwnStamp {
        let own: SeedOwnStamp
        do { own = try SeedOwnStamp.read(path) } catch {
            throw error.reported(at: source, prefix: "the new seed: ")
        }
        var wrong: [String] = []
        if let expectedSeedVersion, own.stamp.seedVersion != expectedSeedVersion {
            wrong.append(
                """
                seed version \(MessageText.value(own.stamp.seedVersion)), not \
                \(MessageText.value(expectedSeedVersion))
                """
            )
        }
        if let expectedContentSHA256, own.contentSHA256 != expectedContentSHA256 {
            wrong.append(
                """
                content digest \(MessageText.value(own.contentSHA256 ?? "none")), not \
                \(MessageText.value(expectedContentSHA256))
                """
            )
        }
        if let sequence, own.sequence != sequence {
            wrong.append("sequence \(own.sequence.map(String.init) ?? "none"), not \(sequence)")
        }
        guard wrong.isEmpty else {
            throw SeedInstallerError(
                code: .versionMismatch,
                message:
                    """
                    the new seed's own stamp says \(wrong.joined(separator: ", ")) as promised: refused; the \
                    installed seed is unchanged
                    """,
                path: source)
        }
        return own
    }

    private func reason(record: InstallRecord?, stamp: SeedStamp, shipped: ShippedSeed) -> String {
        guard let record else { return "nothing installed" }
        if record.seedVersion != stamp.seedVersion { return "seed version changed" }
        if record.schemaVersion != stamp.schemaVersion { return "schema version changed" }
        if let manifest = shipped.manifest, !isSameSeed(manifest, record) { return "seed content changed" }
        if shipped.stamp == nil, record.gzip != shipped.trailer { return "shipped gzip changed" }
        return "installed file missing or changed"
    }

    /// True when the manifest describes the recorded seed: the same content digest when both
    /// know one (a seed patched by a delta is another file with the same content), else the
    /// same file SHA-256.
    private func isSameSeed(_ manifest: SeedManifest, _ record: InstallRecord) -> Bool {
        if let content = manifest.contentSHA256, let recorded = record.contentSHA256 { return content == recorded }
        return manifest.sha256 == record.sha256
    }

    private func checkFreeSpace(for shipped: ShippedSeed, files: SeedFiles) throws(SeedInstallerError) {
        guard let size = shipped.expectedSize else { return }
        let available: Int64
        do { available = try FileSystem.availableBytes(files.directory) } catch { return }
        if available < size {
            throw SeedInstallerError(
                code: .diskFull,
                message:
                    """
                    not enough free space for the new seed: it needs \(size) bytes, \(available) are available; \
                    the installed seed is unchanged
                    """,
                path: files.directory)
        }
    }

    /// The most the copy may write: the manifest's size, else the free space.
    private func copyLimit(for shipped: ShippedSeed, files: SeedFiles) throws(SeedInstallerError) -> SeedCopy.Limit {
        if let size = shipped.manifest?.size { return .manifest(size) }
        do { return .freeSpace(try FileSystem.availableBytes(files.directory)) } catch {
            throw error.installerError("cannot tell the free space beside the destination")
        }
    }

    /// Checks the decompressed seed and returns the versions it contains.
    private func verify(_ path: String, copy: SeedCopy, shipped: ShippedSeed) throws(SeedInstallerError) -> SeedStamp {
        if let manifest = shipped.manifest {
            guard copy.size == manifest.size, copy.sha256 == manifest.sha256 else {
                throw SeedInstallerError(
                    code: .checksumMismatch,
                    message:
                        """
                        the seed has \(copy.size) bytes with SHA-256 \(copy.sha256) but its manifest says \
                        \(manifest.size) bytes with SHA-256 \(MessageText.value(manifest.sha256))
                        """,
                    path: shipped.path)
            }
        }
        do throws(SeedInstallerError) {
            do throws(SeedInstallerError) {
                try SeedFileCheck.checkHeader(path)
                let stamp = try SeedFileCheck.readStamp(path)
                try checkSchemaVersion(stamp.schemaVersion, path: shipped.path)
                if let label = shipped.stamp, stamp != label {
                    throw SeedInstallerError(
                        code: .versionMismatch,
                        message:
                            "the seed contains \(MessageText.stamp(stamp)) but is labelled \(MessageText.stamp(label))",
                        path: shipped.path)
                }
                // The manifest's size and SHA-256 matched: this is, byte for byte, the file
                // `seedgen pack` quick_checked before writing the manifest. Reading it all again
                // would prove nothing more. Without a manifest, nothing vouches for it: check.
                if shipped.manifest == nil { try SeedFileCheck.quickCheck(path) }
                return stamp
            } catch  where error.code == .notSQLite || error.code == .notASeed {
                throw error.withPackHint()
            }
        } catch {
            // Name the shipped file, not the temporary one, in what the user sees.
            throw error.reported(at: shipped.path)
        }
    }

    private static func writeRecord(_ record: InstallRecord, files: SeedFiles) throws(SystemCallError) {
        let temporary = TemporaryFile(path: files.newTemporaryPath())
        let output = try FileSystem.createExclusively(temporary.path)
        try record.encoded().withUnsafeBytes { bytes in Result { () throws(SystemCallError) in try output.write(bytes) }
        }.get()
        try output.sync()
        try output.closeNow()
        try temporary.rename(to: files.recordPath)
    }
}

/// What identifies a seed file being put in place, for its install record.
struct InstalledDigest {
    var size: Int64
    /// The file's SHA-256, when computed (a full install).
    var sha256: String?
    /// The seed's content digest, when known.
    var contentSHA256: String?
}
