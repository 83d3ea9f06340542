/// SHA-256 (FIPS 180-4), streaming. Small and dependency-free so the run-time installer can
/// check seeds without linking a crypto library.
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var block = [UInt8](repeating: 0, count: 64)
    private var blockCount = 0
    private var totalBytes: UInt64 = 0

    public init() {}

    /// Adds `bytes` to the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        totalBytes &+= UInt64(remaining)
        if blockCount > 0 {
            let take = min(64 - blockCount, remaining)
            for i in 0..<take { block[blockCount + i] = base.load(fromByteOffset: i, as: UInt8.self) }
            blockCount += take
            base += take
            remaining -= take
            guard blockCount == 64 else { return } // still a partial block: keep it for later
            block.withUnsafeBytes { compress($0.baseAddress!) }
            blockCount = 0
        }
        while remaining >= 64 {
            compress(base)
            base += 64
            remaining -= 64
        }
        for i in 0..<remaining { block[i] = base.load(fromByteOffset: i, as: UInt8.self) }
        blockCount = remaining
    }

    /// Adds `bytes` to the digest.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything added.
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = totalBytes &* 8
        var padding: [UInt8] = [0x80]
        let padTo = (blockCount < 56 ? 56 : 120) - blockCount - 1
        padding += [UInt8](repeating: 0, count: padTo)
        for shift in stride(from: 56, through: 0, by: -8) { padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let total = copy.totalBytes
        padding.withUnsafeBytes { copy.update($0) }
        copy.totalBytes = total
        let s = copy.state
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in [s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7] {
            digest += [UInt8(word >> 24), UInt8(word >> 16 & 0xff), UInt8(word >> 8 & 0xff), UInt8(word & 0xff)]
        }
        return digest
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
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0xf)]) }
        return String(decoding: out, as: UTF8.self)
    }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The round constants and the message schedule, in one buffer allocated once per thread
    /// of use: the compression loop then touches no array (no bounds or uniqueness checks).
    private final class Scratch: @unchecked Sendable {
        let k: UnsafeMutablePointer<UInt32>
        init() {
            k = .allocate(capacity: 64)
            k.initialize(from: SHA256.k, count: 64)
        }
    }
    private static let scratch = Scratch()

    private mutating func compress(_ chunk: UnsafeRawPointer) {
        let k = Self.scratch.k
        var (a, b, c, d, e, f, g, h) = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { buffer in
            let w = buffer.baseAddress!
            for i in 0..<16 { w[i] = UInt32(bigEndian: chunk.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
            for i in 0..<64 {
                // The schedule kept as a ring of 16 words.
                let wi: UInt32
                if i < 16 {
                    wi = w[i]
                } else {
                    let w15 = w[(i - 15) & 15], w2 = w[(i - 2) & 15]
                    let s0 = w15.rotateRight(7) ^ w15.rotateRight(18) ^ (w15 >> 3)
                    let s1 = w2.rotateRight(17) ^ w2.rotateRight(19) ^ (w2 >> 10)
                    wi = w[i & 15] &+ s0 &+ w[(i - 7) & 15] &+ s1
                    w[i & 15] = wi
                }
                let t1 = h &+ (e.rotateRight(6) ^ e.rotateRight(11) ^ e.rotateRight(25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ wi
                let t2 = (a.rotateRight(2) ^ a.rotateRight(13) ^ a.rotateRight(22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                h = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
            }
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }
}

extension UInt32 {
    @inline(__always) fileprivate func rotateRight(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
