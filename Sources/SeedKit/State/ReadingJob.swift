import Foundation
import SeedSQLite

/// Work that only reads the seed's final rows and writes nothing to it: the GTFS checks. The
/// finish stage runs it on a thread and a read-only connection of its own, beside `VACUUM INTO`
/// and the content digest (`SeedDatabase.compact`), once nothing writes the scratch file.
struct ReadingJob: Sendable {
    /// Its name in `--timings`.
    let name: String
    /// The work, given a read-only connection to the scratch file.
    let work: @Sendable (Connection) throws -> Void

    /// A started job: what it took, once it has ended.
    final class Running: Sendable {
        private let job: BackgroundJob<(timing: StageTiming, outcome: Result<Void, any Error>)>

        /// Starts `job` on a thread of its own, reading the database at `path`.
        init(_ job: ReadingJob, path: String) {
            self.job = BackgroundJob { () throws(SQLiteError) in
                let start = ContinuousClock.now
                let startCPU = PhaseTimer.threadCPUSeconds()
                let connection = try Connection(path: path, mode: .readOnly)
                let outcome = Result { try job.work(connection) }
                let timing = StageTiming(
                    stage: job.name, wallSeconds: (ContinuousClock.now - start).seconds,
                    cpuSeconds: PhaseTimer.threadCPUSeconds() - startCPU, peakMemoryBytes: PhaseTimer.peakBytes())
                return (timing, outcome)
            }
        }

        /// Waits for the job to end: its timing, and its outcome (what the work threw).
        func wait() throws(SQLiteError) -> (timing: StageTiming, outcome: Result<Void, any Error>) {
            try job.wait()
        }
    }
}
