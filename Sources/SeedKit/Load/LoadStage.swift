import Foundation
import SeedSQLite

/// The first stage: streams every input into the scratch database through the schema, one
/// table at a time (CSV, GeoJSON) or file by file (XML), on the loaders' writer thread; then
/// checks what the mapping matched (custom schemas) and names the inputs nothing read.
struct LoadStage: BuildStage {
    func run(_ state: BuildState) throws {
        let schema = state.schema, inputs = state.inputs, options = state.options, issues = state.issues
        state.extraTables = schema.extraFiles ? try ExtraFiles(schema: schema, inputs: inputs).tables() : []
        let extraTables = state.extraTables
        var matchedColumns: [String: [Bool]] = [:]
        var findings = XMLLoadFindings()
        var loading: BuildContext?
        // While the rows stream in, the database belongs to the writer thread.
        do {
            state.context = try load(state, loading: &loading, matchedColumns: &matchedColumns, findings: &findings)
        } catch let error as SQLiteError where !error.isDiskFull {
            // SQLite refused one of seedgen's own statements: name the input it was storing.
            if let failure = loading?.writeFailure { throw failure.buildError }
            throw error
        }
        let readFiles = Set(state.records.map(\.name))
        // Built-in schemas cover a standard's optional parts (NeTEx stop places, TXC stop
        // points): a table or column one export leaves empty is not a mapping mistake.
        if !SchemaLocator.isBuiltIn(schema) {
            MappingCheck(schema: schema, inputs: inputs, files: inputs.files.filter { readFiles.contains($0.name) },
                         rows: Dictionary(state.rows, uniquingKeysWith: +), filtered: state.filtered, matchedColumns: matchedColumns,
                         strict: options.strict, issues: issues, findings: findings).run()
        }
        if issues.hasErrors { throw BuildError.invalidInput(issues) }
        for file in inputs.files where !readFiles.contains(file.name) && file.name != SchemaLocator.folderSchemaName
            && !extraTables.contains(where: { $0.file.name == file.name }) {
            issues.record(BuildIssue(kind: .unusedFile, file: file.displayPath, message: "is not read by any table of schema '\(schema.name)'"))
        }
    }

    /// Streams every input into the database on the writer thread; returns the build's
    /// context. `loading` is the context as soon as it exists, for a failure's place.
    private func load(_ state: BuildState, loading: inout BuildContext?, matchedColumns: inout [String: [Bool]],
                      findings: inout XMLLoadFindings) throws -> BuildContext {
        let schema = state.schema, inputs = state.inputs, options = state.options, issues = state.issues
        let progress = state.progress
        let extraTables = state.extraTables
        return try state.database.withWriteQueue { queue in
            let context = BuildContext(writeQueue: queue, schema: schema, issues: issues,
                                       allowDangling: options.allowDangling || options.lenient, cacheSize: options.cacheSize,
                                       limits: options.limits)
            loading = context
            context.lenient = options.lenient
            context.strict = options.strict
            context.idMaps = IDMaps(schema: schema, capacity: options.idMapCapacity)
            // XML rows may repeat a key (copies merged by the writer): their ids are the stable-ids stage's.
            if let previous = state.previous, schema.format == .csv { context.previousIDs = try PreviousIDs(previous: previous) }
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
                        try queue.sync { connection throws(SQLiteError) in try context.indexes.createBeforeLoading(table, on: connection) }
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
                        state.records.append(record)
                        try queue.execute("COMMIT")
                        count = loader.rowCount
                        if record.rejected > 0 { state.rejected[table.name] = record.rejected }
                        state.timer.mark("load \(table.name)")
                    }
                    state.rows.append((table.name, count))
                    if issues.hasErrors { throw BuildError.invalidInput(issues) }
                }
            case .xml:
                let result = try XMLLoad(schema: schema, inputs: inputs, context: context, progress: progress).run()
                state.records = result.inputs
                state.rows = result.rows
                state.filtered = result.filtered
                matchedColumns = result.matchedColumns
                state.rejected = result.rejected
                findings = result.findings
                state.timer.mark("load XML")
            }
            return context
        }
    }
}
