import Foundation
import SeedTestSupport

/// Writes small zip archives byte by byte, so tests can build the broken ones real tools
/// never produce: stored entries, with hooks to change any field of the directory.
struct ZipBytes {
    struct Entry {
        var name: String
        var data: [UInt8]
        var method: UInt16 = 0
        /// Replaces the central directory's 32-bit sizes/offset with 0xFFFFFFFF and appends a
        /// ZIP64 extra field holding these values (nil: the field is left out).
        var zip64Extra: [UInt64]? = nil
        var saturate: (size: Bool, compressed: Bool, offset: Bool) = (false, false, false)
    }

    var entries: [Entry]
    /// Adds a ZIP64 end record and locator; the locator points at `zip64RecordOffset` when
    /// given, and the record claims `zip64Directory` (offset, size) when given.
    var zip64 = false
    var zip64RecordOffset: UInt64? = nil
    var zip64Directory: (offset: UInt64, size: UInt64, count: UInt64)? = nil

    init(_ entries: [Entry]) { self.entries = entries }

    /// The archive's bytes.
    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let offset = UInt32(out.count)
            let crc = ReferenceCRC32.checksum(entry.data)
            let name = Array(entry.name.utf8)
            out += le32(0x0403_4b50) + le16(20) + le16(0) + le16(entry.method) + le16(0) + le16(0)
            out += le32(crc) + le32(UInt32(entry.data.count)) + le32(UInt32(entry.data.count))
            out += le16(UInt16(name.count)) + le16(0) + name + entry.data
            var extra: [UInt8] = []
            if let values = entry.zip64Extra {
                extra = le16(1) + le16(UInt16(values.count * 8)) + values.flatMap(le64)
            }
            directory += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + le16(entry.method) + le16(0) + le16(0)
            directory += le32(crc)
            directory += le32(entry.saturate.compressed ? 0xFFFF_FFFF : UInt32(entry.data.count))
            directory += le32(entry.saturate.size ? 0xFFFF_FFFF : UInt32(entry.data.count))
            directory += le16(UInt16(name.count)) + le16(UInt16(extra.count)) + le16(0) + le16(0) + le16(0) + le32(0)
            directory += le32(entry.saturate.offset ? 0xFFFF_FFFF : offset)
            directory += name + extra
        }
        let directoryOffset = UInt64(out.count)
        out += directory
        if zip64 {
            let recordOffset = UInt64(out.count)
            let claimed = zip64Directory ?? (directoryOffset, UInt64(directory.count), UInt64(entries.count))
            out += le32(0x0606_4b50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0)
            out += le64(claimed.count) + le64(claimed.count) + le64(claimed.size) + le64(claimed.offset)
            out += le32(0x0706_4b50) + le32(0) + le64(zip64RecordOffset ?? recordOffset) + le32(1)
        }
        out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(directory.count)) + le32(UInt32(directoryOffset)) + le16(0)
        return out
    }

    private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
    private func le64(_ v: UInt64) -> [UInt8] { le32(UInt32(v & 0xFFFF_FFFF)) + le32(UInt32(v >> 32)) }
}
