import SeedArchive
import SeedSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The seed as shipped (`seed.sqlite.gz` or `seed.sqlite`), with its versions when they can be
/// known cheaply: from the gzip header's stamp or the manifest for a gzip file (no
/// decompression), from a few pages of the database for a plain file. A plain `gzip` of a seed
/// has neither: its versions are read from the seed once decompressed, and its identity is its
/// gzip trailer (CRC-32 and size of the content) and its file size.
struct ShippedSeed {
    let path: String
    let isCompressed: Bool
    /// The versions the shipped seed claims (checked against its content before installing);
    /// nil for an unstamped gzip without a manifest.
    let stamp: SeedStamp?
    let manifest: SeedManifest?
    let manifestPath: String?
    /// The gzip file's trailer and size: what identifies an unstamped gzip (nil for a plain file).
    let trailer: GzipTrailer?
    /// The size of the uncompressed seed when known before decompressing (manifest or plain file).
    let expectedSize: Int64?
    /// The delta, when the shipped file is one (`seedgen delta`): its stamp is its `to` seed's.
    var delta: SeedDelta? = nil
    /// The publication sequence the seed carries (gzip stamp or manifest), if any.
    var sequence: Int64? = nil

    /// Looks at the shipped seed without decompressing or reading it whole: the seed is opened
    /// once (its status, its first 4 KiB and, for gzip, its last 8 bytes), the manifest once.
    /// - Parameters:
    ///   - path: the shipped seed.
    ///   - manifestPath: its manifest; nil to use `SeedManifest.path(forSeed:)` when that exists.
    static func inspect(path: String, manifestPath: String?) throws(SeedInstallerError) -> ShippedSeed {
        let file: FileDescriptor?, status: FileStatus?, prefix: [UInt8]
        do {
            file = try FileSystem.openIfExists(path)
            status = try file?.status()
            prefix = status?.isRegularFile == true ? try file?.readBytes(prefixLength, at: 0) ?? [] : []
        } catch { throw error.installerError("cannot read the shipped seed") }
        guard let file, let status, status.isRegularFile else {
            throw SeedInstallerError(
                code: .sourceMissing,
                message: status == nil ? "the shipped seed does not exist" : "the shipped seed is not a regular file",
                path: path)
        }
        if SeedDelta.isDelta(prefix: prefix) {
            let delta = try SeedDelta.parse(prefix, path: path)
            return ShippedSeed(
                path: path, isCompressed: false,
                stamp: SeedStamp(schemaVersion: delta.schemaVersion, seedVersion: delta.to.seedVersion),
                manifest: nil, manifestPath: nil, trailer: nil, expectedSize: delta.to.size, delta: delta)
        }
        let manifestFile = manifestPath ?? SeedManifest.path(forSeed: path)
        let manifest = try readManifest(path: manifestFile, mustExist: manifestPath != nil)

        let isCompressed = prefix.starts(with: [0x1f, 0x8b])
        let stamp: SeedStamp?
        var trailer: GzipTrailer?
        var sequence = manifest?.sequence
        if isCompressed {
            let header: GzipHeader
            do throws(GzipError) {
                header = try readHeader(prefix, fileSize: status.size, path: path)
                let lastBytes: [UInt8]
                do { lastBytes = status.size >= 8 ? try file.readBytes(8, at: status.size - 8) : [] } catch {
                    throw GzipError(code: .io, message: "cannot read the gzip trailer", path: path, cause: error)
                }
                trailer = try GzipTrailer.parse(lastBytes: lastBytes, fileSize: status.size, path: path)
            } catch { throw installerError(error) }
            switch (header.stamp, manifest?.stamp) {
            case (let s?, let m?) where s != m:
                throw SeedInstallerError(
                    code: .versionMismatch,
                    message:
                        """
                        the gzip header says \(MessageText.stamp(s)) but the manifest \(manifestFile) says \
                        \(MessageText.stamp(m))
                        """,
                    path: path)
            case (let s?, _): stamp = s
            case (nil, let m): stamp = m
            }
            sequence = header.comment.flatMap(SeedStamp.sequence(inComment:)) ?? sequence
            if let manifest, manifest.gzipSize != status.size {
                throw SeedInstallerError(
                    code: .checksumMismatch,
                    message:
                        """
                        the gzip file has \(status.size) bytes but its manifest says \(manifest.gzipSize) (a \
                        cut-off or different file)
                        """,
                    path: path)
            }
        } else {
            do throws(SeedInstallerError) {
                try SeedFileCheck.checkHeader(Array(prefix.prefix(100)), path: path)
                stamp = try SeedFileCheck.readStamp(path)
            } catch {
                throw error.code == .notSQLite || error.code == .notASeed ? error.withPackHint() : error
            }
            if let manifest, let stamp {
                if manifest.stamp != stamp {
                    throw SeedInstallerError(
                        code: .versionMismatch,
                        message:
                            """
                            the seed has \(MessageText.stamp(stamp)) but the manifest \(manifestFile) says \
                            \(MessageText.stamp(manifest.stamp))
                            """,
                        path: path)
                }
                if manifest.size != status.size {
                    throw SeedInstallerError(
                        code: .checksumMismatch,
                        message: "the seed has \(status.size) bytes but its manifest says \(manifest.size)", path: path)
                }
            }
        }
        return ShippedSeed(
            path: path, isCompressed: isCompressed, stamp: stamp, manifest: manifest,
            manifestPath: manifest == nil ? nil : manifestFile, trailer: trailer,
            expectedSize: manifest?.size ?? (isCompressed ? nil : status.size), sequence: sequence)
    }

    /// How much of the seed is read to tell gzip from SQLite and parse a gzip header: a seedgen
    /// header (its stamp) takes well under 1 KiB.
    static let prefixLength = 4096

    /// The gzip header from the file's first bytes; a header longer than those (a huge name or
    /// comment, never seedgen's) is read from the file.
    private static func readHeader(_ prefix: [UInt8], fileSize: Int64, path: String) throws(GzipError) -> GzipHeader {
        do { return try GzipHeader.parse(prefix, path: path) } catch
            where error.code == .truncated && fileSize > Int64(prefix.count)
        {
            return try GzipHeader.read(path: path)
        }
    }

    /// The manifest at `path`; nil when there is none and none was asked for.
    private static func readManifest(path: String, mustExist: Bool) throws(SeedInstallerError) -> SeedManifest? {
        // Read here, not with SeedManifest.read, so a failure carries its errno, and bounded: a
        // manifest is a few hundred bytes, so a huge file is a wrong one.
        let bytes: [UInt8]?
        do { bytes = try FileSystem.readSmallFile(path, limit: manifestLimit) } catch {
            if error.errno == EFBIG {
                let size = (try? FileSystem.status(path))??.size.description ?? "more than \(manifestLimit)"
                throw SeedInstallerError(
                    code: .invalidManifest,
                    message: "the manifest has \(size) bytes, more than the \(manifestLimit) a seed manifest can need",
                    path: path)
            }
            throw error.installerError("cannot read the manifest")
        }
        guard let bytes else {
            if !mustExist { return nil }
            throw SeedInstallerError(code: .sourceMissing, message: "the manifest does not exist", path: path)
        }
        do { return try SeedManifest.decode(bytes, path: path, readingTables: false) } catch {
            throw SeedInstallerError(
                code: .invalidManifest, message: MessageText.value(error.message), path: path, cause: error)
        }
    }

    /// The largest manifest read (one per table plus a few fields: far less in practice).
    static let manifestLimit = 4 << 20

    /// Maps a gzip failure to the installer's codes.
    static func installerError(_ error: GzipError) -> SeedInstallerError {
        let code: SeedInstallerError.Code
        switch error.code {
        case .truncated: code = .truncated
        case .io: code = error.cause?.isOutOfSpace == true ? .diskFull : .fileSystem
        case .notGzip: code = .notSQLite
        default: code = .corrupt
        }
        var message = error.message
        if let offset = error.offset { message += " (at byte \(offset) of the gzip file)" }
        return SeedInstallerError(
            code: code, message: message, path: error.path, systemError: error.cause?.text, errno: error.cause?.errno,
            cause: error)
    }
}
