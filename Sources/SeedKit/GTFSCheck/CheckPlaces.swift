import SeedSQLite

/// A row a check found again to place what it found: where it is (a line of the input file,
/// or in a built seed the row's key) and, per shown field (by source name), where its value
/// begins on the line and the value.
struct PlacedRow {
    /// The 1-based line of the input file; nil for a row of a built seed.
    var line: Int?
    /// A built seed's row by its key (`stop_id 'S1'`); nil for a line of an input file.
    var key: String?
    /// Per shown field: the column where its value begins (nil in a seed) and the value.
    var fields: [String: (column: Int?, text: String)]
}

extension PlacedRow {
    /// The issue a rule records at this row: of `kind`, in `file` (the table's source), about
    /// `field` (placed at the column where the row shows its value) and `value`, saying
    /// `message`, with notice `code`.
    func issue(
        _ kind: BuildIssue.Kind, file: String, field: String, value: String?, message: String, code: String?
    ) -> BuildIssue {
        BuildIssue(
            kind: kind, file: file, line: line, row: key, column: fields[field]?.column, field: field, value: value,
            message: message, code: code)
    }
}

/// Where the GTFS checks find each table's source and place what they find in it: the input
/// files of a build (`InputFilePlaces`: file and line), or the tables of a built seed
/// (`SeedTablePlaces`: table and the row's key), so that one set of rules serves both.
protocol CheckPlaces {
    /// What notices about table `table` name as their place (the file as given, or the table);
    /// nil when the feed has no file for it.
    func source(of table: String) -> String?

    /// Calls `found` for every row of `table` whose values of `fields` (source names) are one of
    /// `keys`, with the key it matched. Values match as their columns store them (`01` and `1`
    /// are the same stop_sequence), as `CSVRowLocator.key` gives them for a stored value.
    func locate(
        _ table: String, matching fields: [String], keys: Set<[String]>, showing shown: [String],
        found: (_ key: [String], _ row: PlacedRow) throws -> Void
    ) throws

    /// The columns of `table`'s source as its header names them; nil when not known (a built
    /// seed keeps no header) or the feed has no file for it.
    func header(of table: String) throws -> [String]?
}

extension CheckPlaces {
    func header(of table: String) throws -> [String]? { nil }
}

/// The places of a build: each table's file among the feed's inputs, read again to find its
/// rows' lines (`CSVRowLocator`).
struct InputFilePlaces: CheckPlaces {
    let schema: Schema
    let inputs: InputSet
    let limits: InputLimits

    func file(of table: String) -> InputFile? {
        schema.table(named: table)?.file.flatMap { inputs.file(named: $0) }
    }

    func source(of table: String) -> String? { file(of: table)?.displayPath }

    func header(of table: String) throws -> [String]? {
        guard let file = file(of: table) else { return nil }
        let reader = CSVReader(
            source: TextDecodingSource(try file.open()), file: file.displayPath, maximumRecordBytes: limits.recordBytes)
        guard try reader.next() else { return [] }
        return (0..<reader.fieldCount).map { reader.string($0).trimmingASCIISpaces() }
    }

    func locate(
        _ table: String, matching fields: [String], keys: Set<[String]>, showing shown: [String],
        found: (_ key: [String], _ row: PlacedRow) throws -> Void
    ) throws {
        guard let file = file(of: table), let definition = schema.table(named: table) else { return }
        try CSVRowLocator(file: file, table: definition, limits: limits).locate(
            matching: fields, keys: keys, showing: shown
        ) { key, row in
            try found(key, PlacedRow(line: row.line, key: nil, fields: row.fields.mapValues { ($0.column, $0.text) }))
        }
    }
}
