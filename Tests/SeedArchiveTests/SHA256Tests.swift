import SeedArchive
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test("known digests (FIPS 180-4 examples)")
    func knownDigests() {
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: [UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("the digest does not depend on how the data is split", arguments: [1, 3, 63, 64, 65, 100, 1000])
    func chunking(piece: Int) {
        let data = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hasher = SHA256()
        var offset = 0
        var size = piece
        while offset < data.count {
            let end = min(offset + size, data.count)
            data[offset..<end].withUnsafeBytes { hasher.update($0) }
            offset = end
            size = size % 7 + piece // vary the pieces
        }
        #expect(hasher.hexDigest() == SHA256.hex(of: data))
    }

    @Test("finalizing leaves the hasher usable: more data gives the digest of all of it")
    func finalizeTwice() {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        #expect(hasher.finalize().count == 32)
        hasher.update(Array("c".utf8))
        #expect(hasher.hexDigest() == SHA256.hex(of: Array("abc".utf8)))
    }

    @Test("hex is two lower-case digits per byte, leading zeros kept")
    func hex() {
        #expect(SHA256.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(SHA256.hex([]) == "")
    }
}
