import SeedArchive
import SeedSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints how long each step of applying a delta took to standard error, when the environment
/// has `SEEDGEN_TRACE=1` (as the builder's trace does). For profiling; silent otherwise.
package struct PatchTrace {
    package init() {}

    private let enabled = CurrentProcess.environment("SEEDGEN_TRACE") == "1"
    private var last = ContinuousClock.now

    /// Ends the current step, naming it.
    package mutating func mark(_ step: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let elapsed = now - last
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        let line = Array("trace: delta \(step): \(milliseconds) ms\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        last = now
    }
}
