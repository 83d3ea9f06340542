import Foundation

/// Where each inserted row was read (`file:line`), by row id: for the first copy of a
/// duplicate key and for rows whose self-reference names no row. Kept for tables with row ids
/// and a key or a self-reference. The places go to an unlinked temporary file (14 bytes a
/// row, written in 64 KB blocks), not to memory, so memory stays flat whatever the input
/// size; a lookup reads the file, which only messages about failures do, for a few rows.
final class RowPlaces: @unchecked Sendable {
    // @unchecked: used on the writer thread only (recorded and looked up by its RowWriter).
    private static let recordSize = 14 // id (8), line (4), file index (2)
    private var buffer: [UInt8] = []
    private var stream: UnsafeMutablePointer<FILE>?
    private var files: [String] = []
    private var lastFile = 0
    private var lookups = 0

    /// How many rows' places messages look up: each lookup reads the file, and the issue log
    /// shows only the first examples of each group (the rest are counted).
    static let lookupLimit = 20

    init() {
        buffer.reserveCapacity(1 << 16)
    }

    deinit { if let stream { fclose(stream) } }

    func record(id: Int64, line: Int32, file: String) {
        if files.isEmpty || files[lastFile] != file {
            if let known = files.firstIndex(of: file) {
                lastFile = known
            } else {
                files.append(file); lastFile = files.count - 1
            }
        }
        withUnsafeBytes(of: id.littleEndian) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: line.littleEndian) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt16(clamping: lastFile).littleEndian) { buffer.append(contentsOf: $0) }
        if buffer.count >= (1 << 16) - Self.recordSize { flush() }
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        if stream == nil { stream = tmpfile() }
        // Without a temporary file (none could be created), places are simply not known.
        if let stream { _ = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, stream) } }
        buffer.removeAll(keepingCapacity: true)
    }

    /// True until `lookupLimit` lookups were made.
    var lookupsLeft: Bool { lookups < Self.lookupLimit }

    /// Counts a lookup about to be made; false once `lookupLimit` were made.
    func takeLookup() -> Bool {
        guard lookups < Self.lookupLimit else { return false }
        lookups += 1
        return true
    }

    /// The place of the row with id `id`, when it was recorded.
    func place(ofRow id: Int64) -> (file: String, line: Int)? {
        if let found = Self.find(id, in: buffer) { return place(found) }
        guard let stream else { return nil }
        fflush(stream)
        rewind(stream)
        defer { fseek(stream, 0, SEEK_END) }
        var chunk = [UInt8](repeating: 0, count: 4096 * Self.recordSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, stream) }
            if count <= 0 { return nil }
            if let found = Self.find(id, in: chunk[0..<count]) { return place(found) }
        }
    }

    private func place(_ record: (line: Int32, file: UInt16)) -> (file: String, line: Int)? {
        guard record.line > 0, Int(record.file) < files.count else { return nil }
        return (files[Int(record.file)], Int(record.line))
    }

    private static func find(_ id: Int64, in bytes: some RandomAccessCollection<UInt8>) -> (line: Int32, file: UInt16)?
    {
        let array = Array(bytes)
        return array.withUnsafeBytes { raw -> (line: Int32, file: UInt16)? in
            var offset = 0
            while offset + recordSize <= raw.count {
                if Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)) == id {
                    return (
                        Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: Int32.self)),
                        UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt16.self))
                    )
                }
                offset += recordSize
            }
            return nil
        }
    }
}
