import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SeedArchive
import SeedInstaller
import SeedSystem

/// Reading the channel's index and its signature, and naming what went wrong over HTTP.
extension SeedUpdater {
    /// Reads (or revalidates) the index and its signature, and checks both.
    func readIndex(cachePath: String, run: Run) async throws(SeedUpdaterError) -> ChannelIndex {
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
    func readSignature(run: Run) async throws(SeedUpdaterError) -> ([UInt8], Date?) {
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
