import Dispatch
import SeedArchive

/// A ``GzipWriter`` fed from one thread and run on another: ``write(_:)`` hands the bytes over
/// and returns, so deflate (level 9: 0.7 s of `seedgen delta` at 3M stop_times) runs beside the
/// caller's comparison. The bytes are compressed in the order given, so the file is the one a
/// `GzipWriter` fed directly writes. At most `depth` buffers wait (memory stays bounded); an
/// error the deflate thread met is thrown by the next call.
// @unchecked Sendable: `gzip` and `failure` are touched on `queue` only.
final class BackgroundGzip: @unchecked Sendable {
    private let gzip: GzipWriter
    private let queue = DispatchQueue(label: "seedgen.delta.deflate")
    private let slots: DispatchSemaphore
    private var failure: GzipError?

    init(_ gzip: GzipWriter, depth: Int = 2) {
        self.gzip = gzip
        slots = DispatchSemaphore(value: depth)
    }

    /// Hands `bytes` to the deflate thread, after waiting for a free slot.
    func write(_ bytes: [UInt8]) throws(GzipError) {
        if let failure = queue.sync(execute: { failure }) { throw failure }
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard failure == nil else { return }
            do throws(GzipError) { try gzip.write(bytes) } catch { failure = error }
        }
    }

    /// Waits for every buffer handed over, then ends the gzip stream (``GzipWriter/finish(sync:)``).
    func finish(sync: Bool) throws(GzipError) -> GzipSummary {
        try queue.sync {
            Result { () throws(GzipError) -> GzipSummary in
                if let failure { throw failure }
                return try gzip.finish(sync: sync)
            }
        }.get()
    }
}
