/// Text bytes that must not reach the seed as they are: invalid UTF-8 (a name cut in the
/// middle of a character, a Latin-1 file) and NUL bytes (which end a string in C, so apps
/// would show the value cut short). Each is replaced by U+FFFD, as Python's
/// `errors='replace'` reads it, so the seed holds valid UTF-8 and the damage stays visible.
enum InvalidText {
    /// True when `bytes` are ASCII without NUL, so valid as they are: the common case, checked
    /// eight bytes at a time.
    @inline(__always)
    static func isPlainASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var i = 0
        let count = bytes.count
        while i + 8 <= count {
            let word = (base + i).loadUnaligned(as: UInt64.self)
            // A byte with its high bit set, or a zero byte (the classic "has zero byte" test).
            if word & 0x8080_8080_8080_8080 != 0 || (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
            {
                return false
            }
            i += 8
        }
        while i < count {
            let byte = base.load(fromByteOffset: i, as: UInt8.self)
            if byte == 0 || byte >= 0x80 { return false }
            i += 1
        }
        return true
    }

    /// A place in a value that cannot be stored as it is.
    struct Problem: Equatable {
        /// The byte offset in the value.
        var offset: Int
        /// The bytes concerned: one NUL, or a maximal invalid UTF-8 sequence (at most 3).
        var length: Int
    }

    /// Each invalid UTF-8 sequence and NUL byte in `bytes`, in order; empty when they are valid.
    static func problems(in bytes: UnsafeRawBufferPointer) -> [Problem] {
        var problems: [Problem] = []
        var i = 0
        while i < bytes.count {
            let length = validLength(bytes, at: i)
            if length > 0 {
                i += length
            } else {
                let bad = invalidLength(bytes, at: i)
                problems.append(Problem(offset: i, length: bad))
                i += bad
            }
        }
        return problems
    }

    /// `bytes` with every problem replaced by U+FFFD.
    static func repaired(_ bytes: UnsafeRawBufferPointer, _ problems: [Problem]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 2 * problems.count)
        var i = 0
        for problem in problems {
            out += bytes[i..<problem.offset]
            out += [0xEF, 0xBF, 0xBD]
            i = problem.offset + problem.length
        }
        out += bytes[i...]
        return out
    }

    /// The problem's bytes in hexadecimal, for messages: `EC A0`, `00`.
    static func hex(_ bytes: UnsafeRawBufferPointer, _ problem: Problem) -> String {
        let digits = Array("0123456789ABCDEF")
        return bytes[problem.offset..<problem.offset + problem.length]
            .map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined(separator: " ")
    }

    /// The length of the valid, non-NUL character at `i`, or 0.
    private static func validLength(_ bytes: UnsafeRawBufferPointer, at i: Int) -> Int {
        let lead = bytes[i]
        if lead == 0 { return 0 }
        if lead < 0x80 { return 1 }
        let (length, low, high): (Int, UInt8, UInt8) =
            switch lead {
            case 0xC2...0xDF: (2, 0x80, 0xBF)
            case 0xE0: (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
            case 0xED: (3, 0x80, 0x9F) // no surrogates
            case 0xF0: (4, 0x90, 0xBF)
            case 0xF1...0xF3: (4, 0x80, 0xBF)
            case 0xF4: (4, 0x80, 0x8F) // up to U+10FFFF
            default: (0, 0, 0)
            }
        guard length > 0, i + length <= bytes.count, (low...high).contains(bytes[i + 1]) else { return 0 }
        for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 { return 0 }
        return length
    }

    /// How many bytes at `i` one U+FFFD stands for: a NUL or a stray byte alone; a lead
    /// byte with the continuation bytes that follow it, up to where the character breaks
    /// (the "maximal subpart" of Unicode's recommended practice, as Python and Swift count).
    private static func invalidLength(_ bytes: UnsafeRawBufferPointer, at i: Int) -> Int {
        let lead = bytes[i]
        let (length, low, high): (Int, UInt8, UInt8) =
            switch lead {
            case 0xC2...0xDF: (2, 0x80, 0xBF)
            case 0xE0: (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
            case 0xED: (3, 0x80, 0x9F)
            case 0xF0: (4, 0x90, 0xBF)
            case 0xF1...0xF3: (4, 0x80, 0xBF)
            case 0xF4: (4, 0x80, 0x8F)
            default: (1, 0, 0)
            }
        guard length > 1, i + 1 < bytes.count, (low...high).contains(bytes[i + 1]) else { return 1 }
        var k = 2
        while k < length && i + k < bytes.count && bytes[i + k] & 0xC0 == 0x80 { k += 1 }
        return k
    }
}
