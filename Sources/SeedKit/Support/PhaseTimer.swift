import Foundation

#if os(Linux)
private let RUSAGE_SELF_WHO = RUSAGE_SELF.rawValue
#else
private let RUSAGE_SELF_WHO = RUSAGE_SELF
#endif

/// What one stage of a build took (`seedgen build --timings`, the build summary's `timings`).
public struct StageTiming: Sendable, Equatable, Codable {
    /// The stage: prepare, load, checks, stable ids, derive, feeds, index, digest, finish.
    public var stage: String
    /// Wall time, in seconds.
    public var wallSeconds: Double
    /// CPU time of every thread of the process (user and system), in seconds: more than the
    /// wall time where the stage used both cores.
    public var cpuSeconds: Double
    /// The process's peak resident memory at the end of the stage (it never goes down), in bytes.
    public var peakMemoryBytes: Int64
    /// The stage this one ran beside, on a thread of its own (the checks beside the digest): its
    /// wall time is within that stage's, its CPU time is its thread's and not in that stage's.
    public var beside: String? = nil
}

/// Times a build: each stage's wall and CPU time and the peak memory at its end
/// (``stages``), and, when the environment has `SEEDGEN_TRACE=1`, each finer step printed to
/// standard error as it ends. On a machine shared with other work the CPU seconds are the
/// steadier figure.
final class PhaseTimer {
    private let enabled = ProcessInfo.processInfo.environment["SEEDGEN_TRACE"] == "1"
    private var last = ContinuousClock.now
    private var lastCPU = PhaseTimer.cpuSeconds(PhaseTimer.usage())
    private var stageStart = ContinuousClock.now
    private var stageStartCPU = PhaseTimer.cpuSeconds(PhaseTimer.usage())
    /// The stages ended so far, in order.
    private(set) var stages: [StageTiming] = []
    /// Stages that ran beside the current one, on threads of their own (`besideCurrentStage`).
    private var besides: [StageTiming] = []

    /// Stages that run later, beside another (`runsLater`): their place in the order is not a stage.
    private var laterStages: Set<String> = []

    /// Ends the current stage, naming it (a `getrusage` call: cheap enough for every build); a
    /// stage that runs later (`runsLater`) goes on.
    func endStage(_ stage: String) {
        guard !laterStages.contains(stage) else { return }
        let now = ContinuousClock.now
        let usage = Self.usage()
        let cpu = Self.cpuSeconds(usage)
        stages.append(
            StageTiming(
                stage: stage, wallSeconds: (now - stageStart).seconds, cpuSeconds: cpu - stageStartCPU,
                peakMemoryBytes: Self.peakBytes(usage)))
        stages += besides.map {
            var timing = $0; timing.beside = stage; return timing
        }
        besides = []
        stageStart = now
        stageStartCPU = cpu
    }

    /// Notes that `stage` does not run in its place in the order but later, beside another
    /// stage (`besideCurrentStage`): its place is timed with the next stage.
    func runsLater(_ stage: String) { laterStages.insert(stage) }

    /// Records `timing`, a stage that ran beside the current one on a thread of its own (its CPU
    /// time that thread's): listed after the current stage, whose CPU time then leaves it out.
    func besideCurrentStage(_ timing: StageTiming) {
        besides.append(timing)
        stageStartCPU += timing.cpuSeconds
    }

    /// The CPU time (user and system) of the calling thread so far, in seconds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The process's peak resident memory so far, in bytes.
    static func peakBytes() -> Int64 { peakBytes(usage()) }

    /// Ends the current step, naming it.
    func mark(_ step: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let usage = Self.usage()
        let cpu = Self.cpuSeconds(usage)
        let name = step.padding(toLength: 24, withPad: " ", startingAt: 0)
        FileHandle.standardError.write(
            Data(
                String(
                    format: "trace: %@ %7.2f s  %7.2f CPU-s  peak RSS %5d MB\n",
                    name, (now - last).seconds, cpu - lastCPU, usage.ru_maxrss / 1024
                ).utf8))
        last = now
        lastCPU = cpu
    }

    private static func usage() -> rusage {
        var usage = rusage()
        getrusage(RUSAGE_SELF_WHO, &usage)
        return usage
    }

    /// `ru_maxrss`, in bytes: kilobytes on Linux, bytes on Darwin.
    private static func peakBytes(_ usage: rusage) -> Int64 {
        #if os(Linux)
        return Int64(usage.ru_maxrss) * 1024
        #else
        return Int64(usage.ru_maxrss)
        #endif
    }

    private static func cpuSeconds(_ usage: rusage) -> Double {
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
            / 1e6
    }
}
