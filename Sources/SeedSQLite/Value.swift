/// A value stored in or read from SQLite.
public enum Value: Equatable, Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as an integer, when it is one.
    public var integer: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }

    /// The value as text, when it is text.
    public var text: String? {
        if case .text(let v) = self { return v }
        return nil
    }

    /// For messages: the number, the text as it is, `NULL`, or a blob's size.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let v): return v
        case .blob(let v): return "<\(v.count) bytes>"
        }
    }
}
