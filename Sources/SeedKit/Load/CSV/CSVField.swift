/// A place in the CSV reader's buffer: the offset, the line it is on and the file offset
/// where that line starts (its column is counted from there, for messages).
struct CSVPlace {
    var offset: Int
    var line: Int
    var lineStart: Int64
}

/// One field of the CSV reader's current record: where its value lies in the buffer and
/// where the field began, for messages. The reader keeps them in one plain buffer.
struct CSVField {
    /// The value is `start..<end` in the buffer (quotes removed once unescaped).
    var start: Int
    var end: Int
    /// The offset of a closing quote that text follows (a repair), or -1.
    var closing: Int
    /// Where the field begins: its opening quote, if any.
    var origin: CSVPlace
    /// The value holds doubled quotes or a repaired closing quote, not yet unescaped.
    var escaped: Bool

    /// An empty field beginning at `origin`.
    @inline(__always)
    init(origin: CSVPlace) {
        start = origin.offset
        end = origin.offset
        closing = -1
        self.origin = origin
        escaped = false
    }
}
