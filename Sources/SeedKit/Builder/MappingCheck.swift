/// After the load, finds the mapping mistakes that would otherwise pass silently: a table
/// that received no rows, a column whose sources matched nothing in any input (so it is NULL
/// in every row), an element path that matched nothing. Each is a warning naming the schema
/// file and line, with the names the input actually uses (`did you mean 'ServiceJourney'?`);
/// under `--strict` each is an error.
struct MappingCheck {
    let schema: Schema
    let inputs: InputSet
    /// The input files the build read.
    let files: [InputFile]
    /// Rows per table and records filtered out per table.
    let rows: [String: Int]
    let filtered: [String: Int]
    /// XML: per table read from XML, per column, whether a source matched in some record.
    let matchedColumns: [String: [Bool]]
    let strict: Bool
    let issues: IssueLog

    /// One finding before hints are added: where, what, and the paths whose names to check.
    private struct Finding {
        var table: String
        var column: String?
        var field: String
        var value: String?
        var message: String
        var paths: [XMLValuePath]
        /// Only worth reporting when a name in `paths` is unknown to the input.
        var onlyWithHint = false
    }

    func run() {
        switch schema.format {
        case .xml: checkXML()
        case .csv: checkCSV()
        }
    }

    // MARK: XML

    private func checkXML() {
        var findings: [Finding] = []
        for table in schema.loadOrder {
            let count = rows[table.name] ?? 0
            if count == 0 {
                // A nested table of an empty table is empty too: the parent's finding says why.
                guard !table.optional, table.fill == nil, table.parent.map({ (rows[$0.table] ?? 0) > 0 }) ?? true else { continue }
                if let dropped = filtered[table.name], dropped > 0 {
                    findings.append(Finding(table: table.name, field: "table '\(table.name)'", message: "has no rows: all \(dropped) records were filtered out",
                                            paths: table.filter.map(\.source).flatMap(pathAlternatives)))
                } else if let element = table.element {
                    let steps = (try? XMLValuePath.elementPattern(element, namespaces: schema.namespaces).steps) ?? []
                    let parent = table.parent.map { " inside a record of '\($0.table)'" } ?? ""
                    findings.append(Finding(table: table.name, field: "\(table.name).element", value: element,
                                            message: "matched nothing\(parent) in any input; table '\(table.name)' has no rows",
                                            paths: [.text(steps: steps)]))
                } else if let list = table.list {
                    findings.append(Finding(table: table.name, field: "table '\(table.name)'", value: list.source,
                                            message: "has no rows: its list source was empty or missing in every record of '\(table.parent?.table ?? "")'",
                                            paths: pathAlternatives(list.source)))
                } else {
                    findings.append(Finding(table: table.name, field: "table '\(table.name)'", message: "has no rows: no record referenced it", paths: []))
                }
                continue
            }
            guard let matched = matchedColumns[table.name], table.list == nil else { continue }
            for (index, column) in table.columns.enumerated() where !matched[index] && column.expression == nil && column.defaultValue == nil
            && !column.source.contains(where: { $0.hasPrefix("$") }) { // $position, $name: always there
                let paths = column.source.flatMap(pathAlternatives)
                let sources = column.source.map { "'\($0)'" }.joined(separator: " or ")
                let message = column.exists ? "matched nothing in any input (the column is 0 in every row)"
                    : "matched nothing in any input; the column is NULL in every row"
                findings.append(Finding(table: table.name, column: column.name, field: "\(table.name).\(column.name)",
                                        value: column.source.count == 1 ? column.source[0] : nil,
                                        message: column.source.count == 1 ? message : "sources \(sources) \(message)",
                                        paths: paths, onlyWithHint: column.exists))
            }
        }
        guard !findings.isEmpty else { return }
        let survey = XMLNameSurvey(files: files)
        for finding in findings {
            let suggestion = finding.paths.lazy.compactMap { self.hint(for: $0, in: survey) }.first
            if finding.onlyWithHint && suggestion == nil { continue }
            report(finding, hint: suggestion)
        }
    }

    private func pathAlternatives(_ source: String) -> [XMLValuePath] {
        (try? XMLValuePath.alternatives(source, namespaces: schema.namespaces)) ?? []
    }

    /// What is wrong with the names of `path`, judged by the names the input uses.
    private func hint(for path: XMLValuePath, in survey: XMLNameSurvey) -> String? {
        var steps: [XMLNameTest] = []
        var attribute: XMLNameTest?
        switch path {
        case .text(let s): steps = s
        case .attribute(let s, let name): steps = s; attribute = name
        case .ancestor(_, let element, let name): steps = element.map { [$0] } ?? []; attribute = name
        case .position, .name: return nil
        }
        for step in steps where step.localName != "*" {
            guard let namespaces = survey.elements[step.localName] else {
                if let close = Self.closest(to: step.localName, in: Array(survey.elements.keys)) { return "did you mean '\(close)'?" }
                return "no element '\(step.localName)' in any input"
            }
            if case .uri(let uri) = step.namespace, !namespaces.contains(uri) {
                let used = survey.namespaces
                if !used.contains(uri) {
                    if let same = used.sorted().first(where: { $0.lowercased() == uri.lowercased() }) {
                        return "namespace '\(uri)' not found; the input uses '\(same)'"
                    }
                    let list = used.sorted().prefix(3).map { "'\($0)'" }.joined(separator: ", ")
                    return "namespace '\(uri)' not found; the input uses \(list.isEmpty ? "no namespace" : list)"
                }
                let actual = namespaces.sorted().map { $0.isEmpty ? "no namespace" : "'\($0)'" }.joined(separator: ", ")
                return "'\(step.localName)' is in \(actual) in the input, not in '\(uri)'"
            }
        }
        if let attribute, !survey.attributes.contains(attribute.localName) {
            if let close = Self.closest(to: attribute.localName, in: Array(survey.attributes)) { return "did you mean '@\(close)'?" }
            return "no attribute '\(attribute.localName)' in any input"
        }
        return nil
    }

    // MARK: CSV

    private func checkCSV() {
        for table in schema.loadOrder {
            guard let name = table.file, let file = inputs.file(named: name) else { continue }
            if (rows[table.name] ?? 0) == 0 && !table.optional {
                report(Finding(table: table.name, field: "table '\(table.name)'", value: name, message: "has no rows: the file has no records", paths: []), hint: nil)
            }
            // A GeoJSON input has no header to compare with (its properties are read by name).
            guard !GeoJSONImporter.reads(file.name), let header = Self.header(of: file) else { continue }
            // Computed columns, and `$file` and `extras` (filled by the reader), read no header field.
            let columns = table.columns.filter { $0.expression == nil && !$0.source.contains(where: { $0.hasPrefix("$") }) }
            let unmatched = columns.filter { !$0.source.contains(where: header.contains) }
            let nothingMatched = unmatched.count == columns.count
            // Only a header no column reads can be the one a misspelt source meant.
            let unread = header.filter { name in !columns.contains { $0.source.contains(name) } }
            for column in unmatched {
                let close = column.source.lazy.compactMap { Self.closest(to: $0, in: unread) }.first
                guard close != nil || nothingMatched else { continue }
                let hint = close.map { "did you mean '\($0)'?" } ?? "the header has \(header.prefix(8).map { "'\($0)'" }.joined(separator: ", "))"
                report(Finding(table: table.name, column: column.name, field: "\(table.name).\(column.name)", value: column.source.joined(separator: ", "),
                               message: "matches no header of \(file.name); the column is \(column.defaultValue == nil ? "NULL" : "its default") in every row", paths: []), hint: hint)
            }
        }
    }

    /// The header fields of a CSV input, or nil when it cannot be read (the load reported it).
    private static func header(of file: InputFile) -> [String]? {
        guard let source = try? file.open() else { return nil }
        let reader = CSVReader(source: source, file: file.displayPath)
        guard (try? reader.next()) == true else { return nil }
        return (0..<reader.fieldCount).map { reader.string($0).trimmingASCIISpaces() }
    }

    // MARK: Reporting

    private func report(_ finding: Finding, hint: String?) {
        let place = finding.column.flatMap { schema.places.columns[finding.table + "." + $0] }
            ?? (finding.field.hasSuffix(".element") ? schema.places.elements[finding.table] : nil)
            ?? schema.places.tables[finding.table]
        let message = finding.message + (hint.map { "; " + $0 } ?? "")
        issues.record(BuildIssue(kind: strict ? .unmatchedMappingError : .unmatchedMapping,
                                 file: schema.places.file.isEmpty ? "the schema" : schema.places.file,
                                 line: place?.line, column: place?.column, field: finding.field, value: finding.value,
                                 message: message))
    }

    /// The name in `names` closest to `name` (a typo or a case slip), if one is close enough.
    static func closest(to name: String, in names: [String]) -> String? {
        let target = Array(name.lowercased().unicodeScalars)
        let allowed = target.count >= 6 ? 2 : 1
        var best: (distance: Int, name: String)?
        for candidate in names where candidate != name {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            guard distance <= allowed else { continue }
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.name) {
                best = (distance, candidate)
            }
        }
        return best?.name
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard abs(a.count - b.count) <= 3 else { return Int.max }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
