/// A channel file that cannot be used: an `index.json` that cannot be parsed or is not one this
/// code reads, a key file or public key that is not an Ed25519 key of `seedgen keygen`.
public struct ChannelError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file, URL or option the failure is about.
    public let source: String
    /// What is wrong.
    public let message: String

    public init(source: String, message: String) {
        self.source = source
        self.message = message
    }

    public var description: String { "\(source): \(message)" }
}
