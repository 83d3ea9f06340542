import SeedKit
import Foundation
import SeedArchive
import SeedSQLite
import SeedSystem

/// Publishes a seed to a channel folder (`seedgen publish SEED --channel DIR`): what any static
/// file host or CDN can serve to `SeedUpdater`, no server code.
///
/// The folder, after publishing sequence 42 of schema version 2 with `keep` 3:
/// ```
/// index.json                      written last, atomically (see ChannelIndex)
/// index.json.sig                  with a signing key: its Ed25519 signature
/// seeds/v2/42.sqlite.gz           the packed seed (and its .manifest.json)
/// seeds/v2/39.sqlite.gz … 41      the last `keep` versions: the history deltas are made from
/// deltas/v2/39-42.delta … 41-42   a delta from each, kept when smaller than 42.sqlite.gz
/// ```
/// The folder is its own history: the packed seeds of the last `keep` versions stay in it, and
/// the next publish decompresses them to write its deltas. Keep the folder between publishes
/// (sync it down from the bucket first, or keep it as a CI cache); a fresh folder simply
/// starts without deltas.
///
/// Order, so that a client never sees an index naming a file not yet there: the packed seed
/// and the deltas are each written to a temporary file and renamed into place, then the
/// signature, then `index.json` (temporary file and rename); files the new index no longer
/// names are removed last. Publishing the seed the channel already serves changes nothing.
package struct ChannelPublisher {
    /// The channel folder (created when missing).
    package var channel: String
    /// How many earlier versions to keep and make deltas from.
    package var keep: Int
    /// Signs `index.json` when set.
    package var signingKey: ChannelSigningKey?
    /// The deflate level of the packed seed and the deltas.
    package var level: Int

    package init(channel: String, keep: Int = 3, signingKey: ChannelSigningKey? = nil, level: Int = 9) {
        self.channel = channel
        self.keep = keep
        self.signingKey = signingKey
        self.level = level
    }

    /// What publishing did.
    package struct Result: Sendable {
        /// The channel's entry for the seed's schema version, as now published.
        package var entry: ChannelIndex.Entry
        /// True when the channel already served this seed: nothing was written.
        package var unchanged: Bool
        /// Earlier versions no delta was kept from, and why.
        package var skippedDeltas: [(from: String, reason: String)]
        /// Files removed from the channel (relative paths).
        package var removed: [String]
    }

    /// Publishes `seed` (a `.sqlite` built by seedgen, or a packed `.sqlite.gz`, whose
    /// sequence, when it has one, is kept).
    package func publish(seed: String) throws(ShipError) -> Result {
        let source = try SeedFile(path: seed)
        guard source.kind != .manifest, let database = source.databasePath else {
            throw ShipError(
                code: .notASeed, path: seed,
                message: "publish takes the seed (.sqlite, or .sqlite.gz), not its manifest")
        }
        let stamp = try Self.stamp(of: database, path: seed)
        let ownSequence =
            source.gzipHeader?.comment.flatMap(SeedStamp.sequence(inComment:)) ?? source.manifest?.sequence
        try createFolder(channel)
        let indexPath = channel + "/" + ChannelIndex.fileName
        let index = try readIndex(indexPath)
        let digest = try source.digest()

        if let current = index?.entry(schemaVersion: stamp.schemaVersion), current.seedVersion == stamp.seedVersion {
            try checkSameSeed(current, digest: digest, seed: seed)
            if ownSequence == nil || ownSequence == current.sequence {
                try writeSignatureIfMissing(indexPath)
                return Result(entry: current, unchanged: true, skippedDeltas: [], removed: [])
            }
        }
        let previous = index?.entry(schemaVersion: stamp.schemaVersion)
        let sequence = ownSequence ?? (index?.lastSequence ?? 0) + 1
        if let previous, sequence <= previous.sequence {
            throw ShipError(
                code: .channel, path: seed,
                message:
                    """
                    its sequence \(sequence) is not above the channel's \(previous.sequence) (seed version \
                    \(previous.seedVersion)) for schema version \(stamp.schemaVersion): updaters would refuse it \
                    as a rollback
                    """
            )
        }

        let seedsFolder = "seeds/v\(stamp.schemaVersion)", deltasFolder = "deltas/v\(stamp.schemaVersion)"
        try createFolder(channel + "/" + seedsFolder)
        try createFolder(channel + "/" + deltasFolder)
        let packedPath = "\(seedsFolder)/\(sequence).sqlite.gz"
        var packer = SeedPacker(level: level)
        packer.sequence = sequence
        let packed = try packer.pack(seed: database, to: channel + "/" + packedPath)

        let history = try publishedSequences(in: seedsFolder).filter { $0 < sequence }.suffix(keep).reversed()
        let (deltas, skipped) = writeDeltas(
            from: Array(history), to: database, stamp: stamp, sequence: sequence, seedsFolder: seedsFolder,
            deltasFolder: deltasFolder, seedSize: packed.manifest.gzipSize)

        let entry = ChannelIndex.Entry(
            schemaVersion: stamp.schemaVersion, seedVersion: stamp.seedVersion, sequence: sequence,
            path: packedPath, size: packed.manifest.gzipSize, sha256: packed.manifest.gzipSha256, deltas: deltas,
            contentSHA256: packed.manifest.contentSHA256, seedSize: packed.manifest.size)
        let newIndex = (index ?? ChannelIndex(seeds: [])).replacing(entry)
        try writeIndex(newIndex, to: indexPath)
        let removed = try prune(
            seedsFolder: seedsFolder, deltasFolder: deltasFolder, keeping: Set([sequence] + history),
            deltas: Set(deltas.map(\.path)))
        return Result(entry: entry, unchanged: false, skippedDeltas: skipped, removed: removed)
    }

    /// A delta to the new seed from each kept older one, where it is smaller than the seed;
    /// the versions left without one, and why.
    private func writeDeltas(
        from history: [Int64], to database: String, stamp: SeedStamp, sequence: Int64, seedsFolder: String,
        deltasFolder: String, seedSize: Int64
    ) -> (deltas: [ChannelIndex.Delta], skipped: [(from: String, reason: String)]) {
        var deltas: [ChannelIndex.Delta] = [], skipped: [(from: String, reason: String)] = []
        for old in history {
            let oldPath = channel + "/\(seedsFolder)/\(old).sqlite.gz"
            let deltaPath = "\(deltasFolder)/\(old)-\(sequence).delta"
            let oldSeed: SeedFile, oldVersion: String
            do {
                oldSeed = try SeedFile(path: oldPath)
                oldVersion = try Self.stamp(of: oldSeed.databasePath ?? oldPath, path: oldPath).seedVersion
            } catch {
                skipped.append((from: "sequence \(old)", reason: error.message))
                continue
            }
            if oldVersion == stamp.seedVersion { continue }
            do {
                let summary = try SeedDeltaWriter(level: level).write(
                    old: oldSeed.databasePath ?? oldPath, new: database, to: channel + "/" + deltaPath)
                if summary.size >= seedSize {
                    _ = try? FileSystem.remove(channel + "/" + deltaPath)
                    skipped.append(
                        (
                            from: oldVersion,
                            reason:
                                """
                            the delta (\(summary.size) bytes) is not smaller than the full seed \
                            (\(seedSize) bytes)
                            """
                        ))
                } else {
                    deltas.append(
                        ChannelIndex.Delta(
                            from: oldVersion, path: deltaPath, size: summary.size, sha256: summary.sha256))
                }
            } catch {
                skipped.append((from: oldVersion, reason: error.message))
            }
        }
        return (deltas, skipped)
    }

    /// The schema and seed versions in a seed's header and metadata.
    static func stamp(of database: String, path: String) throws(ShipError) -> SeedStamp {
        do {
            let connection = try SeedFile.openReadOnly(database)
            guard let seedVersion = try connection.seedMetadata()["seed_version"] else {
                throw ShipError(
                    code: .notASeed, path: path,
                    message: "the seed has no seed_version in seedgen_metadata: was it built by seedgen?")
            }
            return SeedStamp(schemaVersion: Int(try connection.pragmaInteger("user_version")), seedVersion: seedVersion)
        } catch let error as ShipError {
            throw error
        } catch {
            throw ShipError(code: .sqlite, path: path, message: "cannot read the seed: \(error)", cause: error)
        }
    }

    private func readIndex(_ path: String) throws(ShipError) -> ChannelIndex? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do { return try ChannelIndex.decode(Array(data), source: path) } catch {
            throw ShipError(
                code: .channel, path: path, message: error.message + "; refusing to publish over it", cause: error)
        }
    }

    /// The same seed version must be the same seed: its manifest in the channel says which.
    private func checkSameSeed(_ entry: ChannelIndex.Entry, digest: FileDigest, seed: String) throws(ShipError) {
        let manifestPath = SeedManifest.path(forSeed: channel + "/" + entry.path)
        guard let manifest = try? SeedManifest.read(path: manifestPath) else { return }
        if manifest.sha256 != digest.sha256 {
            throw ShipError(
                code: .channel, path: seed,
                message:
                    """
                    the channel already serves seed version \(entry.seedVersion) with other content (SHA-256 \
                    \(manifest.sha256), this seed has \(digest.sha256)); a new seed needs a new seed version
                    """
            )
        }
    }

    /// The sequences of the packed seeds in `folder`, ascending.
    private func publishedSequences(in folder: String) throws(ShipError) -> [Int64] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: channel + "/" + folder)) ?? []
        return names.compactMap { name in
            guard name.hasSuffix(".sqlite.gz") else { return nil }
            return Int64(name.dropLast(".sqlite.gz".count))
        }.sorted()
    }

    /// Removes the packed seeds (and manifests) not in `keeping` and the deltas not in `deltas`.
    private func prune(
        seedsFolder: String, deltasFolder: String, keeping: Set<Int64>, deltas: Set<String>
    ) throws(ShipError) -> [String] {
        var removed: [String] = []
        for folder in [seedsFolder, deltasFolder] {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: channel + "/" + folder)) ?? []).sorted()
            {
                let relative = folder + "/" + name
                let isKept: Bool
                if folder == deltasFolder {
                    isKept = deltas.contains(relative)
                } else if let dot = name.firstIndex(of: "."), let sequence = Int64(name[..<dot]) {
                    isKept = keeping.contains(sequence)
                } else {
                    isKept = true // not ours
                }
                if isKept { continue }
                do { try FileSystem.remove(channel + "/" + relative) } catch {
                    throw ShipError.io(
                        path: channel + "/" + relative,
                        message: "cannot remove a file no longer published: \(error.reason)", cause: error)
                }
                removed.append(relative)
            }
        }
        return removed
    }

    /// The signature first (or an old one removed), then the index: temporary file, rename.
    private func writeIndex(_ index: ChannelIndex, to path: String) throws(ShipError) {
        let bytes = index.encoded()
        let signaturePath = channel + "/" + ChannelIndex.signatureFileName
        if let signingKey {
            try writeAtomically(signingKey.signatureFile(for: bytes), to: signaturePath)
        } else if FileManager.default.fileExists(atPath: signaturePath) {
            _ = try? FileSystem.remove(signaturePath)
        }
        try writeAtomically(bytes, to: path)
    }

    /// With a key, an unchanged index still gets its signature when it has none from this key.
    private func writeSignatureIfMissing(_ indexPath: String) throws(ShipError) {
        guard let signingKey, let index = FileManager.default.contents(atPath: indexPath) else { return }
        let signaturePath = channel + "/" + ChannelIndex.signatureFileName
        let wanted = signingKey.signatureFile(for: Array(index))
        if let existing = FileManager.default.contents(atPath: signaturePath),
            (try? ChannelPublicKey(base64: signingKey.publicKeyBase64))?.isValidSignature(
                Array(existing), for: Array(index)) == true
        {
            return
        }
        try writeAtomically(wanted, to: signaturePath)
    }

    private func writeAtomically(_ bytes: [UInt8], to path: String) throws(ShipError) {
        let temporary = ScratchFile(beside: path, kind: "publish")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes)),
            let handle = FileHandle(forWritingAtPath: temporary.path)
        else {
            throw ShipError(code: .fileSystem, path: path, message: "cannot write a temporary file beside it")
        }
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw ShipError.io(
                path: path, message: "cannot flush a temporary file beside it: \(error.localizedDescription)",
                cause: error)
        }
        do { try temporary.moveIntoPlace(at: path) } catch {
            throw ShipError.io(
                path: path, message: "cannot rename the new file into place: \(error.reason)", cause: error)
        }
    }

    private func createFolder(_ path: String) throws(ShipError) {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw ShipError.io(
                path: path, message: "cannot create the folder: \(error.localizedDescription)", cause: error)
        }
    }
}
