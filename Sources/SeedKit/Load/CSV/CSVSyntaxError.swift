/// Input that is not valid CSV, with its place.
struct CSVSyntaxError: Error, Sendable {
    /// The notice code its issue carries: a field repaired, or a record that cannot be read.
    var code = NoticeCode.csvParsingFailed
    var file: String
    var line: Int
    /// 1-based character column in the line.
    var column: Int
    var message: String
    /// The field's text as read, for repairs.
    var value: String? = nil
}
