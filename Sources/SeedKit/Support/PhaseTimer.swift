import Foundation

#if os(Linux)
private let RUSAGE_SELF_WHO = RUSAGE_SELF.rawValue
#else
private let RUSAGE_SELF_WHO = RUSAGE_SELF
#endif

/// Prints how long each step of a build took to standard error, when the environment has
/// `SEEDGEN_TRACE=1`. For profiling; silent otherwise.
final class PhaseTimer {
    private let enabled = ProcessInfo.processInfo.environment["SEEDGEN_TRACE"] == "1"
    private var last = ContinuousClock.now

    /// Ends the current step, naming it.
    func mark(_ step: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        var usage = rusage()
        getrusage(RUSAGE_SELF_WHO, &usage)
        let name = step.padding(toLength: 24, withPad: " ", startingAt: 0)
        FileHandle.standardError.write(Data(String(format: "trace: %@ %7.2f s  peak RSS %5d MB\n", name, (now - last).seconds, usage.ru_maxrss / 1024).utf8))
        last = now
    }
}
