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
    @exclusivity(unchecked) private(set) var buffer: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var start = 0 // first unparsed byte
    @exclusivity(unchecked) private(set) var end = 0 // end of valid bytes
    @exclusivity(unchecked) private(set) var base: Int64 = 0 // file offset of buffer[0]
    @exclusivity(unchecked) private var atEOF = false
    @exclusivity(unchecked) private var atFileStart = true

    /// The fields of the current record (`fieldCapacity` allocated): one plain buffer, so no
    /// copy-on-write checks in the hot loop.
    @exclusivity(unchecked) private(set) var fields: UnsafeMutablePointer<CSVField>
    @exclusivity(unchecked) private var fieldCapacity = 64
    /// The largest record accepted, in bytes: the buffer never grows past it.
    let maximumRecordBytes: Int
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
    @exclusivity(unchecked) private var lineStart: Int64 = 0 // file offset where `nextLine` starts

    /// - Parameters:
    ///   - maximumRecordBytes: the largest record accepted; a longer one is a syntax error
    ///     (`InputLimits.recordBytes`), so memory stays bounded whatever the input.
    init(
        source: ByteSource, file: String, bufferSize: Int = 1 << 20,
        maximumRecordBytes: Int = InputLimits.defaultRecordBytes
    ) {
        self.source = source
        self.file = file
        self.maximumRecordBytes = max(1, maximumRecordBytes)
        self.capacity = min(bufferSize, self.maximumRecordBytes)
        self.buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        fields = .allocate(capacity: fieldCapacity)
    }

    deinit {
        buffer.deallocate()
        fields.deallocate()
    }

    private func growFields() {
        let larger = UnsafeMutablePointer<CSVField>.allocate(capacity: fieldCapacity * 2)
        larger.moveInitialize(from: fields, count: fieldCapacity)
        fields.deallocate()
        fields = larger
        fieldCapacity *= 2
    }

    /// The bytes of field `index` of the current record (quotes removed, `""` unescaped).
    @inline(__always)
    func field(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffer + fields[index].start, count: fields[index].end - fields[index].start)
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
                if fieldCount == 1 && fields[0].start == fields[0].end && !fields[0].escaped && !quotedEmpty {
                    continue
                } // blank line
                return true
            }
        }
    }

    @exclusivity(unchecked) private var quotedEmpty = false
    /// The current record has a quoted field with a space or tab inside its quotes at either
    /// end (`leading_or_trailing_whitespaces`; `isQuoted` tells which fields are quoted).
    @exclusivity(unchecked) private(set) var paddedQuote = false

    /// Whether field `index` of the current record was quoted.
    func isQuoted(_ index: Int) -> Bool { fields[index].start > fields[index].origin.offset }

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
                throw CSVSyntaxError(
                    file: file, line: nextLine, column: 1,
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
                let count = try source.read(
                    into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
                if count == 0 { atEOF = true; break }
                end += count
            }
        } catch {
            throw CSVSyntaxError(file: file, line: nextLine, column: 1, message: error.message)
        }
        if atFileStart && (end >= 3 || atEOF) {
            atFileStart = false
            if end >= 3, buffer.load(fromByteOffset: 0, as: UInt8.self) == 0xEF,
                buffer.load(fromByteOffset: 1, as: UInt8.self) == 0xBB,
                buffer.load(fromByteOffset: 2, as: UInt8.self) == 0xBF
            {
                start = 3
                lineStart = 3
            }
        }
    }

    private func syntaxError(_ message: String, at place: CSVPlace) -> CSVSyntaxError {
        CSVSyntaxError(
            file: file, line: place.line, column: characterColumn(at: place.offset, lineStart: place.lineStart),
            message: message)
    }

    /// Records a repair at `place` (or throws it, when strict); the field's raw text, shown
    /// with it, ends at `valueEnd`; `code` when it is not `repaired_csv_syntax`.
    private func repair(
        _ message: String, at place: CSVPlace, valueEnd: Int, code: String? = nil
    ) throws(CSVSyntaxError) {
        var issue = syntaxError(message, at: place)
        if let code { issue.code = code }
        let bytes = UnsafeRawBufferPointer(
            start: buffer + place.offset, count: max(0, min(valueEnd, end) - place.offset))
        issue.value = String(decoding: bytes.prefix(200), as: UTF8.self)
        if strict { throw issue }
        pendingRepairs.append(issue)
    }

    private static let strictHint = " (--strict; without it the field is repaired as Python's csv module reads it)"

    /// Parses the record at `start`: its fields, then its line end. `.needMore` when the
    /// buffer ends first (the record is parsed again from its start after a refill).
    private func parseRecord() throws(CSVSyntaxError) -> Outcome {
        var at = CSVPlace(offset: start, line: nextLine, lineStart: lineStart)
        var count = 0
        quotedEmpty = false
        paddedQuote = false
        if !pendingRepairs.isEmpty { pendingRepairs.removeAll() } // a record parsed again after .needMore
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        while true {
            var field = CSVField(origin: at)
            guard try skipSpacesBeforeQuote(&at) else { return .needMore }
            let scanned =
                at.offset < end && bytes[at.offset] == Self.quote
                ? try scanQuoted(&at, into: &field)
                : try scanUnquoted(&at, into: &field)
            guard scanned else { return .needMore }
            if count == fieldCapacity { growFields() }
            fields[count] = field
            count += 1
            // The delimiter after it.
            var i = at.offset
            if i == end { break } // end of input: the record ends without a newline
            let b = bytes[i]
            if b == Self.comma { at.offset += 1; continue }
            if b == Self.carriageReturn {
                if i + 1 == end && !atEOF { return .needMore }
                i += 1
                if i < end && bytes[i] == Self.lineFeed { i += 1 }
            } else {
                i += 1
            }
            at = CSVPlace(offset: i, line: at.line + 1, lineStart: base + Int64(i))
            break
        }
        line = nextLine
        nextLine = at.line
        lineStart = at.lineStart
        fieldCount = count
        start = at.offset
        for index in 0..<count where fields[index].escaped { unescape(index) }
        if !pendingRepairs.isEmpty {
            repairs += pendingRepairs
            pendingRepairs.removeAll()
        }
        return .record
    }

    /// Spaces before an opening quote: skips them (a repair), so that the field is read as
    /// quoted. Leaves `at` alone when no quote follows. False when the buffer ends first.
    @inline(__always)
    private func skipSpacesBeforeQuote(_ at: inout CSVPlace) throws(CSVSyntaxError) -> Bool {
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        guard at.offset < end && (bytes[at.offset] == Self.space || bytes[at.offset] == Self.tab) else { return true }
        var q = at.offset
        while q < end && (bytes[q] == Self.space || bytes[q] == Self.tab) { q += 1 }
        if q == end && !atEOF { return false }
        if q < end && bytes[q] == Self.quote {
            var quoteEnd = q + 1
            while quoteEnd < end && bytes[quoteEnd] != Self.quote && bytes[quoteEnd] != Self.lineFeed { quoteEnd += 1 }
            try repair(
                "spaces before an opening quote are skipped" + (strict ? Self.strictHint : ""), at: at,
                valueEnd: quoteEnd + 1)
            at.offset = q
        }
        return true
    }

    /// Scans a quoted field from its opening quote at `at` to just after its closing quote
    /// (or after the text that follows it, a repair), counting the lines it spans.
    /// False when the buffer ends first.
    @inline(__always)
    private func scanQuoted(_ at: inout CSVPlace, into field: inout CSVField) throws(CSVSyntaxError) -> Bool {
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        let opening = at
        var i = at.offset + 1
        field.start = i
        var lineBreak = false
        while true {
            while i < end && bytes[i] != Self.quote {
                if bytes[i] <= Self.carriageReturn {
                    if bytes[i] == Self.lineFeed { at.line += 1; at.lineStart = base + Int64(i) + 1 }
                    lineBreak = lineBreak || bytes[i] == Self.lineFeed || bytes[i] == Self.carriageReturn
                }
                i += 1
            }
            if i == end {
                if atEOF { throw syntaxError("unterminated quoted field", at: opening) }
                return false
            }
            if i + 1 == end && !atEOF { return false }
            if i + 1 < end && bytes[i + 1] == Self.quote { field.escaped = true; i += 2; continue }
            break
        }
        field.end = i
        if i > field.start && (Self.isSpace(bytes[field.start]) || Self.isSpace(bytes[i - 1])) { paddedQuote = true }
        if lineBreak {
            try repair(
                "holds a line break inside its quotes: kept in the value (a quote left open joins the lines after it)",
                at: opening, valueEnd: i + 1, code: NoticeCode.newLineInValue)
        }
        i += 1
        if i < end && !Self.endsField(bytes[i]) {
            // Text after the closing quote: kept as part of the value, as Python's csv does.
            field.closing = field.end
            while i < end && !Self.endsField(bytes[i]) { i += 1 }
            if i == end && !atEOF { return false }
            if strict {
                throw syntaxError(
                    "unexpected character after a closing quote (a quote inside a quoted field must be doubled)",
                    at: opening)
            }
            try repair(
                "text after a closing quote is kept in the value (a quote inside a quoted field should be doubled)",
                at: opening, valueEnd: i)
            field.end = i
            field.escaped = true
        }
        if field.start == field.end { quotedEmpty = true }
        at.offset = i
        return true
    }

    /// Scans an unquoted field from `at` to its delimiter; a quote inside it is literal (a
    /// repair). False when the buffer ends first.
    @inline(__always)
    private func scanUnquoted(_ at: inout CSVPlace, into field: inout CSVField) throws(CSVSyntaxError) -> Bool {
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        var i = at.offset
        var quoted = false
        while i < end {
            let b = bytes[i]
            if Self.endsField(b) { break }
            if b == Self.quote { quoted = true }
            i += 1
        }
        if quoted && (i < end || atEOF) {
            try repair(
                "a quote inside an unquoted field is kept as a literal quote (quote the field and double the quote)"
                    + (strict ? Self.strictHint : ""), at: at, valueEnd: i)
        }
        if i == end && !atEOF { return false }
        field.end = i
        at.offset = i
        return true
    }

    static let quote: UInt8 = 0x22, comma: UInt8 = 0x2C, lineFeed: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D
    private static let space: UInt8 = 0x20, tab: UInt8 = 0x09

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// A comma or a line end.
    @inline(__always)
    private static func endsField(_ byte: UInt8) -> Bool {
        byte == comma || byte == lineFeed || byte == carriageReturn
    }

    /// Turns `""` into `"` in place; after a repaired closing quote, drops the quote and
    /// keeps the text that follows it as is.
    private func unescape(_ index: Int) {
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        let field = fields[index]
        var read = field.start, write = field.start
        let quotedEnd = field.closing >= 0 ? field.closing : field.end
        while read < quotedEnd {
            bytes[write] = bytes[read]
            read += bytes[read] == Self.quote ? 2 : 1
            write += 1
        }
        if field.closing >= 0 {
            read = field.closing + 1
            while read < field.end {
                bytes[write] = bytes[read]
                read += 1
                write += 1
            }
        }
        // Fill the freed bytes with quotes, one per quote removed, so that counting the
        // characters of the line before a later field still gives its column.
        var fill = write
        while fill < field.end { bytes[fill] = Self.quote; fill += 1 }
        fields[index].end = write
        fields[index].escaped = false
    }
}
