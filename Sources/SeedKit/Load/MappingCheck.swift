/// After the load, finds the mapping mistakes that would otherwise pass silently: a table
/// that received no rows, a column whose sources matched nothing in any input (so it is NULL
/// in every row), an element path that matched nothing; and, for XML, an element found at
/// several paths (`artists/artist` inside a release and inside its tracks), a source that
/// matched more than once in a record (only the first is kept), an input file that gave no
/// row to any table (a namespace the schema does not name). Each is a warning naming the
/// schema file and line (or the input file), with the names the input actually uses (`did
/// you mean 'ServiceJourney'?`) and the fix; under `--strict` each is an error.
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
    /// XML: the paths records were found at, repeated sources, files without rows.
    var findings = XMLLoadFindings()

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
        /// Reads more or less than the schema says (`BuildIssue.Kind.ambiguousMapping`),
        /// rather than nothing.
        var ambiguous = false
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
                guard !table.optional, !table.isDerived, table.parent.map({ (rows[$0.table] ?? 0) > 0 }) ?? true else {
                    continue
                }
                if let dropped = filtered[table.name], dropped > 0 {
                    findings.append(
                        Finding(
                            table: table.name, field: "table '\(table.name)'",
                            message: "has no rows: all \(dropped) records were filtered out",
                            paths: table.filter.map(\.source).flatMap(pathAlternatives)))
                } else if let element = table.element {
                    let steps = (try? XMLValuePath.elementPattern(element, namespaces: schema.namespaces).steps) ?? []
                    let parent = table.parent.map { " inside a record of '\($0.table)'" } ?? ""
                    findings.append(
                        Finding(
                            table: table.name, field: "\(table.name).element", value: element,
                            message: "matched nothing\(parent) in any input; table '\(table.name)' has no rows",
                            paths: [.text(steps: steps)]))
                } else if let list = table.list {
                    findings.append(
                        Finding(
                            table: table.name, field: "table '\(table.name)'",
                            value: list.sources.joined(separator: ", "),
                            message:
                                """
                                has no rows: its list source was empty or missing in every record of \
                                '\(table.parent?.table ?? "")'
                                """,
                            paths: list.sources.flatMap(pathAlternatives)))
                } else {
                    findings.append(
                        Finding(
                            table: table.name, field: "table '\(table.name)'",
                            message: "has no rows: no record referenced it", paths: []))
                }
                continue
            }
            findings.append(contentsOf: pathFindings(table))
            guard let matched = matchedColumns[table.name], table.list == nil else { continue }
            for (index, column) in table.columns.enumerated()
            where !matched[index] && column.expression == nil && column.defaultValue == nil
                && !column.source.contains(where: { $0.hasPrefix("$") })
            { // $position, $name: always there
                let paths = column.source.flatMap(pathAlternatives)
                let sources = column.source.map { "'\($0)'" }.joined(separator: " or ")
                let message =
                    column.exists
                    ? "matched nothing in any input (the column is 0 in every row)"
                    : "matched nothing in any input; the column is NULL in every row"
                findings.append(
                    Finding(
                        table: table.name, column: column.name, field: "\(table.name).\(column.name)",
                        value: column.source.count == 1 ? column.source[0] : nil,
                        message: column.source.count == 1 ? message : "sources \(sources) \(message)",
                        paths: paths, onlyWithHint: column.exists))
            }
        }
        guard !findings.isEmpty || !self.findings.filesWithoutRows.isEmpty else { return }
        let survey = XMLNameSurvey(files: files, entities: schema.entities)
        for finding in findings {
            let suggestion = finding.paths.lazy.compactMap { self.hint(for: $0, in: survey) }.first
            if finding.onlyWithHint && suggestion == nil { continue }
            report(finding, hint: suggestion)
        }
        for (file, filtered) in self.findings.filesWithoutRows {
            reportNoRows(file, filtered: filtered, survey: survey)
        }
    }

    /// An element alternative that matched nothing while others did, one that matched at
    /// several paths, and sources that matched more than once in a record.
    private func pathFindings(_ table: Table) -> [Finding] {
        var findings: [Finding] = []
        let alternatives = table.elementAlternatives
        for (index, found) in (self.findings.elementPaths[table.name] ?? []).enumerated()
        where index < alternatives.count {
            let element = alternatives[index]
            let steps = (try? XMLValuePath.elementPattern(element, namespaces: schema.namespaces).steps) ?? []
            if found.paths.isEmpty && found.others == 0 {
                guard alternatives.count > 1 else { continue } // a table with no rows is reported as such
                findings.append(
                    Finding(
                        table: table.name, field: "\(table.name).element", value: element,
                        message: "matched nothing in any input (the table's other element alternatives did)",
                        paths: [.text(steps: steps)]))
            } else if found.paths.count + (found.others > 0 ? 1 : 0) > 1
                && !steps.contains(where: { $0.localName == "*" })
            {
                var list = found.paths.map { "\($0.path) \(Self.grouped($0.count))" }
                if found.others > 0 { list.append("\(Self.grouped(found.others)) at other paths") }
                let written =
                    found.paths.first.map {
                        ($0.path.split(separator: "/").suffix(steps.count + 1)).joined(separator: "/")
                    } ?? element
                let within = table.parent.map { " inside '\($0.table)'" } ?? ""
                findings.append(
                    Finding(
                        table: table.name, field: "\(table.name).element", value: element,
                        message: "matches elements at \(list.count) paths\(within): \(list.joined(separator: ", ")); "
                            + "write the path you mean (element: \(written), or from the root with a leading '/'), "
                            + "or list each path as an alternative",
                        paths: [], ambiguous: true))
            }
        }
        for repeated in self.findings.repeatedSources[table.name] ?? [] where repeated.column < table.columns.count {
            let column = table.columns[repeated.column]
            let records = rows[table.name].map { " of \(Self.grouped($0))" } ?? ""
            findings.append(
                Finding(
                    table: table.name, column: column.name, field: "\(table.name).\(column.name)", value: repeated.path,
                    message:
                        "matched more than once in \(Self.grouped(repeated.records))\(records) records of "
                        + "'\(table.name)'; "
                        + "only the first is kept: to keep each one, read it as a table of its own "
                            + """
                            (element: \(Self.elementPath(of: repeated.path)), parent: \(table.name), and a $position \
                            column)
                            """,
                    paths: [], ambiguous: true))
        }
        return findings
    }

    /// The element part of a source path (`genres/genre` of `genres/genre/@id`).
    private static func elementPath(of source: String) -> String {
        let steps = source.split(separator: "/")
        let elements = steps.last?.hasPrefix("@") == true ? steps.dropLast() : steps[...]
        return elements.isEmpty ? source : elements.joined(separator: "/")
    }

    /// `1,242`: counts in messages.
    static func grouped(_ number: Int) -> String { NumberText.grouped(number) }

    /// An input that gave no row to any table, with the namespaces it declares.
    private func reportNoRows(_ file: InputFile, filtered: Int, survey: XMLNameSurvey) {
        var message = "gave no rows to any table of schema '\(schema.name)'"
        if filtered > 0 {
            message += ": all \(Self.grouped(filtered)) records were filtered out"
        } else {
            let declared = survey.declaredNamespaces[file.displayPath] ?? []
            let list = declared.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
            message +=
                declared.isEmpty
                ? "; it declares no namespace" : "; it declares the namespace\(declared.count == 1 ? "" : "s") \(list)"
            let schemaURIs = Set(schema.namespaces.values)
            if !schemaURIs.isEmpty && !declared.contains(where: schemaURIs.contains) {
                message +=
                    "; the schema's are \(schemaURIs.sorted().map { "'\($0)'" }.joined(separator: ", "))"
                    + " (a name whose prefix the schema maps, or an unprefixed one with a \"\" entry, matches only "
                    + "that namespace: "
                        + """
                        map the file's namespace, or leave the \"\" entry out so that unprefixed names match any \
                        namespace)
                        """
            }
        }
        issues.record(
            BuildIssue(
                kind: strict ? .unmatchedMappingError : .unmatchedMapping, file: file.displayPath, message: message))
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
                if let close = Self.closest(to: step.localName, in: Array(survey.elements.keys)) {
                    return "did you mean '\(close)'?"
                }
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
            if let close = Self.closest(to: attribute.localName, in: Array(survey.attributes)) {
                return "did you mean '@\(close)'?"
            }
            return "no attribute '\(attribute.localName)' in any input"
        }
        return nil
    }

    // MARK: CSV

    private func checkCSV() {
        for table in schema.loadOrder {
            guard let name = table.file, let file = inputs.file(named: name) else { continue }
            if (rows[table.name] ?? 0) == 0 && !table.optional {
                report(
                    Finding(
                        table: table.name, field: "table '\(table.name)'", value: name,
                        message: "has no rows: the file has no records", paths: []), hint: nil)
            }
            // A GeoJSON input has no header to compare with (its properties are read by name).
            guard !GeoJSONImporter.reads(file.name), let header = Self.header(of: file) else { continue }
            // Computed columns, and `$file` and `extras` (filled by the reader), read no header field.
            let columns = table.columns.filter {
                $0.expression == nil && !$0.source.contains(where: { $0.hasPrefix("$") })
            }
            let unmatched = columns.filter { !$0.source.contains(where: header.contains) }
            let nothingMatched = unmatched.count == columns.count
            // Only a header no column reads can be the one a misspelt source meant.
            let unread = header.filter { name in !columns.contains { $0.source.contains(name) } }
            for column in unmatched {
                let close = column.source.lazy.compactMap { Self.closest(to: $0, in: unread) }.first
                guard close != nil || nothingMatched else { continue }
                let hint =
                    close.map { "did you mean '\($0)'?" }
                    ?? "the header has \(header.prefix(8).map { "'\($0)'" }.joined(separator: ", "))"
                report(
                    Finding(
                        table: table.name, column: column.name, field: "\(table.name).\(column.name)",
                        value: column.source.joined(separator: ", "),
                        message:
                            """
                            matches no header of \(file.name); the column is \
                            \(column.defaultValue == nil ? "NULL" : "its default") in every row
                            """,
                        paths: []), hint: hint)
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
        let place =
            finding.column.flatMap { schema.places.columns[finding.table + "." + $0] }
            ?? (finding.field.hasSuffix(".element") ? schema.places.elements[finding.table] : nil)
            ?? schema.places.tables[finding.table]
        let message = finding.message + (hint.map { "; " + $0 } ?? "")
        let kind: BuildIssue.Kind =
            finding.ambiguous
            ? (strict ? .ambiguousMappingError : .ambiguousMapping)
            : (strict ? .unmatchedMappingError : .unmatchedMapping)
        issues.record(
            BuildIssue(
                kind: kind,
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
