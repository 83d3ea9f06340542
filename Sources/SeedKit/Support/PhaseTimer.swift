import Foundation

/// Prints how long each step of a build took to standard error, when the environment has
/// `SEEDGEN_TRACE=1`. For profiling; silent otherwise.
final class PhaseTimer {
    private let enabled = ProcessInfo.processInfo.environment["SEEDGEN_TRACE"] == "1"
    private var last = ContinuousClock.now

    /// Ends the current step, naming it.
    func mark(_ step: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        FileHandle.standardError.write(Data(String(format: "trace: %-28@ %7.2f s\n", step, (now - last).seconds).utf8))
        last = now
    }
}
