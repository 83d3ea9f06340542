import SeedSQLite

/// Loads every XML input of a build: decides which files feed which tables and in which
/// order, streams each file once through an `XMLImporter` (all its tables in one pass; an
/// OpenStreetMap PBF file, recognised by its content, through a `PBFImporter`),
/// then resolves self-references and counts the rows.
///
/// Files are read in an order where a file comes after the files holding the tables its
/// tables reference (Stack Exchange: Users.xml and Tags.xml before Posts.xml); ties and
/// cycles go by file name, so the order is deterministic.
struct XMLLoad {
    let schema: Schema
    /// The feeds; in a region seed, each file's rows get its feed's id (`feed_ref`).
    let feeds: InputFeeds
    let context: BuildContext
    let progress: BuildProgress?

    var inputs: InputSet { feeds.all }

    /// What the load produced.
    struct Result {
        var inputs: [InputRecord]
        /// The files read, in reading order.
        var files: [InputFile] = []
        /// Rows per table, in load order.
        var rows: [(name: String, rows: Int)]
        /// Records skipped by filters, by table.
        var filtered: [String: Int]
        /// Rows left out with the row they were nested in (`--lenient`), by table.
        var rejected: [String: Int] = [:]
        /// Per table read from XML: per column, whether some source matched in any input.
        var matchedColumns: [String: [Bool]] = [:]
        /// What the mapping check needs to find what a schema reads silently wrong.
        var findings = XMLLoadFindings()
    }

    func run() throws -> Result {
        let mapping: XMLMapping
        do { mapping = try XMLMapping(schema: schema) } catch {
            throw BuildError.schema(SchemaError(file: schema.name, message: "'\(error.path)': \(error.message)"))
        }
        let queue = context.writeQueue
        // References are looked up (and duplicate keys caught) while rows stream in.
        for table in schema.loadOrder {
            try queue.sync { [context] connection throws(SQLiteError) in
                try context.indexes.createBeforeLoading(table, on: connection)
            }
        }
        let loaders = try mapping.tables.map { try TableLoader(table: $0.table, file: "", context: context) }

        var records: [InputRecord] = []
        var filtered: [String: Int] = [:]
        var matched = mapping.tables.map { Array(repeating: false, count: $0.columns.count) }
        var unread = XMLUnreadObjects.Totals()
        var findings = XMLLoadFindings.Collector(mapping: mapping)
        try queue.execute("BEGIN")
        let files = plan(mapping)
        let feedOfFile =
            feeds.isRegion
            ? Dictionary(
                feeds.feeds.flatMap { feed in feed.inputs.files.map { ($0.displayPath, feed) } },
                uniquingKeysWith: { first, _ in first }) : [:]
        for file in files {
            let feed = feedOfFile[file.displayPath]
            for loader in loaders { loader.feedID = feed?.id }
            context.beginDocument(file.displayPath)
            var record: InputRecord
            let matchedHere: [[Bool]]
            if OSMPBFFile.recognises(file) {
                let importer = PBFImporter(
                    file: file, mapping: mapping, loaders: loaders, context: context,
                    progress: progress)
                record = try importer.run()
                matchedHere = importer.matchedColumns
            } else {
                let importer = XMLImporter(
                    file: file, mapping: mapping, loaders: loaders, context: context,
                    progress: progress)
                record = try importer.run()
                findings.add(importer, file: file, rows: record.rows)
                for (index, count) in importer.filtered.enumerated() where count > 0 {
                    filtered[mapping.tables[index].table.name, default: 0] += count
                }
                if let objects = importer.unreadObjects { unread.add(objects, file: file.displayPath) }
                matchedHere = importer.matchedColumns
            }
            if let feed { record.name = feed.name + "/" + record.name }
            records.append(record)
            for (table, columns) in matchedHere.enumerated() {
                for (column, found) in columns.enumerated() where found { matched[table][column] = true }
            }
            // The rows of this file reach the database before the next file looks them up.
            for loader in loaders { try loader.flush() }
            try? queue.drain() // a failure is in the issue log, or thrown by finish()
            // Copies of another document's objects whose nested rows differ are objects of their own.
            try queue.sync { [schema, context] connection throws(SQLiteError) in
                try DocumentCopies(schema: schema, context: context, connection: connection).check()
            }
            if context.issues.hasErrors { throw BuildError.invalidInput(context.issues) }
        }
        let rejected = try finishLoading(loaders)
        try queue.execute("COMMIT")
        if context.issues.hasErrors { throw BuildError.invalidInput(context.issues) }
        unread.report(to: context.issues, schema: schema.name)

        let rows = try rowCounts()
        var result = Result(inputs: records, files: files, rows: rows, filtered: filtered, rejected: rejected)
        for (index, table) in mapping.tables.enumerated() { result.matchedColumns[table.table.name] = matched[index] }
        result.findings = findings.findings
        return result
    }

    /// Every table's last rows are in before any deferred reference is resolved, and the
    /// rows nested in rows that were not inserted are gone.
    /// - Returns: the rows left out with the row they were nested in, by table.
    private func finishLoading(_ loaders: [TableLoader]) throws -> [String: Int] {
        let queue = context.writeQueue
        for loader in loaders { try loader.flush() }
        try? queue.drain()
        let rejected = try queue.sync { [schema, context] connection throws(SQLiteError) in
            try NestedRowCleanup(schema: schema, context: context, connection: connection).run()
        }
        for loader in loaders { try loader.finish() }
        // Where two documents hold objects sharing a key, each reference goes to its own
        // document's object (every key resolved above).
        let shared = context.tablesWithSharedKeys
        if !shared.isEmpty {
            try queue.sync { [schema, context] connection throws(SQLiteError) in
                try DocumentScope(schema: schema, context: context, connection: connection).resolve(shared)
            }
        }
        return rejected
    }

    /// Each table's rows, counted in the database: find-or-create rows have no loader.
    private func rowCounts() throws -> [(name: String, rows: Int)] {
        let queue = context.writeQueue
        let names = schema.loadOrder.map(\.name)
        let counts = try queue.sync { connection throws(SQLiteError) in
            try names.map { name throws(SQLiteError) in
                Int(try connection.scalar("SELECT count(*) FROM \(quoted(name))")?.integer ?? 0)
            }
        }
        return zip(names, counts).map { (name: $0, rows: $1) }
    }

    /// The input files read by some table, in reading order.
    func plan(_ mapping: XMLMapping) -> [InputFile] {
        // The top-level table each table's records are found in.
        var root = Array(mapping.tables.indices)
        for index in mapping.tables.indices {
            if let parent = mapping.tables[index].parent { root[index] = root[parent] }
        }
        let tableIndex = Dictionary(uniqueKeysWithValues: mapping.tables.enumerated().map { ($1.table.name, $0) })
        var filesOf: [Int: [String]] = [:] // top-level table -> file names
        var candidates: [InputFile] = []
        // An OSM PBF file is matched as its `.osm` name (`OSMPBFFile.patternName`).
        var patternNames: [String: String] = [:]
        for file in inputs.files {
            let name = OSMPBFFile.patternName(of: file)
            patternNames[file.displayPath] = name
            let tops = mapping.tables.indices.filter {
                mapping.tables[$0].filePattern.map { XMLMapping.file(name, matches: $0) } ?? false
            }
            guard !tops.isEmpty else { continue }
            candidates.append(file)
            for top in tops { filesOf[top, default: []].append(file.name) }
        }
        func needs(_ file: InputFile) -> Set<String> {
            var names = Set<String>()
            let name = patternNames[file.displayPath] ?? file.name
            for index in mapping.tables.indices {
                guard let pattern = mapping.tables[root[index]].filePattern,
                    XMLMapping.file(name, matches: pattern)
                else { continue }
                for reference in mapping.tables[index].table.references {
                    guard let target = tableIndex[reference.to] else { continue }
                    names.formUnion(filesOf[root[target]] ?? [])
                }
            }
            names.remove(file.name)
            return names
        }
        var ordered: [InputFile] = []
        var placed = Set<String>()
        var remaining = candidates
        while !remaining.isEmpty {
            let next = remaining.firstIndex { needs($0).isSubset(of: placed) } ?? 0
            let file = remaining.remove(at: next)
            ordered.append(file)
            placed.insert(file.name)
        }
        return ordered
    }
}
