import SeedSQLite

/// Streams one CSV file into one table through a `TableLoader`.
struct CSVImporter {
    /// How each record of a file becomes a row: the field of each column, what is stored as text.
    private struct RowPlan {
        let header: [String]
        let fieldOfColumn: [Int]
        let columnCount: Int
        let extrasIndex: Int?
        let extras: ExtrasObject?
        let placed: [Int]
        let storesText: [Bool]
        let fileName: [UInt8]
    }

    let file: InputFile
    let loader: TableLoader
    let progress: BuildProgress?
    /// Column i reads field i of the header (tables made from unread files, `extraFiles`).
    var byPosition = false

    init(file: InputFile, loader: TableLoader, progress: BuildProgress?, byPosition: Bool = false) {
        self.file = file
        self.loader = loader
        self.progress = progress
        self.byPosition = byPosition
    }

    /// Reads every record; returns the input's record for the seed's metadata.
    func run() throws(BuildError) -> InputRecord {
        let source: MeasuredByteSource
        do { source = MeasuredByteSource(try file.open()) } catch { throw .input(error) }
        let decoder = TextDecodingSource(source)
        let reader = CSVReader(
            source: decoder, file: file.displayPath, maximumRecordBytes: loader.context.limits.recordBytes)
        reader.strict = loader.context.strict
        let issues = loader.context.issues
        let table = loader.table
        progress?.started(file: file.name, table: table.name, bytes: file.size)

        var records = 0
        do {
            defer { reportRepairs(reader) }
            guard try reader.next() else {
                issues.record(
                    BuildIssue(
                        kind: .malformedRow, file: file.displayPath, line: 1,
                        message: "the file is empty: a header row is required"))
                return InputRecord(name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: 0)
            }
            if decoder.isUTF16 { reportUTF16(decoder) }
            let header = (0..<reader.fieldCount).map { reader.string($0).trimmingASCIISpaces() }
            let headerColumns = (0..<reader.fieldCount).map { reader.place(ofField: $0).column }
            var leftOut = false
            guard let plan = try rowPlan(header: header, columns: headerColumns, reader: reader, leftOut: &leftOut)
            else {
                // A file left out (--lenient) counts its records as rejected, as rows left out do.
                if leftOut { while try reader.next() { records += 1 } }
                return InputRecord(
                    name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: 0, rejected: records)
            }
            defer { loader.valuePlace = nil }
            try readRows(reader, plan: plan, source: source, records: &records)
            try loader.finish()
            try reportCopies()
        } catch let error as CSVSyntaxError where byPosition && !loader.context.strict {
            // Not CSV after all (a read-me beside the feed): keep the rows read so far, warn.
            issues.record(
                BuildIssue(
                    kind: .rowLeftOut, file: error.file, line: error.line, column: error.column,
                    message: error.message
                        + "; this file is read by no table of the schema, so the rest of it is left out"))
            do { try loader.finish() } catch { throw .seed(error) }
        } catch let error as CSVSyntaxError {
            issues.record(
                BuildIssue(
                    kind: .malformedRow, file: error.file, line: error.line, column: error.column,
                    message: error.message, code: error.code == NoticeCode.csvParsingFailed ? nil : error.code))
        } catch {
            throw .seed(error) // the loader's: the writer failed
        }
        progress?.finished(file: file.name, rows: loader.rowCount)
        return InputRecord(
            name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: loader.rowCount,
            rejected: max(0, records - loader.rowCount))
    }

    /// Where each column's value comes from and which fields store text, from the header; nil when
    /// the file is left out.
    private func rowPlan(
        header: [String], columns headerColumns: [Int], reader: CSVReader, leftOut: inout Bool
    ) throws -> RowPlan? {
        let table = loader.table
        guard
            let fieldOfColumn = try mapColumns(
                header: header, columns: headerColumns, line: reader.line, leftOut: &leftOut)
        else { return nil }
        let extrasIndex = table.extrasIndex
        let columnCount = extrasIndex ?? table.columns.count
        let used = Set(fieldOfColumn)
        let extras = extrasIndex == nil ? nil : ExtrasObject(names: header, declared: used)
        loader.fields.keepsEveryField = header.indices.allSatisfy {
            used.contains($0) || (extras != nil && !header[$0].isEmpty)
        }
        let locator = CSVRowLocator(file: file, table: table, limits: loader.context.limits)
        loader.fields.firstLine = { fields, values, before in
            locator.firstLine(matching: fields, values: values, before: before)
        }
        // The columns this file can fill (`$file` always); the table is created up to the last of them.
        var supplied = Set(table.columns.indices.filter { fieldOfColumn[$0] != -1 }.map { table.columns[$0].name })
        if let extras, !extras.isEmpty { supplied.insert(Column.extrasName) }
        try loader.createTable(supplied: supplied)
        try loader.createIndexesOfAbsentReferences(
            absent: Set(table.columns.indices.filter { fieldOfColumn[$0] == -1 }.map { table.columns[$0].name }))
        // Messages give the character column where a value's field begins: computed
        // only for a reported value, and for the key field of each row (duplicate keys
        // are found later, on the writer thread).
        loader.valuePlace = { index in
            reader.place(ofField: fieldOfColumn[index] >= 0 ? fieldOfColumn[index] : Int.max)
        }
        loader.fields.columnsPerValue = true
        // The columns the writer may report on: the key's first and each reference's.
        let placedNames = Set(
            table.key.filter { $0 != Schema.feedColumn }.prefix(1)
                + table.references.flatMap { $0.from.filter { $0 != Schema.feedColumn }.prefix(1) })
        let placed = table.columns.indices.filter {
            placedNames.contains(table.columns[$0].name) && fieldOfColumn[$0] >= 0
        }
        let fileName = Array(file.name.utf8)
        // The fields whose text is stored as it is (text columns, extras), checked for bytes
        // that must not be; the others are converted, and bad bytes fail their conversion.
        var storesText = Array(repeating: false, count: header.count)
        for (index, field) in fieldOfColumn.enumerated() where field >= 0 && table.columns[index].type == .text {
            storesText[field] = true
        }
        if extras != nil {
            for index in header.indices where !used.contains(index) && !header[index].isEmpty {
                storesText[index] = true
            }
        }
        return RowPlan(
            header: header, fieldOfColumn: fieldOfColumn, columnCount: columnCount, extrasIndex: extrasIndex,
            extras: extras, placed: placed, storesText: storesText, fileName: fileName)
    }

    /// Each record after the header, as a row.
    private func readRows(
        _ reader: CSVReader, plan: RowPlan, source: MeasuredByteSource, records: inout Int
    ) throws {
        let issues = loader.context.issues
        var repairedText: [Int: [UInt8]] = [:]
        while try reader.next() {
            records += 1
            if !reader.repairs.isEmpty { reportRepairs(reader) }
            if reader.paddedQuote { reportPaddedQuotes(reader, header: plan.header, fieldOfColumn: plan.fieldOfColumn) }
            if !repairedText.isEmpty { repairedText.removeAll() }
            if !InvalidText.isPlainASCII(reader.recordBytes) {
                repairedText = repairText(reader, header: plan.header, storesText: plan.storesText)
            }
            if reader.fieldCount != plan.header.count && !extraFieldsAreEmpty(reader, plan.header.count)
                && !(byPosition && reader.fieldCount < plan.header.count)
            { // a file the schema does not know: missing fields are NULL
                if isEmptyRow(reader) {
                    issues.record(emptyRowIssue(reader))
                    continue
                }
                if reader.fieldCount > plan.header.count || loader.context.strict {
                    loader.beginRow(line: reader.line)
                    // A file the schema does not read promises no shape: its bad rows never fail the build.
                    issues.record(
                        fieldCountIssue(reader, header: plan.header, leftOut: loader.context.lenient || byPosition))
                    continue
                }
                issues.record(shortRowRepair(reader, header: plan.header))
            }
            loader.beginRow(line: reader.line)
            for index in plan.placed where plan.fieldOfColumn[index] < reader.fieldCount {
                loader.setValueColumn(index, reader.place(ofField: plan.fieldOfColumn[index]).column)
            }
            try setValues(reader, plan: plan, repairedText: repairedText)
            try loader.finishRow()
            if records & 0x3FFF == 0 { progress?.advanced(rows: loader.rowCount, bytes: source.bytesRead) }
        }
    }

    /// The current record's values, column by column.
    @inline(__always)
    private func setValues(_ reader: CSVReader, plan: RowPlan, repairedText: [Int: [UInt8]]) throws {
        for index in 0..<plan.columnCount {
            let field = plan.fieldOfColumn[index]
            if field == Self.fileField {
                try plan.fileName.withUnsafeBytes { try loader.set(index, $0) }
                continue
            }
            if field == Self.feedField {
                try loader.setFeed(index)
                continue
            }
            if !repairedText.isEmpty, let repaired = repairedText[field] {
                try repaired.withUnsafeBytes { try loader.set(index, $0) }
                continue
            }
            try loader.set(index, field >= 0 && field < reader.fieldCount ? reader.field(field) : nil)
        }
        if let extrasIndex = plan.extrasIndex {
            if let extras = plan.extras, extras.isEmpty == false, let json = extras.json(reader, repaired: repairedText)
            {
                try json.withUnsafeBytes { try loader.set(extrasIndex, $0) }
            } else {
                try loader.set(extrasIndex, nil)
            }
        }
    }

    /// The rows left out as copies of an earlier row of the file: one issue for them all.
    private func reportCopies() throws(SQLiteError) {
        guard let copies = try loader.copiesLeftOut() else { return }
        loader.context.issues.record(copies.issue(strict: loader.context.strict))
    }

    /// Per column, the index of the header field it reads (-1: none). Reports unknown
    /// header fields (warnings) and a header the table cannot be read with: a required field
    /// missing, a field named twice (errors, then nil; under `--lenient` an optional file is
    /// left out instead, a warning, with `leftOut` set).
    /// `columns`: where each header field begins (1-based character column).
    private func mapColumns(header: [String], columns: [Int], line: Int, leftOut: inout Bool) throws -> [Int]? {
        let issues = loader.context.issues
        let table = loader.table
        var used = Set<Int>()
        var mapping: [Int] = []
        var problems: [BuildIssue] = []
        // By position: field i fills the i-th column that reads a field (not `feed_ref`).
        let positionOffset = table.columns.first?.source == [Schema.feedSource] ? 1 : 0
        for (index, column) in table.columns.enumerated() {
            if column.source == [Schema.feedSource] {
                mapping.append(Self.feedField)
                loader.sourceNames[index] = Schema.feedSource
                continue
            }
            let position = index - positionOffset
            let field =
                byPosition
                ? (position < header.count ? position : -1)
                : column.source.lazy.compactMap { header.firstIndex(of: $0) }.first
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
                let names = column.source.map { "'\($0)'" }.joined(separator: " or ")
                problems.append(
                    BuildIssue(
                        kind: .missingColumn, file: file.displayPath, line: line, field: column.name,
                        message: "the header has no \(names), which is required"))
            }
        }
        if !byPosition {
            var first: [String: Int] = [:]
            for (index, name) in header.enumerated() where !name.isEmpty {
                guard let earlier = first[name] else { first[name] = index; continue }
                problems.append(
                    BuildIssue(
                        kind: .malformedRow, file: file.displayPath, line: line, column: columns[index], field: name,
                        message:
                            """
                            is a column of the header twice (fields \(earlier + 1) and \(index + 1)): which one \
                            holds the values is unknown
                            """,
                        code: NoticeCode.duplicatedColumn))
            }
        }
        if !problems.isEmpty {
            leftOut = loader.context.lenient && table.optional && !byPosition
            for var problem in problems {
                if leftOut {
                    problem.code = problem.noticeCode
                    problem.kind = .fileLeftOut
                    problem.message += "; the file is left out (--lenient: it is optional)"
                }
                issues.record(problem)
            }
            return nil
        }
        for (index, name) in header.enumerated() where !used.contains(index) {
            if name.isEmpty && !byPosition {
                issues.record(
                    BuildIssue(
                        kind: .unknownColumn, file: file.displayPath, line: line, column: columns[index],
                        field: "field \(index + 1)",
                        message: "has no name in the header; its values are not stored",
                        code: NoticeCode.emptyColumnName))
            } else if table.extrasIndex == nil {
                issues.record(
                    BuildIssue(
                        kind: .unknownColumn, file: file.displayPath, line: line, column: columns[index], field: name,
                        message: "is not in the schema; its values are not stored"))
            }
        }
        return mapping
    }

    /// The field index standing for `$file`: the input file's name.
    static let fileField = -2
    /// The field index standing for `$feed`: the feed's id (`TableLoader.feedID`).
    static let feedField = -3

}

extension String {
    func trimmingASCIISpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
