import SeedSystem

/// Buffered reading of a file for the gzip reader: what has been read but not yet consumed,
/// and the file offset of the next unconsumed byte (for error messages).
final class BufferedFileReader {
    let file: FileDescriptor
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private(set) var isAtEnd = false
    /// The file offset of the first unconsumed byte.
    private(set) var offset: Int64 = 0

    init(file: FileDescriptor, capacity: Int) {
        self.file = file
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// The bytes read and not yet consumed.
    var available: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[start..<end])
    }

    /// Marks `count` available bytes as used.
    func consume(_ count: Int) {
        start += count
        offset += Int64(count)
    }

    /// Reads more from the file when nothing is available. Returns false at end of file.
    func fill() throws(SystemCallError) -> Bool {
        if start < end { return true }
        if isAtEnd { return false }
        start = 0
        end = try file.read(into: buffer)
        if end == 0 { isAtEnd = true }
        return end > 0
    }

    /// The next byte, or nil at end of file.
    func readByte() throws(SystemCallError) -> UInt8? {
        guard try fill() else { return nil }
        let byte = buffer[start]
        consume(1)
        return byte
    }
}
