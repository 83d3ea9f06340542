import SeedSQLite

/// Streams one CSV file into one table through a `TableLoader`.
struct CSVImporter {
    let file: InputFile
    let loader: TableLoader
    let progress: BuildProgress?

    /// Reads every record; returns the input's record for the seed's metadata.
    func run() throws(BuildError) -> InputRecord {
        let source: MeasuredByteSource
        do { source = MeasuredByteSource(try file.open()) } catch { throw .input(error) }
        let reader = CSVReader(source: source, file: file.displayPath, maximumRecordBytes: loader.context.limits.recordBytes)
        let issues = loader.context.issues
        let table = loader.table
        progress?.started(file: file.name, table: table.name, bytes: file.size)

        do {
            guard try reader.next() else {
                issues.record(BuildIssue(kind: .malformedRow, file: file.displayPath, line: 1, message: "the file is empty: a header row is required"))
                return InputRecord(name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: 0)
            }
            let header = (0..<reader.fieldCount).map { reader.string($0).trimmingASCIISpaces() }
            let fieldOfColumn = try mapColumns(header: header, line: reader.line)
            guard let fieldOfColumn else {
                return InputRecord(name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: 0)
            }
            let columnCount = table.columns.count
            // Messages give the character column where a value's field begins: computed
            // only for a reported value, and for the key field of each row (duplicate keys
            // are found later, on the writer thread).
            loader.valuePlace = { index in reader.place(ofField: fieldOfColumn[index] >= 0 ? fieldOfColumn[index] : Int.max) }
            defer { loader.valuePlace = nil }
            loader.fields.columnsPerValue = true
            // The columns the writer may report on: the key's first and each reference's.
            let placedNames = Set(table.key.prefix(1) + table.references.flatMap { $0.from.prefix(1) })
            let placed = table.columns.indices.filter { placedNames.contains(table.columns[$0].name) && fieldOfColumn[$0] >= 0 }
            let fileName = Array(file.name.utf8)
            var records = 0
            while try reader.next() {
                records += 1
                if reader.fieldCount != header.count && !extraFieldsAreEmpty(reader, header.count) {
                    loader.beginRow(line: reader.line)
                    issues.record(fieldCountIssue(reader, header: header))
                    continue
                }
                loader.beginRow(line: reader.line)
                for index in placed where fieldOfColumn[index] < reader.fieldCount {
                    loader.setValueColumn(index, reader.place(ofField: fieldOfColumn[index]).column)
                }
                for index in 0..<columnCount {
                    let field = fieldOfColumn[index]
                    if field == Self.fileField {
                        try fileName.withUnsafeBytes { try loader.set(index, $0) }
                        continue
                    }
                    try loader.set(index, field >= 0 && field < reader.fieldCount ? reader.field(field) : nil)
                }
                try loader.finishRow()
                if records & 0x3FFF == 0 { progress?.advanced(rows: loader.rowCount, bytes: source.bytesRead) }
            }
            try loader.finish()
        } catch let error as CSVSyntaxError {
            issues.record(BuildIssue(kind: .malformedRow, file: error.file, line: error.line, column: error.column, message: error.message))
        } catch let error as SQLiteError {
            throw .output(path: "the seed", message: error.description)
        } catch {
            throw .output(path: "the seed", message: "\(error)")
        }
        progress?.finished(file: file.name, rows: loader.rowCount)
        return InputRecord(name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: loader.rowCount)
    }

    /// Per column, the index of the header field it reads (-1: none). Reports unknown
    /// header fields (warnings) and missing required ones (errors, then nil).
    private func mapColumns(header: [String], line: Int) throws -> [Int]? {
        let issues = loader.context.issues
        var used = Set<Int>()
        var mapping: [Int] = []
        var missing = false
        for (index, column) in loader.table.columns.enumerated() {
            let field = column.source.lazy.compactMap { header.firstIndex(of: $0) }.first
                ?? (column.source.contains(XMLMapping.fileSource) ? Self.fileField : -1)
            mapping.append(field)
            if field == Self.fileField {
                loader.sourceNames[index] = XMLMapping.fileSource
                continue
            }
            if field >= 0 {
                used.insert(field)
                loader.sourceNames[index] = header[field]
            } else if column.required && column.defaultValue == nil {
                missing = true
                let names = column.source.map { "'\($0)'" }.joined(separator: " or ")
                issues.record(BuildIssue(kind: .missingColumn, file: file.displayPath, line: line, field: column.name,
                                         message: "the header has no \(names), which is required"))
            }
        }
        for (index, name) in header.enumerated() where !used.contains(index) {
            issues.record(BuildIssue(kind: .unknownColumn, file: file.displayPath, line: line, column: index + 1, field: name,
                                     message: "is not in the schema; its values are not stored"))
        }
        return missing ? nil : mapping
    }

    /// A record with too many fields names the first extra one; with too few, the place
    /// where the first missing one would begin and the header field it lacks.
    private func fieldCountIssue(_ reader: CSVReader, header: [String]) -> BuildIssue {
        let message = "has \(reader.fieldCount) field\(reader.fieldCount == 1 ? "" : "s"), the header has \(header.count)"
        if reader.fieldCount > header.count {
            let place = reader.place(ofField: header.count)
            return BuildIssue(kind: .malformedRow, file: file.displayPath, line: place.line, column: place.column,
                              field: "field \(header.count + 1)", value: reader.string(header.count), message: message)
        }
        let place = reader.place(afterRecord: ())
        let record = (0..<reader.fieldCount).map(reader.string).joined(separator: ",")
        return BuildIssue(kind: .malformedRow, file: file.displayPath, line: place.line, column: place.column,
                          field: header[reader.fieldCount], value: record, message: message + "; '\(header[reader.fieldCount])' is missing")
    }
    /// The field index standing for `$file`: the input file's name.
    static let fileField = -2

    private func extraFieldsAreEmpty(_ reader: CSVReader, _ expected: Int) -> Bool {
        guard reader.fieldCount > expected else { return false }
        return (expected..<reader.fieldCount).allSatisfy { reader.field($0).isEmpty }
    }
}

extension String {
    func trimmingASCIISpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
