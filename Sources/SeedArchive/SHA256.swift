#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// SHA-256 (FIPS 180-4), streaming: a thin wrapper over a maintained, hardware-accelerated
/// implementation, CryptoKit on Apple platforms and swift-crypto (BoringSSL) elsewhere. The
/// builder (`seedgen pack`) and the installer hash seeds with it, so both agree byte for byte.
public struct SHA256: @unchecked Sendable {
    // @unchecked: the wrapped value is a plain struct of hash state (no shared references);
    // swift-crypto does not declare it Sendable on every version this package accepts.
    #if canImport(CryptoKit)
    private var hasher = CryptoKit.SHA256()
    #else
    private var hasher = Crypto.SHA256()
    #endif

    /// A hash of no bytes yet.
    public init() {}

    /// Adds `bytes` to the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    /// Adds `bytes` to the digest.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything added. The hasher stays usable: more can be added and
    /// finalized again.
    public func finalize() -> [UInt8] {
        Array(hasher.finalize())
    }

    /// The digest as 64 lower-case hexadecimal digits.
    public func hexDigest() -> String { Self.hex(finalize()) }

    /// The SHA-256 of `bytes`, in hexadecimal.
    public static func hex<Bytes: Sequence>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.hexDigest()
    }

    /// Lower-case hexadecimal of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            digits.withUTF8Buffer { digits in
                for (i, byte) in bytes.enumerated() {
                    out[2 * i] = digits[Int(byte >> 4)]
                    out[2 * i + 1] = digits[Int(byte & 0xf)]
                }
            }
            return bytes.count * 2
        }
    }
}
