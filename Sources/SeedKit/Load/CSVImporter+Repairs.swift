import SeedSQLite

/// What a CSV file's records need repaired or reported: invalid text, rows of another length, UTF-16.
extension CSVImporter {
    /// Checks the stored fields of the current record for invalid UTF-8 and NUL bytes; returns
    /// the repaired bytes of each field that has them (U+FFFD in their place), each reported
    /// with its file, line and column: a warning, an error under `--strict`.
    func repairText(_ reader: CSVReader, header: [String], storesText: [Bool]) -> [Int: [UInt8]] {
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

    /// A UTF-16 file is read as UTF-8 text: a warning (GTFS files must be UTF-8), an error under `--strict`.
    func reportUTF16(_ decoder: TextDecodingSource) {
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
    func reportRepairs(_ reader: CSVReader) {
        for repair in reader.repairs {
            loader.context.issues.record(
                BuildIssue(
                    kind: .repairedSyntax, file: repair.file, line: repair.line, column: repair.column,
                    value: repair.value, message: repair.message,
                    code: repair.code == NoticeCode.csvParsingFailed ? nil : repair.code))
        }
        reader.repairs.removeAll()
    }

    /// Each quoted value of the current record with spaces or tabs inside its quotes at either
    /// end, in a column that trims them (`Column.trim`): `leading_or_trailing_whitespaces`, a
    /// warning whatever the flags (the value is stored without them). The validator reports
    /// quoted values only: a CSV reader trims unquoted ones (so does this one, silently).
    func reportPaddedQuotes(_ reader: CSVReader, header: [String], fieldOfColumn: [Int]) {
        let columns = loader.table.columns
        for (column, field) in fieldOfColumn.enumerated()
        where field >= 0 && field < reader.fieldCount && field < header.count && columns[column].trim
            && reader.isQuoted(field)
        {
            let bytes = reader.field(field)
            guard ValueConverter.trim(bytes).count != bytes.count else { continue }
            let place = reader.place(ofField: field)
            loader.context.issues.record(
                BuildIssue(
                    kind: .bestPractice, file: file.displayPath, line: place.line, column: place.column,
                    field: header[field], value: String(decoding: bytes.prefix(200), as: UTF8.self),
                    message: "has spaces inside its quotes before or after its text: stored without them",
                    code: NoticeCode.leadingOrTrailingWhitespaces))
        }
    }

    /// Whether the current record is one unquoted field of only spaces or tabs (a line of
    /// spaces; a line with nothing on it is no record at all): `empty_row`.
    func isEmptyRow(_ reader: CSVReader) -> Bool {
        reader.fieldCount == 1 && !reader.isQuoted(0) && ValueConverter.trim(reader.field(0)).isEmpty
    }

    /// `empty_row`: a line of only spaces, left out, a warning whatever the flags (as the
    /// validator reads it; read as a row, its fields would all be empty).
    func emptyRowIssue(_ reader: CSVReader) -> BuildIssue {
        BuildIssue(
            kind: .bestPractice, file: file.displayPath, line: reader.line, column: 1,
            message: "has only spaces: left out (not read as a row of empty fields)", code: NoticeCode.emptyRow)
    }

    /// A record with too many fields names the first extra one; with too few (`--strict`), the
    /// place where the first missing one would begin and the header field it lacks.
    /// `leftOut`: the row is left out with a warning (`--lenient`, `extraFiles` tables) instead
    /// of failing the build.
    func fieldCountIssue(_ reader: CSVReader, header: [String], leftOut: Bool) -> BuildIssue {
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
    func shortRowRepair(_ reader: CSVReader, header: [String]) -> BuildIssue {
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
    func recordText(_ reader: CSVReader) -> String {
        (0..<reader.fieldCount).map(reader.string).joined(separator: ",")
    }

    func extraFieldsAreEmpty(_ reader: CSVReader, _ expected: Int) -> Bool {
        guard reader.fieldCount > expected else { return false }
        return (expected..<reader.fieldCount).allSatisfy { reader.field($0).isEmpty }
    }
}
