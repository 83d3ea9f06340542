import Foundation

#if os(Linux)
private let RUSAGE_SELF_WHO = RUSAGE_SELF.rawValue
#else
private let RUSAGE_SELF_WHO = RUSAGE_SELF
#endif

/// Prints how long each step of a build took to standard error, when the environment has
/// `SEEDGEN_TRACE=1`: wall time, CPU time (user + system, all threads) and the peak RSS so
/// far. On a machine shared with other work the CPU seconds are the steadier figure. For
/// profiling; silent otherwise.
final class PhaseTimer {
    private let enabled = ProcessInfo.processInfo.environment["SEEDGEN_TRACE"] == "1"
    private var last = ContinuousClock.now
    private var lastCPU = PhaseTimer.cpuSeconds(PhaseTimer.usage())

    /// Ends the current step, naming it.
    func mark(_ step: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let usage = Self.usage()
        let cpu = Self.cpuSeconds(usage)
        let name = step.padding(toLength: 24, withPad: " ", startingAt: 0)
        FileHandle.standardError.write(Data(String(format: "trace: %@ %7.2f s  %7.2f CPU-s  peak RSS %5d MB\n",
                                                   name, (now - last).seconds, cpu - lastCPU, usage.ru_maxrss / 1024).utf8))
        last = now
        lastCPU = cpu
    }

    private static func usage() -> rusage {
        var usage = rusage()
        getrusage(RUSAGE_SELF_WHO, &usage)
        return usage
    }

    private static func cpuSeconds(_ usage: rusage) -> Double {
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
