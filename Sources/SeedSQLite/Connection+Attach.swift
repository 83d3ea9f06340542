import SeedSystem

extension Connection {
    /// Attaches the database at `path` read-only, as the schema `name`: immutable (SQLite takes
    /// no lock and reads no journal) when this SQLite opens `file:` URIs, a plain `ATTACH` of
    /// the path when it does not. A missing file is refused, never created; a file that is not a
    /// database fails here, not at its first query.
    /// - Parameters:
    ///   - path: the database file.
    ///   - name: the schema name its tables are reached by (`old`, `previous`).
    public func attachReadOnly(_ path: String, as name: String) throws(SQLiteError) {
        guard (try? FileSystem.status(path)) ?? nil != nil else {
            throw SQLiteError(.cantOpen, message: "no such file")
        }
        do { try execute("ATTACH DATABASE \(quotedLiteral(Self.uri(path, immutable: true))) AS \(quoted(name))") } catch
        {
            try execute("ATTACH DATABASE \(quotedLiteral(path)) AS \(quoted(name))")
        }
        _ = try scalar("SELECT count(*) FROM \(quoted(name)).sqlite_schema")
    }

    /// A read-only `file:` URI for `path`, for `sqlite3_open_v2` and `ATTACH`: `%`, `?` and `#`
    /// escaped, `mode=ro`.
    /// - Parameters:
    ///   - path: the database file.
    ///   - immutable: adds `immutable=1`: SQLite takes no lock and assumes nobody changes the file.
    public static func uri(_ path: String, immutable: Bool) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:\(escaped)?mode=ro" + (immutable ? "&immutable=1" : "")
    }
}
