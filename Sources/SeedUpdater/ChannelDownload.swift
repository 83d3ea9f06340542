import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SeedArchive

/// Downloads one file the index names into a partial file beside the destination,
/// `.<seed name>.seedgen-download-<first 16 hex digits of its SHA-256>.<gz|delta>`, resuming
/// (HTTP `Range`) from what an interrupted download left there, and checks its size and
/// SHA-256 against the index before it is used. A file that fails the check is removed, so the
/// next download starts over; a cut connection keeps it, so the next one resumes.
struct ChannelDownload {
    var url: URL
    var size: Int64
    var sha256: String
    var path: String
    var file: SeedUpdateProgress.File

    /// The partial file's path for a file of `sha256` beside `destination`.
    static func path(destination: String, sha256: String, extension: String) -> String {
        let folder = (destination as NSString).deletingLastPathComponent,
            name = (destination as NSString).lastPathComponent
        return (folder.isEmpty ? "." : folder) + "/" + prefix(name) + sha256.prefix(16) + "." + `extension`
    }

    static func prefix(_ seedName: String) -> String { ".\(seedName).seedgen-download-" }

    /// Removes downloads left beside `destination` other than `keeping` (files of an older index).
    static func removeOthers(destination: String, keeping: Set<String>) {
        let folder = (destination as NSString).deletingLastPathComponent,
            name = (destination as NSString).lastPathComponent
        let directory = folder.isEmpty ? "." : folder
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where entry.hasPrefix(prefix(name)) {
            let path = directory + "/" + entry
            if !keeping.contains(path) { try? FileManager.default.removeItem(atPath: path) }
        }
    }

    /// Bytes already on disk from an interrupted download of this file (0 when none, or when
    /// what is there cannot be a start of it).
    var bytesOnDisk: Int64 {
        let onDisk = fileSize()
        return onDisk <= size ? onDisk : 0
    }

    /// Downloads what is missing and checks the whole file. Every body byte received is added
    /// to `counter`, whatever the outcome.
    func run(
        timeout: TimeInterval, limits: HTTPTransfer.Limits, counter: HTTPTransfer.ByteCount,
        progress: (@Sendable (SeedUpdateProgress) -> Void)?
    ) async throws(SeedUpdaterError) {
        var onDisk = fileSize()
        if onDisk > size {
            try? FileManager.default.removeItem(atPath: path)
            onDisk = 0
        }
        if onDisk < size {
            try await fetch(from: onDisk, timeout: timeout, limits: limits, counter: counter, progress: progress)
        }
        progress?(SeedUpdateProgress(file: file, phase: .verify, bytesDone: size, bytesTotal: size))
        try verify()
    }

    private func fetch(
        from offset: Int64, timeout: TimeInterval, limits: HTTPTransfer.Limits, counter: HTTPTransfer.ByteCount,
        progress: (@Sendable (SeedUpdateProgress) -> Void)?
    ) async throws(SeedUpdaterError) {
        if offset == 0 { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw SeedUpdaterError(
                code: .fileSystem, message: "cannot write the download beside the seed", location: path)
        }
        defer { try? handle.close() }
        do { try handle.seekToEnd() } catch {
            throw SeedUpdaterError(
                code: .fileSystem, message: "cannot write the download: \(error.localizedDescription)", location: path)
        }
        let (file, total) = (self.file, size)
        progress?(SeedUpdateProgress(file: file, bytesDone: offset, bytesTotal: total))
        let response: HTTPTransfer.Response
        do {
            response = try await HTTPTransfer.get(
                url, headers: [:], sink: .file(handle, offset: offset), timeout: timeout,
                limits: limits, counter: counter
            ) { done in
                progress?(SeedUpdateProgress(file: file, bytesDone: done, bytesTotal: total))
            }
        } catch {
            throw SeedUpdater.error(error, url: url, limits: limits)
        }
        guard response.status == 200 || response.status == 206 else {
            if response.status == 416 { try? FileManager.default.removeItem(atPath: path) }
            throw SeedUpdater.statusError(response.status, url: url)
        }
    }

    /// Size, then SHA-256 of the whole file; a mismatch removes it.
    private func verify() throws(SeedUpdaterError) {
        let onDisk = fileSize()
        guard onDisk == size else {
            if onDisk > size { try? FileManager.default.removeItem(atPath: path) }
            throw SeedUpdaterError(
                code: onDisk < size ? .network : .checksumMismatch,
                message: "received \(onDisk) of \(size) bytes (the connection ended early; the next update resumes)",
                location: url.absoluteString)
        }
        let digest: String
        do { digest = try FileDigest(path: path).sha256 } catch {
            throw SeedUpdaterError(code: .fileSystem, message: "cannot read the download", location: path, cause: error)
        }
        guard digest == sha256 else {
            try? FileManager.default.removeItem(atPath: path)
            throw SeedUpdaterError(
                code: .checksumMismatch,
                message: "the file has SHA-256 \(digest) but the index says \(sha256); it was removed",
                location: url.absoluteString)
        }
    }

    private func fileSize() -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
