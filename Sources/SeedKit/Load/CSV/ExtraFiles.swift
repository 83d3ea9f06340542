/// The tables made from the CSV inputs no table of the schema reads (`extraFiles: true`):
/// `extra_<file name without extension>`, with an `id` and every header field as a text
/// column, so that nothing a feed has is dropped (GTFS extensions such as `agency_jp.txt`).
struct ExtraFiles {
    /// One unread file name and the table its rows go to: in a region seed, the file of every
    /// feed that has it with the same header (a feed whose header differs gets a table of its
    /// own, `extra_<name>_2`), each row with its feed's `feed_ref`.
    struct Source {
        var table: Table
        var files: [(file: InputFile, feed: InputFeeds.Feed?)]
    }

    /// The file name endings read as CSV; other unread files stay unused (with a warning).
    static let extensions = [".txt", ".csv"]

    let schema: Schema
    let feeds: InputFeeds

    /// Reads the header of every unread CSV input and declares its table, in file-name order
    /// (then feed order).
    func tables() throws(BuildError) -> [Source] {
        var names = Set(schema.tables.map { $0.name.lowercased() })
        var sources: [Source] = []
        var unread: [(file: InputFile, feed: InputFeeds.Feed?)] = []
        for feed in feeds.feeds {
            let read = Set(schema.tables.compactMap { $0.file.flatMap { feed.inputs.file(named: $0)?.name } })
            for file in feed.inputs.files where !read.contains(file.name) && file.name != SchemaLocator.folderSchemaName
            {
                unread.append((file, feeds.isRegion ? feed : nil))
            }
        }
        unread.sort { ($0.file.name, $0.feed?.name ?? "") < ($1.file.name, $1.feed?.name ?? "") }
        var byName: [String: [Int]] = [:] // file name -> indexes in sources
        for (file, feed) in unread {
            let lower = file.name.lowercased()
            guard let suffix = Self.extensions.first(where: { lower.hasSuffix($0) }) else { continue }
            guard let header = try header(of: file) else { continue }
            var columns = Self.columns(header)
            if feeds.isRegion {
                var column = Column(
                    name: Schema.feedColumn, type: .integer, source: [Schema.feedSource], required: true)
                column.foreignKey = Schema.feedsTable
                columns.insert(column, at: 0)
            }
            if let same = byName[file.name]?.first(where: { sources[$0].table.columns == columns }) {
                sources[same].files.append((file, feed))
                continue
            }
            let base = Self.identifier(String(file.name.dropLast(suffix.count)))
            var name = Schema.extraTablePrefix + base.lowercased()
            var number = 2
            while names.contains(name) {
                name = Schema.extraTablePrefix + base.lowercased() + "_\(number)"; number += 1
            }
            names.insert(name)
            byName[file.name, default: []].append(sources.count)
            sources.append(
                Source(
                    table: Table(name: name, file: file.name, optional: true, columns: columns), files: [(file, feed)]))
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
            while taken.contains(name.lowercased()) {
                name = (field.isEmpty ? "column_\(index + 1)" : field) + "_\(number)"; number += 1
            }
            taken.insert(name.lowercased())
            var column = Column(name: name, source: [field])
            column.trim = true
            return column
        }
    }

    /// `name` with every character but ASCII letters, digits and `_` replaced by `_`.
    static func identifier(_ name: String) -> String {
        String(
            name.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                    ? Character(scalar) : "_"
            })
    }
}
