import SeedSQLite

/// A run of a table's keys: those after `after` (from the first when nil) up to `through`
/// (to the last when nil), each a key's values in the key's order.
struct KeyRange: Equatable {
    var after: [DeltaValue]?
    var through: [DeltaValue]?
    /// The rows NEW's chunks hold in the range (0 when not known): a measure of the work of
    /// comparing it.
    var rows: Int64 = 0
}

/// Where one table's rows may differ between two seeds, from their chunk records: a chunk of
/// NEW whose hash and start (the last key of the chunk before it) an OLD chunk shares holds the
/// same rows as that OLD chunk (its hash covers their keys and values, and its end follows from
/// its rows), so only the keys between such shared chunks are compared (`seedgen delta`).
enum ChangedKeyRanges {
    /// The ranges of keys outside the chunks both lists share, in key order; nil when a chunk has
    /// no last key to bound a range with (compare the whole table).
    static func between(old: [ContentChunk], new: [ContentChunk]) -> [KeyRange]? {
        let oldEnds = old.compactMap(end)
        let newEnds = new.compactMap(end)
        guard oldEnds.count == old.count, newEnds.count == new.count else { return nil }
        var shared = Set<Start>()
        for (index, chunk) in old.enumerated() {
            shared.insert(Start(after: index == 0 ? nil : oldEnds[index - 1], sha256: chunk.sha256))
        }
        var ranges: [KeyRange] = []
        // The last key of the last shared chunk: what is after it may differ.
        var cursor: [UInt8]? = nil
        var rows: Int64 = 0
        for (index, chunk) in new.enumerated() {
            let after = index == 0 ? nil : newEnds[index - 1]
            guard shared.contains(Start(after: after, sha256: chunk.sha256)) else {
                // An estimate from the file's record: saturating, never a trap.
                let (sum, overflow) = rows.addingReportingOverflow(max(0, chunk.rows))
                rows = overflow ? .max : sum
                continue
            }
            if after != cursor {
                guard var range = range(after: cursor, through: after) else { return nil }
                range.rows = rows
                ranges.append(range)
            }
            cursor = newEnds[index]
            rows = 0
        }
        guard var last = range(after: cursor, through: nil) else { return nil }
        last.rows = rows
        return ranges + [last]
    }

    /// A chunk's first rows' neighbour: its start, as the encoding of the key before it, and its hash.
    private struct Start: Hashable {
        var after: [UInt8]?
        var sha256: [UInt8]
    }

    /// The encoding of a chunk's last key (a rowid: `'I'` and its 8 bytes, big-endian).
    private static func end(_ chunk: ContentChunk) -> [UInt8]? {
        if let key = chunk.lastKey { return key }
        guard let rowid = chunk.lastRowID else { return nil }
        return [UInt8(ascii: "I")] + withUnsafeBytes(of: UInt64(bitPattern: rowid).bigEndian) { Array($0) }
    }

    private static func range(after: [UInt8]?, through: [UInt8]?) -> KeyRange? {
        var range = KeyRange()
        if let after {
            guard let values = decode(after) else { return nil }
            range.after = values
        }
        if let through {
            guard let values = decode(through) else { return nil }
            range.through = values
        }
        return range
    }

    /// The values of a key's encoding (`Documentation/content-digest.md`, "The encoding"); nil
    /// when the bytes are not one.
    static func decode(_ bytes: [UInt8]) -> [DeltaValue]? {
        var values: [DeltaValue] = []
        var at = 0
        func fixed() -> UInt64? {
            guard bytes.count - at >= 8 else { return nil }
            defer { at += 8 }
            return bytes[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) }
        }
        func counted() -> [UInt8]? {
            guard bytes.count - at >= 4 else { return nil }
            let length = Int(bytes[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            at += 4
            guard bytes.count - at >= length else { return nil }
            defer { at += length }
            return Array(bytes[at..<at + length])
        }
        while at < bytes.count {
            let tag = bytes[at]
            at += 1
            switch tag {
            case UInt8(ascii: "N"): values.append(.null)
            case UInt8(ascii: "I"):
                guard let bits = fixed() else { return nil }
                values.append(.integer(Int64(bitPattern: bits)))
            case UInt8(ascii: "F"):
                guard let bits = fixed() else { return nil }
                values.append(.real(Double(bitPattern: bits)))
            case UInt8(ascii: "T"):
                guard let text = counted() else { return nil }
                values.append(.text(text))
            case UInt8(ascii: "B"):
                guard let blob = counted() else { return nil }
                values.append(.blob(blob))
            default: return nil
            }
        }
        return values
    }
}
