import SeedArchive
import SeedSQLite

/// The buffer a ``ContentChunker`` scan encodes rows into: rows are encoded one after the other
/// and hashed in runs of up to 64 KiB. Its bound: 64 KiB, or twice the longest row when one does
/// not fit in an empty buffer. The last row's encoding stays readable until the next is appended,
/// flushed or not, so its key's bytes are read where the row's are.
final class ContentRowBuffer {
    static let size = 1 << 16
    private var buffer: UnsafeMutableRawBufferPointer
    /// Where each value of the last row starts, from `row` (`columns + 1` offsets).
    private let starts: UnsafeMutablePointer<Int>
    private let columns: Int
    /// Bytes encoded and not hashed yet.
    private var used = 0
    /// Where the last row's values start.
    private var row = 0

    init(columns: Int) {
        self.columns = columns
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.size, alignment: 8)
        starts = UnsafeMutablePointer<Int>.allocate(capacity: columns + 1)
    }

    deinit {
        buffer.deallocate()
        starts.deallocate()
    }

    /// Encodes the statement's current row (`'R'` and its values) after the rows before it,
    /// hashing what the buffer holds first when it does not fit.
    func append(_ statement: Statement, hashingInto hasher: inout SHA256) {
        while true {
            buffer[used] = UInt8(ascii: "R")
            row = used + 1
            let free = UnsafeMutableRawBufferPointer(rebasing: buffer[row...])
            if let written = statement.encodeCanonicalRow(into: free, columns: Int32(columns), starts: starts) {
                used = row + written
                return
            }
            if used == 0 {
                let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 8)
                buffer.deallocate()
                buffer = bigger
            } else {
                flush(into: &hasher)
            }
        }
    }

    /// Hashes the rows encoded since the last flush.
    func flush(into hasher: inout SHA256) {
        hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<used]))
        used = 0
    }

    /// Flushes when less than 4 KiB is left (so the next row's tag always fits).
    func flushIfFull(into hasher: inout SHA256) {
        if used >= buffer.count - 4096 { flush(into: &hasher) }
    }

    /// The last row's rowid (a rowid table: its first value, `'I'` and 8 bytes, big-endian).
    var rowid: Int64 {
        Int64(bigEndian: buffer.loadUnaligned(fromByteOffset: row + 1, as: Int64.self))
    }

    /// ``ContentChunker/boundaryHash(_:)`` of the last row's key: the encodings of the values at
    /// `indices`, in that order.
    func keyHash(_ indices: [Int]) -> UInt64 {
        var hash = ContentChunker.fnvBasis
        for index in indices { hash = ContentChunker.fnv(hash, value(index)) }
        return ContentChunker.finalized(hash)
    }

    /// The last row's key's encoding: the values at `indices`, in that order.
    func key(_ indices: [Int]) -> [UInt8] {
        var key: [UInt8] = []
        for index in indices { key.append(contentsOf: value(index)) }
        return key
    }

    private func value(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[(row + starts[index])..<(row + starts[index + 1])])
    }
}
