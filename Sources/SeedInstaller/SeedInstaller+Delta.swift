import SeedArchive
import SeedDeltas
import SeedSQLite
import SeedSystem

extension SeedInstaller {
    /// Installs a seed delta (``SeedDelta``): applies it, with this device's SQLite, to the seed
    /// installed at the destination, which must have the content of its `from` seed, with
    /// ``install()``'s guarantees.
    ///
    /// 1. Up to date (no lock, no write) when the install record and the installed file say the
    ///    delta's `to` seed is in place.
    /// 2. Otherwise, under the lock: refused with ``SeedInstallerError/Code/deltaBaseMismatch``
    ///    when nothing is installed or the record says another seed is (cheap, before any
    ///    work); the free space must hold a copy of the seed; the delta's body is read and
    ///    checked (``SeedInstallerError/Code/invalidDelta`` and friends).
    /// 3. `DeltaPatch` copies the installed seed into a temporary file, proving on the way that it
    ///    has the `from` seed's content digest (the install record's digest vouches instead while
    ///    the record still names this file), applies the delta, derives again what it feeds
    ///    (derived tables, search and spatial indexes), and checks that the result has the `to`
    ///    seed's content digest (else ``SeedInstallerError/Code/deltaResultMismatch``).
    /// 4. Its SQLite header and versions are checked, then, as for a full seed: the new install
    ///    record, the sidecars removed, the rename, each flushed.
    ///
    /// Any failure leaves the installed seed as it was and no temporary file (a crash leaves
    /// them for the next install to remove).
    func installDelta(_ delta: SeedDelta, files: SeedFiles) throws(SeedInstallerError) -> SeedInstallResult {
        if let record = InstallRecord.read(path: files.recordPath), isPatched(record, delta: delta, files: files) {
            return try upToDate(record, delta: delta, files: files)
        }
        // Refused before the folder or the lock file is made: nothing, or another seed, to patch.
        if !FileSystem.isDirectory(files.destination) { try checkBase(delta, record: nil, files: files) }
        let lock = try Self.lockForInstalling(files)
        defer { withExtendedLifetime(lock) {} }
        let record = InstallRecord.read(path: files.recordPath)
        if let record, isPatched(record, delta: delta, files: files) {
            return try upToDate(record, delta: delta, files: files)
        }
        try checkBase(delta, record: record, files: files)
        try checkFreeSpace(for: delta, files: files)

        progress?(SeedInstallProgress(phase: .apply, bytesDone: 0, bytesTotal: delta.to.size))
        let patch = DeltaPatch(path: delta.path, header: delta.header)
        var trace = PatchTrace()
        let tables: Set<String>
        do { tables = try patch.checkBody() } catch { throw SeedDelta.installerError(error) }
        trace.mark("check the body")
        let output = TemporaryFile(path: files.newTemporaryPath())
        // The record vouches for the installed file's content while the file is still the one
        // it names (as for deciding up to date); otherwise the copy's digest is computed.
        let installed = (try? FileSystem.status(files.destination)) ?? nil
        let proven = record.map { installed == $0.file && $0.contentSHA256 == delta.from.contentSHA256 } ?? false
        do {
            try patch.apply(base: files.destination, baseIsProven: proven, changedTables: tables, output: output.path)
        } catch {
            throw installerError(error, delta: delta, files: files)
        }
        progress?(SeedInstallProgress(phase: .verify, bytesDone: delta.to.size, bytesTotal: delta.to.size))
        let stamp: SeedStamp
        do throws(SeedInstallerError) {
            try SeedFileCheck.checkHeader(output.path)
            stamp = try SeedFileCheck.readStamp(output.path)
        } catch {
            throw error.reported(at: delta.path, prefix: "the patched seed: ")
        }
        let expected = SeedStamp(schemaVersion: delta.schemaVersion, seedVersion: delta.to.seedVersion)
        guard stamp == expected else {
            throw SeedInstallerError(
                code: .versionMismatch,
                message:
                    """
                    the patched seed contains \(MessageText.stamp(stamp)) but the delta says \
                    \(MessageText.stamp(expected))
                    """,
                path: delta.path)
        }
        // A delta carries no sequence: the stamp is the one the caller gives, never the base's.
        try SeedOwnStamp.writeSequence(sequence, to: output.path)
        _ = try checkOwnStamp(output.path, sequence: sequence, source: delta.path)
        let size = (try? FileSystem.status(output.path))??.size ?? delta.to.size
        try moveIntoPlace(
            output, stamp: stamp,
            digest: InstalledDigest(size: size, sha256: nil, contentSHA256: delta.to.contentSHA256),
            gzip: nil, files: files)
        return SeedInstallResult(
            status: .patched, seedVersion: stamp.seedVersion, schemaVersion: stamp.schemaVersion,
            previousSeedVersion: delta.from.seedVersion, previousSchemaVersion: delta.schemaVersion,
            path: files.destination, reason: "seed version changed")
    }

    /// True when the record names the delta's `to` seed and the installed file is still the
    /// one recorded.
    private func isPatched(_ record: InstallRecord, delta: SeedDelta, files: SeedFiles) -> Bool {
        guard record.seedVersion == delta.to.seedVersion, record.schemaVersion == delta.schemaVersion,
            record.contentSHA256 == delta.to.contentSHA256
        else { return false }
        guard let installed = try? FileSystem.openForReading(files.destination).status() else { return false }
        return installed == record.file
    }

    private func upToDate(
        _ record: InstallRecord, delta: SeedDelta, files: SeedFiles
    ) throws(SeedInstallerError) -> SeedInstallResult {
        try checkSchemaVersion(record.schemaVersion, path: delta.path)
        return SeedInstallResult(
            status: .upToDate, seedVersion: record.seedVersion, schemaVersion: record.schemaVersion,
            path: files.destination)
    }

    /// Refuses at once what cannot be the delta's `from` seed: nothing installed, or a record
    /// that names another seed for the file still in place. (The copy proves the rest by its
    /// content digest.)
    private func checkBase(_ delta: SeedDelta, record: InstallRecord?, files: SeedFiles) throws(SeedInstallerError) {
        let installed: FileStatus?
        do { installed = try FileSystem.status(files.destination) } catch {
            throw error.installerError("cannot read the installed seed")
        }
        let wanted =
            """
            the delta applies to seed version \(MessageText.value(delta.from.seedVersion)) (content digest \
            \(delta.from.contentSHA256))
            """
        guard installed != nil else {
            throw SeedInstallerError(
                code: .deltaBaseMismatch, message: "nothing is installed here, and \(wanted); install the full seed",
                path: files.destination)
        }
        if let record, record.file == installed, let digest = record.contentSHA256, digest != delta.from.contentSHA256 {
            throw SeedInstallerError(
                code: .deltaBaseMismatch,
                message:
                    """
                    the installed seed is seed version \(MessageText.value(record.seedVersion)) (content digest \
                    \(digest)), and \(wanted); nothing was changed, install the full seed
                    """,
                path: files.destination)
        }
    }

    /// Patching holds a copy of the installed seed, which grows by what the delta adds.
    private func checkFreeSpace(for delta: SeedDelta, files: SeedFiles) throws(SeedInstallerError) {
        let available: Int64
        do { available = try FileSystem.availableBytes(files.directory) } catch { return }
        let installed = ((try? FileSystem.status(files.destination)) ?? nil)?.size ?? delta.from.size
        let needed = installed + max(0, delta.to.size - delta.from.size)
        if available < needed {
            throw SeedInstallerError(
                code: .diskFull,
                message:
                    """
                    not enough free space to patch the seed: it needs \(needed) bytes (a copy of the seed, \
                    patched), \(available) are available; the installed seed is unchanged
                    """,
                path: files.directory)
        }
    }

    /// The installer's error for a failed patch.
    private func installerError(_ failure: DeltaPatch.Failure, delta: SeedDelta, files: SeedFiles) -> SeedInstallerError
    {
        if failure.isOutOfSpace {
            return SeedInstallerError(
                code: .diskFull,
                message:
                    """
                    no space left to patch the seed: \(MessageText.value(failure.description)); the installed seed \
                    is unchanged
                    """,
                path: files.directory,
                cause: failure.cause)
        }
        switch failure {
        case .format(let error):
            return SeedDelta.installerError(error)
        case .mismatch(let message):
            return SeedInstallerError(code: .invalidDelta, message: message + "; nothing was changed", path: delta.path)
        case .baseMismatch(let message):
            return SeedInstallerError(
                code: .deltaBaseMismatch,
                message:
                    """
                    the installed seed is not the one the delta applies to: \(message); nothing was changed, \
                    install the full seed
                    """,
                path: files.destination)
        case .resultMismatch(let message):
            return SeedInstallerError(
                code: .deltaResultMismatch,
                message: message
                    + """
                     with SQLite \(Connection.libraryVersion) (the delta was made with \
                    \(MessageText.value(delta.header.sqliteVersion ?? "?"))); nothing was changed, install the \
                    full seed
                    """,
                path: delta.path)
        case .sqlite(let error, let table?):
            return SeedInstallerError(
                code: .invalidDelta,
                message:
                    """
                    SQLite refused the delta's change (table '\(table)'): \(MessageText.value(error.description)); \
                    nothing was changed
                    """,
                path: delta.path, cause: error)
        case .sqlite(let error, nil):
            return SeedInstallerError(
                code: .fileSystem,
                message:
                    """
                    SQLite cannot patch the copy of the seed: \(MessageText.value(error.description)); the \
                    installed seed is unchanged
                    """,
                path: files.destination, cause: error)
        case .io(let error, let message):
            return error.installerError(message)
        }
    }
}
