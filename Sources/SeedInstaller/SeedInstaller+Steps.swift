import SeedArchive
import SeedSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The steps of ``SeedInstaller/install()`` after the decision: the lock, the checks of the copy,
/// the move into place with its record.
extension SeedInstaller {
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

    func reason(record: InstallRecord?, stamp: SeedStamp, shipped: ShippedSeed) -> String {
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
    func isSameSeed(_ manifest: ShippedManifest, _ record: InstallRecord) -> Bool {
        if let content = manifest.contentSHA256, let recorded = record.contentSHA256 { return content == recorded }
        return manifest.sha256 == record.sha256
    }

    func checkFreeSpace(for shipped: ShippedSeed, files: SeedFiles) throws(SeedInstallerError) {
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
    func copyLimit(for shipped: ShippedSeed, files: SeedFiles) throws(SeedInstallerError) -> SeedCopy.Limit {
        if let size = shipped.manifest?.size { return .manifest(size) }
        do { return .freeSpace(try FileSystem.availableBytes(files.directory)) } catch {
            throw error.installerError("cannot tell the free space beside the destination")
        }
    }

    /// Checks the decompressed seed and returns the versions it contains.
    func verify(_ path: String, copy: SeedCopy, shipped: ShippedSeed) throws(SeedInstallerError) -> SeedStamp {
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

    static func writeRecord(_ record: InstallRecord, files: SeedFiles) throws(SystemCallError) {
        let temporary = TemporaryFile(path: files.newTemporaryPath())
        let output = try FileSystem.createExclusively(temporary.path)
        try record.encoded().withUnsafeBytes { bytes in Result { () throws(SystemCallError) in try output.write(bytes) }
        }.get()
        try output.sync()
        try output.closeNow()
        try temporary.rename(to: files.recordPath)
    }
}
