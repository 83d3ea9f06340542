/// CRC-32 (IEEE 802.3, as in gzip and zip), bit by bit: slow, obviously right, and independent
/// of the code under test, so tests can forge trailers and directories of their own.
public enum ReferenceCRC32 {
    /// The CRC-32 of `bytes`.
    public static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
