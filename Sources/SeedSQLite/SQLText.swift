/// SQL text has one owner: every statement that names a table, column, index or attached
/// database, or that puts a string into its text, goes through these two functions.

/// Quotes an SQL identifier (a table, column, index or schema name): `a"b` becomes `"a""b"`.
/// - Parameter identifier: the name as stored in `sqlite_schema`, any characters.
/// - Returns: the name in double quotes, each double quote in it doubled.
public func quoted(_ identifier: String) -> String {
    var text = "\""
    for character in identifier {
        if character == "\"" { text += "\"" }
        text.append(character)
    }
    return text + "\""
}

/// Quotes an SQL string literal, for the places SQLite takes no bound parameter (`ATTACH`,
/// `VACUUM INTO`): `it's` becomes `'it''s'`.
/// - Parameter text: the string, any characters.
/// - Returns: the string in single quotes, each single quote in it doubled.
public func quotedLiteral(_ text: String) -> String {
    var quoted = "'"
    for character in text {
        if character == "'" { quoted += "'" }
        quoted.append(character)
    }
    return quoted + "'"
}
