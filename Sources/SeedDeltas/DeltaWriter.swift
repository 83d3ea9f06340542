import SeedArchive
/// Writes a seed delta file: the header, then the body's records into a gzip stream, with
/// bounded memory (records are buffered 64 KiB at a time), compressed on another thread
/// (``BackgroundGzip``).
///
/// ```swift
/// let writer = try DeltaWriter(path: "2-to-3.delta", header: header)
/// try writer.write(.table(DeltaTable(name: "stops", isRowID: true, keyCount: 1, valueCount: 15)))
/// try writer.write(.delete(key: [.integer(42)]))
/// let summary = try writer.finish()   // size and SHA-256 of the file
/// ```
///
/// The writer checks the order of records (tables in increasing name order, a table's deletes
/// before its inserts and updates) and their shape (key and value counts, value lengths), so
/// that a delta it writes is one the reader accepts. Output is deterministic: the same records
/// give the same bytes (with the same zlib). Not thread-safe.
public final class DeltaWriter {
    /// The delta file.
    public let path: String
    private let gzip: BackgroundGzip
    private var encoder: Encoder

    /// The longest text or blob value a delta may hold.
    public static var maximumValueBytes: Int { DeltaCoding.maximumValueBytes }

    /// Creates (or truncates) `path` and writes the header.
    /// - Parameters:
    ///   - path: the delta file to write.
    ///   - header: what the delta turns into what.
    ///   - level: the deflate level of the body (default 9, the smallest).
    public init(path: String, header: DeltaHeader, level: Int = 9) throws(DeltaError) {
        self.path = path
        encoder = Encoder(path: path)
        do { gzip = BackgroundGzip(try GzipWriter(path: path, level: level, prefix: header.encoded())) } catch {
            throw DeltaError(error, path: path)
        }
    }

    static let flushSize = 65536

    /// Appends one record.
    /// - Throws: `DeltaError` `.invalidBody` for a record out of order or of the wrong shape,
    ///   or a value longer than ``maximumValueBytes``; `.io` when the file cannot be written.
    public func write(_ record: DeltaRecord) throws(DeltaError) {
        // One access to the encoder per record: its many appends are then checked statically
        // (a class's stored properties are checked at run time, on every access).
        try encoder.write(record)
        if encoder.buffer.count >= Self.flushSize { try flush() }
    }

    /// Writes the end record if not yet written, ends the gzip stream, flushes the file to disk
    /// and closes it.
    /// - Returns: the sizes and SHA-256 of the body and of the whole delta file (`gzipSize`
    ///   and `gzipSha256`).
    @discardableResult
    public func finish(sync: Bool = true) throws(DeltaError) -> GzipSummary {
        if !encoder.isFinished { try write(.end) }
        try flush()
        do { return try gzip.finish(sync: sync) } catch { throw DeltaError(error, path: path) }
    }

    /// Writes the delta at `source` again to `path` (created or truncated), the same header and
    /// body with the body deflated at `level`: `seedgen delta` writes the body stored (level 0)
    /// and deflates it on another thread while it applies the stored one to check it.
    /// - Returns: the sizes and SHA-256s of the body and the new file, flushed to disk.
    public static func recompress(_ source: String, to path: String, level: Int) throws(DeltaError) -> GzipSummary {
        let header = try DeltaHeader.read(path: source)
        do throws(GzipError) {
            let reader = try GzipReader(path: source, offset: Int64(header.length))
            let writer = try GzipWriter(path: path, level: level, prefix: header.header.encoded())
            do { try reader.forEachChunk { (bytes) throws(GzipError) in try writer.write(bytes) } } catch {
                switch error {
                case .gzip(let error), .body(let error): throw error
                }
            }
            return try writer.finish()
        } catch {
            throw DeltaError(error, path: path)
        }
    }

    /// True when table names are in the order the body requires: by their UTF-8 bytes, as
    /// SQLite's `ORDER BY name` (BINARY collation) sorts them.
    public static func isOrdered(_ first: String, before second: String) -> Bool {
        first.utf8.lexicographicallyPrecedes(second.utf8)
    }

    private func flush() throws(DeltaError) {
        guard !encoder.buffer.isEmpty else { return }
        do { try gzip.write(encoder.buffer) } catch { throw DeltaError(error, path: path) }
        encoder.buffer.removeAll(keepingCapacity: true)
    }

    /// The body's bytes not yet compressed, and what encoding the next record needs: the
    /// table, the column states, the order checks.
    private struct Encoder {
        let path: String
        var buffer: [UInt8] = []
        var state = DeltaCoding.ColumnState()
        var table: DeltaTable?
        var inChanges = false
        var isFinished = false

        init(path: String) {
            self.path = path
            buffer.reserveCapacity(DeltaWriter.flushSize + 4096)
        }

        mutating func write(_ record: DeltaRecord) throws(DeltaError) {
            guard !isFinished else { throw invalid("a record after the end") }
            switch record {
            case .table(let next):
                if let table, !DeltaWriter.isOrdered(table.name, before: next.name) {
                    throw invalid(
                        "table '\(next.name)' after '\(table.name)': tables go in increasing name order, once each")
                }
                guard !next.name.isEmpty, next.name.utf8.count <= DeltaCoding.maximumNameBytes,
                    (next.isRowID ? next.keyCount == 1 : (1...DeltaCoding.maximumColumns).contains(next.keyCount)),
                    (0...DeltaCoding.maximumColumns - next.keyCount).contains(next.valueCount)
                else {
                    throw invalid(
                        """
                        table '\(next.name)' has an impossible shape (\(next.keyCount) key and \(next.valueCount) \
                        other columns)
                        """
                    )
                }
                buffer.append(DeltaCoding.tableTag)
                appendBytes(Array(next.name.utf8))
                buffer.append(next.isRowID ? 1 : 0)
                appendVarint(UInt64(next.keyCount))
                appendVarint(UInt64(next.valueCount))
                table = next
                inChanges = false
                state.reset(for: next)
            case .delete(let key):
                guard !inChanges else {
                    throw invalid("a delete after an insert or update of table '\(table?.name ?? "")'")
                }
                if let table, key.count < table.keyCount {
                    guard !table.isRowID, !key.isEmpty else {
                        throw invalid("a delete by key prefix in table '\(table.name)'")
                    }
                    buffer.append(DeltaCoding.deletePrefixTag)
                    appendVarint(UInt64(key.count))
                } else {
                    buffer.append(DeltaCoding.deleteTag)
                }
                try appendKey(key)
            case .insert(let key, let values):
                guard let table, values.count == table.valueCount, key.count == table.keyCount else {
                    throw invalid("an insert of \(values.count) values")
                }
                inChanges = true
                buffer.append(DeltaCoding.insertTag)
                try appendKey(key)
                for (index, value) in values.enumerated() {
                    state.values[index] = try append(value, after: state.values[index])
                }
            case .update(let key, let changes):
                guard let table, !changes.isEmpty, key.count == table.keyCount,
                    zip(changes, changes.dropFirst()).allSatisfy({ $0.column < $1.column }),
                    changes.allSatisfy({ (0..<table.valueCount).contains($0.column) })
                else {
                    throw invalid("an update must change at least one value, in increasing column order")
                }
                inChanges = true
                buffer.append(DeltaCoding.updateTag)
                try appendKey(key)
                var mask = [UInt8](repeating: 0, count: (table.valueCount + 7) / 8)
                for change in changes { mask[change.column / 8] |= 1 << UInt8(change.column % 8) }
                buffer += mask
                for change in changes {
                    state.values[change.column] = try append(change.value, after: state.values[change.column])
                }
            case .end:
                buffer.append(DeltaCoding.endTag)
                isFinished = true
            }
        }

        mutating func appendKey(_ key: [DeltaValue]) throws(DeltaError) {
            guard let table else { throw invalid("a row before the first table") }
            guard key.count <= table.keyCount else {
                throw invalid("a key of \(key.count) values in table '\(table.name)', which has \(table.keyCount)")
            }
            if table.isRowID {
                guard case .integer = key[0] else {
                    throw invalid("a rowid that is not an integer in table '\(table.name)'")
                }
            }
            for (index, value) in key.enumerated() { state.keys[index] = try append(value, after: state.keys[index]) }
        }

        mutating func append(_ value: DeltaValue, after previous: Int64?) throws(DeltaError) -> Int64? {
            switch value {
            case .null:
                buffer.append(DeltaCoding.nullTag)
                return nil
            case .integer(let number):
                let absolute = DeltaCoding.zigzag(number)
                if let last = previous, case let relative = DeltaCoding.zigzag(number &- last), relative <= absolute {
                    buffer.append(DeltaCoding.integerDeltaTag)
                    appendVarint(relative)
                } else {
                    buffer.append(DeltaCoding.integerTag)
                    appendVarint(absolute)
                }
                return number
            case .real(let number):
                buffer.append(DeltaCoding.realTag)
                var bits = number.bitPattern
                for _ in 0..<8 {
                    buffer.append(UInt8(truncatingIfNeeded: bits))
                    bits >>= 8
                }
                return nil
            case .text(let bytes), .blob(let bytes):
                guard bytes.count <= DeltaCoding.maximumValueBytes else {
                    throw invalid(
                        """
                        a value of \(bytes.count) bytes in table '\(table?.name ?? "")'; a delta holds values up to \
                        \(DeltaCoding.maximumValueBytes) bytes
                        """
                    )
                }
                if case .text = value { buffer.append(DeltaCoding.textTag) } else { buffer.append(DeltaCoding.blobTag) }
                appendBytes(bytes)
                return nil
            }
        }

        mutating func appendBytes(_ bytes: [UInt8]) {
            appendVarint(UInt64(bytes.count))
            buffer += bytes
        }

        mutating func appendVarint(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                buffer.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            buffer.append(UInt8(rest))
        }

        func invalid(_ message: String) -> DeltaError {
            DeltaError(code: .invalidBody, message: "cannot write the delta: \(message)", path: path)
        }
    }
}
