import SeedSQLite

/// A statement of seedgen's own that SQLite refused while an input was being stored: a bug
/// in seedgen, never the input's fault. Its message names the input (file, line, column,
/// element and key) the writer was storing, not the scratch tables seedgen uses inside;
/// SQLite's own failure stays available as the error's `cause`.
struct InternalFailure: Sendable {
    var file: String
    var line: Int?
    var column: Int?
    /// The element (XML) or file (CSV) of the row being stored, as the schema names it.
    var element: String
    /// The row's key as read, when it has one.
    var key: String?
    var error: SQLiteError

    /// The place as `file:line:column`.
    var place: String {
        var text = file
        if let line { text += ":\(line)" }
        if line != nil, let column { text += ":\(column)" }
        return text
    }

    /// The build error a user sees.
    var buildError: BuildError {
        let object = key.map { "\(element) '\($0)'" } ?? element
        return BuildError(
            code: .internalFailure,
            message: "\(object): seedgen could not store this object "
                + """
                (SQLite error \(error.code), \(error.codeDescription)). This is a bug in seedgen, not in the \
                input: please report it with this input.
                """,
            path: place, cause: error)
    }
}
