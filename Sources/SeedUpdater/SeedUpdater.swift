import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SeedArchive
import SeedInstaller
import SeedSystem

/// Keeps an installed seed up to date from a channel (`seedgen publish`): any static file host
/// or CDN serving the channel folder.
///
/// ```swift
/// import SeedUpdater   // SeedInstaller comes with it
///
/// let updater = SeedUpdater(channel: URL(string: "https://cdn.example.com/seeds/")!,
///                           destination: appData.appendingPathComponent("seed.sqlite"),
///                           schemaVersion: 3,
///                           publicKey: try SeedUpdater.PublicKey(base64: "…"))
/// let result = try await updater.update()   // up-to-date, installed or patched
/// ```
///
/// One call:
/// 1. Takes the updaters' lock (`<dest>.seedgen-update-lock`): updaters of the same
///    destination take turns, and those that waited find the seed up to date.
/// 2. Reads the installed seed's own stamp from the seed file (`InstalledSeed`): its seed
///    version, content digest and publication sequence. A touched, copied or restored seed is
///    recognised the same.
/// 3. Reads `index.json` (with `If-None-Match`: an unchanged index is not transferred again).
///    With ``publicKey``, refuses an index without `index.json.sig` or whose signature is not
///    the key's. Refuses an index whose sequence for the schema version is lower than the
///    installed seed's (an older index replayed: no rollback).
/// 4. Picks the entry of ``schemaVersion`` (or of the installed seed's schema version); none is
///    an error, before anything is downloaded.
/// 5. Up to date when the installed seed is that entry's seed, with its content intact.
///    Otherwise checks the free space the download and its install need, then downloads the
///    delta from the installed seed when the channel has one, else the full `.gz`: into a
///    partial file beside the destination, resumed with `Range` after an interruption, checked
///    against the index's size and SHA-256, then installed by `SeedInstaller` (lock,
///    temporary file, verification, sidecars removed, atomic rename, crash-safe), which refuses
///    a seed whose own stamp is not the one the index names. A delta that fails in any way
///    (download, checksum, applying) is followed by the full seed, once.
///
/// ``deadline`` bounds the whole call; ``timeout`` each wait for data; ``minimumRate`` the
/// speed of a download, below which it counts as stalled.
///
/// Any failure throws ``SeedUpdaterError`` and leaves the installed seed as it was, usable.
/// Cancelling the task stops the download (what arrived is kept for the next call).
public struct SeedUpdater: Sendable {
    /// The channel: the folder that holds `index.json` (or the index's own URL).
    public var channel: URL
    /// The installed seed, e.g. `<app data>/seed.sqlite` (the file `SeedInstaller` installs).
    public var destination: URL
    /// The schema version the app reads; nil: the installed seed's, or the channel's only one.
    public var schemaVersion: Int?
    /// The channel's Ed25519 public key (`seedgen keygen`): with it, unsigned or badly signed
    /// indexes are refused. Without it, whoever controls the host can serve any seed.
    public var publicKey: PublicKey?
    /// Seconds without data before a request fails with `.timeout`.
    public var timeout: TimeInterval
    /// Seconds for the whole update (waiting for another updater, the index, every download),
    /// after which it stops with `.deadline`; nil: none. An install already started finishes.
    public var deadline: TimeInterval?
    /// Bytes per second a download must average over each ``rateWindow``, else it stops with
    /// `.stalled` (a server trickling bytes); 0 checks nothing.
    public var minimumRate: Int64
    /// Seconds over which ``minimumRate`` is measured.
    public var rateWindow: TimeInterval

    /// The default ``deadline``: a service's startup waits at most this long for a new seed,
    /// then goes on with the one it has (systemd gives a start 90 s).
    public static let defaultDeadline: TimeInterval = 60
    /// The default ``minimumRate``: 4 KiB/s, over 10-second windows.
    public static let defaultMinimumRate: Int64 = 4096

    /// An updater of the seed at `destination` from `channel`; nothing is read or downloaded
    /// before ``update()``.
    /// - Parameters:
    ///   - channel: the channel folder's URL (`https://…/seeds/`) or its `index.json`.
    ///   - destination: where the seed is installed (a file URL).
    ///   - schemaVersion: the app's schema version (recommended).
    ///   - publicKey: the channel's public key; nil accepts unsigned indexes.
    ///   - timeout: seconds without data before a request fails (default 30).
    ///   - deadline: seconds for the whole update (default 60); nil for none.
    ///   - minimumRate: bytes per second below which a download counts as stalled (default
    ///     4096, over 10-second windows); 0 for no minimum.
    public init(
        channel: URL, destination: URL, schemaVersion: Int? = nil, publicKey: PublicKey? = nil,
        timeout: TimeInterval = 30,
        deadline: TimeInterval? = SeedUpdater.defaultDeadline, minimumRate: Int64 = SeedUpdater.defaultMinimumRate
    ) {
        self.channel = channel
        self.destination = destination
        self.schemaVersion = schemaVersion
        self.publicKey = publicKey
        self.timeout = timeout
        self.deadline = deadline
        self.minimumRate = minimumRate
        self.rateWindow = 10
    }

    /// The URL of `index.json`.
    public var indexURL: URL {
        channel.lastPathComponent == ChannelIndex.fileName
            ? channel : channel.appendingPathComponent(ChannelIndex.fileName)
    }

    /// Brings the installed seed up to date (see the type's documentation).
    /// - Parameter progress: called with the phase (download, verify, apply) of the file being
    ///   fetched and, while downloading, its bytes done; on the updater's own queue.
    /// - Returns: `.upToDate`, `.installed` or `.patched`, with the versions, sequences, every
    ///   byte received, each download tried and why a delta failed.
    /// - Throws: ``SeedUpdaterError`` with every download tried; the installed seed is unchanged.
    @discardableResult
    public func update(
        progress: (@Sendable (SeedUpdateProgress) -> Void)? = nil
    ) async throws(SeedUpdaterError) -> SeedUpdateResult {
        let run = Run(
            limits: HTTPTransfer.Limits(
                deadline: deadline.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) },
                minimumRate: minimumRate, window: .milliseconds(Int64(rateWindow * 1000))))
        do {
            return try await update(run, progress: progress)
        } catch {
            var error = error
            error.attempts = run.attempts
            error.bytesDownloaded = run.counter.value
            throw error
        }
    }

    /// What one call has done so far: its limits, the bytes received, the downloads tried.
    final class Run {
        let limits: HTTPTransfer.Limits
        let counter = HTTPTransfer.ByteCount()
        var attempts: [SeedUpdateAttempt] = []
        init(limits: HTTPTransfer.Limits) { self.limits = limits }
    }

    private func update(
        _ run: Run, progress: (@Sendable (SeedUpdateProgress) -> Void)?
    ) async throws(SeedUpdaterError) -> SeedUpdateResult {
        let path = destination.path
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        } catch {
            throw SeedUpdaterError(
                code: .fileSystem, message: "cannot create the destination folder: \(error.localizedDescription)",
                location: folder)
        }
        let lock = try await UpdateLock.acquire(path: path + ".seedgen-update-lock", deadline: run.limits.deadline)
        defer { withExtendedLifetime(lock) {} }

        // The seed says itself what it is: a touched, copied or restored file is the same seed.
        let installed = InstalledSeed.read(destination: path)
        let index = try await readIndex(cachePath: path + ".seedgen-channel", run: run)
        let (schema, entry) = try choose(from: index, installed: installed)
        let current = installed?.schemaVersion == schema ? installed : nil
        if let current, current.seedVersion == entry.seedVersion,
            entry.contentSHA256 == nil || current.contentSHA256 == entry.contentSHA256,
            isIntact(current)
        {
            ChannelDownload.removeOthers(destination: path, keeping: [])
            return SeedUpdateResult(
                status: .upToDate, seedVersion: entry.seedVersion, previousSeedVersion: nil, schemaVersion: schema,
                sequence: current.sequence ?? entry.sequence, bytesDownloaded: run.counter.value, path: path)
        }

        var deltaFailure: SeedUpdaterError?
        if let current, entry.delta(from: current.seedVersion) != nil, entry.contentSHA256 == nil {
            // An index from a seedgen before content digests: its deltas name seeds by their
            // files' bytes, which this installer does not apply.
            deltaFailure = SeedUpdaterError(
                code: .invalidIndex,
                message:
                    """
                    the channel's index was published by a seedgen before content digests (no contentSha256): its \
                    deltas are of format 1, which this version does not apply; the full seed is installed instead
                    """,
                location: indexURL.absoluteString)
        } else if let current, let delta = entry.delta(from: current.seedVersion) {
            do {
                return try await patch(current, with: delta, entry: entry, schema: schema, run: run, progress: progress)
            } catch  where error.code != .cancelled && error.code != .deadline {
                // Any other failure of the delta: the full seed, once.
                deltaFailure = error
                if Task.isCancelled {
                    throw SeedUpdaterError(code: .cancelled, message: "the update was cancelled", location: path)
                }
            }
        }
        let download = ChannelDownload(
            url: url(entry.path), size: entry.size, sha256: entry.sha256,
            path: ChannelDownload.path(destination: path, sha256: entry.sha256, extension: "gz"), file: .seed)
        ChannelDownload.removeOthers(destination: path, keeping: [download.path])
        // Installing holds the download and the decompressed seed beside it.
        let needed = download.size - download.bytesOnDisk + (entry.seedSize ?? 0)
        try await attempt(download, run: run) { () throws(SeedUpdaterError) in
            try checkFreeSpace(needed, for: download)
            try await download.run(timeout: timeout, limits: run.limits, counter: run.counter, progress: progress)
            defer { try? FileManager.default.removeItem(atPath: download.path) }
            try install(download, schema: schema, entry: entry, progress: progress)
        }
        return SeedUpdateResult(
            status: .installed, seedVersion: entry.seedVersion, previousSeedVersion: installed?.seedVersion,
            schemaVersion: schema, sequence: entry.sequence, previousSequence: installed?.sequence,
            bytesDownloaded: run.counter.value, path: path, deltaFailure: deltaFailure, attempts: run.attempts)
    }

    /// The schema version to update and the index's entry for it; refused when the index is older
    /// than the installed seed.
    private func choose(
        from index: ChannelIndex, installed: InstalledSeed?
    ) throws(SeedUpdaterError) -> (Int, ChannelIndex.Entry) {
        guard
            let schema = schemaVersion ?? installed?.schemaVersion
                ?? (index.seeds.count == 1 ? index.seeds[0].schemaVersion : nil)
        else {
            throw SeedUpdaterError(
                code: .configuration,
                message:
                    """
                    the channel serves schema versions \
                    \(index.seeds.map { String($0.schemaVersion) }.joined(separator: ", ")) and nothing is \
                    installed: set the schema version the app reads
                    """,
                location: indexURL.absoluteString)
        }
        guard let entry = index.entry(schemaVersion: schema) else {
            let served =
                index.seeds.isEmpty
                ? "no seed" : "schema versions " + index.seeds.map { String($0.schemaVersion) }.joined(separator: ", ")
            throw SeedUpdaterError(
                code: .noSeedForSchema,
                message:
                    """
                    the channel has no seed for schema version \(schema) (it serves \(served)); nothing was \
                    downloaded
                    """,
                location: indexURL.absoluteString)
        }
        if let current = installed?.schemaVersion == schema ? installed : nil, let sequence = current.sequence,
            entry.sequence < sequence
        {
            throw SeedUpdaterError(
                code: .rollback,
                message:
                    """
                    the index offers sequence \(entry.sequence) (seed version \(entry.seedVersion)) but sequence \
                    \(sequence) (seed version \(current.seedVersion)) is installed: an older index (replayed?) is \
                    refused; nothing was downloaded
                    """,
                location: indexURL.absoluteString)
        }
        return (schema, entry)
    }

    /// Downloads `delta` and patches the installed seed with it. A cut download is kept (its
    /// partial file) only while it is still the file to resume: not after any other failure.
    private func patch(
        _ current: InstalledSeed, with delta: ChannelIndex.Delta, entry: ChannelIndex.Entry, schema: Int, run: Run,
        progress: (@Sendable (SeedUpdateProgress) -> Void)?
    ) async throws(SeedUpdaterError) -> SeedUpdateResult {
        let path = destination.path
        let download = ChannelDownload(
            url: url(delta.path), size: delta.size, sha256: delta.sha256,
            path: ChannelDownload.path(destination: path, sha256: delta.sha256, extension: "delta"), file: .delta)
        ChannelDownload.removeOthers(destination: path, keeping: [download.path])
        // Patching holds the delta and a copy of the seed, grown to the new seed's size.
        let needed = download.size - download.bytesOnDisk + max(current.size, entry.seedSize ?? current.size)
        do {
            try await attempt(download, run: run) { () throws(SeedUpdaterError) in
                try checkFreeSpace(needed, for: download)
                try await download.run(
                    timeout: timeout, limits: run.limits, counter: run.counter, progress: progress)
                try install(download, schema: schema, entry: entry, progress: progress)
            }
            try? FileManager.default.removeItem(atPath: download.path)
            return SeedUpdateResult(
                status: .patched, seedVersion: entry.seedVersion, previousSeedVersion: current.seedVersion,
                schemaVersion: schema, sequence: entry.sequence, previousSequence: current.sequence,
                bytesDownloaded: run.counter.value, path: path, attempts: run.attempts)
        } catch {
            // Cancelled or past the deadline, the partial delta is kept to resume.
            if error.code != .cancelled && error.code != .deadline {
                try? FileManager.default.removeItem(atPath: download.path)
            }
            throw error
        }
    }

    /// True when the installed seed's content is the one it records. A seed the install record
    /// no longer names (touched, copied, restored) is proven once and recorded again, so the
    /// next update decides without reading it; if the record cannot be written, it is proven all
    /// the same.
    private func isIntact(_ installed: InstalledSeed) -> Bool {
        if installed.isRecordedFile { return true }
        do { return try SeedInstaller.recordIntactSeed(destination: installed.path) != nil } catch {
            return installed.hasRecordedContent()
        }
    }

    /// Runs one download and its install, recording it in `run.attempts` with its bytes and
    /// its failure, if any.
    private func attempt(
        _ download: ChannelDownload, run: Run, _ body: () async throws(SeedUpdaterError) -> Void
    ) async throws(SeedUpdaterError) {
        let before = run.counter.value
        do {
            try await body()
            run.attempts.append(
                SeedUpdateAttempt(
                    file: download.file, url: download.url.absoluteString,
                    bytesDownloaded: run.counter.value - before, failure: nil))
        } catch {
            run.attempts.append(
                SeedUpdateAttempt(
                    file: download.file, url: download.url.absoluteString,
                    bytesDownloaded: run.counter.value - before, failure: error))
            throw error
        }
    }

    /// Refuses, before anything is downloaded, a download whose install would not fit in the
    /// free space beside the destination.
    private func checkFreeSpace(_ needed: Int64, for download: ChannelDownload) throws(SeedUpdaterError) {
        let folder = (download.path as NSString).deletingLastPathComponent
        guard let available = try? FileSystem.availableBytes(folder.isEmpty ? "." : folder), available < needed else {
            return
        }
        throw SeedUpdaterError(
            code: .diskFull,
            message:
                """
                not enough free space for the \
                \(download.file == .delta ? "delta and patching" : "seed and installing it"): it needs \(needed) \
                bytes, \(available) are available; nothing was downloaded
                """,
            location: folder)
    }

    /// Installs a verified download with the installer's guarantees, stamping the entry's
    /// sequence into it; the installer refuses a seed whose own stamp is not the entry's. Its
    /// progress (apply, verify) is reported as the update's.
    private func install(
        _ download: ChannelDownload, schema: Int, entry: ChannelIndex.Entry,
        progress: (@Sendable (SeedUpdateProgress) -> Void)?
    ) throws(SeedUpdaterError) {
        var installer = SeedInstaller(
            source: download.path, destination: destination.path, expectedSchemaVersion: schema)
        installer.sequence = entry.sequence
        installer.expectedSeedVersion = entry.seedVersion
        installer.expectedContentSHA256 = entry.contentSHA256
        if let progress {
            let file = download.file
            installer.progress = { step in
                progress(
                    SeedUpdateProgress(
                        file: file, phase: step.phase == .apply ? .apply : .verify,
                        bytesDone: step.bytesDone, bytesTotal: step.bytesTotal ?? step.bytesDone))
            }
        }
        do { try installer.install() } catch {
            throw SeedUpdaterError(
                code: .install, message: "the installer refused the download: \(error.code): \(error.message)",
                location: destination.path, cause: error)
        }
    }

    /// A path of the index, relative to the channel folder.
    private func url(_ path: String) -> URL {
        indexURL.deletingLastPathComponent().appendingPathComponent(path)
    }

}
