import Yams

/// A YAML mapping read strictly: every key must be one the reader asks for, so a typo in a
/// schema is an error naming its line instead of a silently ignored setting.
struct YAMLObject {
    let file: String
    let node: Node
    private let pairs: [(key: String, value: Node, mark: Mark?)]
    private var read: Set<String> = []

    init(_ node: Node, file: String, what: String) throws(SchemaError) {
        guard case .mapping(let mapping) = node else {
            throw SchemaError(
                file: file, line: node.mark?.line, column: node.mark?.column,
                message: "\(what) must be a mapping of keys to values")
        }
        self.file = file
        self.node = node
        var pairs: [(key: String, value: Node, mark: Mark?)] = []
        for (key, value) in mapping {
            guard let name = key.string else {
                throw SchemaError(
                    file: file, line: key.mark?.line, column: key.mark?.column, message: "keys must be text")
            }
            pairs.append((name, value, key.mark))
        }
        self.pairs = pairs
    }

    func error(_ message: String, at node: Node? = nil) -> SchemaError {
        let mark = (node ?? self.node).mark
        return SchemaError(file: file, line: mark?.line, column: mark?.column, message: message)
    }

    mutating func value(_ key: String) -> Node? {
        read.insert(key)
        return pairs.first { $0.key == key }?.value
    }

    /// The value of `key`, without marking it read (for where it is written).
    func peek(_ key: String) -> Node? {
        pairs.first { $0.key == key }?.value
    }

    mutating func string(_ key: String) throws(SchemaError) -> String? {
        guard let node = value(key) else { return nil }
        guard case .scalar(let scalar) = node else { throw error("'\(key)' must be text", at: node) }
        return scalar.string
    }

    mutating func requiredString(_ key: String, in what: String) throws(SchemaError) -> String {
        guard let text = try string(key), !text.isEmpty else { throw error("\(what) needs '\(key)'") }
        return text
    }

    mutating func int(_ key: String) throws(SchemaError) -> Int? {
        guard let node = value(key) else { return nil }
        guard let number = node.int else { throw error("'\(key)' must be a whole number", at: node) }
        return number
    }

    mutating func bool(_ key: String) throws(SchemaError) -> Bool? {
        guard let node = value(key) else { return nil }
        guard let flag = Self.bool(node) else { throw error("'\(key)' must be true or false", at: node) }
        return flag
    }

    /// The YAML 1.1 booleans Yams' default resolver knows (`true`, `True`, `TRUE`, `yes`, `on`,
    /// ... unquoted, or tagged `!!bool`). Schemas are composed with the basic resolver, which
    /// tags every plain value as text: the default one compiles its rules as
    /// `NSRegularExpression`s, which loads ICU (megabytes of every build's peak memory).
    static func bool(_ node: Node) -> Bool? {
        guard case .scalar(let scalar) = node else { return nil }
        if scalar.tag.rawValue == Tag.Name.bool.rawValue { return Bool.construct(from: scalar) }
        guard scalar.style == .plain || scalar.style == .any else { return nil }
        switch scalar.string {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default: return nil
        }
    }

    /// A value that may be written as one string or as a list of strings.
    mutating func strings(_ key: String) throws(SchemaError) -> [String]? {
        guard let node = value(key) else { return nil }
        switch node {
        case .scalar(let scalar): return [scalar.string]
        case .sequence(let sequence):
            var result: [String] = []
            for item in sequence {
                guard case .scalar(let scalar) = item else { throw error("'\(key)' must list text values", at: item) }
                result.append(scalar.string)
            }
            return result
        default: throw error("'\(key)' must be text or a list of text", at: node)
        }
    }

    mutating func objects(_ key: String, what: String) throws(SchemaError) -> [YAMLObject] {
        guard let node = value(key) else { return [] }
        guard case .sequence(let sequence) = node else { throw error("'\(key)' must be a list", at: node) }
        var result: [YAMLObject] = []
        for item in sequence { result.append(try YAMLObject(item, file: file, what: what)) }
        return result
    }

    mutating func object(_ key: String, what: String) throws(SchemaError) -> YAMLObject? {
        guard let node = value(key) else { return nil }
        return try YAMLObject(node, file: file, what: what)
    }

    mutating func stringMap(_ key: String) throws(SchemaError) -> [String: String] {
        guard let node = value(key) else { return [:] }
        guard case .mapping(let mapping) = node else { throw error("'\(key)' must be a mapping", at: node) }
        var result: [String: String] = [:]
        for (k, v) in mapping {
            guard let name = k.string, let text = v.string else { throw error("'\(key)' must map text to text", at: k) }
            result[name] = text
        }
        return result
    }

    /// A mapping of text to text, in the order written (`{ stop: integer, date: date }`).
    mutating func orderedStrings(_ key: String) throws(SchemaError) -> [(String, String)] {
        guard let node = value(key) else { return [] }
        guard case .mapping(let mapping) = node else { throw error("'\(key)' must be a mapping", at: node) }
        var result: [(String, String)] = []
        for (k, v) in mapping {
            guard let name = k.string, let text = v.string else { throw error("'\(key)' must map text to text", at: k) }
            result.append((name, text))
        }
        return result
    }

    /// Throws when the mapping has a key nobody asked for.
    func rejectUnknownKeys(in what: String) throws(SchemaError) {
        for pair in pairs where !read.contains(pair.key) {
            let known = read.sorted().joined(separator: ", ")
            throw SchemaError(
                file: file, line: pair.mark?.line, column: pair.mark?.column,
                message: "unknown key '\(pair.key)' in \(what) (known keys: \(known))")
        }
    }
}
