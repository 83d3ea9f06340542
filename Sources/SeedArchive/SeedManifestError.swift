/// A manifest that cannot be read, parsed or written.
public struct SeedManifestError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The manifest file.
    public let path: String
    /// What is wrong.
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
