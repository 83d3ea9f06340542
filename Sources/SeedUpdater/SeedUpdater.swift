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
    private final class Run {
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
        let current = installed?.schemaVersion == schema ? installed : nil
        if let current, let sequence = current.sequence, entry.sequence < sequence {
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
            } catch  where error.code != .cancelled && error.code != .deadline {
                // Any other failure of the delta: the full seed, once. A cut download is kept
                // (its partial file) only while it is still the file to resume: not after this.
                deltaFailure = error
                try? FileManager.default.removeItem(atPath: download.path)
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

    /// Reads (or revalidates) the index and its signature, and checks both.
    private func readIndex(cachePath: String, run: Run) async throws(SeedUpdaterError) -> ChannelIndex {
        let url = indexURL
        let cached = ChannelIndexCache.read(path: cachePath, url: url.absoluteString)
        let response: HTTPTransfer.Response
        do {
            response = try await HTTPTransfer.get(
                url, headers: cached.map { ["If-None-Match": $0.etag] } ?? [:],
                sink: .memory(limit: ChannelIndex.maximumBytes), timeout: timeout,
                limits: run.limits, counter: run.counter)
        } catch {
            throw Self.error(error, url: url, limits: run.limits)
        }
        var bytes: [UInt8], signature: [UInt8]?
        if response.status == 304, let cached {
            bytes = cached.index
            signature = cached.signature
        } else if response.status == 200 {
            bytes = response.body
            signature = nil
        } else {
            throw Self.statusError(response.status, url: url)
        }
        if let publicKey {
            var signatureModified: Date?
            if signature == nil { (signature, signatureModified) = try await readSignature(run: run) }
            guard let signature, publicKey.isValidSignature(signature, for: bytes) else {
                // Usually a stale signature: a cache keeping index.json.sig longer than index.json.
                // Told apart from tampering when it signs the index read before, or is older.
                let indexModified = response.headers["last-modified"].flatMap(HTTPDate.parse)
                let signsOlderIndex =
                    cached.map { $0.index != bytes && publicKey.isValidSignature(signature ?? [], for: $0.index) }
                    ?? false
                let isOlder =
                    signatureModified.flatMap { signed in indexModified.map { $0.timeIntervalSince(signed) > 60 } }
                    ?? false
                let reason =
                    signsOlderIndex
                    ? "the signature of the index this updater read before" : "older than the index, by Last-Modified"
                let why =
                    signsOlderIndex || isOlder
                    ? """
                    it is stale \
                    (\(reason)): \
                    a cache (CDN) keeps \(ChannelIndex.signatureFileName) longer than \(ChannelIndex.fileName) \
                    (serve both with Cache-Control: no-cache), or it was not uploaded with the index
                    """
                    : "tampered, or signed with another key"
                throw SeedUpdaterError(
                    code: .badSignature,
                    message:
                        """
                        \(ChannelIndex.signatureFileName) is not the channel key's signature of \
                        \(ChannelIndex.fileName) (\(why)): refused, nothing was downloaded
                        """,
                    location: url.absoluteString)
            }
        }
        let index: ChannelIndex
        do { index = try ChannelIndex.decode(bytes, source: url.absoluteString) } catch {
            throw SeedUpdaterError(
                code: .invalidIndex, message: error.message, location: url.absoluteString, cause: error)
        }
        if response.status == 200, let etag = response.headers["etag"] {
            ChannelIndexCache(url: url.absoluteString, etag: etag, index: bytes, signature: signature).write(
                path: cachePath)
        }
        return index
    }

    /// `index.json.sig`, and when it was last modified (`Last-Modified`), if the server says.
    private func readSignature(run: Run) async throws(SeedUpdaterError) -> ([UInt8], Date?) {
        let url = indexURL.deletingLastPathComponent().appendingPathComponent(ChannelIndex.signatureFileName)
        let response: HTTPTransfer.Response
        do {
            response = try await HTTPTransfer.get(
                url, headers: [:], sink: .memory(limit: 4096), timeout: timeout, limits: run.limits,
                counter: run.counter)
        } catch {
            throw Self.error(error, url: url, limits: run.limits)
        }
        if response.status == 404 {
            throw SeedUpdaterError(
                code: .unsigned,
                message:
                    """
                    the channel's index is not signed (no \(ChannelIndex.signatureFileName)) and a public key is \
                    set: refused, nothing was downloaded
                    """,
                location: url.absoluteString)
        }
        guard response.status == 200 else { throw Self.statusError(response.status, url: url) }
        return (response.body, response.headers["last-modified"].flatMap(HTTPDate.parse))
    }

    static func statusError(_ status: Int, url: URL) -> SeedUpdaterError {
        SeedUpdaterError(
            code: .httpStatus,
            message: "the server answered HTTP \(status) (\(HTTPURLResponse.localizedString(forStatusCode: status)))",
            location: url.absoluteString, httpStatus: status)
    }

    static func error(_ failure: HTTPTransfer.Failure, url: URL, limits: HTTPTransfer.Limits) -> SeedUpdaterError {
        switch failure {
        case .cancelled:
            return SeedUpdaterError(code: .cancelled, message: "the update was cancelled", location: url.absoluteString)
        case .deadline:
            return SeedUpdaterError(
                code: .deadline,
                message:
                    """
                    the update's deadline passed during this transfer; it was stopped (what arrived of a seed or \
                    delta is kept for the next update)
                    """,
                location: url.absoluteString)
        case .stalled(let bytes, let seconds):
            return SeedUpdaterError(
                code: .stalled,
                message:
                    """
                    stalled: \(bytes) bytes in the last \(String(format: "%.0f", seconds)) s, below the minimum \
                    rate of \(limits.minimumRate) bytes/s; the transfer was stopped (what arrived is kept for the \
                    next update)
                    """,
                location: url.absoluteString)
        case .url(let error) where error.code == .timedOut:
            return SeedUpdaterError(
                code: .timeout, message: "the server did not answer in time (\(error.localizedDescription))",
                location: url.absoluteString, cause: error)
        case .url(let error):
            return SeedUpdaterError(
                code: .network,
                message: "the request failed: \(error.localizedDescription) (URLError \(error.code.rawValue))",
                location: url.absoluteString, cause: error)
        case .other(let message):
            return SeedUpdaterError(code: .network, message: message, location: url.absoluteString)
        }
    }
}
