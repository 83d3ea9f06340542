import SeedSystem
import Foundation
import SeedUpdater

/// Progress of `seedgen update` and `seedgen install` on a terminal: one line on standard error,
/// redrawn in place at most ten times a second: the phase, what it works on, bytes of total and
/// the rate since the phase began. Commands create one only when standard error is a terminal
/// and `--json` is not set (``ProgressLine/forTerminal(json:)``).
final class ProgressLine: @unchecked Sendable {
    // @unchecked: the state is behind `lock` (reports come from the updater's queue).
    private let lock = Lock()
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var current = ""
    private var started = ContinuousClock.now
    private var startBytes: Int64 = 0
    private var drawn = false

    /// A progress line when standard error is a terminal and the output is not JSON; else nil.
    static func forTerminal(json: Bool) -> ProgressLine? { !json && isatty(2) == 1 ? ProgressLine() : nil }

    /// Shows `phase` of `subject`: `download seed: 1.2 MB of 2.2 MB, 310.4 KB/s`.
    func show(phase: String, subject: String, bytesDone: Int64, bytesTotal: Int64?) {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        let key = phase + " " + subject
        let isNew = key != current
        if isNew {
            current = key
            started = now
            startBytes = bytesDone
        }
        // A new phase is always drawn; within one, ten times a second.
        guard isNew || now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        var line = key
        if bytesDone > 0 || bytesTotal != nil {
            line += ": \(Format.bytes(bytesDone))" + (bytesTotal.map { " of \(Format.bytes($0))" } ?? "")
            let seconds = (now - started).secondsValue
            if seconds > 0.2, bytesDone > startBytes {
                line += ", \(Format.bytes(Int64(Double(bytesDone - startBytes) / seconds)))/s"
            }
        } else {
            line += "…"
        }
        write("\r\u{1B}[K" + line)
        drawn = true
    }

    func show(_ progress: SeedUpdateProgress) {
        show(
            phase: progress.phase.rawValue, subject: progress.file.rawValue, bytesDone: progress.bytesDone,
            bytesTotal: progress.bytesTotal)
    }

    func show(_ progress: SeedInstallProgress) {
        show(
            phase: progress.phase.rawValue, subject: "seed", bytesDone: progress.bytesDone,
            bytesTotal: progress.bytesTotal)
    }

    /// Erases the line before the result is printed.
    func clear() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { write("\r\u{1B}[K") }
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
