/// Why a seed cannot be packed, inspected, verified or compared: the file and what is wrong.
public struct ShipError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file the failure is about.
    public var path: String
    /// What is wrong, as a sentence.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "error: \(path): \(message)" }
}
