import Foundation

/// The last index read from a channel, with its `ETag` and signature, kept beside the seed in
/// `<dest>.seedgen-channel`: the next update asks with `If-None-Match`, and a `304 Not
/// Modified` costs no index transfer. The signature is checked again on every use.
///
/// The file: a line `seedgen-channel 1`, then `url`, `etag`, `index-bytes` and `signature-bytes`
/// lines, an empty line, and the index's and the signature's bytes.
struct ChannelIndexCache: Equatable {
    var url: String
    var etag: String
    var index: [UInt8]
    var signature: [UInt8]?

    static let maximumBytes = 2 << 20

    static func read(path: String, url: String) -> ChannelIndexCache? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumBytes + 1), data.count <= maximumBytes else { return nil }
        let bytes = Array(data)
        guard let blank = bytes.indices.first(where: { $0 > 0 && bytes[$0] == 0x0A && bytes[$0 - 1] == 0x0A }) else {
            return nil
        }
        let lines = String(decoding: bytes[..<blank], as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let space = line.firstIndex(of: " ") else { continue }
            fields[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        guard lines.first == "seedgen-channel 1", fields["url"] == url, let etag = fields["etag"],
            let indexCount = fields["index-bytes"].flatMap(Int.init),
            let signatureCount = fields["signature-bytes"].flatMap(Int.init),
            indexCount >= 0, signatureCount >= -1, blank + 1 + indexCount + max(signatureCount, 0) == bytes.count
        else { return nil }
        let index = Array(bytes[(blank + 1)..<(blank + 1 + indexCount)])
        let signature = signatureCount < 0 ? nil : Array(bytes[(blank + 1 + indexCount)...])
        return ChannelIndexCache(url: url, etag: etag, index: index, signature: signature)
    }

    /// Writes the cache atomically; a failure only costs the next update a full index transfer.
    func write(path: String) {
        guard !etag.contains("\n"), !url.contains("\n") else { return }
        let header =
            """
            seedgen-channel 1\nurl \(url)\netag \(etag)\nindex-bytes \(index.count)\nsignature-bytes \
            \(signature?.count ?? -1)\n\n
            """
        try? Data(Array(header.utf8) + index + (signature ?? [])).write(
            to: URL(fileURLWithPath: path), options: .atomic)
    }
}
