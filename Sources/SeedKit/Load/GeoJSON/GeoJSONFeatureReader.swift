/// Reads the features of a GeoJSON `FeatureCollection` one at a time, so that memory stays
/// bounded whatever the file's size: only one feature's text is held (at most
/// `maximumValueBytes`, `--max-record-size`), never the whole file.
///
/// The collection's own structure (the root object, its member names, the `features` list)
/// is scanned here. Each feature, and the value of each other member of the collection, is
/// then read from its bytes by `CanonicalJSONWriter`, which checks it and writes its JSON text
/// in the form the seed has always stored (`JSONSerialization`'s), without building values.
final class GeoJSONFeatureReader {
    private let source: ByteSource
    /// The file, as shown in messages.
    let file: String
    /// The longest feature, or value of another member of the collection, accepted in bytes.
    let maximumValueBytes: Int
    /// Whether each feature's properties are read by name too (`GeoJSONFeature.named`).
    let namedProperties: Bool
    private let writer = CanonicalJSONWriter()

    private let chunk: UnsafeMutablePointer<UInt8>
    private let chunkCapacity = 1 << 16
    private var position = 0 // next unread byte of `chunk`
    private var filled = 0 // end of the valid bytes of `chunk`
    private var atEOF = false
    // The place of `chunk[position]`: 1-based line and character column.
    private var line = 1
    private var column = 1

    /// The text of the value being read; grows up to `maximumValueBytes`.
    private var value: UnsafeMutablePointer<UInt8>
    private var valueCapacity = 1 << 12
    private var valueCount = 0

    private enum State {
        /// Before the collection's opening brace.
        case start
        /// Where a member name or the collection's closing brace comes (after a comma too:
        /// `JSONSerialization` accepted a trailing comma, and so does this reader).
        case memberName
        /// After a member's value: a comma or the collection's closing brace.
        case afterMember
        /// In the `features` list, where a feature or the list's end comes (after a comma
        /// too, as for members).
        case feature
        /// After a feature: a comma or the list's end.
        case afterFeature
        /// After the collection: only white space until the end of the file.
        case end
    }
    private var state = State.start
    private var sawFeatures = false

    /// Where the last feature `next()` returned begins.
    private(set) var featurePlace: Place = (1, 1)

    /// - Parameters:
    ///   - maximumValueBytes: the longest feature (or value of another member) accepted; a
    ///     longer one is an error (`InputLimits.recordBytes`), so memory stays bounded
    ///     whatever the input.
    ///   - namedProperties: whether each feature's properties are read by name too, for
    ///     columns that take one.
    init(source: ByteSource, file: String, maximumValueBytes: Int, namedProperties: Bool = false) {
        self.source = source
        self.file = file
        self.maximumValueBytes = max(1, maximumValueBytes)
        self.namedProperties = namedProperties
        chunk = .allocate(capacity: chunkCapacity)
        valueCapacity = min(valueCapacity, self.maximumValueBytes)
        value = .allocate(capacity: valueCapacity)
    }

    deinit {
        chunk.deallocate()
        value.deallocate()
    }

    /// The next feature (whatever the list holds: what is not an object is a feature without
    /// an id, properties or geometry); nil after the last one, once the rest of the file has
    /// been read and checked. Throws `GeoJSONSyntaxError` for text that is not a
    /// FeatureCollection, `InputError` when the file cannot be read.
    func next() throws -> GeoJSONFeature? {
        while true {
            switch state {
            case .start:
                try skipByteOrderMark()
                guard try nextNonSpace() == UInt8(ascii: "{") else { throw invalid(Self.notACollection, at: place) }
                consume()
                state = .memberName
            case .memberName:
                try readMember()
            case .afterMember:
                switch try nextNonSpace() {
                case UInt8(ascii: ","): consume(); state = .memberName
                case UInt8(ascii: "}"): consume(); try endCollection()
                default: throw unexpected("expected ',' or '}' after a member of the FeatureCollection")
                }
            case .feature:
                let byte = try nextNonSpace()
                if byte == UInt8(ascii: "]") {
                    consume()
                    state = .afterMember
                    continue
                }
                guard byte != nil else { throw unexpected("expected a feature or ']'") }
                featurePlace = place
                try readValue(of: "the feature")
                let feature = try parse(what: "the feature", at: featurePlace) { (text) throws(JSONTextError) in
                    try GeoJSONFeature(text: text, writer: writer, namedProperties: namedProperties)
                }
                state = .afterFeature
                return feature
            case .afterFeature:
                switch try nextNonSpace() {
                case UInt8(ascii: ","): consume(); state = .feature
                case UInt8(ascii: "]"): consume(); state = .afterMember
                default: throw unexpected("expected ',' or ']' after a feature")
                }
            case .end:
                guard try nextNonSpace() == nil else { throw unexpected("text after the end of the FeatureCollection") }
                return nil
            }
        }
    }

    /// Reads one member of the collection (or its closing brace): the `features` list is
    /// entered, any other member's value is read and checked, then left.
    private func readMember() throws {
        let byte = try nextNonSpace()
        if byte == UInt8(ascii: "}") {
            consume()
            try endCollection()
            return
        }
        guard byte == UInt8(ascii: "\"") else { throw unexpected("expected a member name or '}'") }
        let namePlace = place
        try readValue(of: "a member name")
        let name: String
        do {
            writer.begin(UnsafeBufferPointer(start: value, count: valueCount))
            name = try writer.readString()
            guard writer.position == valueCount else { throw writer.failure("") }
        } catch {
            throw invalid("the member name is not a valid JSON string", at: namePlace)
        }
        guard try nextNonSpace() == UInt8(ascii: ":") else {
            throw unexpected("expected ':' after the member name '\(name)'")
        }
        consume()
        let first = try nextNonSpace()
        if name == "features" {
            guard !sawFeatures else { throw invalid("a second 'features' list", at: namePlace) }
            guard first == UInt8(ascii: "[") else { throw invalid(Self.notACollection, at: place) }
            sawFeatures = true
            consume()
            state = .feature
        } else {
            guard first != nil else { throw unexpected("the file ends before the value of '\(name)'") }
            let valuePlace = place
            try readValue(of: "the value of '\(name)'")
            try parse(what: "the value of '\(name)'", at: valuePlace) { (text) throws(JSONTextError) in
                writer.begin(text)
                try writer.writeValue(depth: 0)
            }
            state = .afterMember
        }
    }

    private func endCollection() throws(GeoJSONSyntaxError) {
        guard sawFeatures else { throw invalid(Self.notACollection, at: nil) }
        state = .end
    }

    private static let notACollection = "not a GeoJSON FeatureCollection (no 'features' list)"

    /// 1-based line and character column in the file.
    typealias Place = (line: Int, column: Int)

    /// Where the next unread byte is.
    private var place: Place { (line, column) }

    /// An error at `place` (nil: the file as a whole, its line 1), with the validator's `code`
    /// when it has one for it.
    private func failure(_ message: String, at place: Place?, code: String? = nil) -> GeoJSONSyntaxError {
        GeoJSONSyntaxError(
            issue: BuildIssue(
                kind: .malformedRow, file: file, line: place?.line ?? 1, column: place?.column,
                message: message, code: code))
    }

    /// Text that is not a FeatureCollection, at `place`: `unsupported_geo_json_type` when it is
    /// JSON of another type, else `malformed_json`.
    private func invalid(_ message: String, at place: Place?) -> GeoJSONSyntaxError {
        failure(
            "is not valid GeoJSON: " + message, at: place,
            code: message == Self.notACollection ? NoticeCode.unsupportedGeoJSONType : NoticeCode.malformedJSON)
    }

    /// A byte the collection's structure does not allow here, or the end of the file.
    private func unexpected(_ message: String) -> GeoJSONSyntaxError {
        invalid(message + (position < filled ? "" : " (the file ends here)"), at: place)
    }

    // MARK: Values

    /// Reads the value just read, which began at `start`, with `read`; an error in it is
    /// reported at its own place, with what is wrong, where in the value and what is there.
    private func parse<T>(
        what: String, at start: Place, _ read: (UnsafeBufferPointer<UInt8>) throws(JSONTextError) -> T
    )
        throws(GeoJSONSyntaxError) -> T
    {
        let text = UnsafeBufferPointer(start: value, count: valueCount)
        do {
            return try read(text)
        } catch {
            var at = start
            for byte in text[0..<min(error.offset, valueCount)] {
                if byte == UInt8(ascii: "\n") {
                    at = (at.line + 1, 1)
                } else if byte & 0xC0 != 0x80 {
                    at.column += 1
                }
            }
            let field = error.path.isEmpty ? "" : " (at \(error.path))"
            throw invalid(
                "\(what) starting at line \(start.line), column \(start.column) is not valid JSON: "
                    + error.message + field, at: at)
        }
    }

    /// Reads one JSON value, starting at the current byte, into `value`: a string, an object
    /// or a list (up to its matching end, counting the brackets outside strings), or a
    /// number or literal (up to the next delimiter). `CanonicalJSONWriter` checks the rest.
    /// `what` names it in the message when it is longer than the limit.
    private func readValue(of what: String) throws {
        let start = place
        valueCount = 0
        var depth = 0
        var inString = false
        var escaped = false
        var scalar = true
        var first = true
        while true {
            if position == filled {
                try refill()
                if position == filled {
                    if scalar && !first { return } // a number or literal ends with the file
                    throw invalid("the file ends inside \(what) starting here", at: start)
                }
            }
            var i = position
            var finished = false
            // The place is counted in locals, stored once per chunk: this loop sees every byte.
            var (line, column) = (self.line, self.column)
            let chunk = self.chunk, filled = self.filled
            while i < filled {
                let byte = chunk[i]
                if first {
                    first = false
                    scalar = byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "{") && byte != UInt8(ascii: "[")
                }
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        finished = depth == 0
                    }
                } else if scalar {
                    if Self.endsScalar(byte) { break }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        finished = depth == 0
                    default: break
                    }
                }
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 { // not a UTF-8 continuation byte
                    column += 1
                }
                i += 1
                if finished { break }
            }
            (self.line, self.column) = (line, column)
            try append(chunk + position, count: i - position, what: what, start: start)
            position = i
            if finished || (scalar && i < filled) { return }
        }
    }

    /// A byte that ends a number or literal: a delimiter or white space.
    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"),
            UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            return true
        default: return false
        }
    }

    /// Adds `count` bytes to the value, which began at `start`, up to the limit.
    private func append(
        _ bytes: UnsafePointer<UInt8>, count: Int, what: String, start: Place
    ) throws(GeoJSONSyntaxError) {
        guard count > 0 else { return }
        guard valueCount + count <= maximumValueBytes else {
            throw failure(
                """
                \(what) starting here is longer than \(maximumValueBytes) bytes (the limit; raise it with \
                --max-record-size)
                """,
                at: start)
        }
        if valueCount + count > valueCapacity {
            var larger = valueCapacity
            while larger < valueCount + count { larger = min(larger * 2, maximumValueBytes) }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
            bigger.moveInitialize(from: value, count: valueCount)
            value.deallocate()
            value = bigger
            valueCapacity = larger
        }
        (value + valueCount).update(from: bytes, count: count)
        valueCount += count
    }

    // MARK: Bytes

    /// The next byte that is not JSON white space, not consumed; nil at the end of the file.
    private func nextNonSpace() throws -> UInt8? {
        while true {
            if position == filled {
                try refill()
                if position == filled { return nil }
            }
            let byte = chunk[position]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): consume()
            default: return byte
            }
        }
    }

    /// Steps over the current byte.
    private func consume() {
        advancePlace(over: chunk[position])
        position += 1
    }

    private func advancePlace(over byte: UInt8) {
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 { // not a UTF-8 continuation byte
            column += 1
        }
    }

    /// A UTF-8 byte-order mark at the start is skipped (it counts for no column).
    private func skipByteOrderMark() throws {
        while filled - position < 3 && !atEOF { try refill() }
        if filled - position >= 3 && chunk[position] == 0xEF && chunk[position + 1] == 0xBB
            && chunk[position + 2] == 0xBF
        {
            position += 3
        }
    }

    /// Keeps the unread bytes, moved to the front, and reads more after them.
    private func refill() throws {
        guard !atEOF else { return }
        if position > 0 {
            let tail = filled - position
            if tail > 0 { chunk.update(from: chunk + position, count: tail) }
            filled = tail
            position = 0
        }
        let count = try source.read(
            into: UnsafeMutableRawBufferPointer(start: chunk + filled, count: chunkCapacity - filled))
        if count == 0 { atEOF = true }
        filled += count
    }
}
