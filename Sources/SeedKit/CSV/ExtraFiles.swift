/// The tables made from the CSV inputs no table of the schema reads (`extraFiles: true`):
/// `extra_<file name without extension>`, with an `id` and every header field as a text
/// column, so that nothing a feed has is dropped (GTFS extensions such as `agency_jp.txt`).
struct ExtraFiles {
    /// One unread file and the table its rows go to.
    struct Source {
        var table: Table
        var file: InputFile
    }

    /// The file name endings read as CSV; other unread files stay unused (with a warning).
    static let extensions = [".txt", ".csv"]

    let schema: Schema
    let inputs: InputSet

    /// Reads the header of every unread CSV input and declares its table, in file-name order.
    func tables() throws(BuildError) -> [Source] {
        let read = Set(schema.tables.compactMap { $0.file.flatMap { inputs.file(named: $0)?.name } })
        var names = Set(schema.tables.map { $0.name.lowercased() })
        var sources: [Source] = []
        for file in inputs.files where !read.contains(file.name) && file.name != SchemaLocator.folderSchemaName {
            let lower = file.name.lowercased()
            guard let suffix = Self.extensions.first(where: { lower.hasSuffix($0) }) else { continue }
            guard let header = try header(of: file) else { continue }
            let base = Self.identifier(String(file.name.dropLast(suffix.count)))
            var name = Schema.extraTablePrefix + base.lowercased()
            var number = 2
            while names.contains(name) { name = Schema.extraTablePrefix + base.lowercased() + "_\(number)"; number += 1 }
            names.insert(name)
            sources.append(Source(table: Table(name: name, file: file.name, optional: true, columns: Self.columns(header)), file: file))
        }
        return sources
    }

    /// The file's header fields (trimmed); nil when it has no record or its header is not CSV
    /// (then it stays an unused file, with a warning: the schema promised nothing about it).
    private func header(of file: InputFile) throws(BuildError) -> [String]? {
        let reader: CSVReader
        do { reader = CSVReader(source: try file.open(), file: file.displayPath) } catch { throw .input(error) }
        do {
            guard try reader.next() else { return nil }
        } catch {
            return nil
        }
        return (0..<reader.fieldCount).map { reader.string($0).trimmingASCIISpaces() }
    }

    /// One text column per header field, named like it; an empty, repeated (ignoring case)
    /// or `id` name gets a number.
    static func columns(_ header: [String]) -> [Column] {
        var taken: Set<String> = ["id"]
        return header.enumerated().map { index, field in
            var name = field.isEmpty ? "column_\(index + 1)" : field
            var number = 2
            while taken.contains(name.lowercased()) { name = (field.isEmpty ? "column_\(index + 1)" : field) + "_\(number)"; number += 1 }
            taken.insert(name.lowercased())
            var column = Column(name: name, source: [field])
            column.trim = true
            return column
        }
    }

    /// `name` with every character but ASCII letters, digits and `_` replaced by `_`.
    static func identifier(_ name: String) -> String {
        String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_") ? Character(scalar) : "_"
        })
    }
}
