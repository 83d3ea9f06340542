/// Where things are in the current record, for messages: lines and 1-based character columns.
extension CSVReader {
    /// The 1-based character column of buffer offset `offset` in the line starting at file
    /// offset `lineStart` (UTF-8 continuation bytes do not count; a line start no longer in
    /// the buffer counts from the buffer's start).
    func characterColumn(at offset: Int, lineStart: Int64) -> Int {
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
        let origin = fields[index].origin
        return (origin.line, characterColumn(at: origin.offset, lineStart: origin.lineStart))
    }

    /// The bytes of the current record from its first field to the end of its last value,
    /// delimiters and quotes included: scanned at once for text that needs a closer look.
    var recordBytes: UnsafeRawBufferPointer {
        guard fieldCount > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let first = min(fields[0].origin.offset, fields[0].start)
        return UnsafeRawBufferPointer(start: buffer + first, count: max(0, fields[fieldCount - 1].end - first))
    }

    /// Where byte `offset` of the value of field `index` is: its line and 1-based character
    /// column (a value may span lines). For messages.
    func place(ofByte offset: Int, inField index: Int) -> (line: Int, column: Int) {
        let field = fields[index]
        let target = min(field.start + offset, field.end)
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        var line = field.origin.line
        var lineStart = field.origin.lineStart
        var i = field.origin.offset
        while i < target {
            if bytes[i] == Self.lineFeed { line += 1; lineStart = base + Int64(i) + 1 }
            i += 1
        }
        return (line, characterColumn(at: target, lineStart: lineStart))
    }

    /// The place just after the current record's last field, where a missing field would
    /// begin. For messages.
    func place(afterRecord: Void) -> (line: Int, column: Int) {
        guard fieldCount > 0 else { return (line, 1) }
        let last = fields[fieldCount - 1]
        // The field's text ends where its value does, then come the quotes `unescape` wrote
        // in place of removed ones and its closing quote, if any (a repaired field has none).
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        var endOffset = last.end
        while endOffset < end && bytes[endOffset] == Self.quote { endOffset += 1 }
        return (last.origin.line, characterColumn(at: endOffset, lineStart: last.origin.lineStart) + 1)
    }
}
