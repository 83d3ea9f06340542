import SeedSQLite

/// The GTFS checks run again over a built seed's tables (`seedgen report` without
/// `--notices`): the rules of `GTFSChecks`, over the rows the seed stores, each finding placed
/// by its table and the row's key (`SeedTablePlaces`), since a seed keeps no lines. In a region
/// seed they run feed by feed, as the build ran them.
///
/// What the loaders find in the files themselves (CSV syntax and repairs, row lengths,
/// encodings, unknown columns and files, values that do not convert, rows left out) cannot be
/// found again: a seed keeps typed rows, not the files (`sourceCodes`).
package enum SeedNotices {
    /// What the checks found in one feed of the seed.
    package struct Feed: Sendable {
        /// The feed's name in a region seed; nil for a seed of one feed.
        package var name: String?
        /// The notices as the issue log groups them: each group's count and first examples.
        package var groups: [IssueLog.Group]
    }

    /// The codes of what a build finds while reading the files, which a seed does not keep:
    /// never recomputed. (`foreign_key_violation` is both: a reference the loader resolved is
    /// not checked again, the GTFS ids the schema keeps as text are.)
    package static let sourceCodes: [String] = [
        NoticeCode.csvParsingFailed, NoticeCode.invalidRowLength, NoticeCode.duplicatedColumn,
        NoticeCode.emptyColumnName, NoticeCode.emptyFile, NoticeCode.missingRequiredFile,
        NoticeCode.missingRequiredColumn, NoticeCode.missingRequiredField, NoticeCode.unknownColumn,
        NoticeCode.unknownFile, NoticeCode.duplicateKey, NoticeCode.invalidInteger, NoticeCode.invalidFloat,
        NoticeCode.invalidDate, NoticeCode.invalidTime, NoticeCode.invalidCharacter, NoticeCode.repairedCSVSyntax,
        NoticeCode.utf16Encoding, NoticeCode.invalidValue, NoticeCode.rowLeftOut, NoticeCode.fileLeftOut,
        NoticeCode.derivedRows, NoticeCode.newLineInValue, NoticeCode.invalidInputFilesInSubfolder,
        NoticeCode.malformedJSON, NoticeCode.unsupportedGeoJSONType, NoticeCode.unsupportedFeatureType,
        NoticeCode.invalidGeometry
    ].sorted()

    /// Whether the checks apply to a seed of `schema` (the transit schema).
    package static func apply(to schema: Schema) -> Bool { GTFSChecks.applies(to: schema) }

    /// Runs the checks over the seed open at `connection`, built with `schema` (the transit
    /// schema as written, not scoped by feed: a region seed, one with a `feeds` table, is read
    /// feed by feed), taking `today` (`YYYY-MM-DD`) as today; each group keeps `examples` notices.
    /// Temporary views are made and dropped on the connection (read-only will do).
    package static func recompute(
        connection: Connection, schema: Schema, today: String, examples: Int = 5
    ) throws -> [Feed] {
        guard GTFSChecks.applies(to: schema) else { return [] }
        var options = BuildOptions(inputs: [], output: "")
        options.today = today
        // The seed was written, so whatever a check finds was kept as written.
        options.allowDangling = true
        let inputs = try connection.rows("SELECT name FROM seedgen_inputs").map { CSVRowLocator.key($0[0]) }
        let region = try !connection.rows(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(Schema.feedsTable)]
        ).isEmpty
        func run(_ schema: Schema, files: Set<String>) throws -> [IssueLog.Group] {
            let issues = IssueLog(examplesPerGroup: examples)
            let places = SeedTablePlaces(connection: connection, schema: schema, files: files)
            try GTFSChecks(schema: schema, places: places, connection: connection, issues: issues, options: options)
                .run()
            return issues.groups
        }
        let checked = GTFSChecks.checkingKeys(of: schema)
        guard region else { return [Feed(name: nil, groups: try run(checked, files: Set(inputs.map(fileName))))] }
        let scoped = checked.scopedByFeed()
        let tables = scoped.tables.filter { $0.column(named: Schema.feedColumn) != nil }
        var found: [Feed] = []
        for row in try connection.rows("SELECT id, name FROM \(quoted(Schema.feedsTable)) ORDER BY id") {
            guard case .integer(let id) = row[0] else { continue }
            let name = CSVRowLocator.key(row[1])
            let files = Set(
                inputs.filter { $0.hasPrefix(name + "/") }.map { fileName(String($0.dropFirst(name.count))) })
            try GTFSCheckStage.readingFeed(id, of: tables, schema: scoped, connection: connection) {
                found.append(Feed(name: name, groups: try run(scoped, files: files)))
            }
        }
        return found
    }

    /// The checks over a seed, running on a thread of their own (`start`): a report draws its
    /// other sections meanwhile, on the other core.
    package final class Pending: Sendable {
        private let job: BackgroundJob<Result<[Feed], any Error>>

        fileprivate init(_ job: BackgroundJob<Result<[Feed], any Error>>) { self.job = job }

        /// Waits for the checks to end: what `recompute` gives, or the error it threw.
        package func wait() throws -> [Feed] { try job.wait().get() }
    }

    /// Starts `recompute` over the seed database at `path`, through a read-only connection of
    /// its own, on another thread.
    package static func start(database path: String, schema: Schema, today: String, examples: Int = 5) -> Pending {
        Pending(
            BackgroundJob { () throws(SQLiteError) in
                let connection = try Connection(path: Connection.uri(path, immutable: true), mode: .readOnly)
                return Result {
                    try recompute(connection: connection, schema: schema, today: today, examples: examples)
                }
            })
    }

    /// The file name of an input's name (`stops.txt` of `gtfs/stops.txt`), in lower case.
    private static func fileName(_ name: String) -> String {
        String(name.split(separator: "/").last ?? Substring(name)).lowercased()
    }
}
