import Foundation
import SeedKit

/// The notices of a build (`seedgen build --notices FILE.json`), grouped by code and severity
/// as MobilityData's validator report groups them: each code with its count, what it means and
/// its first rows.
enum NoticesSection {
    /// One notice of the report.
    struct Notice: Decodable {
        var code: String
        var severity: String
        var file: String?
        var feed: String?
        var line: Int?
        var column: Int?
        var field: String?
        var value: String?
        var message: String?
    }

    struct Report: Decodable {
        var built: Bool?
        var errors: Int?
        var warnings: Int?
        var notices: [Notice]
    }

    static let samples = 5

    static func html(path: String?) throws(ShipError) -> String {
        guard let path else {
            let note = HTMLText.note(
                """
                No notices file was given (seedgen report --notices FILE.json, or seedgen build --report, \
                which passes the build's own): a seed does not keep its build's notices.
                """)
            return HTMLText.section(id: "notices", title: "Notices", body: note)
        }
        let report: Report
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            report = try JSONDecoder().decode(Report.self, from: data)
        } catch {
            throw ShipError(
                code: .invalidFile, path: path, message: "cannot read the notices report: \(error)", cause: error)
        }
        return HTMLText.section(id: "notices", title: "Notices", body: body(report, path: path))
    }

    static func body(_ report: Report, path: String) -> String {
        var groups: [String: [Notice]] = [:]
        for notice in report.notices { groups[notice.severity + "\u{1F}" + notice.code, default: []].append(notice) }
        let order = ["ERROR": 0, "WARNING": 1, "INFO": 2]
        let keys = groups.keys.sorted { left, right in
            let l = groups[left]![0], r = groups[right]![0]
            return (order[l.severity] ?? 3, l.code) < (order[r.severity] ?? 3, r.code)
        }
        let errors = report.errors ?? report.notices.filter { $0.severity == "ERROR" }.count
        let warnings = report.warnings ?? report.notices.filter { $0.severity == "WARNING" }.count
        var html = HTMLText.note(
            """
            \(URL(fileURLWithPath: path).lastPathComponent): \(HTMLText.count(errors)) errors, \
            \(HTMLText.count(warnings)) warnings in \(keys.count) codes\
            \(report.built == false ? "; the build failed" : "").
            """)
        guard !keys.isEmpty else { return html + HTMLText.note("No notices: nothing to report.") }
        let summary = keys.map { key in
            let notice = groups[key]![0]
            return [notice.severity, notice.code, HTMLText.count(groups[key]!.count), meaning(notice.code)]
        }
        html += HTMLText.table(
            caption: "Notices by severity and code", headers: ["severity", "code", "count", "what it means"],
            rows: summary, numeric: [2])
        for key in keys {
            let notices = groups[key]!
            let first = notices[0]
            html +=
                """
                <details class="notice \(first.severity.lowercased())">
                <summary>\(HTMLText.escape(first.severity)) \(HTMLText.escape(first.code)): \
                \(HTMLText.count(notices.count))</summary>

                """
            let rows = notices.prefix(samples).map { notice in
                [
                    (notice.feed.map { $0 + ": " } ?? "") + (notice.file ?? ""), notice.line.map(String.init) ?? "",
                    notice.field ?? "", notice.value ?? "", notice.message ?? ""
                ]
            }
            html += HTMLText.table(
                caption: "The first \(rows.count) of \(notices.count) \(first.code) notices",
                headers: ["file", "line", "field", "value", "message"], rows: rows, numeric: [1])
            html += "</details>\n"
        }
        return html
    }

    /// What a code means, in a sentence (NoticeCode's documentation).
    static func meaning(_ code: String) -> String {
        meanings[code] ?? "See Documentation/gtfs.md."
    }

    private static let meanings: [String: String] = [
        NoticeCode.csvParsingFailed: "A record that is not valid CSV.",
        NoticeCode.invalidRowLength: "A record with more or fewer fields than the header.",
        NoticeCode.duplicatedColumn: "A column named twice in a header.",
        NoticeCode.emptyColumnName: "A header field with no name.",
        NoticeCode.emptyFile: "A file of 0 bytes.",
        NoticeCode.missingRequiredFile: "A file the schema requires is absent.",
        NoticeCode.missingRequiredColumn: "A header without a column the schema requires.",
        NoticeCode.missingRequiredField: "An empty value where the schema requires one.",
        NoticeCode.unknownColumn: "A column the schema does not read.",
        NoticeCode.unknownFile: "A file no table reads.",
        NoticeCode.duplicateKey: "Two rows with the same key.",
        NoticeCode.foreignKeyViolation: "A reference to a row that does not exist.",
        NoticeCode.invalidInteger: "A value that is not an integer.",
        NoticeCode.invalidFloat: "A value that is not a number.",
        NoticeCode.invalidDate: "A value that is not a date (or a date that does not exist).",
        NoticeCode.invalidTime: "A value that is not a time.",
        NoticeCode.invalidCharacter: "Text with invalid UTF-8 or a NUL byte.",
        NoticeCode.invalidTimezone: "A time zone the tz database does not know.",
        NoticeCode.numberOutOfRange: "A number outside the range its field allows.",
        NoticeCode.missingCalendarFiles: "Neither calendar.txt nor calendar_dates.txt.",
        NoticeCode.missingTripEdge: "A trip's first or last stop without arrival and departure times.",
        NoticeCode.onlyArrivalOrDeparture: "A stop time with an arrival or a departure time, not both.",
        NoticeCode.arrivalBeforePreviousDeparture: "A stop time that arrives before the previous stop's departure.",
        NoticeCode.repairedCSVSyntax: "A field repaired as Python's csv module reads it.",
        NoticeCode.utf16Encoding: "A file in UTF-16, read as such.",
        NoticeCode.invalidValue: "A value its column cannot store.",
        NoticeCode.malformedXML: "XML that is not well-formed, or refused (entity declarations).",
        NoticeCode.mappingMatchedNothing: "A schema mapping that matched nothing in the input.",
        NoticeCode.mappingReadAmbiguously: "A schema mapping that matched more than once in a record.",
        NoticeCode.referenceOutsideInput: "A reference to objects the input does not hold.",
        NoticeCode.otherVersion: "Another version of an object, or objects sharing a key across documents.",
        NoticeCode.objectsNotRead: "Objects in the input that no table reads.",
        NoticeCode.referenceNamesSeveralObjects: "A reference that more than one object answers.",
        NoticeCode.derivedRows: "A derived table's warnings query found rows.",
        NoticeCode.rowLeftOut: "A row left out (--lenient).",
        NoticeCode.fileLeftOut: "A file left out (--lenient).",
        NoticeCode.misleadingData: "Data an app would show wrongly (times running backwards, say)."
    ]
}
