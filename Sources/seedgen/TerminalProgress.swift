import Foundation
import SeedKit

/// One status line on the terminal, redrawn in place: file, rows, rows/s, percent of bytes.
final class TerminalProgress: BuildProgress {
    private var file = ""
    private var table = ""
    private var bytes: Int64 = 1
    private var started = ContinuousClock.now
    private var lastDraw = ContinuousClock.now

    func started(file: String, table: String, bytes: Int64) {
        self.file = file
        self.table = table
        self.bytes = max(bytes, 1)
        started = .now
        draw("\(file) → \(table)")
    }

    func advanced(rows: Int, bytes read: Int64) {
        let now = ContinuousClock.now
        guard now - lastDraw > .milliseconds(100) else { return }
        lastDraw = now
        let seconds = max((now - started).secondsValue, 0.001)
        let percent = min(100, Int(Double(read) * 100 / Double(bytes)))
        draw(
            """
            \(file) → \(table): \(Format.count(rows)) rows, \(Format.count(Int(Double(rows) / seconds)))/s, \
            \(percent)%
            """
        )
    }

    func finished(file: String, rows: Int) {
        draw("\(file) → \(table): \(Format.count(rows)) rows")
    }

    func phase(_ name: String) { draw(name + "…") }

    func clear() { write("\r\u{1B}[K") }

    private func draw(_ line: String) { write("\r\u{1B}[K" + line) }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}

extension Duration {
    var secondsValue: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
