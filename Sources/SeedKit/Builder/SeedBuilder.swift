import Foundation
import SeedArchive
import SeedSQLite

/// Builds one seed: reads the inputs through the schema into a scratch database, indexes,
/// analyzes and compacts it, and renames it over the output only when all went well.
public struct SeedBuilder {
    public let options: BuildOptions
    public weak var progress: BuildProgress?

    public init(options: BuildOptions, progress: BuildProgress? = nil) {
        self.options = options
        self.progress = progress
    }

    /// Runs the build. On failure nothing is written and an existing output is untouched.
    /// With `options.notices`, the notices report is written either way.
    public func build() throws(BuildError) -> BuildSummary {
        guard let path = options.notices else { return try build(issues: IssueLog()) }
        let report = try NoticeReport(path: path)
        let summary: BuildSummary
        do { summary = try build(issues: IssueLog(observer: { report.record($0) })) } catch {
            try? report.finish(built: false) // the build's own failure is the one to report
            throw error
        }
        try report.finish(built: true)
        return summary
    }

    private func build(issues: IssueLog) throws(BuildError) -> BuildSummary {
        let clock = ContinuousClock.now
        var inputs: InputSet
        do { inputs = try InputSet(paths: options.inputs) } catch { throw .input(error) }
        let schema: Schema
        do {
            schema = try SchemaLocator.schema(explicit: options.schemaPath, inputPaths: options.inputs, inputs: inputs)
        } catch { throw .schema(error) }
        var previous: PreviousSeed?
        if let path = options.previous { previous = try PreviousSeed(path: path, schema: schema) }

        let emptyFiles = schema.format == .csv ? inputs.files.filter { $0.size == 0 } : []
        for file in emptyFiles {
            issues.record(BuildIssue(kind: .emptyFile, file: file.displayPath, message: "is empty (0 bytes); treated as absent"))
        }
        inputs = inputs.removing(emptyFiles)
        try checkRequiredFiles(schema: schema, inputs: inputs, issues: issues)
        let database = try SeedDatabase(outputPath: options.output)
        do {
            return try load(schema: schema, inputs: inputs, issues: issues, database: database, previous: previous, started: clock)
        } catch {
            database.discard()
            switch error {
            case let error as BuildError: throw error
            case let error as SQLiteError where error.isDiskFull:
                throw .output(path: options.output, message: "the disk is full (\(error.message))", cause: error)
            default: throw .output(path: options.output, message: "\(error)", cause: error)
            }
        }
    }

    private func load(schema: Schema, inputs: InputSet, issues: IssueLog, database: SeedDatabase, previous: PreviousSeed?,
                      started clock: ContinuousClock.Instant) throws -> BuildSummary {
        let timer = PhaseTimer()
        let extraTables = schema.extraFiles ? try ExtraFiles(schema: schema, inputs: inputs).tables() : []
        var records: [InputRecord] = []
        var rows: [(name: String, rows: Int)] = []
        var filtered: [String: Int] = [:]
        var matchedColumns: [String: [Bool]] = [:]
        var findings = XMLLoadFindings()
        var rejected: [String: Int] = [:]
        // While the rows stream in, the database belongs to the writer thread.
        let context = try database.withWriteQueue { queue in
            let context = BuildContext(writeQueue: queue, schema: schema, issues: issues,
                                       allowDangling: options.allowDangling || options.lenient, cacheSize: options.cacheSize,
                                       limits: options.limits)
            context.lenient = options.lenient
            context.strict = options.strict
            context.idMaps = IDMaps(schema: schema, capacity: options.idMapCapacity)
            // A table read from a CSV file is created by its loader once the header shows which
            // columns the file fills (`Table.layout`); the others are created now.
            let createdByLoader = Set(schema.format != .csv ? [] : schema.loadOrder.compactMap { table in
                table.file.flatMap { inputs.file(named: $0) }.flatMap { GeoJSONImporter.reads($0.name) ? nil : table.name }
            })
            let statements = schema.loadOrder.filter { !createdByLoader.contains($0.name) }.map(\.createStatement)
                + extraTables.map(\.table.createStatement)
            try queue.sync { connection throws(SQLiteError) in for statement in statements { try connection.execute(statement) } }
            switch schema.format {
            case .csv:
                let sources = schema.loadOrder.map { table in (table, table.file.flatMap { inputs.file(named: $0) }, false) }
                    + extraTables.map { ($0.table, Optional($0.file), true) }
                for (table, file, byPosition) in sources {
                    let createsTable = !byPosition && createdByLoader.contains(table.name)
                    if !createsTable {
                        for statement in schema.preloadIndexStatements(of: table) {
                            try queue.execute(statement)
                            context.createdIndexes.insert(statement)
                        }
                    }
                    var count = 0
                    if let file {
                        let loader = try TableLoader(table: table, file: file.displayPath, context: context, createsTable: createsTable)
                        try queue.execute("BEGIN")
                        let record = GeoJSONImporter.reads(file.name)
                            ? try GeoJSONImporter(file: file, loader: loader, progress: progress).run()
                            : try CSVImporter(file: file, loader: loader, progress: progress, byPosition: byPosition).run()
                        try? queue.drain() // a failure is in the issue log, or thrown by finish()
                        try loader.completeTable()
                        records.append(record)
                        try queue.execute("COMMIT")
                        count = loader.rowCount
                        if record.rejected > 0 { rejected[table.name] = record.rejected }
                        timer.mark("load \(table.name)")
                    }
                    rows.append((table.name, count))
                    if issues.hasErrors { throw BuildError.invalidInput(issues) }
                }
            case .xml:
                let result = try XMLLoad(schema: schema, inputs: inputs, context: context, progress: progress).run()
                records = result.inputs
                rows = result.rows
                filtered = result.filtered
                matchedColumns = result.matchedColumns
                rejected = result.rejected
                findings = result.findings
                timer.mark("load XML")
            }
            return context
        }
        // The writer thread has ended: the connection is this thread's again.
        let connection = database.connection!
        if GTFSChecks.applies(to: schema) {
            progress?.phase("checking GTFS")
            try GTFSChecks(schema: schema, inputs: inputs, connection: connection, issues: issues, options: options).run()
            timer.mark("GTFS checks")
        }
        try fillComputedColumns(schema: schema, connection: connection)
        rows = try addDerivedRows(schema: schema, connection: connection, rows: rows)
        let queryIndexes = QueryIndexes(tables: schema.loadOrder, connection: connection)
        let filled = try queryIndexes.fillTables(issues: issues)
        rows = rows.map { (name: $0.name, rows: filled[$0.name] ?? $0.rows) }
        let readFiles = Set(records.map(\.name))
        // Built-in schemas cover a standard's optional parts (NeTEx stop places, TXC stop
        // points): a table or column one export leaves empty is not a mapping mistake.
        if !SchemaLocator.isBuiltIn(schema) {
            MappingCheck(schema: schema, inputs: inputs, files: inputs.files.filter { readFiles.contains($0.name) },
                         rows: Dictionary(rows, uniquingKeysWith: +), filtered: filtered, matchedColumns: matchedColumns,
                         strict: options.strict, issues: issues, findings: findings).run()
        }
        if issues.hasErrors { throw BuildError.invalidInput(issues) }
        let used = Set(records.map(\.name))
        for file in inputs.files where !used.contains(file.name) && file.name != SchemaLocator.folderSchemaName
            && !extraTables.contains(where: { $0.file.name == file.name }) {
            issues.record(BuildIssue(kind: .unusedFile, file: file.displayPath, message: "is not read by any table of schema '\(schema.name)'"))
        }

        try database.beginFinishing()
        var previousMetadata: [(key: String, value: String)] = []
        if let previous {
            progress?.phase("keeping ids")
            previousMetadata = try StableIDs(previous: previous, tables: schema.loadOrder + extraTables.map(\.table),
                                             connection: connection, timer: timer).run().metadata
        }
        progress?.phase("indexing")
        for table in schema.loadOrder + extraTables.map(\.table) {
            for statement in table.indexStatements where statement != table.keyIndexStatement && !context.createdIndexes.contains(statement) {
                try connection.execute(statement)
            }
        }
        timer.mark("indexes")
        progress?.phase("search and spatial indexes")
        var costs = try queryIndexes.filledCosts() + queryIndexes.build() // after StableIDs: the final ids
        timer.mark("search and spatial indexes")
        let seedVersion = options.seedVersion ?? Self.defaultSeedVersion(schema: schema, inputs: records, previous: previous?.identity.seedVersion)
        try database.writeMetadata(schema: schema, seedVersion: seedVersion, inputs: records, extra: previousMetadata)
        try database.complete(timer: timer) { progress?.phase($0) }

        costs = QueryIndexes.measure(costs, seed: options.output)
        var size = stat()
        stat(options.output, &size)
        return BuildSummary(output: options.output, schemaName: schema.name, schemaVersion: schema.schemaVersion,
                            seedVersion: seedVersion, tables: rows, inputs: records, references: context.referenceStatistics,
                            filtered: filtered, rejected: rejected, warnings: issues.warningCount, warningReport: issues.report(errors: false),
                            outputBytes: Int64(size.st_size), seconds: (ContinuousClock.now - clock).seconds, queryIndexes: costs)
    }

    /// Evaluates the `expression` columns once every row (and reference) is in place.
    private func fillComputedColumns(schema: Schema, connection: Connection) throws {
        let statements = schema.loadOrder.flatMap(\.computedColumnStatements)
        guard !statements.isEmpty else { return }
        progress?.phase("computed columns")
        try connection.execute("BEGIN")
        for statement in statements { try connection.execute(statement) }
        try connection.execute("COMMIT")
    }

    /// Adds the rows of the tables' `derivedRows` queries, in load order (a query may read
    /// the derived rows of tables before it); returns the row counts with them.
    private func addDerivedRows(schema: Schema, connection: Connection, rows: [(name: String, rows: Int)]) throws -> [(name: String, rows: Int)] {
        let tables = schema.loadOrder.filter { $0.derivedRows != nil }
        guard !tables.isEmpty else { return rows }
        progress?.phase("derived rows")
        var rows = rows
        try connection.execute("BEGIN")
        for table in tables {
            try connection.execute(try table.derivedRowsStatement(table.derivedRows!, connection: connection))
            let count = Int(try connection.scalar("SELECT count(*) FROM \(quoted(table.name))")?.integer ?? 0)
            if let index = rows.firstIndex(where: { $0.name == table.name }) { rows[index].rows = count } else { rows.append((table.name, count)) }
        }
        try connection.execute("COMMIT")
        return rows
    }

    /// Fails before any work when a required input file is missing (all of them listed).
    private func checkRequiredFiles(schema: Schema, inputs: InputSet, issues: IssueLog) throws(BuildError) {
        if schema.format == .xml {
            // XML: every top-level table needs some input matching its `file` (default *.xml).
            for table in schema.tables where !table.optional && table.element != nil && table.parent == nil {
                let pattern = table.file ?? "*.xml"
                if !inputs.files.contains(where: { XMLImporter.name($0.name, matches: pattern) }) {
                    issues.record(BuildIssue(kind: .missingFile, file: pattern, message: "is required by table '\(table.name)' but no input matches it in \(options.inputs.joined(separator: ", "))"))
                }
            }
            if issues.hasErrors { throw .invalidInput(issues) }
            return
        }
        for table in schema.tables where !table.optional && !GTFSChecks.mayBeAbsent(table, schema: schema, inputs: inputs) {
            if let name = table.file, inputs.file(named: name) == nil {
                issues.record(BuildIssue(kind: .missingFile, file: name, message: "is required by table '\(table.name)' but is not in \(options.inputs.joined(separator: ", "))"))
            }
        }
        if issues.hasErrors { throw .invalidInput(issues) }
    }

    /// A digest of everything the content depends on: the tool, the schema, the inputs and,
    /// with `--previous`, the previous seed's version (its ids). It changes exactly when the
    /// seed's content can change.
    static func defaultSeedVersion(schema: Schema, inputs: [InputRecord], previous: String? = nil) -> String {
        var text = "seedgen \(toolVersion)\nschema \(schema.canonicalDescription)\n"
        for input in inputs.sorted(by: { $0.name < $1.name }) { text += "input \(input.name) \(input.sha256)\n" }
        if let previous { text += "previous \(previous)\n" }
        return String(SHA256.hex(of: Array(text.utf8)).prefix(16))
    }
}

extension Schema {
    /// The schema's meaning as text, independent of comments and layout in its file.
    var canonicalDescription: String {
        let namespaceText = namespaces.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        let entitiesText = entities == .xml ? "" : " entities=\(entities.rawValue)" // read differently: another seed
        return "\(name) \(schemaVersion) \(format.rawValue) [\(namespaceText)]\(entitiesText) \(String(reflecting: tables))"
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
