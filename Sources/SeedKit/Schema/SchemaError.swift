/// A schema file that cannot be used, with the place in it and what is wrong.
public struct SchemaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The schema file (or `<built-in transit>` for an embedded one).
    public var file: String
    /// 1-based line in the file, when known.
    public var line: Int?
    /// 1-based column in the file, when known.
    public var column: Int?
    /// What is wrong.
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return "\(place): schema error: \(message)"
    }
}
