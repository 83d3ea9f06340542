/// An XML input that cannot be read: not well-formed (libxml2's message), or refused for
/// safety (entity declarations). Carries the place, so the message stands on its own.
struct XMLSyntaxError: Error, Sendable, CustomStringConvertible {
    /// The notice code its issue carries.
    var code = NoticeCode.malformedXML
    /// The input file, as shown in messages.
    var file: String
    /// 1-based line of the problem.
    var line: Int
    /// 1-based column of the problem, when known.
    var column: Int?
    /// What is wrong: libxml2's message, or why the document was refused.
    var message: String

    var description: String {
        "\(file):\(line)\(column.map { ":\($0)" } ?? ""): \(message)"
    }
}
