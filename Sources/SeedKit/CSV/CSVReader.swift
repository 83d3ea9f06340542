/// A streaming RFC 4180 reader. Fields are byte ranges in one reused buffer, so reading a
/// record allocates nothing.
///
/// Handles what real feeds do: a UTF-8 byte-order mark, CRLF, LF or CR line endings (mixed),
/// quoted fields with commas, quotes (`""`) and newlines, no final newline, blank lines.
///
/// It also accepts what Python's `csv` module accepts, and reports each such repair in
/// `repairs` (or throws, when `strict`): text after a closing quote is part of the value
/// (`"a" b` is `a b`), a quote inside an unquoted field is literal, and (unlike Python,
/// whose value would keep the quotes) spaces before an opening quote are skipped.
final class CSVReader {
    private let source: ByteSource
    let file: String
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var start = 0          // first unparsed byte
    @exclusivity(unchecked) private var end = 0            // end of valid bytes
    @exclusivity(unchecked) private var base: Int64 = 0    // file offset of buffer[0]
    @exclusivity(unchecked) private var atEOF = false
    @exclusivity(unchecked) private var atFileStart = true

    // Per field of the current record: where it starts and ends in the buffer, and whether it
    // holds doubled quotes. Plain buffers: no copy-on-write checks in the hot loop.
    @exclusivity(unchecked) private var fieldCapacity = 64
    @exclusivity(unchecked) private var starts: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var ends: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var escaped: UnsafeMutablePointer<Bool>
    // Per field, for messages only: where it begins in the buffer (its opening quote, if
    // any), the line it begins on and the file offset where that line starts.
    @exclusivity(unchecked) private var origins: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var originLines: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var originLineStarts: UnsafeMutablePointer<Int64>
    /// The largest record accepted, in bytes: the buffer never grows past it.
    let maximumRecordBytes: Int
    // Per field: the offset of a closing quote that text follows (a repair), or -1.
    @exclusivity(unchecked) private var closings: UnsafeMutablePointer<Int>
    /// Syntax repairs are errors (`--strict`).
    var strict = false
    /// The repairs made in the records read so far; the caller reports and clears them.
    var repairs: [CSVSyntaxError] = []
    private var pendingRepairs: [CSVSyntaxError] = []
    /// The number of fields of the current record.
    @exclusivity(unchecked) private(set) var fieldCount = 0
    /// The 1-based line the current record starts on.
    @exclusivity(unchecked) private(set) var line = 0
    @exclusivity(unchecked) private var nextLine = 1
    @exclusivity(unchecked) private var lineStart: Int64 = 0   // file offset where `nextLine` starts

    /// - Parameters:
    ///   - maximumRecordBytes: the largest record accepted; a longer one is a syntax error
    ///     (`InputLimits.recordBytes`), so memory stays bounded whatever the input.
    init(source: ByteSource, file: String, bufferSize: Int = 1 << 20, maximumRecordBytes: Int = InputLimits.defaultRecordBytes) {
        self.source = source
        self.file = file
        self.maximumRecordBytes = max(1, maximumRecordBytes)
        self.capacity = min(bufferSize, self.maximumRecordBytes)
        self.buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        origins = .allocate(capacity: fieldCapacity)
        originLines = .allocate(capacity: fieldCapacity)
        originLineStarts = .allocate(capacity: fieldCapacity)
        starts = .allocate(capacity: fieldCapacity)
        ends = .allocate(capacity: fieldCapacity)
        escaped = .allocate(capacity: fieldCapacity)
        closings = .allocate(capacity: fieldCapacity)
    }

    deinit {
        buffer.deallocate()
        starts.deallocate()
        ends.deallocate()
        escaped.deallocate()
        origins.deallocate(); originLines.deallocate(); originLineStarts.deallocate()
        closings.deallocate()
    }

    private func growFields() {
        let capacity = fieldCapacity * 2
        let newStarts = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        let newEnds = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        let newEscaped = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
        let newClosings = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        newClosings.update(from: closings, count: fieldCapacity)
        closings.deallocate()
        closings = newClosings
        newStarts.update(from: starts, count: fieldCapacity)
        newEnds.update(from: ends, count: fieldCapacity)
        newEscaped.update(from: escaped, count: fieldCapacity)
        starts.deallocate(); ends.deallocate(); escaped.deallocate()
        starts = newStarts; ends = newEnds; escaped = newEscaped
        let newOrigins = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        let newLines = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        let newLineStarts = UnsafeMutablePointer<Int64>.allocate(capacity: capacity)
        newOrigins.update(from: origins, count: fieldCapacity)
        newLines.update(from: originLines, count: fieldCapacity)
        newLineStarts.update(from: originLineStarts, count: fieldCapacity)
        origins.deallocate(); originLines.deallocate(); originLineStarts.deallocate()
        origins = newOrigins; originLines = newLines; originLineStarts = newLineStarts
        fieldCapacity = capacity
    }

    /// The bytes of field `index` of the current record (quotes removed, `""` unescaped).
    @inline(__always)
    func field(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffer + starts[index], count: ends[index] - starts[index])
    }

    /// Field `index` as a string (for headers and messages).
    func string(_ index: Int) -> String {
        String(decoding: field(index), as: UTF8.self)
    }

    private enum Outcome { case record, needMore }

    /// Advances to the next record; false at the end of the input. Blank lines are skipped.
    func next() throws(CSVSyntaxError) -> Bool {
        while true {
            if start == end {
                if atEOF { return false }
                try refill()
                continue
            }
            switch try parseRecord() {
            case .needMore:
                if atEOF { continue } // cannot happen: parseRecord completes at EOF
                try refill()
            case .record:
                if fieldCount == 1 && starts[0] == ends[0] && !escaped[0] && !quotedEmpty { continue } // blank line
                return true
            }
        }
    }

    @exclusivity(unchecked) private var quotedEmpty = false

    private func refill() throws(CSVSyntaxError) {
        if start > 0 {
            // Keep the unparsed tail: move it to the front.
            let tail = end - start
            if tail > 0 { buffer.copyMemory(from: buffer + start, byteCount: tail) }
            base += Int64(start)
            end = tail
            start = 0
        } else if end == capacity {
            // One record is larger than the buffer: grow it, up to the limit.
            guard capacity < maximumRecordBytes else {
                throw CSVSyntaxError(file: file, line: nextLine, column: 1,
                                     message: "the record starting here is longer than \(maximumRecordBytes) bytes "
                                         + "(the limit; raise it with --max-record-size)")
            }
            let larger = capacity > maximumRecordBytes / 2 ? maximumRecordBytes : capacity * 2
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
            bigger.copyMemory(from: buffer, byteCount: end)
            buffer.deallocate()
            buffer = bigger
            capacity = larger
        }
        // Fill the buffer, not just what one read gives (a zip entry inflates a chunk at a
        // time): a record longer than one read is parsed again from its start after each
        // refill, so refills must double what it sees, or a huge record costs quadratic time.
        do {
            while end < capacity {
                let count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
                if count == 0 { atEOF = true; break }
                end += count
            }
        } catch {
            throw CSVSyntaxError(file: file, line: nextLine, column: 1, message: error.message)
        }
        if atFileStart && (end >= 3 || atEOF) {
            atFileStart = false
            if end >= 3, buffer.load(fromByteOffset: 0, as: UInt8.self) == 0xEF,
               buffer.load(fromByteOffset: 1, as: UInt8.self) == 0xBB, buffer.load(fromByteOffset: 2, as: UInt8.self) == 0xBF {
                start = 3
                lineStart = 3
            }
        }
    }

    private func syntaxError(_ message: String, at offset: Int, line: Int, lineStart: Int64) -> CSVSyntaxError {
        CSVSyntaxError(file: file, line: line, column: characterColumn(at: offset, lineStart: lineStart), message: message)
    }

    /// The 1-based character column of buffer offset `offset` in the line starting at file
    /// offset `lineStart` (UTF-8 continuation bytes do not count; a line start no longer in
    /// the buffer counts from the buffer's start).
    private func characterColumn(at offset: Int, lineStart: Int64) -> Int {
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        let first = max(0, Int(clamping: lineStart - base))
        var column = 1
        var i = first
        // Eight bytes at a time (asked for every row's key field): a continuation byte is
        // 10xxxxxx, so it has bit 7 set and bit 6 clear.
        while i + 8 <= offset {
            let word = UInt64(littleEndian: (buffer + i).loadUnaligned(as: UInt64.self))
            let continuations = word & ~(word << 1) & 0x8080_8080_8080_8080
            column += 8 - continuations.nonzeroBitCount
            i += 8
        }
        while i < offset {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }

    /// Where field `index` of the current record begins: its line and the 1-based character
    /// column of its first character (its opening quote, when quoted). For messages.
    func place(ofField index: Int) -> (line: Int, column: Int) {
        guard index < fieldCount else { return place(afterRecord: ()) }
        return (originLines[index], characterColumn(at: origins[index], lineStart: originLineStarts[index]))
    }

    /// The place just after the current record's last field, where a missing field would
    /// begin. For messages.
    func place(afterRecord: Void) -> (line: Int, column: Int) {
        guard fieldCount > 0 else { return (line, 1) }
        let last = fieldCount - 1
        // The field's text ends where its value does, then come the quotes `unescape` wrote
        // in place of removed ones and its closing quote, if any (a repaired field has none).
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        var endOffset = ends[last]
        while endOffset < end && bytes[endOffset] == 0x22 { endOffset += 1 }
        return (originLines[last], characterColumn(at: endOffset, lineStart: originLineStarts[last]) + 1)
    }

    /// Records a repair at `offset` (or throws it, when strict); `value` is the field's raw text.
    private func repair(_ message: String, at offset: Int, line: Int, lineStart: Int64, value: Int) throws(CSVSyntaxError) {
        var issue = syntaxError(message, at: offset, line: line, lineStart: lineStart)
        let bytes = UnsafeRawBufferPointer(start: buffer + offset, count: max(0, min(value, end) - offset))
        issue.value = String(decoding: bytes.prefix(200), as: UTF8.self)
        if strict { throw issue }
        pendingRepairs.append(issue)
    }

    private static let strictHint = " (--strict; without it the field is repaired as Python's csv module reads it)"

    private func parseRecord() throws(CSVSyntaxError) -> Outcome {
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        var i = start
        var line = nextLine
        var lineStart = self.lineStart
        var count = 0
        quotedEmpty = false
        if !pendingRepairs.isEmpty { pendingRepairs.removeAll() } // a record parsed again after .needMore
        while true {
            // One field, starting at i.
            let origin = i, originLine = line, originLineStart = lineStart
            var fieldStart = i, fieldEnd = i, hasEscapes = false, closing = -1
            if i < end && (bytes[i] == 0x20 || bytes[i] == 0x09) {
                // Spaces before an opening quote: skip them, the field is quoted.
                var q = i
                while q < end && (bytes[q] == 0x20 || bytes[q] == 0x09) { q += 1 }
                if q == end && !atEOF { return .needMore }
                if q < end && bytes[q] == 0x22 {
                    var quoteEnd = q + 1
                    while quoteEnd < end && bytes[quoteEnd] != 0x22 && bytes[quoteEnd] != 0x0A { quoteEnd += 1 }
                    try repair("spaces before an opening quote are skipped" + (strict ? Self.strictHint : ""),
                               at: i, line: line, lineStart: lineStart, value: quoteEnd + 1)
                    i = q
                }
            }
            if i < end && bytes[i] == 0x22 { // "
                let quoteLine = line, quoteLineStart = lineStart, quoteAt = i
                i += 1
                fieldStart = i
                while true {
                    while i < end && bytes[i] != 0x22 {
                        if bytes[i] == 0x0A { line += 1; lineStart = base + Int64(i) + 1 }
                        i += 1
                    }
                    if i == end {
                        if atEOF { throw syntaxError("unterminated quoted field", at: quoteAt, line: quoteLine, lineStart: quoteLineStart) }
                        return .needMore
                    }
                    if i + 1 == end && !atEOF { return .needMore }
                    if i + 1 < end && bytes[i + 1] == 0x22 { hasEscapes = true; i += 2; continue }
                    fieldEnd = i
                    i += 1
                    break
                }
                if i < end && bytes[i] != 0x2C && bytes[i] != 0x0A && bytes[i] != 0x0D {
                    // Text after the closing quote: kept as part of the value, as Python's csv does.
                    closing = fieldEnd
                    while i < end && bytes[i] != 0x2C && bytes[i] != 0x0A && bytes[i] != 0x0D { i += 1 }
                    if i == end && !atEOF { return .needMore }
                    if strict {
                        throw syntaxError("unexpected character after a closing quote (a quote inside a quoted field must be doubled)",
                                          at: quoteAt, line: quoteLine, lineStart: quoteLineStart)
                    }
                    try repair("text after a closing quote is kept in the value (a quote inside a quoted field should be doubled)",
                               at: quoteAt, line: quoteLine, lineStart: quoteLineStart, value: i)
                    fieldEnd = i
                    hasEscapes = true
                }
                if fieldStart == fieldEnd { quotedEmpty = true }
            } else {
                let unquotedStart = i
                var quoted = false
                while i < end {
                    let b = bytes[i]
                    if b == 0x2C || b == 0x0A || b == 0x0D { break }
                    if b == 0x22 { quoted = true }
                    i += 1
                }
                if quoted && (i < end || atEOF) {
                    try repair("a quote inside an unquoted field is kept as a literal quote (quote the field and double the quote)"
                               + (strict ? Self.strictHint : ""), at: unquotedStart, line: line, lineStart: lineStart, value: i)
                }
                if i == end && !atEOF { return .needMore }
                fieldEnd = i
            }
            if count == fieldCapacity { growFields() }
            starts[count] = fieldStart; ends[count] = fieldEnd; escaped[count] = hasEscapes; closings[count] = closing
            origins[count] = origin; originLines[count] = originLine; originLineStarts[count] = originLineStart
            count += 1
            // The delimiter after it.
            if i == end { break } // end of input: the record ends without a newline
            let b = bytes[i]
            if b == 0x2C { i += 1; continue }
            if b == 0x0D {
                if i + 1 == end && !atEOF { return .needMore }
                i += 1
                if i < end && bytes[i] == 0x0A { i += 1 }
            } else { // \n
                i += 1
            }
            line += 1
            lineStart = base + Int64(i)
            break
        }
        self.line = nextLine
        nextLine = line
        self.lineStart = lineStart
        fieldCount = count
        start = i
        for index in 0..<count where escaped[index] { unescape(index) }
        if !pendingRepairs.isEmpty {
            repairs += pendingRepairs
            pendingRepairs.removeAll()
        }
        return .record
    }

    /// Turns `""` into `"` in place; after a repaired closing quote, drops the quote and
    /// keeps the text that follows it as is.
    private func unescape(_ index: Int) {
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        var read = starts[index], write = starts[index]
        let quotedEnd = closings[index] >= 0 ? closings[index] : ends[index]
        while read < quotedEnd {
            bytes[write] = bytes[read]
            read += bytes[read] == 0x22 ? 2 : 1
            write += 1
        }
        if closings[index] >= 0 {
            read = closings[index] + 1
            while read < ends[index] {
                bytes[write] = bytes[read]
                read += 1
                write += 1
            }
        }
        // Fill the freed bytes with quotes, one per quote removed, so that counting the
        // characters of the line before a later field still gives its column.
        let end = ends[index]
        var fill = write
        while fill < end { bytes[fill] = 0x22; fill += 1 }
        ends[index] = write
        escaped[index] = false
    }
}

/// Input that is not valid CSV, with its place.
struct CSVSyntaxError: Error, Sendable {
    var file: String
    var line: Int
    /// 1-based character column in the line.
    var column: Int
    var message: String
    /// The field's text as read, for repairs.
    var value: String? = nil
}
