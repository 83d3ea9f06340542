import SeedSystem

/// Writes the notices report of a build (`seedgen build --notices FILE.json`): every issue
/// recorded, each with its code, severity, file, line, column, field, value and message, and
/// the count of each code, and the day the date-relative rules took as today (`--today`), so
/// that CI can keep and compare reports as it does a validator's.
///
/// ```json
/// {
///   "built": false,
///   "today": "2026-03-20",
///   "errors": 1,
///   "warnings": 1,
///   "counts": { "foreign_key_violation": 1, "invalid_row_length": 1 },
///   "notices": [
///     { "code": "invalid_row_length", "severity": "WARNING", "file": "feed/stop_times.txt", "line": 17,
///       "column": 40, "field": null, "value": "AB2,12:15:00,...", "message": "..." },
///     ...
///   ]
/// }
/// ```
///
/// Notices stream to a scratch file as they come (a broken feed may have millions), and the
/// report is assembled beside its destination and renamed into place by `finish`, whether the
/// build succeeded or not: a failed build's report is the one CI needs most.
public final class NoticeReport: @unchecked Sendable {
    // @unchecked: `record` runs under the IssueLog's lock; `finish` after the build.
    /// Where the report goes.
    public let path: String
    /// The day the date-relative rules took as today (`YYYY-MM-DD`).
    public let today: String
    private let notices: ScratchFile
    private let noticesFile: FileDescriptor
    private var pending: [UInt8] = []
    private var counts: [String: Int] = [:]
    private var errors = 0
    private var warnings = 0
    private var writeFailure: SystemCallError?

    /// Prepares the report at `path`, for a build whose date-relative rules take `today` as
    /// today; nothing is there until `finish`.
    public init(path: String, today: String) throws(BuildError) {
        self.path = path
        self.today = today
        notices = ScratchFile(beside: path, kind: "notices")
        do { noticesFile = try FileSystem.create(notices.path) } catch {
            throw .output(path: path, message: "cannot write the notices report: \(error.reason)", cause: error)
        }
    }

    /// Adds `issue` to the report.
    func record(_ issue: BuildIssue) {
        let code = issue.noticeCode
        counts[code, default: 0] += 1
        if issue.kind.isError { errors += 1 } else { warnings += 1 }
        pending += Array((errors + warnings == 1 ? "    " : ",\n    ").utf8)
        pending += Array("{\"code\": ".utf8)
        ExtrasObject.appendString(Array(code.utf8), to: &pending)
        pending += Array(", \"severity\": \"\(issue.kind.isError ? "ERROR" : "WARNING")\", \"file\": ".utf8)
        ExtrasObject.appendString(Array(issue.file.utf8), to: &pending)
        if let feed = issue.feed {
            pending += Array(", \"feed\": ".utf8)
            ExtrasObject.appendString(Array(feed.utf8), to: &pending)
        }
        let line = issue.line.map(String.init) ?? "null", column = issue.column.map(String.init) ?? "null"
        pending += Array(", \"line\": \(line), \"column\": \(column), \"field\": ".utf8)
        appendOptional(issue.field)
        pending += Array(", \"value\": ".utf8)
        appendOptional(issue.value)
        pending += Array(", \"message\": ".utf8)
        ExtrasObject.appendString(Array(issue.message.utf8), to: &pending)
        pending.append(UInt8(ascii: "}"))
        if pending.count >= 1 << 16 { flush() }
    }

    private func appendOptional(_ text: String?) {
        if let text { ExtrasObject.appendString(Array(text.utf8), to: &pending) } else { pending += Array("null".utf8) }
    }

    private func flush() {
        guard !pending.isEmpty, writeFailure == nil else { pending.removeAll(keepingCapacity: true); return }
        do { try Self.write(pending, to: noticesFile) } catch { writeFailure = error }
        pending.removeAll(keepingCapacity: true)
    }

    private static func write(_ bytes: [UInt8], to file: FileDescriptor) throws(SystemCallError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: bytes)
        try file.write(UnsafeRawBufferPointer(rebasing: buffer[0..<bytes.count]))
    }

    /// Writes the report to `path`: `built` says whether the seed was written.
    public func finish(built: Bool) throws(BuildError) {
        flush()
        let report = ScratchFile(beside: path, kind: "report")
        do throws(SystemCallError) {
            if let writeFailure { throw writeFailure }
            let out = try FileSystem.create(report.path)
            let countText = counts.sorted { $0.key < $1.key }.map { "    \"\($0.key)\": \($0.value)" }.joined(
                separator: ",\n")
            let head =
                """
                {\n  \"built\": \(built),\n  \"today\": \"\(today)\",\n  \"errors\": \(errors),\n  \"warnings\": \
                \(warnings),\n  \"counts\": {
                """
                + (countText.isEmpty ? "" : "\n" + countText + "\n  ") + "},\n  \"notices\": ["
                + (errors + warnings > 0 ? "\n" : "")
            try Self.write(Array(head.utf8), to: out)
            let source = try FileSystem.openForReading(notices.path)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
            defer { buffer.deallocate() }
            while true {
                let count = try source.read(into: buffer)
                if count == 0 { break }
                try out.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            try Self.write(Array(((errors + warnings > 0 ? "\n  " : "") + "]\n}\n").utf8), to: out)
            try out.closeNow()
            try report.moveIntoPlace(at: path)
        } catch {
            throw .output(path: path, message: "cannot write the notices report: \(error.reason)", cause: error)
        }
        notices.remove()
    }
}
