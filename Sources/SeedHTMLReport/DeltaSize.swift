import Foundation
import SeedArchive
import SeedKit
import SeedShip

/// The size of the delta from a previous seed (as `seedgen delta` writes it, level 9, not
/// verified) against the size of the full seed gzipped (the `.gz` beside it when there is one,
/// else compressed here at level 9): what an update saves. Both are written to scratch files
/// beside the report and removed.
struct DeltaSize {
    var delta: Int64
    var gzip: Int64

    static func measure(old: String, new: String, scratchBeside out: String) throws(ShipError) -> DeltaSize {
        let deltaPath = out + ".delta.scratch", gzipPath = out + ".gz.scratch"
        defer {
            try? FileManager.default.removeItem(atPath: deltaPath)
            try? FileManager.default.removeItem(atPath: gzipPath)
        }
        let delta = try SeedDeltaWriter(level: 9, verify: false).write(old: old, new: new, to: deltaPath)
        if let size = (try? FileManager.default.attributesOfItem(atPath: new + ".gz"))?[.size] as? NSNumber {
            return DeltaSize(delta: delta.size, gzip: size.int64Value)
        }
        do {
            let writer = try GzipWriter(path: gzipPath, level: 9)
            guard let input = FileHandle(forReadingAtPath: new) else {
                throw ShipError(code: .fileSystem, path: new, message: "cannot read the seed")
            }
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try writer.write(Array(chunk)) }
            return DeltaSize(delta: delta.size, gzip: try writer.finish(sync: false).gzipSize)
        } catch {
            throw ShipError.io(path: gzipPath, message: "cannot gzip the seed to compare the delta with", cause: error)
        }
    }

    /// The sentence the changes section shows.
    var text: String {
        let share = gzip > 0 ? String(format: "%.1f %%", Double(delta) * 100 / Double(gzip)) : "-"
        return """
            The delta from the previous seed (seedgen delta, level 9) is \(HTMLText.bytes(delta)), \(share) of the \
            full seed gzipped (\(HTMLText.bytes(gzip))).
            """
    }
}
