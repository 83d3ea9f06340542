import SeedArchive

extension SeedUpdater {
    /// The channel's Ed25519 public key, as `seedgen keygen` prints it. Given to an updater
    /// (``SeedUpdater/publicKey``), it makes the updater refuse an `index.json` that is unsigned
    /// or not signed by the matching private key (`seedgen publish --sign-key`).
    ///
    /// ```swift
    /// let key = try SeedUpdater.PublicKey(base64: "aSfWrwZR/CJGHfiSmg4NGjHHNfJpWYmuCAf3NmFCr5c=")
    /// ```
    public struct PublicKey: Sendable, Equatable {
        let key: ChannelPublicKey

        /// The key from its text: 32 bytes in base64, spaces and line breaks around it ignored.
        /// - Parameter base64: the key as `seedgen keygen` prints it.
        /// - Throws: ``SeedUpdaterError`` with code ``SeedUpdaterError/Code/configuration`` when
        ///   the text is not such a key; the channel's own error is its ``SeedUpdaterError/cause``.
        public init(base64: String) throws(SeedUpdaterError) {
            do { key = try ChannelPublicKey(base64: base64) } catch {
                throw SeedUpdaterError(
                    code: .configuration, message: error.message, location: error.source, cause: error)
            }
        }

        /// True when `signatureFile` (the content of `index.json.sig`) is this key's signature of `index`.
        func isValidSignature(_ signatureFile: [UInt8], for index: [UInt8]) -> Bool {
            key.isValidSignature(signatureFile, for: index)
        }
    }
}
