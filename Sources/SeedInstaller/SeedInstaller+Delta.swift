import SeedArchive
import SeedSystem

extension SeedInstaller {
    /// Installs a seed delta (``SeedDelta``): applies it to the seed installed at the
    /// destination, which must be exactly its `from` seed, with ``install()``'s guarantees.
    ///
    /// 1. Up to date (no lock, no write) when the install record and the installed file say the
    ///    delta's `to` seed is in place.
    /// 2. Otherwise, under the lock: refused with ``SeedInstallerError/Code/deltaBaseMismatch``
    ///    when nothing is installed or the record says another seed is (cheap, before any
    ///    work); the free space must hold a copy of each seed; the delta's body is read and
    ///    checked (``SeedInstallerError/Code/invalidDelta`` and friends).
    /// 3. ``DeltaPatch`` copies the installed seed into a temporary file, proving on the way that
    ///    it is the `from` seed (its SHA-256, or the install record's when the record still
    ///    names this file), applies the delta, and compacts the result into a second temporary
    ///    file, which must be the `to` seed (size and SHA-256).
    /// 4. Its SQLite header and versions are checked, then, as for a full seed: the new install
    ///    record, the sidecars removed, the rename, each flushed.
    ///
    /// Any failure leaves the installed seed as it was and no temporary file (a crash leaves
    /// them for the next install to remove).
    func installDelta(_ delta: SeedDelta, files: SeedFiles) throws(SeedInstallerError) -> SeedInstallResult {
        if let record = InstallRecord.read(path: files.recordPath), isPatched(record, delta: delta, files: files) {
            return try upToDate(record, delta: delta, files: files)
        }
        // Refused before the folder or the lock file is made: nothing, or another file, to patch.
        if !FileSystem.isDirectory(files.destination) { try checkBase(delta, record: nil, files: files) }
        let lock = try lockForInstalling(files)
        defer { withExtendedLifetime(lock) {} }
        let record = InstallRecord.read(path: files.recordPath)
        if let record, isPatched(record, delta: delta, files: files) {
            return try upToDate(record, delta: delta, files: files)
        }
        try checkBase(delta, record: record, files: files)
        try checkFreeSpace(for: delta, files: files)

        let patch = DeltaPatch(delta: delta)
        var trace = PatchTrace()
        try patch.checkBody()
        trace.mark("check the body")
        let working = TemporaryFile(path: files.newTemporaryPath())
        let output = TemporaryFile(path: files.newTemporaryPath())
        // The record vouches for the installed file's content while the file is still the one
        // it names (as for deciding up to date); otherwise the copy hashes it.
        let installed = (try? FileSystem.status(files.destination)) ?? nil
        let vouched = record.flatMap { installed == $0.file ? $0.sha256 : nil }
        let digest = try patch.apply(base: files.destination, baseSHA256: vouched, working: working.path, output: output.path)
        let stamp: SeedStamp
        do throws(SeedInstallerError) {
            try SeedFileCheck.checkHeader(output.path)
            stamp = try SeedFileCheck.readStamp(output.path)
        } catch {
            throw SeedInstallerError(code: error.code, message: "the patched seed: " + error.message, path: delta.path, systemError: error.systemError, errno: error.errno)
        }
        let expected = SeedStamp(schemaVersion: delta.schemaVersion, seedVersion: delta.to.seedVersion)
        guard stamp == expected else {
            throw SeedInstallerError(code: .versionMismatch, message: "the patched seed contains \(MessageText.stamp(stamp)) but the delta says \(MessageText.stamp(expected))", path: delta.path)
        }
        try moveIntoPlace(output, stamp: stamp, digest: digest, gzip: nil, files: files)
        return SeedInstallResult(status: .patched, seedVersion: stamp.seedVersion, schemaVersion: stamp.schemaVersion,
                                 previousSeedVersion: delta.from.seedVersion, previousSchemaVersion: delta.schemaVersion,
                                 path: files.destination, reason: "seed version changed")
    }

    /// True when the record names the delta's `to` seed and the installed file is still the
    /// one recorded.
    private func isPatched(_ record: InstallRecord, delta: SeedDelta, files: SeedFiles) -> Bool {
        guard record.seedVersion == delta.to.seedVersion, record.schemaVersion == delta.schemaVersion,
              record.sha256 == delta.to.sha256 else { return false }
        guard let installed = try? FileSystem.openForReading(files.destination).status() else { return false }
        return installed == record.file
    }

    private func upToDate(_ record: InstallRecord, delta: SeedDelta, files: SeedFiles) throws(SeedInstallerError) -> SeedInstallResult {
        try checkSchemaVersion(record.schemaVersion, path: delta.path)
        return SeedInstallResult(status: .upToDate, seedVersion: record.seedVersion, schemaVersion: record.schemaVersion, path: files.destination)
    }

    /// Refuses at once what cannot be the delta's `from` seed: nothing installed, a file of
    /// another size, or a record that names another seed for the file still in place. (The
    /// copy proves the rest by its SHA-256.)
    private func checkBase(_ delta: SeedDelta, record: InstallRecord?, files: SeedFiles) throws(SeedInstallerError) {
        let installed: FileStatus?
        do { installed = try FileSystem.status(files.destination) } catch {
            throw error.installerError("cannot read the installed seed")
        }
        let wanted = "the delta applies to seed version \(MessageText.value(delta.from.seedVersion)) (\(delta.from.size) bytes, SHA-256 \(delta.from.sha256))"
        guard let installed else {
            throw SeedInstallerError(code: .deltaBaseMismatch, message: "nothing is installed here, and \(wanted); install the full seed", path: files.destination)
        }
        if installed.size != delta.from.size {
            throw SeedInstallerError(code: .deltaBaseMismatch, message: "the installed seed has \(installed.size) bytes, and \(wanted); nothing was changed, install the full seed", path: files.destination)
        }
        if let record, record.file == installed, record.sha256 != delta.from.sha256 {
            throw SeedInstallerError(code: .deltaBaseMismatch, message: "the installed seed is seed version \(MessageText.value(record.seedVersion)) (SHA-256 \(record.sha256)), and \(wanted); nothing was changed, install the full seed", path: files.destination)
        }
    }

    /// Patching holds a copy of the old seed and the new seed at once beside the destination.
    private func checkFreeSpace(for delta: SeedDelta, files: SeedFiles) throws(SeedInstallerError) {
        let available: Int64
        do { available = try FileSystem.availableBytes(files.directory) } catch { return }
        let needed = delta.from.size + delta.to.size
        if available < needed {
            throw SeedInstallerError(code: .diskFull, message: "not enough free space to patch the seed: it needs \(needed) bytes (a copy of the old seed and the new one), \(available) are available; the installed seed is unchanged", path: files.directory)
        }
    }
}
