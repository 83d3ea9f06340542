import SeedKit
import Foundation
import SeedArchive
import SeedSQLite

/// A seed named on the command line, recognised by its first bytes: a SQLite file, a gzip
/// file (`seed.sqlite.gz`) or a manifest (`seed.sqlite.manifest.json`), with the files that go
/// with it.
///
/// A gzip file is decompressed (streamed) into a temporary file, which is removed when the
/// `SeedFile` is released. The manifest beside the seed (`SeedManifest.path(forSeed:)`) is
/// read when present.
package final class SeedFile {
    /// What kind of file was named.
    package enum Kind: String, Codable, Sendable {
        case sqlite
        case gzip
        case manifest
    }

    /// The path as given.
    package let path: String
    package let kind: Kind
    /// The SQLite database to open: `path` itself, or the decompressed copy of a gzip file;
    /// nil when only a manifest was named and no seed lies beside it.
    package let databasePath: String?
    /// The gzip file, when the seed is gzipped (named, or found beside a named manifest).
    package let gzipPath: String?
    /// The gzip header of `gzipPath`.
    package let gzipHeader: GzipHeader?
    /// The manifest file, when there is one.
    package let manifestPath: String?
    package let manifest: SeedManifest?
    /// Size and SHA-256 of the uncompressed seed, when known without rereading it.
    package private(set) var databaseDigest: FileDigest?
    /// The decompressed copy of a gzip file, removed with this `SeedFile`.
    private let temporary: ScratchFile?

    /// Recognises `path` and prepares it for reading.
    /// - Parameters:
    ///   - path: a `.sqlite`, `.sqlite.gz` or `.manifest.json` file.
    ///   - manifestPath: the manifest to use instead of the one beside the seed.
    ///   - findSeedBesideManifest: when `path` is a manifest, also open the seed beside it
    ///     (`x.sqlite.gz`, else `x.sqlite`).
    package init(path: String, manifestPath: String? = nil, findSeedBesideManifest: Bool = true) throws(ShipError) {
        self.path = path
        let kind = try Self.kind(of: path)
        self.kind = kind
        var seedPath: String? = path
        if kind == .manifest {
            self.manifestPath = manifestPath ?? path
            let base = path.hasSuffix(".manifest.json") ? String(path.dropLast(".manifest.json".count)) : nil
            seedPath = nil
            if findSeedBesideManifest, let base {
                seedPath = [base + ".gz", base].first { FileManager.default.fileExists(atPath: $0) }
            }
        } else {
            let beside = SeedManifest.path(forSeed: path)
            self.manifestPath = manifestPath ?? (FileManager.default.fileExists(atPath: beside) ? beside : nil)
        }
        if let manifestPath = self.manifestPath {
            do { manifest = try SeedManifest.read(path: manifestPath) } catch {
                throw ShipError(code: .invalidFile, path: manifestPath, message: error.message, cause: error)
            }
        } else {
            manifest = nil
        }

        guard let seedPath else {
            databasePath = nil; gzipPath = nil; gzipHeader = nil; temporary = nil
            return
        }
        if try Self.kind(of: seedPath) == .gzip {
            gzipPath = seedPath
            do { gzipHeader = try GzipHeader.read(path: seedPath) } catch {
                throw ShipError(code: .invalidFile, path: seedPath, message: error.message, cause: error)
            }
            // Dropped (and removed) with this SeedFile, or at once when decompressing fails.
            let temporary = ScratchFile(
                folder: NSTemporaryDirectory(), name: URL(fileURLWithPath: seedPath).lastPathComponent, kind: "read")
            databaseDigest = try Self.decompress(seedPath, to: temporary.path)
            databasePath = temporary.path
            self.temporary = temporary
        } else {
            gzipPath = nil; gzipHeader = nil; temporary = nil
            databasePath = seedPath
        }
    }

    /// Opens the database read-only, without creating `-wal` or `-shm` files beside it.
    package func open() throws(ShipError) -> Connection {
        guard let databasePath else {
            throw ShipError(code: .notASeed, path: path, message: "there is no seed beside this manifest")
        }
        return try SeedFile.openReadOnly(databasePath)
    }

    /// Size and SHA-256 of the uncompressed seed (computed once, streamed).
    package func digest() throws(ShipError) -> FileDigest {
        if let databaseDigest { return databaseDigest }
        guard let databasePath else {
            throw ShipError(code: .notASeed, path: path, message: "there is no seed beside this manifest")
        }
        let digest = try Self.digest(of: databasePath)
        databaseDigest = digest
        return digest
    }

    /// Opens a seed read-only and immutable (`file:...?immutable=1`), so that inspecting it
    /// never writes beside it, even when it is in WAL mode or on read-only media. Falls back
    /// to a plain read-only open where SQLite does not take URI file names.
    static func openReadOnly(_ path: String) throws(ShipError) -> Connection {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ShipError(code: .fileSystem, path: path, message: "no such file")
        }
        if let connection = try? Connection(path: Connection.uri(path, immutable: true), mode: .readOnly),
            (try? connection.scalar("SELECT count(*) FROM sqlite_schema")) != nil
        {
            return connection
        }
        do {
            let connection = try Connection(path: path, mode: .readOnly)
            _ = try connection.scalar("SELECT count(*) FROM sqlite_schema")
            return connection
        } catch {
            throw ShipError(
                code: .notASeed, path: path, message: "not a readable SQLite database (\(error.message))", cause: error)
        }
    }

    /// What the first bytes of `path` say it is.
    static func kind(of path: String) throws(ShipError) -> Kind {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ShipError(code: .fileSystem, path: path, message: exists ? "cannot read the file" : "no such file")
        }
        defer { try? handle.close() }
        let head = Array((try? handle.read(upToCount: 16)) ?? Data())
        if head.starts(with: Array("SQLite format 3\u{0}".utf8)) { return .sqlite }
        if head.starts(with: [0x1f, 0x8b]) { return .gzip }
        if head.first(where: { ![0x20, 0x09, 0x0a, 0x0d].contains($0) }) == UInt8(ascii: "{") { return .manifest }
        throw ShipError(
            code: .notASeed, path: path,
            message: "not a seed: neither a SQLite database, a gzip file nor a JSON manifest")
    }

    private static func decompress(_ path: String, to output: String) throws(ShipError) -> FileDigest {
        guard FileManager.default.createFile(atPath: output, contents: nil),
            let handle = FileHandle(forWritingAtPath: output)
        else {
            throw ShipError(
                code: .fileSystem, path: output, message: "cannot create a temporary file to decompress \(path) into")
        }
        defer { try? handle.close() }
        let reader: GzipReader
        do { reader = try GzipReader(path: path) } catch {
            throw ShipError(code: .invalidFile, path: path, message: error.message, cause: error)
        }
        var hash = SHA256()
        var size: Int64 = 0
        do {
            try reader.forEachChunk { (bytes: UnsafeRawBufferPointer) throws in
                hash.update(bytes)
                size += Int64(bytes.count)
                try handle.write(contentsOf: Data(bytes))
            }
        } catch {
            switch error {
            case .gzip(let gzip):
                throw ShipError(
                    code: .invalidFile, path: path,
                    message: gzip.message + (gzip.offset.map { " (at byte \($0))" } ?? ""), cause: gzip)
            case .body(let failure):
                throw ShipError.io(
                    path: output, message: "cannot write the decompressed seed: \(failure)", cause: failure)
            }
        }
        return FileDigest(size: size, sha256: hash.hexDigest())
    }
}

extension SeedFile {
    /// The size and SHA-256 of the file at `path` (SeedArchive's ``FileDigest``), a failure as
    /// the builder's error.
    static func digest(of path: String) throws(ShipError) -> FileDigest {
        do { return try FileDigest(path: path) } catch {
            if error.call == "open" {
                throw ShipError(code: .fileSystem, path: path, message: "cannot read the file", cause: error)
            }
            throw ShipError.io(path: path, message: "cannot read the file: \(error.reason)", cause: error)
        }
    }
}
