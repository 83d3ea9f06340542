import SeedArchive
/// Reads a seed delta file: its header, then its body one record at a time, with bounded
/// memory, checking everything a damaged or hostile file can get wrong.
///
/// ```swift
/// let reader = try DeltaReader(path: "2-to-3.delta")
/// print(reader.header.to.seedVersion)
/// while true {
///     let record = try reader.next()
///     if record == .end { break }
///     // ...
/// }
/// ```
///
/// Every count and length is checked before it is used: a name is at most 4 KiB, a table has
/// at most 32,767 columns, a text or blob value at most ``DeltaWriter/maximumValueBytes``, and
/// the whole body at most the header's ``DeltaHeader/bodyLimit`` (a decompression bomb stops
/// there). Records must come in the body's order (see ``DeltaRecord``). ``next()`` returns
/// `.end` only once the gzip stream has ended and its CRC-32 and size were checked, with
/// nothing after it. Not thread-safe.
public final class DeltaReader {
    /// The delta file.
    public let path: String
    /// Its header.
    public let header: DeltaHeader
    /// Where the body (the gzip stream) starts in the file.
    public let bodyOffset: Int
    private var decoder: Decoder
    /// Body bytes consumed so far (for messages and the body limit).
    public var bodyBytes: Int64 { decoder.bodyBytes }

    /// Opens `path`, reads and checks its header, and starts its body.
    /// - Throws: `DeltaError` (`.io`, `.notADelta`, `.unsupportedVersion`, `.invalidHeader`,
    ///   `.truncated`, `.corrupt`).
    public init(path: String) throws(DeltaError) {
        self.path = path
        (header, bodyOffset) = try DeltaHeader.read(path: path)
        let gzip: GzipReader
        do { gzip = try GzipReader(path: path, offset: Int64(bodyOffset)) } catch {
            throw DeltaError(error, path: path)
        }
        decoder = Decoder(path: path, header: header, gzip: gzip)
    }

    deinit {
        decoder.buffer.deallocate()
    }

    /// The next record; `.end` at the checked end of the body (and again on every later call).
    public func next() throws(DeltaError) -> DeltaRecord {
        // One access to the decoder per record: its many reads are then checked statically (a
        // class's stored properties are checked at run time, on every access).
        try decoder.next()
    }

    /// Reads the rest of the body's gzip stream without decoding records: checks, cheaply,
    /// that the body is whole (CRC-32 and size) and within its limit.
    public func checkStream() throws(DeltaError) {
        try decoder.checkStream()
    }
}

/// The body's decoding: the decompressed bytes not yet read, and what decoding the next record
/// needs (the table, the column states, the order checks).
private struct Decoder {
    let path: String
    let header: DeltaHeader
    let gzip: GzipReader
    /// Owned by the reader, which deallocates it.
    let buffer: UnsafeMutableRawBufferPointer
    var start = 0
    var end = 0
    var bodyBytes: Int64 = 0
    let bodyLimit: Int64
    var state = DeltaCoding.ColumnState()
    var table: DeltaTable?
    var inChanges = false
    var isDone = false

    init(path: String, header: DeltaHeader, gzip: GzipReader) {
        self.path = path
        self.header = header
        self.gzip = gzip
        bodyLimit = header.bodyLimit
        buffer = .allocate(byteCount: 65536, alignment: 16)
    }

    mutating func next() throws(DeltaError) -> DeltaRecord {
        if isDone { return .end }
        let tag = try byte()
        switch tag {
        case DeltaCoding.endTag:
            guard try !fill() else { throw invalid("bytes after the end record") }
            isDone = true
            return .end
        case DeltaCoding.tableTag:
            let nameLength = try length(limit: DeltaCoding.maximumNameBytes, of: "a table name")
            let nameBytes = try bytes(nameLength)
            let name = String(decoding: nameBytes, as: UTF8.self)
            guard nameLength > 0, name.utf8.elementsEqual(nameBytes), !nameBytes.contains(0) else {
                throw invalid("a table name that is empty or not UTF-8 text")
            }
            if let table, !DeltaWriter.isOrdered(table.name, before: name) {
                throw invalid("table '\(name)' after '\(table.name)': tables go in increasing name order, once each")
            }
            let kind = try byte()
            guard kind <= 1 else { throw invalid("table '\(name)': key kind \(kind) (0 or 1)") }
            let keyCount = try length(limit: DeltaCoding.maximumColumns, of: "a key column count")
            let valueCount = try length(limit: DeltaCoding.maximumColumns - keyCount, of: "a column count")
            guard kind == 0 ? keyCount >= 1 : keyCount == 1 else {
                throw invalid(
                    "table '\(name)': \(keyCount) key columns for a \(kind == 1 ? "rowid" : "WITHOUT ROWID") table")
            }
            let next = DeltaTable(name: name, isRowID: kind == 1, keyCount: keyCount, valueCount: valueCount)
            table = next
            inChanges = false
            state.reset(for: next)
            return .table(next)
        case DeltaCoding.deleteTag, DeltaCoding.deletePrefixTag:
            guard !inChanges else {
                throw invalid("a delete after an insert or update in table '\(table?.name ?? "")'")
            }
            var prefix: Int?
            if tag == DeltaCoding.deletePrefixTag {
                guard let table, !table.isRowID else {
                    throw invalid("a delete by key prefix outside a WITHOUT ROWID table")
                }
                let count = try length(limit: table.keyCount - 1, of: "a key prefix")
                guard count >= 1 else { throw invalid("an empty key prefix") }
                prefix = count
            }
            return .delete(key: try key(length: prefix).key)
        case DeltaCoding.insertTag:
            inChanges = true
            let (key, count) = try key()
            var values: [DeltaValue] = []
            values.reserveCapacity(count)
            for index in 0..<count {
                let (value, last) = try value(after: state.values[index])
                state.values[index] = last
                values.append(value)
            }
            return .insert(key: key, values: values)
        case DeltaCoding.updateTag:
            inChanges = true
            let (key, count) = try key()
            let mask = try bytes((count + 7) / 8)
            var changes: [DeltaRecord.Change] = []
            for index in 0..<count where mask[index / 8] & (1 << UInt8(index % 8)) != 0 {
                let (value, last) = try value(after: state.values[index])
                state.values[index] = last
                changes.append(DeltaRecord.Change(column: index, value: value))
            }
            let unused = count % 8 == 0 ? 0 : mask[mask.count - 1] >> UInt8(count % 8)
            guard !changes.isEmpty, unused == 0 else {
                throw invalid("an update whose column mask is empty or names columns the table does not have")
            }
            return .update(key: key, changes: changes)
        default:
            throw invalid("unknown record tag \(tag)")
        }
    }

    mutating func checkStream() throws(DeltaError) {
        while try fill() { start = end }
    }

    /// A row's key (or its first `length` values), and the number of other values a row of its
    /// table has.
    mutating func key(length: Int? = nil) throws(DeltaError) -> (key: [DeltaValue], valueCount: Int) {
        guard let table else { throw invalid("a row before the first table") }
        var key: [DeltaValue] = []
        key.reserveCapacity(table.keyCount)
        for index in 0..<(length ?? table.keyCount) {
            let (value, last) = try value(after: state.keys[index])
            state.keys[index] = last
            key.append(value)
        }
        if table.isRowID {
            guard case .integer = key[0] else {
                throw invalid("a rowid that is not an integer in table '\(table.name)'")
            }
        }
        return (key, table.valueCount)
    }

    /// A value, and what its column's state becomes (the integer a next difference adds to).
    mutating func value(after previous: Int64?) throws(DeltaError) -> (DeltaValue, Int64?) {
        let tag = try byte()
        switch tag {
        case DeltaCoding.nullTag:
            return (.null, nil)
        case DeltaCoding.integerTag:
            let number = DeltaCoding.unzigzag(try varint())
            return (.integer(number), number)
        case DeltaCoding.integerDeltaTag:
            guard let last = previous else {
                throw invalid("an integer difference in a column whose last value was not an integer")
            }
            let number = last &+ DeltaCoding.unzigzag(try varint())
            return (.integer(number), number)
        case DeltaCoding.realTag:
            let raw = try bytes(8)
            return (.real(Double(bitPattern: raw.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })), nil)
        case DeltaCoding.textTag, DeltaCoding.blobTag:
            let count = try length(limit: DeltaCoding.maximumValueBytes, of: "a value")
            let raw = try bytes(count)
            return (tag == DeltaCoding.textTag ? .text(raw) : .blob(raw), nil)
        default:
            throw invalid("unknown value tag \(tag)")
        }
    }

    /// A varint that is a count or length, checked against `limit` before anything uses it.
    mutating func length(limit: Int, of what: String) throws(DeltaError) -> Int {
        let value = try varint()
        guard value <= UInt64(limit) else { throw invalid("\(what) of \(value); at most \(limit)") }
        return Int(value)
    }

    mutating func varint() throws(DeltaError) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<10 {
            let byte = try byte()
            if index == 9 && byte > 1 { break }
            value |= UInt64(byte & 0x7f) << UInt64(7 * index)
            if byte < 0x80 { return value }
        }
        throw invalid("a number longer than 64 bits")
    }

    mutating func byte() throws(DeltaError) -> UInt8 {
        guard try fill() else { throw truncated() }
        let value = buffer[start]
        start += 1
        return value
    }

    mutating func bytes(_ count: Int) throws(DeltaError) -> [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(count)
        while result.count < count {
            guard try fill() else { throw truncated() }
            let taken = min(count - result.count, end - start)
            result += UnsafeRawBufferPointer(rebasing: buffer[start..<start + taken])
            start += taken
        }
        return result
    }

    /// Decompresses more when the buffer is used up; false at the checked end of the stream.
    mutating func fill() throws(DeltaError) -> Bool {
        if start < end { return true }
        bodyBytes += Int64(end)
        start = 0
        do { end = try gzip.read(into: buffer) } catch { throw DeltaError(error, path: path) }
        guard bodyBytes + Int64(end) <= bodyLimit else {
            throw invalid(
                """
                the body decompresses to more than \(bodyLimit) bytes, more than a delta between seeds of \
                \(header.from.size) and \(header.to.size) bytes can need
                """
            )
        }
        return end > 0
    }

    func truncated() -> DeltaError {
        DeltaError(
            code: .truncated,
            message: "the body ends inside a record (at byte \(bodyBytes + Int64(start)) of the body)", path: path)
    }

    func invalid(_ message: String) -> DeltaError {
        DeltaError(
            code: .invalidBody, message: "\(message) (at byte \(bodyBytes + Int64(start)) of the body)", path: path)
    }
}
