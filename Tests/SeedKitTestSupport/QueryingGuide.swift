import Foundation
import SeedSQLite
import SeedTestSupport

/// The SQL of Documentation/querying.md, read from the guide itself (so the guide cannot
/// drift from what is tested): each ```sql block starts with `-- name: ...`.
public enum QueryingGuide {
    public static let path = Repository.path("Documentation/querying.md")

    /// The blocks by name.
    public static let queries: [String: String] = {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var queries: [String: String] = [:]
        for block in text.components(separatedBy: "```sql\n").dropFirst() {
            guard let end = block.range(of: "\n```") else { continue }
            let sql = String(block[..<end.lowerBound])
            guard sql.hasPrefix("-- "), let colon = sql.firstIndex(of: ":") else { continue }
            queries[String(sql[sql.index(sql.startIndex, offsetBy: 3)..<colon])] = sql
        }
        return queries
    }()

    /// Runs the query `name` with its `:parameters` bound to `values` (every parameter must be
    /// given: a parameter the test does not know is a failure, not a NULL).
    public static func run(_ name: String, on connection: Connection, _ values: [String: Value]) throws -> [[Value]] {
        guard let sql = queries[name] else { throw Missing(what: "no query '\(name)' in \(path)") }
        return try run(sql: sql, on: connection, values)
    }

    /// The name of a query's one-feed form in the guide (`departures (one feed)`).
    public static func oneFeed(_ name: String) -> String { name + " (one feed)" }

    /// Runs `sql` with its `:parameters` bound to `values`, as `run(_:on:_:)` does.
    public static func run(sql: String, on connection: Connection, _ values: [String: Value]) throws -> [[Value]] {
        // SQLite numbers named parameters in order of first appearance: bind them in that order.
        var order: [String] = []
        var positional = ""
        var index = sql.startIndex
        while index < sql.endIndex {
            let character = sql[index]
            if character == ":", sql.index(after: index) < sql.endIndex, sql[sql.index(after: index)].isLetter,
               index == sql.startIndex || !(sql[sql.index(before: index)].isLetter || sql[sql.index(before: index)].isNumber) {
                let start = sql.index(after: index)
                let end = sql[start...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? sql.endIndex
                let name = String(sql[start..<end])
                if !order.contains(name) { order.append(name) }
                positional += "?\(order.firstIndex(of: name)! + 1)"
                index = end
                continue
            }
            // Skip string literals: ':' inside them is text.
            if character == "'" {
                let close = sql[sql.index(after: index)...].firstIndex(of: "'") ?? sql.index(before: sql.endIndex)
                positional += sql[index...close]
                index = sql.index(after: close)
                continue
            }
            positional.append(character)
            index = sql.index(after: index)
        }
        let arguments = try order.map { name in
            guard let value = values[name] else { throw Missing(what: "query '\(name)' needs :\(name)") }
            return value
        }
        return try connection.rows(positional, arguments)
    }

    public struct Missing: Error, CustomStringConvertible {
        public var what: String
        public var description: String { what }
    }
}
