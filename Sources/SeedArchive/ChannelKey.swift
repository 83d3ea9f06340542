#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Ed25519 key pair that signs a channel's `index.json` (`seedgen keygen`,
/// `seedgen publish --sign-key`). Whoever holds it can push seeds into every app that trusts
/// its public key: keep the key file secret (a CI secret), never in the channel's bucket.
///
/// The key file is text: a first line `seedgen-channel-key ed25519`, then the private key's 32
/// bytes in base64, then `public ` and the public key in base64.
public struct ChannelSigningKey: Sendable {
    private let key: Curve25519.Signing.PrivateKey
    static let fileHeader = "seedgen-channel-key ed25519"

    /// A new random key pair.
    public init() { key = Curve25519.Signing.PrivateKey() }

    /// The key in a key file's text (see the type's documentation).
    /// - Throws: ``ChannelError`` when the text is not such a file.
    public init(fileText: String, path: String) throws(ChannelError) {
        let lines = fileText.split(whereSeparator: \.isNewline).map(trimmed)
        guard lines.first == Self.fileHeader, lines.count >= 2, let raw = Data(base64Encoded: lines[1]),
            raw.count == 32,
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else {
            throw ChannelError(
                code: .invalidKey, source: path,
                message:
                    """
                    not a channel signing key (seedgen keygen writes one: a line \"\(Self.fileHeader)\", then the \
                    private key in base64)
                    """
            )
        }
        self.key = key
    }

    /// The key file's text.
    public var fileText: String {
        "\(Self.fileHeader)\n\(key.rawRepresentation.base64EncodedString())\npublic \(publicKeyBase64)\n"
    }

    /// The public key, 32 bytes in base64: what apps and `seedgen update --public-key` trust.
    public var publicKeyBase64: String { key.publicKey.rawRepresentation.base64EncodedString() }

    /// The content of `index.json.sig` for `index`: the Ed25519 signature in base64, a newline.
    public func signatureFile(for index: [UInt8]) -> [UInt8] {
        // Signing bytes in memory cannot fail.
        let signature = try! key.signature(for: Data(index))
        return Array((Data(signature).base64EncodedString() + "\n").utf8)
    }
}

/// The public half of a ``ChannelSigningKey``: checks `index.json.sig`.
public struct ChannelPublicKey: Sendable, Equatable {
    /// The 32 key bytes. An array, not `Data`: LeakSanitizer cannot follow `Data`'s packed
    /// representation and reported a key held in a static as leaked.
    private let raw: [UInt8]

    /// The key as `seedgen keygen` prints it (32 bytes in base64).
    /// - Throws: ``ChannelError`` when it is not 32 bytes of base64.
    public init(base64: String) throws(ChannelError) {
        guard let raw = Data(base64Encoded: trimmed(base64)), raw.count == 32,
            (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil
        else {
            throw ChannelError(
                code: .invalidKey, source: "<public key>",
                message: "not an Ed25519 public key: expected 32 bytes in base64, as seedgen keygen prints it")
        }
        self.raw = Array(raw)
    }

    /// True when `signatureFile` (the content of `index.json.sig`) is this key's signature of
    /// exactly `index`.
    public func isValidSignature(_ signatureFile: [UInt8], for index: [UInt8]) -> Bool {
        guard signatureFile.count <= 1024,
            let signature = Data(base64Encoded: trimmed(String(decoding: signatureFile, as: UTF8.self))),
            signature.count == 64, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
        else { return false }
        return key.isValidSignature(signature, for: Data(index))
    }
}

/// `text` without leading and trailing spaces, tabs and line breaks.
private func trimmed<Text: StringProtocol>(_ text: Text) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
    return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
}
