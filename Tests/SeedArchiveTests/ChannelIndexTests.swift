import Foundation
import SeedArchive
import Testing

/// The content digest in a channel's `index.json` (`contentSha256` of each entry): written by
/// `seedgen publish`, optional for indexes published before content digests, checked when given.
@Suite struct ChannelIndexTests {
    static let digest = String(repeating: "0123456789abcdef", count: 4)

    static func entry(contentSHA256: String?) -> ChannelIndex.Entry {
        ChannelIndex.Entry(schemaVersion: 2, seedVersion: "v2", sequence: 3, path: "seeds/v2/3.sqlite.gz", size: 100,
                           sha256: String(repeating: "a", count: 64),
                           deltas: [ChannelIndex.Delta(from: "v1", path: "deltas/v2/2-3.delta", size: 10, sha256: String(repeating: "b", count: 64))],
                           contentSHA256: contentSHA256)
    }

    @Test func theContentDigestRoundTripsUnderItsContractKey() throws {
        let index = ChannelIndex(seeds: [Self.entry(contentSHA256: Self.digest)])
        let text = String(decoding: index.encoded(), as: UTF8.self)
        #expect(text.contains("\"contentSha256\" : \"\(Self.digest)\""), "\(text)")
        let decoded = try ChannelIndex.decode(index.encoded(), source: "index.json")
        #expect(decoded == index && decoded.entry(schemaVersion: 2)?.contentSHA256 == Self.digest)
    }

    @Test func anIndexWithoutContentDigestsStillReads() throws {
        let index = ChannelIndex(seeds: [Self.entry(contentSHA256: nil)])
        let text = String(decoding: index.encoded(), as: UTF8.self)
        #expect(!text.contains("contentSha256"))
        #expect(try ChannelIndex.decode(index.encoded(), source: "index.json").entry(schemaVersion: 2)?.contentSHA256 == nil)
    }

    @Test(arguments: [String(repeating: "A", count: 64), String(repeating: "a", count: 63), "", String(repeating: "g", count: 64)])
    func aMalformedContentDigestIsRefused(_ digest: String) {
        let bytes = ChannelIndex(seeds: [Self.entry(contentSHA256: digest)]).encoded()
        let error = #expect(throws: ChannelError.self) { try ChannelIndex.decode(bytes, source: "index.json") }
        #expect(error?.message.contains("contentSha256 must be 64 lower-case hexadecimal digits") == true, "\(String(describing: error))")
        #expect(error?.code == .invalidIndex)
    }
}
