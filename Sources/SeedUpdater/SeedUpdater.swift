import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SeedArchive
import SeedInstaller

/// Keeps an installed seed up to date from a channel (`seedgen publish`): any static file host
/// or CDN serving the channel folder.
///
/// ```swift
/// let updater = SeedUpdater(channel: URL(string: "https://cdn.example.com/seeds/")!,
///                           destination: appData.appendingPathComponent("seed.sqlite"),
///                           schemaVersion: 3,
///                           publicKey: try ChannelPublicKey(base64: "…"))
/// let result = try await updater.update()   // up-to-date, installed or patched
/// ```
///
/// One call:
/// 1. Takes the updaters' lock (`<dest>.seedgen-update-lock`): updaters of the same
///    destination take turns, and those that waited find the seed up to date.
/// 2. Reads `index.json` (with `If-None-Match`: an unchanged index is not transferred again).
///    With ``publicKey``, refuses an index without `index.json.sig` or whose signature is not
///    the key's. Refuses an index whose sequence for the schema version is lower than the
///    installed seed's (an older index replayed: no rollback).
/// 3. Picks the entry of ``schemaVersion`` (or of the installed seed's schema version); none is
///    an error, before anything is downloaded.
/// 4. Up to date when the installed seed is that entry's seed version. Otherwise downloads the
///    delta from the installed seed when the channel has one, else the full `.gz`: into a
///    partial file beside the destination, resumed with `Range` after an interruption, checked
///    against the index's size and SHA-256, then installed by ``SeedInstaller`` (lock,
///    temporary file, verification, sidecars removed, atomic rename, crash-safe). A delta that
///    fails in any way (download, checksum, applying) is followed by the full seed, once.
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
    public var publicKey: ChannelPublicKey?
    /// Seconds without data before a request fails with `.timeout`.
    public var timeout: TimeInterval

    /// - Parameters:
    ///   - channel: the channel folder's URL (`https://…/seeds/`) or its `index.json`.
    ///   - destination: where the seed is installed (a file URL).
    ///   - schemaVersion: the app's schema version (recommended).
    ///   - publicKey: the channel's public key; nil accepts unsigned indexes.
    ///   - timeout: seconds without data before a request fails (default 30).
    public init(channel: URL, destination: URL, schemaVersion: Int? = nil, publicKey: ChannelPublicKey? = nil, timeout: TimeInterval = 30) {
        self.channel = channel
        self.destination = destination
        self.schemaVersion = schemaVersion
        self.publicKey = publicKey
        self.timeout = timeout
    }

    /// The URL of `index.json`.
    public var indexURL: URL {
        channel.lastPathComponent == ChannelIndex.fileName ? channel : channel.appendingPathComponent(ChannelIndex.fileName)
    }

    /// Brings the installed seed up to date (see the type's documentation).
    /// - Parameter progress: called with the bytes done of the file being downloaded.
    /// - Returns: `.upToDate`, `.installed` or `.patched`, with the versions and bytes downloaded.
    /// - Throws: ``SeedUpdaterError``; the installed seed is unchanged.
    @discardableResult
    public func update(progress: (@Sendable (SeedUpdateProgress) -> Void)? = nil) async throws(SeedUpdaterError) -> SeedUpdateResult {
        let path = destination.path
        let folder = (path as NSString).deletingLastPathComponent
        do { try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true) } catch {
            throw SeedUpdaterError(code: .fileSystem, message: "cannot create the destination folder: \(error.localizedDescription)", location: folder)
        }
        let lock = try await UpdateLock.acquire(path: path + ".seedgen-update-lock")
        defer { withExtendedLifetime(lock) {} }

        let installed = InstalledSeed.read(destination: path)
        let index = try await readIndex(cachePath: path + ".seedgen-channel")
        guard let schema = schemaVersion ?? installed?.schemaVersion ?? (index.seeds.count == 1 ? index.seeds[0].schemaVersion : nil) else {
            throw SeedUpdaterError(code: .configuration, message: "the channel serves schema versions \(index.seeds.map { String($0.schemaVersion) }.joined(separator: ", ")) and nothing is installed: set the schema version the app reads", location: indexURL.absoluteString)
        }
        guard let entry = index.entry(schemaVersion: schema) else {
            let served = index.seeds.isEmpty ? "no seed" : "schema versions " + index.seeds.map { String($0.schemaVersion) }.joined(separator: ", ")
            throw SeedUpdaterError(code: .noSeedForSchema, message: "the channel has no seed for schema version \(schema) (it serves \(served)); nothing was downloaded", location: indexURL.absoluteString)
        }
        let current = installed?.schemaVersion == schema ? installed : nil
        if let current, let sequence = current.sequence, entry.sequence < sequence {
            throw SeedUpdaterError(code: .rollback, message: "the index offers sequence \(entry.sequence) (seed version \(entry.seedVersion)) but sequence \(sequence) (seed version \(current.seedVersion)) is installed: an older index (replayed?) is refused; nothing was downloaded", location: indexURL.absoluteString)
        }
        if let current, current.seedVersion == entry.seedVersion {
            ChannelDownload.removeOthers(destination: path, keeping: [])
            return SeedUpdateResult(status: .upToDate, seedVersion: entry.seedVersion, previousSeedVersion: nil, schemaVersion: schema,
                                    sequence: current.sequence ?? entry.sequence, bytesDownloaded: 0, path: path)
        }

        var bytes: Int64 = 0
        var deltaFailure: String?
        if let current, entry.delta(from: current.seedVersion) != nil, entry.contentSHA256 == nil {
            // An index from a seedgen before content digests: its deltas name seeds by their
            // files' bytes, which this installer does not apply.
            deltaFailure = "the channel's index was published by a seedgen before content digests (no contentSha256): its deltas are of format 1, which this version does not apply; the full seed is installed instead"
        } else if let current, let delta = entry.delta(from: current.seedVersion) {
            let download = ChannelDownload(url: url(delta.path), size: delta.size, sha256: delta.sha256,
                                           path: ChannelDownload.path(destination: path, sha256: delta.sha256, extension: "delta"), file: .delta)
            ChannelDownload.removeOthers(destination: path, keeping: [download.path])
            do {
                bytes += try await download.run(timeout: timeout, progress: progress)
                try install(download.path, schema: schema, sequence: entry.sequence)
                try? FileManager.default.removeItem(atPath: download.path)
                return SeedUpdateResult(status: .patched, seedVersion: entry.seedVersion, previousSeedVersion: current.seedVersion,
                                        schemaVersion: schema, sequence: entry.sequence, bytesDownloaded: bytes, path: path)
            } catch where error.code != .cancelled {
                // Any failure of the delta: the full seed, once. A cut download is kept (its
                // partial file) only while it is still the file to resume: not after this.
                deltaFailure = error.description
                try? FileManager.default.removeItem(atPath: download.path)
                if Task.isCancelled { throw SeedUpdaterError(code: .cancelled, message: "the update was cancelled", location: path) }
            }
        }
        let download = ChannelDownload(url: url(entry.path), size: entry.size, sha256: entry.sha256,
                                       path: ChannelDownload.path(destination: path, sha256: entry.sha256, extension: "gz"), file: .seed)
        ChannelDownload.removeOthers(destination: path, keeping: [download.path])
        bytes += try await download.run(timeout: timeout, progress: progress)
        defer { try? FileManager.default.removeItem(atPath: download.path) }
        try install(download.path, schema: schema, sequence: entry.sequence)
        return SeedUpdateResult(status: .installed, seedVersion: entry.seedVersion, previousSeedVersion: installed?.seedVersion,
                                schemaVersion: schema, sequence: entry.sequence, bytesDownloaded: bytes, path: path, deltaFailure: deltaFailure)
    }

    /// Installs a verified download with the installer's guarantees, recording its sequence.
    private func install(_ file: String, schema: Int, sequence: Int64) throws(SeedUpdaterError) {
        var installer = SeedInstaller(source: file, destination: destination.path, expectedSchemaVersion: schema)
        installer.sequence = sequence
        do { try installer.install() } catch {
            throw SeedUpdaterError(code: .install, message: "the installer refused the download: \(error.code): \(error.message)", location: destination.path, installerError: error)
        }
    }

    /// A path of the index, relative to the channel folder.
    private func url(_ path: String) -> URL {
        indexURL.deletingLastPathComponent().appendingPathComponent(path)
    }

    /// Reads (or revalidates) the index and its signature, and checks both.
    private func readIndex(cachePath: String) async throws(SeedUpdaterError) -> ChannelIndex {
        let url = indexURL
        let cached = ChannelIndexCache.read(path: cachePath, url: url.absoluteString)
        let response: HTTPTransfer.Response
        do {
            response = try await HTTPTransfer.get(url, headers: cached.map { ["If-None-Match": $0.etag] } ?? [:],
                                                  sink: .memory(limit: ChannelIndex.maximumBytes), timeout: timeout)
        } catch {
            throw Self.error(error, url: url)
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
            if signature == nil { signature = try await readSignature() }
            guard let signature, publicKey.isValidSignature(signature, for: bytes) else {
                throw SeedUpdaterError(code: .badSignature, message: "\(ChannelIndex.signatureFileName) is not the channel key's signature of \(ChannelIndex.fileName) (tampered, or signed with another key): refused, nothing was downloaded", location: url.absoluteString)
            }
        }
        let index: ChannelIndex
        do { index = try ChannelIndex.decode(bytes, source: url.absoluteString) } catch {
            throw SeedUpdaterError(code: .invalidIndex, message: error.message, location: url.absoluteString)
        }
        if response.status == 200, let etag = response.headers["etag"] {
            ChannelIndexCache(url: url.absoluteString, etag: etag, index: bytes, signature: signature).write(path: cachePath)
        }
        return index
    }

    private func readSignature() async throws(SeedUpdaterError) -> [UInt8] {
        let url = indexURL.deletingLastPathComponent().appendingPathComponent(ChannelIndex.signatureFileName)
        let response: HTTPTransfer.Response
        do { response = try await HTTPTransfer.get(url, headers: [:], sink: .memory(limit: 4096), timeout: timeout) } catch {
            throw Self.error(error, url: url)
        }
        if response.status == 404 {
            throw SeedUpdaterError(code: .unsigned, message: "the channel's index is not signed (no \(ChannelIndex.signatureFileName)) and a public key is set: refused, nothing was downloaded", location: url.absoluteString)
        }
        guard response.status == 200 else { throw Self.statusError(response.status, url: url) }
        return response.body
    }

    static func statusError(_ status: Int, url: URL) -> SeedUpdaterError {
        SeedUpdaterError(code: .httpStatus, message: "the server answered HTTP \(status) (\(HTTPURLResponse.localizedString(forStatusCode: status)))", location: url.absoluteString, httpStatus: status)
    }

    static func error(_ failure: HTTPTransfer.Failure, url: URL) -> SeedUpdaterError {
        switch failure {
        case .cancelled:
            return SeedUpdaterError(code: .cancelled, message: "the update was cancelled", location: url.absoluteString)
        case .url(let error) where error.code == .timedOut:
            return SeedUpdaterError(code: .timeout, message: "the server did not answer in time (\(error.localizedDescription))", location: url.absoluteString)
        case .url(let error):
            return SeedUpdaterError(code: .network, message: "the request failed: \(error.localizedDescription) (URLError \(error.code.rawValue))", location: url.absoluteString)
        case .other(let message):
            return SeedUpdaterError(code: .network, message: message, location: url.absoluteString)
        }
    }
}
