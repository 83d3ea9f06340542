import SeedKit
import Foundation
import SeedArchive
import SeedDeltas
import SeedSQLite
import SeedSystem

/// Packs a seed for shipping: `seed.sqlite` becomes `seed.sqlite.gz` (deterministic gzip, its
/// header stamped with the seed's versions) and `seed.sqlite.manifest.json` beside it.
///
/// The seed must pass `PRAGMA quick_check` first: the manifest then vouches for a sound file,
/// and an installer whose copy matches the manifest's size and SHA-256 need not read it again.
/// The gzip is streamed into a temporary file next to the output and renamed into place when
/// complete; the manifest is written after it, so a manifest never describes a missing or
/// partial gzip. The same seed and level always give the same bytes.
package struct SeedPacker {
    /// The deflate level, 0 (store) to 9 (smallest, the default).
    package var level: Int
    /// The publication sequence to record (gzip comment and manifest), or nil: see
    /// `SeedStamp.comment(sequence:)`. An installer keeps an installed seed of a higher sequence.
    package var sequence: Int64?

    package init(level: Int = 9, sequence: Int64? = nil) {
        self.level = level
        self.sequence = sequence
    }

    /// What was written.
    package struct Result: Sendable {
        package var gzipPath: String
        package var manifestPath: String
        package var manifest: SeedManifest
    }

    /// The default output of `pack`: the seed's path with `.gz` appended.
    package static func defaultOutput(forSeed seed: String) -> String { seed + ".gz" }

    /// What the manifest records of a seed: its versions, rows per table, metadata and content
    /// digest, after SQLite's quick_check and a check of the recorded digest.
    private static func read(
        _ seed: String
    ) throws(ShipError) -> (SeedStamp, [String: Int64], [String: String], String) {
        let stamp: SeedStamp, tables: [String: Int64], metadata: [String: String], content: String
        do {
            let connection = try SeedFile.openReadOnly(seed)
            metadata = try connection.seedMetadata()
            guard let seedVersion = metadata["seed_version"] else {
                throw ShipError(
                    code: .notASeed, path: seed,
                    message: "the seed has no seed_version in seedgen_metadata: was it built by seedgen?")
            }
            stamp = SeedStamp(
                schemaVersion: Int(try connection.pragmaInteger("user_version")), seedVersion: seedVersion)
            tables = try connection.seedRowCounts()
            // The manifest vouches for the seed: an installer whose decompressed file matches its
            // size and SHA-256 skips its own quick_check. So check here, once, before shipping.
            let problems = try connection.rows("PRAGMA quick_check(20)").compactMap { $0.first?.text }
            guard problems == ["ok"] else {
                throw ShipError(
                    code: .damaged, path: seed,
                    message:
                        """
                        the seed fails SQLite's quick_check, it is damaged: \
                        \(problems.prefix(3).joined(separator: "; "))
                        """
                )
            }
            // The manifest names the seed by its content: what it records must be what it holds.
            content = try ContentDigest.compute(connection)
            if let recorded = metadata[ContentDigest.metadataKey], recorded != content {
                throw ShipError(
                    code: .damaged, path: seed,
                    message:
                        """
                        the seed records content digest \(recorded) but its content gives \(content): it was \
                        changed after it was built; build it again
                        """
                )
            }
        } catch let error as ShipError {
            throw error
        } catch {
            throw ShipError(code: .sqlite, path: seed, message: "cannot read the seed: \(error)", cause: error)
        }
        return (stamp, tables, metadata, content)
    }

    /// Packs the SQLite seed at `seed` into `output` (default `seed` + `.gz`) and writes the
    /// manifest beside it.
    package func pack(seed: String, to output: String? = nil) throws(ShipError) -> Result {
        let output = output ?? Self.defaultOutput(forSeed: seed)
        guard try SeedFile.kind(of: seed) == .sqlite else {
            throw ShipError(
                code: .notASeed, path: seed,
                message: "not a SQLite seed (pack takes the .sqlite file that seedgen build wrote)")
        }
        guard !(try SeedHeader(path: seed).isWAL) else {
            throw ShipError(
                code: .notASeed, path: seed,
                message: "the seed is in WAL mode; a shipped seed must use a rollback journal (see seedgen verify)")
        }
        let (stamp, tables, metadata, content) = try Self.read(seed)
        guard stamp.isValid else {
            throw ShipError(
                code: .invalidSeedVersion, path: seed,
                message:
                    """
                    the seed version \(stamp.seedVersion.debugDescription) cannot be stamped: use printable ASCII \
                    without spaces
                    """
            )
        }

        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ShipError(code: .fileSystem, path: output, message: "the folder \(folder) does not exist")
        }
        let temporary = ScratchFile(beside: output, kind: "pack")
        let summary = try compress(seed, into: temporary.path, comment: stamp.comment(sequence: sequence))
        do { try temporary.moveIntoPlace(at: output) } catch {
            throw ShipError.io(
                path: output, message: "cannot rename the gzip file into place: \(error.reason)", cause: error)
        }
        var manifest = SeedManifest(
            stamp: stamp, summary: summary, tables: tables,
            toolVersion: metadata["tool_version"], schemaName: metadata["schema_name"])
        manifest.sequence = sequence
        manifest.contentSHA256 = content
        let manifestPath = SeedManifest.path(forSeed: output)
        do { try manifest.write(path: manifestPath) } catch {
            throw ShipError(code: .invalidFile, path: manifestPath, message: error.message, cause: error)
        }
        return Result(gzipPath: output, manifestPath: manifestPath, manifest: manifest)
    }

    private func compress(_ seed: String, into path: String, comment: String) throws(ShipError) -> GzipSummary {
        guard let input = FileHandle(forReadingAtPath: seed) else {
            throw ShipError(code: .fileSystem, path: seed, message: "cannot read the seed")
        }
        defer { try? input.close() }
        do {
            let writer = try GzipWriter(path: path, level: level, comment: comment)
            while let chunk = try read(input, seed), !chunk.isEmpty {
                try writer.write(Array(chunk))
            }
            return try writer.finish()
        } catch {
            // Writing the gzip file: a full disk or another failed write (`error.cause`).
            let message = error.message + (error.cause.map { ": \($0.text)" } ?? "")
            if let cause = error.cause { throw ShipError.io(path: error.path, message: message, cause: cause) }
            throw ShipError(code: .fileSystem, path: error.path, message: message, cause: error)
        }
    }

    private func read(_ input: FileHandle, _ seed: String) throws(GzipError) -> Data? {
        do { return try input.read(upToCount: 1 << 20) } catch {
            throw GzipError(code: .io, message: "cannot read the seed: \(error.localizedDescription)", path: seed)
        }
    }
}
