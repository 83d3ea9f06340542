import Foundation
import SeedUpdater

/// `seedgen update`'s progress on a terminal: one line on standard error, redrawn in place at
/// most ten times a second: the phase, the file, bytes of total and the rate of this download.
final class UpdateProgressLine: @unchecked Sendable {
    // @unchecked: the state is behind `lock` (reports come from the updater's queue).
    private let lock = NSLock()
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var file: SeedUpdateProgress.File?
    private var started = ContinuousClock.now
    private var startBytes: Int64 = 0
    private var drawn = false

    func show(_ progress: SeedUpdateProgress) {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        if progress.file != file {
            file = progress.file
            started = now
            startBytes = progress.bytesDone
        }
        let isDownload = progress.phase == .download
        // Downloads are throttled; a change of phase is always drawn.
        guard !isDownload || now - lastDraw >= .milliseconds(100) || progress.bytesDone == progress.bytesTotal else { return }
        lastDraw = now
        var line = "\(progress.phase.rawValue) \(progress.file.rawValue)"
        if isDownload {
            line += ": \(Format.bytes(progress.bytesDone)) of \(Format.bytes(progress.bytesTotal))"
            let seconds = (now - started).secondsValue
            if seconds > 0.2 { line += ", \(Format.bytes(Int64(Double(progress.bytesDone - startBytes) / seconds)))/s" }
        } else {
            line += " (\(Format.bytes(progress.bytesTotal)))…"
        }
        write("\r\u{1B}[K" + line)
        drawn = true
    }

    /// Erases the line before the result is printed.
    func clear() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { write("\r\u{1B}[K") }
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
