import SeedArchive
import SeedDeltas
import SeedSQLite

/// The last stage: records what the seed is (versions, inputs, the `--previous` chain, the
/// derive recipes), then analyzes, compacts and renames the scratch database over the output,
/// computing its content digest beside the compaction and recording it and its chunks' hashes
/// (`ContentChunkRecord`) in the compacted file (`SeedDatabase.compact`). The jobs that only
/// read the final rows (`BuildState.readers`: the GTFS checks) run beside the digest and the
/// compaction; what they find fails the build before the rename.
struct FinishStage: BuildStage {
    /// A digest of everything the content depends on: the tool, the schema, the inputs and,
    /// with `--previous`, the previous seed's version (its ids). It changes exactly when the
    /// seed's content can change.
    static func defaultSeedVersion(schema: Schema, inputs: [InputRecord], previous: String? = nil) -> String {
        var text = "seedgen \(toolVersion)\nschema \(schema.canonicalDescription)\n"
        for input in inputs.sorted(by: { $0.name < $1.name }) { text += "input \(input.name) \(input.sha256)\n" }
        if let previous { text += "previous \(previous)\n" }
        return String(SHA256.hex(of: Array(text.utf8)).prefix(16))
    }

    /// The page cache of the digest's connection (KiB), which reads beside `VACUUM INTO`.
    static let digestCacheKiB = 256

    func run(_ state: BuildState) throws {
        let connection = state.connection
        state.seedVersion =
            state.options.seedVersion
            ?? Self.defaultSeedVersion(
                schema: state.schema, inputs: state.records, previous: state.previous?.identity.seedVersion)
        try state.database.writeMetadata(
            schema: state.schema, seedVersion: state.seedVersion, inputs: state.records, extra: state.previousMetadata)
        try DeriveRecipe.write(state.recipes, to: connection)
        // The chunks' hashes wait in a scratch database of their own, not in memory.
        let spill = ScratchFile(beside: state.database.outputPath, kind: "chunks")
        defer { spill.remove() }
        let (root, readers) = try state.database.compact(
            digest: { [spillPath = spill.path] path throws(SQLiteError) in
                // It reads each b-tree once, in order, beside VACUUM's own cache: a small cache serves.
                let connection = try Connection(path: path, mode: .readOnly)
                try connection.execute("PRAGMA cache_size = -\(Self.digestCacheKiB)")
                let record = try ContentChunkRecord.Spill(path: spillPath)
                let root = try ContentDigest.root(connection, spill: record.add)
                try record.finish()
                return root
            },
            record: { [spillPath = spill.path] root, final throws(SQLiteError) in
                try ContentChunkRecord.copy(from: spillPath, to: final)
                try final.prepare("INSERT INTO seedgen_metadata (key, value) VALUES (?, ?)")
                    .run([.text(ContentDigest.metadataKey), .text(root)])
            },
            readers: state.readers,
            whileDigesting: { state.costs = QueryIndexCost.measure(state.costs, seed: $0) }, timer: state.timer
        ) { state.progress?.phase($0) }
        state.contentDigest = root
        for reader in readers { state.timer.besideCurrentStage(reader.timing) }
        state.timer.endStage("digest")
        // What a reader found (the checks: data errors) fails the build before the seed is published.
        for reader in readers { try reader.outcome.get() }
        try state.database.publish(timer: state.timer)
    }
}
