/// What an XML load saw that a schema may read silently wrong, gathered over every file for
/// the mapping check (`MappingCheck`): the paths each table's records were found at, the
/// sources that matched more than once in a record, the files that gave no rows.
struct XMLLoadFindings {
    /// One path a table's records were found at (see `XMLRecordPaths`), over all files.
    struct FoundPath: Equatable {
        var path: String
        var count: Int
    }

    /// A column source that matched more than once inside some records (only the first
    /// value is kept).
    struct RepeatedSource: Equatable {
        /// The column's index in the table's `columns`.
        var column: Int
        /// The source path, as written in the schema.
        var path: String
        /// Records written with more than one match.
        var records: Int
    }

    /// Per table read from elements: per element alternative, the paths found (`others`:
    /// records at paths beyond the ones kept).
    var elementPaths: [String: [(paths: [FoundPath], others: Int)]] = [:]
    /// Per table: its repeated sources.
    var repeatedSources: [String: [RepeatedSource]] = [:]
    /// Files read that gave no row to any table, with the records their tables' filters dropped.
    var filesWithoutRows: [(file: InputFile, filtered: Int)] = []

    /// Gathers the findings of each file's importer.
    struct Collector {
        let mapping: XMLMapping
        private var paths: [[(paths: [FoundPath], others: Int)]]
        private var repeated: [[Int]]
        private var empty: [(file: InputFile, filtered: Int)] = []

        init(mapping: XMLMapping) {
            self.mapping = mapping
            paths = mapping.tables.map { Array(repeating: ([], 0), count: 1 + $0.otherPatterns.count) }
            repeated = mapping.tables.map { Array(repeating: 0, count: $0.slotPaths.count) }
        }

        /// Adds what `importer` saw in `file`, which gave `rows` rows.
        mutating func add(_ importer: XMLImporter, file: InputFile, rows: Int) {
            let found = importer.foundPaths
            for table in found.paths.indices {
                for alternative in found.paths[table].indices {
                    for path in found.paths[table][alternative] {
                        if let index = paths[table][alternative].paths.firstIndex(where: { $0.path == path.written }) {
                            paths[table][alternative].paths[index].count += path.count
                        } else {
                            paths[table][alternative].paths.append(FoundPath(path: path.written, count: path.count))
                        }
                    }
                    paths[table][alternative].others += found.others[table][alternative]
                }
            }
            for (table, slots) in importer.repeatedRecords.enumerated() {
                for (slot, count) in slots.enumerated() { repeated[table][slot] += count }
            }
            if rows == 0 { empty.append((file, importer.filtered.reduce(0, +))) }
        }

        /// The findings, by table name.
        var findings: XMLLoadFindings {
            var result = XMLLoadFindings()
            for (index, table) in mapping.tables.enumerated() where table.table.list == nil {
                result.elementPaths[table.table.name] = paths[index]
                var sources: [RepeatedSource] = []
                for (column, columnSources) in table.columns.enumerated() where !table.exists[column] {
                    for case .slot(let slot) in columnSources where repeated[index][slot] > 0 {
                        sources.append(
                            RepeatedSource(column: column, path: table.slotPaths[slot], records: repeated[index][slot]))
                    }
                }
                if !sources.isEmpty { result.repeatedSources[table.table.name] = sources }
            }
            result.filesWithoutRows = empty
            return result
        }
    }
}
