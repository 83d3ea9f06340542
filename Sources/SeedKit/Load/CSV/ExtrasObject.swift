/// Builds the `extras` value of a CSV row: a JSON object of the fields the schema does not
/// declare, in header order, with their non-empty (trimmed) values. Rows whose undeclared
/// fields are all empty get NULL.
struct ExtrasObject {
    /// Per undeclared field: its index in the record and its JSON-encoded name with `:`.
    private let fields: [(index: Int, key: [UInt8])]

    /// - Parameters:
    ///   - names: the header's field names.
    ///   - declared: the indexes of the fields some column reads.
    init(names: [String], declared: Set<Int>) {
        var seen = Set<String>()
        var fields: [(Int, [UInt8])] = []
        for (index, name) in names.enumerated() where !declared.contains(index) && !name.isEmpty {
            guard seen.insert(name).inserted else { continue } // a repeated name: the first wins
            var key: [UInt8] = []
            Self.appendString(Array(name.utf8), to: &key)
            key.append(UInt8(ascii: ":"))
            fields.append((index, key))
        }
        self.fields = fields
    }

    /// True when the header has no undeclared field.
    var isEmpty: Bool { fields.isEmpty }

    /// The JSON object for the reader's current record, or nil when every undeclared field
    /// is empty.
    /// `repaired`: the fields whose text was repaired (`InvalidText`), by index.
    func json(_ reader: CSVReader, repaired: [Int: [UInt8]] = [:]) -> [UInt8]? {
        var out: [UInt8] = []
        for field in fields where field.index < reader.fieldCount {
            if let text = repaired[field.index] {
                let value = text.withUnsafeBytes { Array(ValueConverter.trim($0)) }
                if value.isEmpty { continue }
                out.append(out.isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
                out += field.key
                Self.appendString(value, to: &out)
                continue
            }
            let value = ValueConverter.trim(reader.field(field.index))
            if value.isEmpty { continue }
            out.append(out.isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
            out += field.key
            Self.appendString(Array(String(decoding: value, as: UTF8.self).utf8), to: &out) // invalid UTF-8 -> U+FFFD
        }
        if out.isEmpty { return nil }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Appends `bytes` (UTF-8) as a JSON string literal.
    static func appendString(_ bytes: [UInt8], to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
