import SeedSQLite

/// Streams one CSV file into one table through a `TableLoader`.
struct CSVImporter {
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
            let fieldOfColumn = try mapColumns(
                header: header, columns: headerColumns, line: reader.line, leftOut: &leftOut)
            guard let fieldOfColumn else {
                // A file left out (--lenient) counts its records as rejected, as rows left out do.
                if leftOut { while try reader.next() { records += 1 } }
                return InputRecord(
                    name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: 0, rejected: records)
            }
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
            defer { loader.valuePlace = nil }
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
            var repairedText: [Int: [UInt8]] = [:]
            while try reader.next() {
                records += 1
                if !reader.repairs.isEmpty { reportRepairs(reader) }
                if !repairedText.isEmpty { repairedText.removeAll() }
                if !InvalidText.isPlainASCII(reader.recordBytes) {
                    repairedText = repairText(reader, header: header, storesText: storesText)
                }
                if reader.fieldCount != header.count && !extraFieldsAreEmpty(reader, header.count)
                    && !(byPosition && reader.fieldCount < header.count)
                { // a file the schema does not know: missing fields are NULL
                    if reader.fieldCount > header.count || loader.context.strict {
                        loader.beginRow(line: reader.line)
                        // A file the schema does not read promises no shape: its bad rows never fail the build.
                        issues.record(
                            fieldCountIssue(reader, header: header, leftOut: loader.context.lenient || byPosition))
                        continue
                    }
                    issues.record(shortRowRepair(reader, header: header))
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
                if let extrasIndex {
                    if let extras, extras.isEmpty == false, let json = extras.json(reader, repaired: repairedText) {
                        try json.withUnsafeBytes { try loader.set(extrasIndex, $0) }
                    } else {
                        try loader.set(extrasIndex, nil)
                    }
                }
                try loader.finishRow()
                if records & 0x3FFF == 0 { progress?.advanced(rows: loader.rowCount, bytes: source.bytesRead) }
            }
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
                    message: error.message))
        } catch {
            throw .seed(error) // the loader's: the writer failed
        }
        progress?.finished(file: file.name, rows: loader.rowCount)
        return InputRecord(
            name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: loader.rowCount,
            rejected: max(0, records - loader.rowCount))
    }

    /// Checks the stored fields of the current record for invalid UTF-8 and NUL bytes; returns
    /// the repaired bytes of each field that has them (U+FFFD in their place), each reported
    /// with its file, line and column: a warning, an error under `--strict`.
    private func repairText(_ reader: CSVReader, header: [String], storesText: [Bool]) -> [Int: [UInt8]] {
        var repaired: [Int: [UInt8]] = [:]
        for index in 0..<min(reader.fieldCount, storesText.count) where storesText[index] {
            let bytes = reader.field(index)
            guard !InvalidText.isPlainASCII(bytes) else { continue }
            let problems = InvalidText.problems(in: bytes)
            guard let first = problems.first else { continue }
            let fixed = InvalidText.repaired(bytes, problems)
            repaired[index] = fixed
            let place = reader.place(ofByte: first.offset, inField: index)
            let what =
                bytes[first.offset] == 0 ? "a NUL byte" : "bytes that are not UTF-8 (\(InvalidText.hex(bytes, first)))"
            let more =
                problems.count > 1 ? " (and \(problems.count - 1) more place\(problems.count == 2 ? "" : "s"))" : ""
            let replaced = problems.count > 1 || bytes[first.offset] != 0 ? "each stored as U+FFFD" : "stored as U+FFFD"
            loader.context.issues.record(
                BuildIssue(
                    kind: .misleading(strict: loader.context.strict), file: file.displayPath, line: place.line,
                    column: place.column,
                    field: header[index], value: String(decoding: fixed, as: UTF8.self),
                    message: "has \(what) here\(more); \(replaced)", code: NoticeCode.invalidCharacter))
        }
        return repaired
    }

    /// The rows left out as copies of an earlier row of the file: one issue for them all.
    private func reportCopies() throws(SQLiteError) {
        guard let copies = try loader.copiesLeftOut() else { return }
        loader.context.issues.record(copies.issue(strict: loader.context.strict))
    }

    /// A UTF-16 file is read as UTF-8 text: a warning (GTFS files must be UTF-8), an error under `--strict`.
    private func reportUTF16(_ decoder: TextDecodingSource) {
        let order =
            decoder.encoding == .utf16LittleEndian
            ? "little-endian, byte-order mark FF FE" : "big-endian, byte-order mark FE FF"
        loader.context.issues.record(
            BuildIssue(
                kind: loader.context.strict ? .malformedRow : .repairedSyntax, file: file.displayPath, line: 1,
                column: 1,
                message: "is UTF-16 (\(order)); read as such and stored as UTF-8"
                    + (loader.context.strict ? " (--strict: save it as UTF-8)" : ""),
                code: NoticeCode.utf16Encoding))
    }

    /// Hands the reader's syntax repairs to the issue log as warnings (grouped per file).
    private func reportRepairs(_ reader: CSVReader) {
        for repair in reader.repairs {
            loader.context.issues.record(
                BuildIssue(
                    kind: .repairedSyntax, file: repair.file, line: repair.line, column: repair.column,
                    value: repair.value, message: repair.message))
        }
        reader.repairs.removeAll()
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

    /// A record with too many fields names the first extra one; with too few (`--strict`), the
    /// place where the first missing one would begin and the header field it lacks.
    /// `leftOut`: the row is left out with a warning (`--lenient`, `extraFiles` tables) instead
    /// of failing the build.
    private func fieldCountIssue(_ reader: CSVReader, header: [String], leftOut: Bool) -> BuildIssue {
        let message =
            "has \(reader.fieldCount) field\(reader.fieldCount == 1 ? "" : "s"), the header has \(header.count)"
        let kind: BuildIssue.Kind = leftOut ? .rowLeftOut : .malformedRow
        let outcome = leftOut ? "; the row is left out" : ""
        if reader.fieldCount > header.count {
            let place = reader.place(ofField: header.count)
            return BuildIssue(
                kind: kind, file: file.displayPath, line: place.line, column: place.column,
                field: "field \(header.count + 1)", value: reader.string(header.count), message: message + outcome,
                code: NoticeCode.invalidRowLength)
        }
        let place = reader.place(afterRecord: ())
        return BuildIssue(
            kind: kind, file: file.displayPath, line: place.line, column: place.column,
            field: header[reader.fieldCount],
            value: recordText(reader),
            message: message + "; '\(header[reader.fieldCount])' is missing" + outcome
                + (loader.context.strict
                    ? " (--strict; without it the missing trailing fields are read as empty)" : ""),
            code: NoticeCode.invalidRowLength)
    }

    /// A record that leaves off trailing fields, as Python's csv module reads it: the missing
    /// fields are empty (a required one is then reported as missing, as any empty value is).
    /// One warning per row, grouped per file (no `field`, so that one file is one group).
    private func shortRowRepair(_ reader: CSVReader, header: [String]) -> BuildIssue {
        let place = reader.place(afterRecord: ())
        let missing = header[reader.fieldCount...]
        let names =
            missing.count > 3
            ? missing.prefix(2).joined(separator: ", ") + " and \(missing.count - 2) more"
            : missing.joined(separator: ", ")
        return BuildIssue(
            kind: .repairedSyntax, file: file.displayPath, line: place.line, column: place.column,
            value: recordText(reader),
            message:
                "has \(reader.fieldCount) field\(reader.fieldCount == 1 ? "" : "s"), the header has \(header.count): "
                    + """
                    the missing trailing field\(missing.count == 1 ? "" : "s") (\(names)) \
                    \(missing.count == 1 ? "is" : "are") read as empty
                    """,
            code: NoticeCode.invalidRowLength)
    }

    /// The current record as it reads, for messages: its fields joined by commas.
    private func recordText(_ reader: CSVReader) -> String {
        (0..<reader.fieldCount).map(reader.string).joined(separator: ",")
    }
    /// The field index standing for `$file`: the input file's name.
    static let fileField = -2
    /// The field index standing for `$feed`: the feed's id (`TableLoader.feedID`).
    static let feedField = -3

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
