/// Hands a CSV reader UTF-8 whatever the file's encoding: a file that starts with a UTF-16
/// byte-order mark (`FF FE` little-endian, `FE FF` big-endian: what spreadsheet programs
/// write as "Unicode text") is transcoded to UTF-8 as it streams; any other file passes
/// through untouched, at the cost of one branch per read.
///
/// Unpaired surrogates and a trailing odd byte become U+FFFD. Wrap the measured source, so
/// that an input's checksum stays that of its bytes.
final class TextDecodingSource: ByteSource {
    enum Encoding: Equatable { case undetermined, passthrough, utf16LittleEndian, utf16BigEndian }

    private let base: ByteSource
    /// The file's encoding, known once the first bytes were read.
    private(set) var encoding = Encoding.undetermined
    private var raw: [UInt8] = [] // UTF-16 bytes read and not yet transcoded
    private var rawStart = 0
    private var output: [UInt8] = [] // transcoded bytes not yet handed out
    private var outputStart = 0
    private var baseAtEnd = false
    private var highSurrogate: UInt16?

    init(_ base: ByteSource) { self.base = base }

    /// True when the file was UTF-16.
    var isUTF16: Bool { encoding == .utf16LittleEndian || encoding == .utf16BigEndian }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        switch encoding {
        case .passthrough:
            // The bytes read to tell the encoding go first.
            return outputStart < output.count ? handOut(into: buffer) : try base.read(into: buffer)
        case .undetermined:
            try determineEncoding()
            return try read(into: buffer)
        case .utf16LittleEndian, .utf16BigEndian:
            while outputStart == output.count {
                if baseAtEnd && rawStart == raw.count { return 0 }
                try transcodeMore()
            }
            return handOut(into: buffer)
        }
    }

    /// Copies what `output` holds (some of it) into `buffer`.
    private func handOut(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, output.count - outputStart)
        output.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + outputStart, byteCount: count)
        }
        outputStart += count
        return count
    }

    /// Reads the first two bytes: a UTF-16 byte-order mark, or anything else.
    private func determineEncoding() throws(InputError) {
        var first: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while first.count < 2 {
            let count = try Self.read(base, into: &chunk)
            if count == 0 { break }
            first += chunk[0..<count]
        }
        if first.count >= 2 && first[0] == 0xFF && first[1] == 0xFE {
            encoding = .utf16LittleEndian
        } else if first.count >= 2 && first[0] == 0xFE && first[1] == 0xFF {
            encoding = .utf16BigEndian
        } else {
            // Not UTF-16: what was read is handed out as it is, then the base's bytes.
            encoding = .passthrough
            output = first
            return
        }
        raw = first
    }

    private static func read(_ source: ByteSource, into chunk: inout [UInt8]) throws(InputError) -> Int {
        var result: Result<Int, InputError> = .success(0)
        chunk.withUnsafeMutableBytes { bytes in
            do throws(InputError) { result = .success(try source.read(into: bytes)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Reads more UTF-16 and appends its UTF-8 to `output`.
    private func transcodeMore() throws(InputError) {
        if rawStart > 0 {
            raw.removeFirst(rawStart)
            rawStart = 0
        }
        if !baseAtEnd {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = try Self.read(base, into: &chunk)
            if count == 0 { baseAtEnd = true } else { raw += chunk[0..<count] }
        }
        output.removeAll(keepingCapacity: true)
        outputStart = 0
        let littleEndian = encoding == .utf16LittleEndian
        var i = 0
        while i + 1 < raw.count {
            let unit =
                littleEndian ? UInt16(raw[i]) | UInt16(raw[i + 1]) << 8 : UInt16(raw[i]) << 8 | UInt16(raw[i + 1])
            i += 2
            append(unit)
        }
        rawStart = i
        if baseAtEnd {
            if highSurrogate != nil { Self.appendReplacement(to: &output); highSurrogate = nil }
            if rawStart < raw.count { Self.appendReplacement(to: &output); rawStart = raw.count }
        }
    }

    private func append(_ unit: UInt16) {
        if let high = highSurrogate {
            highSurrogate = nil
            if (0xDC00...0xDFFF).contains(unit) {
                let scalar = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
                output += [
                    UInt8(0xF0 | scalar >> 18), UInt8(0x80 | (scalar >> 12) & 0x3F),
                    UInt8(0x80 | (scalar >> 6) & 0x3F), UInt8(0x80 | scalar & 0x3F)
                ]
                return
            }
            Self.appendReplacement(to: &output)
        }
        switch unit {
        case 0..<0x80: output.append(UInt8(unit))
        case 0x80..<0x800: output += [UInt8(0xC0 | unit >> 6), UInt8(0x80 | unit & 0x3F)]
        case 0xD800...0xDBFF: highSurrogate = unit
        case 0xDC00...0xDFFF: Self.appendReplacement(to: &output)
        default: output += [UInt8(0xE0 | unit >> 12), UInt8(0x80 | (unit >> 6) & 0x3F), UInt8(0x80 | unit & 0x3F)]
        }
    }

    private static func appendReplacement(to output: inout [UInt8]) { output += [0xEF, 0xBF, 0xBD] }
}
