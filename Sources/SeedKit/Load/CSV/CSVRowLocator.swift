import SeedSQLite

/// Finds rows of a CSV input again, by the values of some of their fields, to place what a
/// check found in the loaded tables: its line, the column where each field of interest
/// begins, and the value as the file writes it. The seed keeps no line numbers, and a check
/// that needs the whole table (times along a trip, references to a later file) runs after
/// loading: the file is read a second time, only when there is something to place.
///
/// Values match as their columns convert them (`01` and `1` are the same stop_sequence;
/// `7:00:00` is 25200 seconds), so keys taken from the seed find their rows.
struct CSVRowLocator {
    /// A row found: its line, and per shown field (by source name) where its value begins and
    /// the value as written, without surrounding spaces.
    struct Row {
        var line: Int
        var fields: [String: (column: Int, text: String)]
    }

    let file: InputFile
    let table: Table
    let limits: InputLimits

    /// The key text of a stored value, as `key(of:converter:)` gives for its source field.
    static func key(_ value: Value) -> String {
        switch value {
        case .null: ""
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): text
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Reads the file once and calls `found` for every row whose values of `fields` (source
    /// names) are one of `keys`, in file order, with the key it matched. A field the header
    /// lacks reads as empty.
    func locate(
        matching fields: [String], keys: Set<[String]>, showing shown: [String],
        found: (_ key: [String], _ row: Row) throws -> Void
    ) throws {
        guard !keys.isEmpty else { return }
        let reader = CSVReader(
            source: TextDecodingSource(try file.open()), file: file.displayPath, maximumRecordBytes: limits.recordBytes)
        guard try reader.next() else { return }
        let header = (0..<reader.fieldCount).map { reader.string($0).trimmingASCIISpaces() }
        let converters = fields.map { name in
            table.columns.first { $0.source.contains(name) }.map(ValueConverter.init(column:))
        }
        let matchIndexes = fields.map { header.firstIndex(of: $0) }
        let shownIndexes = shown.map { header.firstIndex(of: $0) }
        var key = Array(repeating: "", count: fields.count)
        while try reader.next() {
            for (k, index) in matchIndexes.enumerated() {
                guard let index, index < reader.fieldCount else { key[k] = ""; continue }
                key[k] = Self.key(of: reader.field(index), converter: converters[k])
            }
            guard keys.contains(key) else { continue }
            var row = Row(line: reader.line, fields: [:])
            for (s, index) in shownIndexes.enumerated() {
                guard let index, index < reader.fieldCount else { continue }
                row.fields[shown[s]] = (reader.place(ofField: index).column, reader.string(index).trimmingASCIISpaces())
            }
            try found(key, row)
        }
    }

    /// The line of the first row before line `before` whose values of `fields` (source names)
    /// are `values`: the file is read up to there. Nil when there is none, or the file cannot be
    /// read again.
    func firstLine(matching fields: [String], values: [String], before: Int) -> Int? {
        struct Found: Error { let line: Int }
        do {
            try locate(matching: fields, keys: [values], showing: []) { _, row in
                throw row.line < before ? Found(line: row.line) : Found(line: 0)
            }
        } catch let found as Found {
            return found.line > 0 ? found.line : nil
        } catch {}
        return nil
    }

    /// The key text of source bytes: what the column stores, as text.
    private static func key(of bytes: UnsafeRawBufferPointer, converter: ValueConverter?) -> String {
        guard let converter else { return String(decoding: ValueConverter.trim(bytes), as: UTF8.self) }
        switch converter.convert(bytes) {
        case .null: return ""
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return text
        case .sourceText, .invalid: return String(decoding: ValueConverter.trim(bytes), as: UTF8.self)
        }
    }
}
