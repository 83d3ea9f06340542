import CSQLite3

/// What a statement being compiled asks to do, as SQLite's authorizer callback reports it
/// (`sqlite3_set_authorizer`): the action and, for reads and writes, the table.
public struct AuthorizerRequest: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Reads a column of `table` (a `SELECT`, or the rows an INSERT ... SELECT reads).
        case read(table: String)
        case insert(table: String)
        case update(table: String)
        case delete(table: String)
        /// A `SELECT`, a function call, a recursive CTE or a transaction or savepoint statement:
        /// nothing outside the database's rows.
        case query
        /// A `PRAGMA` statement, by the pragma's name (`data_version`).
        case pragma(name: String)
        /// Anything else: DDL, `ATTACH`, `DETACH`, ... (SQLite's action code).
        case other(code: Int32, first: String?)
    }

    public let action: Action
    /// The database the action is on (`main`, `temp`, an attached name), when SQLite says.
    public let database: String?
}

/// Holds the rule while it is installed; the callback reaches it through its context pointer.
private final class AuthorizerRule {
    let allow: (AuthorizerRequest) -> Bool
    init(_ allow: @escaping (AuthorizerRequest) -> Bool) { self.allow = allow }
}

extension Connection {
    /// Compiles and runs what `body` does with `allow` deciding, for every statement compiled
    /// meanwhile, which actions it may take: a statement asking for one that `allow` refuses
    /// fails to compile (`SQLITE_AUTH`). The rule is removed when `body` returns or throws.
    ///
    /// For running SQL a file brings (a seed's derive recipes) with only the writes it is for,
    /// and for finding the tables a query reads.
    public func withAuthorizer<Result>(
        _ allow: @escaping (AuthorizerRequest) -> Bool,
        _ body: () throws(SQLiteError) -> Result
    ) throws(SQLiteError) -> Result {
        let rule = Unmanaged.passRetained(AuthorizerRule(allow))
        sqlite3_set_authorizer(
            handle,
            { context, code, first, _, database, _ in
                guard let context else { return SQLITE_DENY }
                let rule = Unmanaged<AuthorizerRule>.fromOpaque(context).takeUnretainedValue()
                let text = { (pointer: UnsafePointer<CChar>?) in pointer.map { String(cString: $0) } }
                let action: AuthorizerRequest.Action
                switch code {
                case SQLITE_READ: action = .read(table: text(first) ?? "")
                case SQLITE_INSERT: action = .insert(table: text(first) ?? "")
                case SQLITE_UPDATE: action = .update(table: text(first) ?? "")
                case SQLITE_DELETE: action = .delete(table: text(first) ?? "")
                case SQLITE_SELECT, SQLITE_FUNCTION, SQLITE_RECURSIVE, SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
                    action = .query
                case SQLITE_PRAGMA: action = .pragma(name: text(first) ?? "")
                default: action = .other(code: code, first: text(first))
                }
                return rule.allow(AuthorizerRequest(action: action, database: text(database))) ? SQLITE_OK : SQLITE_DENY
            }, rule.toOpaque())
        defer {
            sqlite3_set_authorizer(handle, nil, nil)
            rule.release()
        }
        return try body()
    }

    /// The tables (of any attached database) that `sql` reads, found by compiling it with an
    /// authorizer that records them; the statement is not run.
    public func tablesRead(by sql: String) throws(SQLiteError) -> Set<String> {
        var tables = Set<String>()
        _ = try withAuthorizer({ request in
            if case .read(let table) = request.action, !table.isEmpty { tables.insert(table) }
            return true
        }) { () throws(SQLiteError) in try prepare(sql) }
        return tables
    }
}
